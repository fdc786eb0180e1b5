"""A new meld made with the pile's top card is laid out as a meld of those
cards would be (PROTOCOL.md, "Where a new sequence's wild cards stand"): the
`with` cards as listed, the top card in the place its rank takes among them.
Laying them out as `with` followed by the top card kept a wild card from
standing below a top card that is the sequence's lowest natural card."""
from __future__ import annotations

import pytest
from positions import position

from canastra_ref.engine.actions import apply
from canastra_ref.engine.rules import engine_for


def laid(with_cards: list[str], top: str) -> list[str]:
    engine = engine_for("ituiutaba")
    partial = {"turn": {"player": "N", "phase": "draw"}, "players": {"S": {"melded": True}},
               "teams": {"NS": {"opened": True, "melds": [{"kind": "sequence", "cards": ["9c", "Tc", "Jc"]}]}},
               "pile": ["Kd", top], "hands": {"N": [*with_cards, "Qd", "Kd"], "E": 11, "S": 11, "W": 11}}
    state = position(engine, partial)
    state, verdict = apply(engine, state, {"player": "N", "take_pile": {"with": with_cards}})
    assert verdict.verdict == "accepted", verdict
    return state.teams["NS"].melds[-1].cards


@pytest.mark.parametrize("with_cards, top, meld", [
    (["JK", "6h", "7h"], "5h", ["JK", "5h", "6h", "7h"]),     # the joker as the four, below the top card
    (["5h", "JK", "7h"], "4h", ["4h", "5h", "JK", "7h"]),     # the joker as the six, between hand cards
    (["5h", "6h", "JK"], "4h", ["4h", "5h", "6h", "JK"]),     # the joker as the seven
    (["JK", "5h", "6h"], "7h", ["JK", "5h", "6h", "7h"]),     # the top card last, as before
])
def test_the_top_card_takes_its_rank_s_place_among_the_listed_cards(with_cards, top, meld):
    assert laid(with_cards, top) == meld
