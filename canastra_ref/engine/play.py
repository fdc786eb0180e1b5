"""Self-play: whole hands between random legal agents, from a seed."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..errors import CanastraError
from .agent import RandomAgent
from .deal import new_hand, next_hand
from .rules import Engine
from .scoring import game_over, score_hand

MAX_ACTIONS_PER_HAND = 5000


@dataclass
class HandRecord:
    number: int
    dealer: str
    end: dict
    actions: int
    verdicts: dict[str, int] = field(default_factory=dict)
    scores: dict = field(default_factory=dict)       # team -> TeamScore.to_json()

    def to_json(self) -> dict:
        return {"hand": self.number, "dealer": self.dealer, "end": self.end, "actions": self.actions,
                "verdicts": self.verdicts, "scores": self.scores}


class StuckError(CanastraError):
    """Self-play found a state where the agent had no legal action."""


def play_hand(engine: Engine, state, agent: RandomAgent, number: int, observe=None):
    """Play one hand to its end; returns (final state, HandRecord).
    `observe(before, action, after, verdict)` sees every action (an engine
    Action: action.json is its JSON form)."""
    dealer = state.dealer
    count = 0
    verdicts: dict[str, int] = {}
    while state.ended is None:
        steps = agent.step(state)
        if not steps:
            raise StuckError(f"hand {number}: no legal action found for {state.turn.player} "
                             f"in phase {state.turn.phase}")
        for action, new, verdict in steps:
            count += 1
            verdicts[verdict.verdict] = verdicts.get(verdict.verdict, 0) + 1
            if observe is not None:
                observe(state, action, new, verdict)
            state = new
        if count > MAX_ACTIONS_PER_HAND:
            raise StuckError(f"hand {number} did not end after {MAX_ACTIONS_PER_HAND} actions")
    scores = score_hand(engine, state)
    for team, result in scores.items():
        state.team_w(team).score = result.score_after
    record = HandRecord(number, dealer, dict(state.ended), count, verdicts,
                        {t: r.to_json() for t, r in scores.items()})
    return state, record


def self_play(engine: Engine, seed: int, hands: int, observe=None):
    """Play `hands` hands (or until the game ends) from `seed`; yields HandRecords
    and finally a dict with the game result."""
    rng = random.Random(seed)
    agent = RandomAgent(engine, rng)
    state = new_hand(engine)
    for number in range(1, hands + 1):
        state, record = play_hand(engine, state, agent, number, observe)
        yield record
        totals = {t: v.score for t, v in state.teams.items()}
        over, winners = game_over(engine, totals)
        if over:
            yield {"game_over": True, "scores": totals, "winners": winners}
            return
        state = next_hand(engine, state)
    yield {"game_over": False, "scores": {t: v.score for t, v in state.teams.items()}, "winners": []}
