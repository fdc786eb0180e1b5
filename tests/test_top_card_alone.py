"""pile.take.top_card_alone_melds: whether a player who takes the pile by
adding its top card alone to a team meld has melded by it (dispute
top-card-alone of cbc and uruguaya; a clause of classica). Under `no` the take
leaves player.melded as it was: a card of his hand laid with the top card, or
a meld of an earlier turn, still makes him a player who melded."""
from __future__ import annotations

import pytest
from positions import position

from canastra_ref.engine.actions import apply
from canastra_ref.engine.rules import engine_for

MELDS = [{"kind": "sequence", "cards": "4h 5h 6h 7h 8h 9h Th".split()},
         {"kind": "sequence", "cards": ["4s", "5s", "6s"]}]


def taken(reading: str, with_cards: list[str], melded_before: bool):
    engine = engine_for("cbc", (("top-card-alone", reading),))
    partial = {"turn": {"player": "S", "phase": "draw"},
               "players": {"N": {"melded": True}, "S": {"melded": melded_before}},
               "teams": {"NS": {"opened": True, "melds": MELDS}},
               "pile": ["Qd", "7s"], "hands": {"S": ["8s", "9d", "9c"], "N": 15, "E": 15, "W": 15}}
    state = position(engine, partial)
    state, verdict = apply(engine, state, {"player": "S", "take_pile": {"onto": 1, "with": with_cards}})
    assert verdict.verdict == "accepted", verdict
    return state, verdict


@pytest.mark.parametrize("reading, melded", [("counts", True), ("hand-cards", False)])
def test_the_top_card_alone_makes_a_melder_only_where_the_setting_says(reading, melded):
    state, verdict = taken(reading, [], melded_before=False)
    assert state.players["S"].melded is melded
    assert "21" in verdict.cites and "contagem" in verdict.cites     # the setting decided it


def decided(verdict) -> set[str]:
    return {decision.setting for decision, decisive in verdict.trace if decisive}


def test_a_hand_card_laid_with_the_top_card_makes_a_melder_under_either_reading():
    state, verdict = taken("hand-cards", ["8s"], melded_before=False)
    assert state.players["S"].melded is True
    # a card of his hand went down with it: layoff.melds decides, not the top card's setting
    assert "layoff.melds" in decided(verdict) and "pile.take.top_card_alone_melds" not in decided(verdict)


def test_the_top_card_alone_takes_nothing_from_a_player_who_had_melded():
    state, verdict = taken("hand-cards", [], melded_before=True)
    assert state.players["S"].melded is True
    assert "pile.take.top_card_alone_melds" not in decided(verdict)   # nothing to decide
