"""Random walks through games: the legal agent's plans (agent.py) with
near-legal actions (near_legal.py) tried between them, for fuzzers and
property tests.

    for hand in games(engine, random.Random(7), near_legal=0.2):
        hand.start             # the State the hand's first action applies to (just dealt)
        for step in hand.steps:
            step.action, step.state, step.verdict    # JSON action, State after it, Verdict
        hand.score             # {team: TeamScore} of the finished hand (None if cut short)

Each hand is dealt from a seed the walk draws, so a walk is replayed
exactly from its random generator's seed. A near-legal action that the
rules refuse leaves the state as it was; one they accept is played, like the
agent's moves: the walk goes on from wherever it leads.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .actions import apply
from .agent import RandomAgent
from .deal import new_hand, next_hand
from .near_legal import near_legal_action
from .play import MAX_ACTIONS_PER_HAND, StuckError
from .rules import Engine
from .scoring import game_over, score_hand
from .state import State
from .verdict import Verdict


@dataclass
class Step:
    action: dict              # the action's JSON form
    state: State              # the state after it
    verdict: Verdict


@dataclass
class Hand:
    number: int               # 1 for the first hand of the game
    seed: int                 # the seed it was dealt from
    start: State              # the state just after the deal
    steps: list[Step] = field(default_factory=list)
    score: dict | None = None     # team -> TeamScore once the hand is over


def walk(engine: Engine, state: State, rng, *, near_legal: float = 0.2,
         max_actions: int = MAX_ACTIONS_PER_HAND):
    """The Steps of a hand from `state` to its end (or `max_actions` actions):
    before each of the agent's plans, a near-legal action with probability
    `near_legal`. StuckError when the agent finds no legal action."""
    agent = RandomAgent(engine, rng)
    count = 0
    while state.ended is None and count < max_actions:
        if near_legal and rng.random() < near_legal:
            action = near_legal_action(engine, state, rng)
            if action is not None:
                state, verdict = apply(engine, state, action)
                count += 1
                yield Step(action, state, verdict)
                continue
        plan = agent.step(state)
        if not plan:
            raise StuckError(f"no legal action found for {state.turn.player} in phase {state.turn.phase}")
        for action, new, verdict in plan:
            state = new
            count += 1
            yield Step(action.json, state, verdict)


def games(engine: Engine, rng, *, hands: int | None = None, near_legal: float = 0.2,
          max_actions: int = MAX_ACTIONS_PER_HAND):
    """Hands of one game after another (a new game once one is over), each
    dealt from a seed drawn from `rng`, until `hands` hands (forever without)."""
    state = new_hand(engine)
    number = 0
    while hands is None or number < hands:
        number += 1
        seed = rng.randrange(2 ** 31)
        state, _ = apply(engine, state, {"player": state.dealer, "deal": {"seed": seed}})
        hand = Hand(number, seed, state)
        for step in walk(engine, state, rng, near_legal=near_legal, max_actions=max_actions):
            hand.steps.append(step)
            state = step.state
        if state.ended is None:              # cut short: a new game
            yield hand
            state = new_hand(engine)
            continue
        hand.score = score_hand(engine, state)
        yield hand
        totals = {team: result.score_after for team, result in hand.score.items()}
        if game_over(engine, totals)[0]:
            state = new_hand(engine)
            continue
        final = state.copy()                 # the hand's last step keeps its state as it was
        for team, total in totals.items():
            final.team_w(team).score = total
        state = next_hand(engine, final)
