"""The cards a failed later turn added to melds of earlier turns come back with
its melds where turn.clean_meld_returns_layoffs says so (cbc's dispute
failed-turn-layoffs, reading back; its fixtures are in cbc/32-clean-meld.yaml).
cbc orders the discard before the melds come back (opening.failure_discard =
before-return); on a variant where they come back first, the discard may be
one of those cards, as it may be a card of the turn's melds, and legal.options
lists it."""
from __future__ import annotations

from positions import position

from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import SPEC_DIR, files_for
from canastra_ref.dsl.parser import parse_text
from canastra_ref.engine.actions import apply
from canastra_ref.engine.legal import options
from canastra_ref.engine.rules import Engine

READING = {"clean-meld-scope": "every-turn", "failed-turn-layoffs": "back"}


def _engine(tmp_path, order: str) -> Engine:
    (tmp_path / "cbc.canastra").write_text((SPEC_DIR / "cbc.canastra").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    variant = parse_text('ruleset variant "cbc, variant" extends cbc\n'
                         f"override opening.failure_discard = {order} @13\n", "variant.canastra")
    return Engine(build(files_for(variant, tmp_path), READING))


def _failing_turn(engine: Engine):
    """NS has opened (4c 5c 6c); N adds 7c to it and lays 7h 8h JK, no clean meld."""
    partial = {"turn": {"player": "N", "phase": "play"},
               "teams": {"NS": {"opened": True, "melds": [{"kind": "sequence", "cards": ["4c", "5c", "6c"]}]}},
               "players": {"S": {"melded": True}},
               "hands": {"N": "7c 7h 8h JK 4d 5d", "E": 15, "S": 15, "W": 15}}
    state = position(engine, partial)
    for action in ({"layoff": {"meld": 0, "cards": ["7c"]}}, {"meld": [["7h", "8h", "JK"]]}):
        state, verdict = apply(engine, state, {"player": "N", **action})
        assert verdict.verdict == "accepted", verdict.reason
    return state


def _discards(engine: Engine, state) -> set[str]:
    return {action.arg for action in options(engine, state).get("discard")}


def test_after_return_a_card_added_to_an_earlier_meld_may_be_discarded(tmp_path):
    engine = _engine(tmp_path, "after-return")
    state = _failing_turn(engine)
    assert "7c" in _discards(engine, state)
    after, verdict = apply(engine, state, {"player": "N", "discard": "7c"})
    assert (verdict.verdict, verdict.reason) == ("penalised", "opening.no-clean-meld")
    assert after.pile[-1] == "7c" and sorted(after.players["N"].hand) == sorted(["7h", "8h", "JK", "4d", "5d"])
    assert [meld.cards for meld in after.teams["NS"].melds] == [["4c", "5c", "6c"]]
    assert "32" in verdict.cites


def test_before_return_the_discard_is_a_card_held_beside_them(tmp_path):
    engine = _engine(tmp_path, "before-return")
    state = _failing_turn(engine)
    assert "7c" not in _discards(engine, state)
    _, verdict = apply(engine, state, {"player": "N", "discard": "7c"})
    assert (verdict.verdict, verdict.reason) == ("rejected", "card.not-in-hand")
    after, verdict = apply(engine, state, {"player": "N", "discard": "4d"})
    assert (verdict.verdict, verdict.reason) == ("penalised", "opening.no-clean-meld")
    assert sorted(after.players["N"].hand) == sorted(["7c", "7h", "8h", "JK", "5d"])
