"""Who deals the next hand of a game (deal.next_dealer): the setting is read
where the spec states it (ituiutaba 1.13: the first player of a hand deals
the next one), and where the spec leaves it unstated the tools that must deal
a next hand pass the deal by their documented convention
(deal.TOOLS_NEXT_DEALER), no ruling of play depending on it."""
from __future__ import annotations

import pytest

from canastra_ref.engine import deal
from canastra_ref.engine.rules import engine_for


def _reads(engine, monkeypatch) -> list[str]:
    paths: list[str] = []
    decide = engine.decide

    def recording(path, ctx=None):
        paths.append(path)
        return decide(path, ctx)

    monkeypatch.setattr(engine, "decide", recording)
    return paths


@pytest.mark.parametrize("ruleset, stated", [("ituiutaba", True), ("casa", True), ("cbc", False),
                                             ("classica", False)])
def test_next_dealer_is_the_first_player_of_the_hand_played(ruleset, stated, monkeypatch):
    engine = engine_for(ruleset)
    assert (engine.value("deal.next_dealer") is not None) == stated
    for dealer in engine.table.seats:
        played = deal.new_hand(engine, dealer)
        first = played.turn.player                  # who plays first in that hand (play.first_player)
        assert first == engine.table.from_dealer(dealer)[0]
        reads = _reads(engine, monkeypatch)
        following = deal.next_hand(engine, played)
        assert "deal.next_dealer" in reads          # the spec's setting, not a rotation built in
        assert following.dealer == first
        monkeypatch.undo()


def test_the_tools_convention_is_a_value_of_the_setting():
    from canastra_ref.dsl.settings import SETTINGS
    setting = next(s for s in SETTINGS if s.pattern == "deal.next_dealer")
    assert deal.TOOLS_NEXT_DEALER in setting.type
