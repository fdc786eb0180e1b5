"""layoff.melds: whether cards of his hand added to a meld already on the table
make a player one who melded (player.melded). A failed later turn whose melds go
back (turn.clean_meld) while its additions to earlier melds stay keeps the
player one who melded only where those additions made him one: cards of his
hand as layoff.melds says, the pile's top card added alone as
pile.take.top_card_alone_melds says, at the turn's end and at a challenge
alike. No spec reaches the failed-turn cases under `no` (cbc says yes, and its
clean meld is not asked of a turn that takes the pile): variants of cbc show them."""
from __future__ import annotations

import pytest
from positions import position

from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import SPEC_DIR, files_for
from canastra_ref.dsl.parser import parse_text
from canastra_ref.engine.actions import apply
from canastra_ref.engine.rules import Engine, engine_for


def decided(verdict) -> set[str]:
    return {decision.setting for decision, decisive in verdict.trace if decisive}


def play(engine: Engine, partial: dict, actions: list[dict]):
    state = position(engine, partial)
    for action in actions:
        state, verdict = apply(engine, state, action)
        assert verdict.verdict != "rejected", verdict
    return state, verdict


KINGS = {"turn": {"player": "N", "phase": "play"}, "players": {"S": {"melded": True}},
         "teams": {"NS": {"opened": True, "melds": [{"kind": "set", "cards": ["Kh", "Kd", "Kc"]}]}},
         "hands": {"N": ["Ks", "9c", "4d"], "E": 11, "S": 11, "W": 11}}


@pytest.mark.parametrize("reading, melded", [("counts", True), ("hand-cards", True), ("new-frentes", False)])
def test_a_layoff_onto_the_partner_s_meld_melds_as_the_reading_says(reading, melded):
    engine = engine_for("uruguaya", (("earlier-frentes", reading),))
    state, verdict = play(engine, KINGS, [{"player": "N", "layoff": {"meld": 0, "cards": ["Ks"]}}])
    assert state.players["N"].melded is melded
    assert "layoff.melds" in decided(verdict)


def test_a_layoff_after_a_meld_of_the_same_turn_decides_nothing():
    engine = engine_for("uruguaya", (("earlier-frentes", "new-frentes"),))
    partial = {**KINGS, "hands": {"N": ["Ks", "9c", "9d", "9h", "4d", "5d"], "E": 11, "S": 11, "W": 11}}
    state, verdict = play(engine, partial, [{"player": "N", "meld": [["9c", "9d", "9h"]]},
                                            {"player": "N", "layoff": {"meld": 0, "cards": ["Ks"]}}])
    assert state.players["N"].melded is True and "layoff.melds" not in decided(verdict)


def _cbc(tmp_path, *lines: str, readings: dict) -> Engine:
    (tmp_path / "cbc.canastra").write_text((SPEC_DIR / "cbc.canastra").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    variant = parse_text('ruleset variant "cbc, variant" extends cbc\n'
                         + "".join(f"{line} @32\n" for line in lines), "variant.canastra")
    return Engine(build(files_for(variant, tmp_path), {"clean-meld-scope": "every-turn", **readings}))


RUN = {"NS": {"opened": True, "melds": [{"kind": "sequence", "cards": ["4c", "5c", "6c"]}]}}


@pytest.mark.parametrize("layoff_melds, melded", [("yes", True), ("no", False)])
def test_a_failed_turn_s_layoff_that_stays_melds_as_layoff_melds_says(tmp_path, layoff_melds, melded):
    """N adds 7c to NS's run and lays 7h 8h JK, no clean meld (32): at the discard the meld goes
    back, the 7c stays (failed-turn-layoffs.stay)."""
    engine = _cbc(tmp_path, f"override layoff.melds = {layoff_melds}", readings={})
    partial = {"turn": {"player": "N", "phase": "play"}, "teams": RUN, "players": {"S": {"melded": True}},
               "hands": {"N": "7c 7h 8h JK 4d 5d".split(), "E": 15, "S": 15, "W": 15}}
    state, verdict = play(engine, partial, [{"player": "N", "layoff": {"meld": 0, "cards": ["7c"]}},
                                            {"player": "N", "meld": [["7h", "8h", "JK"]]},
                                            {"player": "N", "discard": "4d"}])
    assert (verdict.verdict, verdict.reason) == ("penalised", "opening.no-clean-meld")
    assert state.teams["NS"].melds[0].cards == ["4c", "5c", "6c", "7c"]
    assert state.players["N"].melded is melded


@pytest.mark.parametrize("reading, melded", [("counts", True), ("hand-cards", False)])
def test_a_failed_turn_s_top_card_alone_that_stays_melds_as_its_setting_says(tmp_path, reading, melded):
    """S takes the pile by adding its 7c alone to NS's run and lays 7h 8h JK; a variant asks the
    clean meld of every turn, the pile's too: at the discard the meld goes back, the 7c stays."""
    engine = _cbc(tmp_path, "exception turn.clean_meld = yes when turn.took_pile", readings={"top-card-alone": reading})
    partial = {"turn": {"player": "S", "phase": "draw"}, "teams": RUN, "players": {"N": {"melded": True}},
               "pile": ["Qd", "7c"], "hands": {"S": "7h 8h JK 4d 5d".split(), "E": 15, "N": 15, "W": 15}}
    state, verdict = play(engine, partial, [{"player": "S", "take_pile": {"onto": 0, "with": []}},
                                            {"player": "S", "meld": [["7h", "8h", "JK"]]},
                                            {"player": "S", "discard": "4d"}])
    assert (verdict.verdict, verdict.reason) == ("penalised", "opening.no-clean-meld")
    assert state.teams["NS"].melds[0].cards == ["4c", "5c", "6c", "7c"]
    assert state.players["S"].melded is melded


@pytest.mark.parametrize("layoff_melds, melded", [("yes", True), ("no", False)])
def test_a_challenged_turn_s_layoff_that_stays_melds_as_layoff_melds_says(tmp_path, layoff_melds, melded):
    """The same failed turn left standing until claimed (unclean-opening.claimable): W claims it."""
    engine = _cbc(tmp_path, f"override layoff.melds = {layoff_melds}", readings={"unclean-opening": "claimable"})
    partial = {"turn": {"player": "N", "phase": "play"}, "teams": RUN, "players": {"S": {"melded": True}},
               "hands": {"N": "7c 7h 8h JK 4d 5d".split(), "E": 15, "S": 15, "W": 15}}
    state, verdict = play(engine, partial, [{"player": "N", "layoff": {"meld": 0, "cards": ["7c"]}},
                                            {"player": "N", "meld": [["7h", "8h", "JK"]]},
                                            {"player": "N", "discard": "4d"}])
    assert state.pending is not None and state.pending["additions_meld"] is melded
    state, verdict = play(engine, state.to_json(), [{"player": "W", "challenge": True}])
    assert verdict.reason == "challenge.upheld"
    assert state.teams["NS"].melds[0].cards == ["4c", "5c", "6c", "7c"]
    assert state.players["N"].melded is melded
