"""A meld or layoff that is an offence the rulebook prices (meld.<kind>.penalised,
.grows_penalised, canastra.<kind>.grows_penalised) and empties the hand does both:
the play stands with its consequence and the player goes out. The verdict is the
offence's (penalised, its reason), the going out stands in the state and the
events, so the penalty does not vanish behind going-out.direct. No spec penalises
inside a going-out turn today (cbc's clauses say 'not (turn.going_out or
turn.last_card)'), so a variant of cbc that does shows it."""
from __future__ import annotations

import pytest
from positions import played

from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import SPEC_DIR, files_for
from canastra_ref.dsl.parser import parse_text
from canastra_ref.engine.rules import Engine

READING = {"real-laid-whole": "as-eighth-card", "real-eighth-card": "dirties"}
# N's team holds a real of clubs, so N may go out (definicoes.batida-direta)
TABLE = [{"kind": "sequence", "cards": "4c 5c 6c 7c 8c 9c Tc"}]


def _engine(tmp_path, override: str) -> Engine:
    (tmp_path / "cbc.canastra").write_text((SPEC_DIR / "cbc.canastra").read_text(encoding="utf-8"), encoding="utf-8")
    variant = parse_text('ruleset variant "cbc, variant" extends cbc\n' + override, "variant.canastra")
    return Engine(build(files_for(variant, tmp_path), READING))


def _partial(hand: str, melds: list) -> dict:
    return {"turn": {"player": "N", "phase": "play"}, "players": {"S": {"melded": True}},
            "teams": {"NS": {"opened": True, "melds": TABLE + melds}},
            "hands": {"N": hand, "E": 15, "S": 15, "W": 15}}


CASES = {
    # a real laid whole with an eighth card (28), penalised in the going-out turn as well
    "meld": ("override meld.sequence.penalised = meld.natural_run >= 7 and meld.size > 7 @28\n",
             "meld.penalised", _partial("4h 5h 6h 7h 8h 9h Th Jh", []),
             {"meld": [["4h", "5h", "6h", "7h", "8h", "9h", "Th", "Jh"]]}),
    # a meld of six given two cards at once, making a real and more (28)
    "addition": ("override meld.sequence.grows_penalised = meld.natural_run >= 7 and meld.size > 7 @28\n",
                 "layoff.penalised", _partial("Th Jh", [{"kind": "sequence", "cards": "4h 5h 6h 7h 8h 9h"}]),
                 {"layoff": [{"meld": 1, "cards": ["Th", "Jh"]}]}),
    # an eighth card on a real already down (28)
    "canastra": ("override canastra.real.grows_penalised = yes @28\n",
                 "layoff.canastra-penalised", _partial("Jh", [{"kind": "sequence", "cards": "4h 5h 6h 7h 8h 9h Th"},
                                                              {"kind": "sequence", "cards": "4d 5d 6d 7d 8d 9d Td"}]),
                 {"layoff": [{"meld": 1, "cards": ["Jh"]}]}),
}


@pytest.mark.parametrize("case", CASES)
def test_an_offence_that_goes_out_is_penalised_and_goes_out(tmp_path, case):
    override, reason, partial, action = CASES[case]
    state, (verdict,) = played(_engine(tmp_path, override), partial, {"player": "N", **action})
    assert (verdict.verdict, verdict.reason) == ("penalised", reason)
    assert "going-out.direct" in verdict.events and "28" in verdict.cites
    assert state.ended["reason"] == "went-out" and state.players["N"].hand == []


@pytest.mark.parametrize("case", CASES)
def test_cbc_itself_lets_the_going_out_stand_unpenalised(tmp_path, case):
    _, _, partial, action = CASES[case]
    state, (verdict,) = played(_engine(tmp_path, ""), partial, {"player": "N", **action})
    assert (verdict.verdict, verdict.reason) == ("accepted", "going-out.direct")
    assert state.ended["reason"] == "went-out"
