"""A challenged opening is charged as opening.failure_raises says, decided when the
turn that laid it ended (the turn's facts are gone by the challenge) and kept in
the state's pending record, as a failure judged at the turn's end is. No spec
lets a failure stand until challenged and not raise the minimum, so these run on
variants of cbc (unclean-opening=claimable: an opening without a clean meld
stands until the next player claims it)."""
from __future__ import annotations

import json

from positions import position

from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import SPEC_DIR, files_for
from canastra_ref.dsl.parser import parse_text
from canastra_ref.engine.actions import apply
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.rules import Engine

READING = {"unclean-opening": "claimable"}


def _engine(tmp_path, override: str) -> Engine:
    (tmp_path / "cbc.canastra").write_text((SPEC_DIR / "cbc.canastra").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    variant = parse_text('ruleset variant "cbc, variant" extends cbc\n' + override, "variant.canastra")
    return Engine(build(files_for(variant, tmp_path), READING))


def _unclean_opening_pending(engine: Engine):
    """N at 0 lays J Q of hearts with the joker and two aces with a two (80 points, no clean
    meld) and discards: the opening stands until W claims it."""
    partial = {"turn": {"player": "N", "phase": "play"},
               "hands": {"N": "Jh Qh JK Ah Ad 2c 4d 5c", "E": 15, "S": 15, "W": 15}}
    state = position(engine, partial)
    state, verdict = apply(engine, state, {"player": "N", "meld": [["Jh", "Qh", "JK"], ["Ah", "Ad", "2c"]]})
    assert verdict.verdict == "accepted", verdict.reason
    state, verdict = apply(engine, state, {"player": "N", "discard": "4d"})
    assert (verdict.verdict, verdict.reason) == ("accepted", "opening.pending-check")
    return state


def test_a_challenged_opening_that_does_not_raise_only_goes_back(tmp_path):
    engine = _engine(tmp_path, "override opening.failure_raises = no @13\n")
    state = _unclean_opening_pending(engine)
    assert state.pending["raises"]["value"] is False
    # the record survives the state's JSON form, as an adapter or a fixture passes it on
    state = load_state(engine, json.loads(json.dumps(state.to_json())))
    state, verdict = apply(engine, state, {"player": "W", "challenge": True})
    assert (verdict.verdict, verdict.reason) == ("accepted", "challenge.upheld")
    assert "opening.failure_raises" in {d["setting"] for d in verdict.to_json()["trace"]}
    team = state.teams["NS"]
    assert not team.opened and team.melds == [] and team.opening_failures == 0
    assert sorted(state.players["N"].hand) == sorted("Jh Qh JK Ah Ad 2c 5c".split())


def test_the_charge_is_decided_in_the_turn_that_laid_the_melds(tmp_path):
    # turn.opening holds in N's turn (NS had not opened) and no longer at W's challenge, when
    # the pending opening has opened NS: read then, the clause would not charge the failure
    engine = _engine(tmp_path, "override opening.failure_raises = turn.opening @13\n")
    state = _unclean_opening_pending(engine)
    state, verdict = apply(engine, state, {"player": "W", "challenge": True})
    assert (verdict.verdict, verdict.reason) == ("accepted", "challenge.upheld")
    assert state.teams["NS"].opening_failures == 1 and not state.teams["NS"].opened
