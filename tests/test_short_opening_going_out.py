"""A short opening judged at a going out reads its settings with turn.going_out,
like any other: no order is built into the engine. cbc says it cannot stand then
(19: nobody draws after a going out, so the claim never lapses; its fixtures);
on a variant of cbc where it stands, the going out is made and the hand ends with
the opening standing, nobody being left a turn in which to challenge it."""
from __future__ import annotations

import pytest
from positions import position

from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import SPEC_DIR, files_for
from canastra_ref.dsl.parser import parse_text
from canastra_ref.engine.actions import apply
from canastra_ref.engine.rules import Engine

# a real completed with the discard does not open at any score: N's batida falls short
READING = {"canastra-opening-source": "from-hand"}
# cbc's clause that judges a short opening at a going out (19)
AT_GOING_OUT = "exception opening.short_stands_unchallenged = no when turn.going_out or turn.final\n"


def _engine(tmp_path, override: str = "", stands: bool = False) -> Engine:
    """cbc, or a variant of it (`override`); with `stands`, a short opening stands
    unchallenged at a going out as it does elsewhere (cbc's exception left out)."""
    text = (SPEC_DIR / "cbc.canastra").read_text(encoding="utf-8")
    if stands:
        start = text.index(AT_GOING_OUT)
        end = text.index("\n", start + len(AT_GOING_OUT)) + 1      # and its line of citations
        text = text[:start] + text[end:]
    (tmp_path / "cbc.canastra").write_text(text, encoding="utf-8")
    variant = parse_text('ruleset variant "cbc, variant" extends cbc\n' + override, "variant.canastra")
    return Engine(build(files_for(variant, tmp_path), READING))


def _short_real(engine: Engine, last: str = "Kc"):
    """NS at 0 (minimum 75): N takes Th with 8h 9h, adds 4h to 7h (a real of 50 completed
    with the discard) and lays 4s 5s 6s: 65 points, holding `last` (none: a batida direta)."""
    partial = {"turn": {"player": "N", "phase": "draw"}, "pile": ["Th"],
               "hands": {"N": "4h 5h 6h 7h 8h 9h 4s 5s 6s " + last, "E": 2, "S": 2, "W": 2}}
    state = position(engine, partial)
    for action in ({"take_pile": {"with": ["8h", "9h"]}}, {"layoff": {"meld": 0, "cards": ["4h", "5h", "6h", "7h"]}}):
        state, verdict = apply(engine, state, {"player": "N", **action})
        assert verdict.verdict == "accepted", verdict.reason
    return apply(engine, state, {"player": "N", "meld": [["4s", "5s", "6s"]]})


@pytest.mark.parametrize("order", ["ordinary", "going-out"])
def test_a_short_opening_that_stands_at_a_going_out_ends_the_hand_standing(tmp_path, order):
    engine = _engine(tmp_path, f"override opening.short_last_discard = {order} @13\n", stands=True)
    state, verdict = _short_real(engine)
    assert verdict.verdict == "accepted", verdict.reason          # leaving Kc strands nothing
    state, verdict = apply(engine, state, {"player": "N", "discard": "Kc"})
    assert (verdict.verdict, verdict.reason) == ("accepted", "going-out.with-discard")
    assert "19" in verdict.cites and "opening.short-pending" in verdict.events
    assert state.ended["reason"] == "went-out" and state.pending["player"] == "N"
    assert state.teams["NS"].opened and state.teams["NS"].opening_failures == 0
    assert len(state.teams["NS"].melds) == 2 and state.players["N"].hand == []
    _, challenge = apply(engine, state, {"player": "W", "challenge": True})
    assert (challenge.verdict, challenge.reason) == ("rejected", "turn.hand-over")


def test_a_short_batida_direta_that_stands_goes_out(tmp_path):
    engine = _engine(tmp_path, stands=True)
    state, verdict = _short_real(engine, last="")
    assert (verdict.verdict, verdict.reason) == ("accepted", "going-out.direct")
    assert state.ended["reason"] == "went-out" and state.pending["player"] == "N"


def test_cbc_judges_the_short_opening_at_a_going_out(tmp_path):
    engine = _engine(tmp_path)
    state, verdict = _short_real(engine)
    state, verdict = apply(engine, state, {"player": "N", "discard": "Kc"})
    assert (verdict.verdict, verdict.reason) == ("penalised", "opening.below-minimum")
    assert {"19", "13"} <= set(verdict.cites) and state.ended is None and state.pending is None
    _, verdict = _short_real(engine, last="")
    assert (verdict.verdict, verdict.reason) == ("rejected", "opening.below-minimum")
