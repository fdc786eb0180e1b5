"""No hand reaches a dead end: while it goes on, some action is legal, and a
turn in play can always be ended.

A state where the hand goes on and nothing is legal is a defect of a spec or
of the engine (a rule the spec got wrong, or a case it leaves to a default),
never a position of the game. Two probes, under every reading of every
ruleset:

- self-play: a few hands between random legal agents; the agent raises
  StuckError where it finds nothing to play, and the test then tells a dead
  end (legal_actions empty) from a miss of the agent;
- the pile taken with the whole hand, the rare position that dead-ended
  treze (every card left came with the pile, and an opening that fails gives
  the pile back): in draw states of self-play where the pile may be taken,
  the player is left holding only the cards of a legal take, takes it, and
  must then be able to end the turn (a discard, a stock draw that gives the
  pile back, or an end without discard), both at once and after any one meld
  or layoff he may make next; where his team has not opened, also at a score
  that owes an opening minimum in every spec (OWING), so that the take may
  fail the opening.
"""
from __future__ import annotations

import json

import pytest

from canastra_ref.dsl.loader import available, load
from canastra_ref.engine.actions import apply
from canastra_ref.engine.legal import legal, legal_actions, options
from canastra_ref.engine.play import StuckError, self_play
from canastra_ref.engine.rules import engine_for
from canastra_ref.engine.verdict import REJECTED

RULESETS = available()
READINGS = [(ruleset, ()) for ruleset in RULESETS] + [
    (ruleset, ((name, reading.name),))
    for ruleset in RULESETS for name, dispute in load(ruleset).disputes.items()
    for reading in dispute.readings if reading.name != dispute.default]
IDS = [r + "".join(f":{d}={v}" for d, v in rs) for r, rs in READINGS]
TAKES_PER_READING = 6       # whole-hand takes tried per reading...
SEEDS = 3                   # ...in the draw states of two hands of self-play from up to this many seeds
# a score at which every spec asks a minimum of an opening (cbc, casa and ituiutaba from
# 2,500, treze from 2,000, classica and uruguaya from 1,500)
OWING = 2600


def _seed(ruleset: str, readings: tuple) -> int:
    return sum(map(ord, ruleset + repr(readings)))


def _draw_states(engine, seed: int, hands: int) -> list:
    """The draw states with a pile reached in `hands` hands of self-play
    (failing, with the state, where the hand dead-ends)."""
    seen: list = []

    def observe(before, action, after, verdict):
        seen.append(after)
    try:
        for _ in self_play(engine, seed, hands, observe):
            pass
    except StuckError as err:
        state = seen[-1]
        where = "a dead end: no action is legal" if not legal_actions(engine, state) else \
            "the agent missed a legal action"
        pytest.fail(f"{err} ({where}): {json.dumps(state.to_json())}")
    return [s for s in seen if s.ended is None and s.turn.phase == "draw" and s.pile and not s.pending]


def _can_end_turn(engine, state) -> bool:
    opts = options(engine, state)
    return any(apply(engine, state, action)[1].verdict != REJECTED
               for verb in ("discard", "draw", "end_turn") for action in opts.get(verb))


def _whole_hand(state, cards: list[str], score: int | None = None):
    """`state` with the turn player holding only `cards`, the rest of his hand
    put on the stock (and his team at `score`, if given)."""
    variant = state.copy()
    if score is not None:
        variant.team_w(variant.team_of(variant.turn.player)).score = score
    hand = variant.player_w(variant.turn.player).hand
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    hand[:] = list(cards)
    variant.stock = rest + variant.stock
    return variant


@pytest.mark.parametrize("ruleset, readings", READINGS, ids=IDS)
def test_no_dead_end(ruleset, readings):
    engine = engine_for(ruleset, readings)
    tried = 0
    for seed in range(SEEDS):
        for state in _draw_states(engine, _seed(ruleset, readings) + seed, 2):
            tried += _probe_whole_hand_take(engine, state)
            if tried >= TAKES_PER_READING:
                return
    assert tried, "no pile could be taken in self-play: the whole-hand probe tested nothing"


def _probe_whole_hand_take(engine, state) -> bool:
    """Whether a take of the pile, made with the whole hand, was tried in
    `state` (refused, or followed by plays that can all end the turn)."""
    opened = state.teams[state.team_of(state.turn.player)].opened
    for take in options(engine, state).get("take_pile"):
        if take.arg[1] is not None or apply(engine, state, take)[1].verdict == REJECTED:
            continue            # a take onto a meld, or one not legal with the hand he holds
        for score in (None,) if opened else (None, OWING):
            variant = _whole_hand(state, take.arg[0], score)
            after, verdict = apply(engine, variant, take)
            if verdict.verdict == REJECTED or after.ended is not None:
                continue
            where = json.dumps(variant.to_json())
            assert _can_end_turn(engine, after), f"{take.json}: the turn cannot end after it, from {where}"
            for play in legal(engine, after):
                if play.verb in ("meld", "layoff"):
                    later, _ = apply(engine, after, play)
                    assert later.ended is not None or _can_end_turn(engine, later), \
                        f"{take.json} then {play.json}: the turn cannot end, from {where}"
        return True             # one take of each state
    return False
