"""Copies of a card are alike (docs/dsl.md, "What no setting decides"): a
rule on the pile's cards bars a play only where it would leave the hand fewer
copies of a card than the pile gave it. cbc: the rest of the pile is not melded
in the turn it is taken (pile.rest_usable, 12) and, in an opening turn, none of
its cards is discarded (pile.discard_from_pile, 12, 8)."""
from __future__ import annotations

import pytest
from positions import position

from canastra_ref.engine.actions import apply
from canastra_ref.engine.rules import engine_for


def _after_take(hand: str, opened: bool):
    """N takes the pile (5d 9h, top Kc) with Qc Jc."""
    engine = engine_for("cbc")
    partial = {"turn": {"player": "N", "phase": "draw"}, "pile": ["5d", "9h", "Kc"],
               "teams": {"NS": {"opened": opened, "melds": [{"kind": "sequence", "cards": ["4s", "5s", "6s"]}]
                                if opened else []}},
               "players": {"S": {"melded": opened}},
               "hands": {"N": f"Qc Jc {hand}", "E": 15, "S": 15, "W": 15}}
    state = position(engine, partial)
    state, verdict = apply(engine, state, {"player": "N", "take_pile": {"with": ["Qc", "Jc"]}})
    assert verdict.verdict == "accepted", verdict.reason
    return engine, state


@pytest.mark.parametrize("hand, expected", [
    ("8h 9h Th 4d", "accepted"),            # a 9h of his own beside the pile's: the one melded is his
    ("8h Th 4d 5c", "rejected"),            # only the pile's 9h
])
def test_a_copy_melded_beside_the_piles_is_the_hands(hand, expected):
    engine, state = _after_take(hand, opened=True)
    _, verdict = apply(engine, state, {"player": "N", "meld": [["8h", "9h", "Th"]]})
    assert verdict.verdict == expected, verdict.reason
    if expected == "rejected":
        assert verdict.reason == "card.from-pile-not-usable"


@pytest.mark.parametrize("hand, expected", [
    ("Ad Kd Qd Jd Td 9h 4s", "accepted"),   # a 9h of his own beside the pile's: the one discarded is his
    ("Ad Kd Qd Jd Td 4s 5c", "rejected"),   # only the pile's 9h
])
def test_a_copy_discarded_beside_the_piles_is_the_hands(hand, expected):
    engine, state = _after_take(hand, opened=False)
    state, verdict = apply(engine, state, {"player": "N", "meld": [["Td", "Jd", "Qd", "Kd", "Ad"]]})
    assert verdict.verdict == "accepted", verdict.reason
    _, verdict = apply(engine, state, {"player": "N", "discard": "9h"})
    assert verdict.verdict == expected, verdict.reason
    if expected == "rejected":
        assert verdict.reason == "pile.discard-not-allowed"
