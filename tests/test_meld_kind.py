"""The kind of a new meld, named by the action where its cards form several.

Under a reading that lets a meld hold several wild cards, cbc's Ah JK 2h is an
ace set or the run Q-K-A of hearts, treze's Kh JK 2c a set of kings or that
run. Which meld is laid down is the player's choice: a meld of a `meld` action
may be {"kind", "cards"}, a take_pile without onto may carry "kind". Without
it, the first kind in the spec's order that the cards form (PROTOCOL.md)."""
from __future__ import annotations

import pytest
import yaml
from positions import position

from canastra_conformance.canonical import action as canonical_action
from canastra_conformance.fixtures import load_file
from canastra_conformance.messages import problem_with
from canastra_ref.engine.actions import Action, apply, parse
from canastra_ref.engine.legal import legal_actions
from canastra_ref.engine.rules import engine_for
from canastra_ref.errors import ErrorList, InputError
from tools.fuzz import step_features

CBC = engine_for("cbc", (("wilds-per-meld", "unlimited"),))
TREZE = engine_for("treze", (("wilds-per-meld", "unlimited"),))


def _state(engine, hand, phase="play", pile=None):
    partial = {"turn": {"player": "N", "phase": phase}, "teams": {"NS": {"melds": [{"cards": ["5c", "6c", "7c"]}]}},
               "hands": {"N": hand, "E": 15, "S": 15, "W": 15}}
    if pile is not None:
        partial["pile"] = pile
    return position(engine, partial)


def _laid(engine, state, action):
    new, verdict = apply(engine, state, {"player": "N", **action})
    assert verdict.verdict == "accepted", (verdict.reason, verdict.message)
    meld = new.teams["NS"].melds[-1]
    return meld.kind, meld.cards


@pytest.mark.parametrize("engine,cards,other", [(CBC, ["Ah", "JK", "2h"], "aces"),
                                                (TREZE, ["Kh", "JK", "2c"], "set")])
def test_the_kind_named_is_laid_and_without_it_the_first_the_spec_declares(engine, cards, other):
    state = _state(engine, cards + ["4d", "5s"])
    assert _laid(engine, state, {"meld": [cards]})[0] == "sequence"
    assert _laid(engine, state, {"meld": [{"kind": "sequence", "cards": cards}]})[0] == "sequence"
    assert _laid(engine, state, {"meld": [{"kind": other, "cards": cards}]}) == (other, cards)


def test_a_kind_the_cards_do_not_form_is_rejected_with_its_own_reason():
    state = _state(CBC, ["Kh", "JK", "2h", "4d", "5s"])
    assert _laid(CBC, state, {"meld": [["Kh", "JK", "2h"]]})[0] == "sequence"
    new, verdict = apply(CBC, state, {"player": "N", "meld": [{"kind": "aces", "cards": ["Kh", "JK", "2h"]}]})
    assert (verdict.verdict, verdict.reason) == ("rejected", "meld.rank-not-allowed") and new is state


def test_a_pile_take_names_the_kind_of_its_new_meld():
    state = _state(TREZE, ["Kh", "JK", "4d", "5s"], phase="draw", pile=["9c", "2c"])
    assert _laid(TREZE, state, {"take_pile": {"with": ["Kh", "JK"], "kind": "set"}})[0] == "set"
    assert _laid(TREZE, state, {"take_pile": {"with": ["Kh", "JK"], "kind": "sequence"}})[0] == "sequence"


@pytest.mark.parametrize("action,path,words", [
    ({"meld": [{"kind": "trio", "cards": ["Ah", "JK", "2h"]}]}, "$.actions[0].meld[0].kind", "sequence, aces"),
    ({"meld": [["4d", "5d", "6d"], {"kind": None, "cards": ["Ah", "JK", "2h"]}]}, "$.actions[0].meld[1].kind",
     "null"),
    ({"meld": [{"kind": "aces"}]}, "$.actions[0].meld[0]", "{\"kind\""),
    ({"meld": [{"kind": "aces", "cards": ["Ah"], "wild_end": "low"}]}, "$.actions[0].meld[0]", "{\"kind\""),
    ({"meld": [{"kind": "aces", "cards": []}]}, "$.actions[0].meld[0].cards", "at least one card"),
    ({"take_pile": {"with": ["Ah", "JK"], "kind": 3}}, "$.actions[0].take_pile.kind", "sequence, aces"),
    ({"take_pile": {"onto": 0, "with": [], "kind": "aces"}}, "$.actions[0].take_pile.kind", "without onto"),
])
def test_a_malformed_kind_is_an_input_error_naming_its_path(action, path, words):
    state = _state(CBC, ["Ah", "JK", "2h", "4d", "5s"])
    with pytest.raises(InputError) as err:
        apply(CBC, state, {"player": "N", **action}, "$.actions[0]")
    assert err.value.json_path == path and words in str(err.value)


def test_legal_actions_list_each_kind_the_same_cards_form():
    state = _state(CBC, ["Ah", "JK", "2h", "4d", "5s"])
    named = [a["meld"][0] for a in legal_actions(CBC, state)
             if "meld" in a and isinstance(a["meld"][0], dict)]
    assert sorted(m["kind"] for m in named) == ["aces", "sequence"]
    for meld in named:
        assert _laid(CBC, state, {"meld": [meld]})[0] == meld["kind"]
    # a meld only one kind forms names none
    plain = legal_actions(CBC, _state(CBC, ["4d", "5d", "JK", "9s", "Tc", "Kc"]))
    assert {"player": "N", "meld": [["4d", "5d", "JK"]]} in plain


def test_kind_survives_the_json_round_trip_schemas_and_fuzzing(tmp_path):
    state = _state(CBC, ["Ah", "JK", "2h", "4d", "5s"])
    given = {"player": "N", "meld": [["4d", "5d", "6d"], {"kind": "aces", "cards": ["Ah", "JK", "2h"]}]}
    parsed = parse(given, state)
    assert parsed.arg == [(None, ["4d", "5d", "6d"]), ("aces", ["Ah", "JK", "2h"])]
    assert canonical_action(given) == given
    assert Action("N", "meld", parsed.arg).json == given
    take = {"player": "N", "take_pile": {"with": ["Kh", "JK"], "kind": "set"}}
    assert Action("N", "take_pile", parse(take, state).arg).json == take
    run = {"cmd": "run", "id": "x", "ruleset": "cbc", "reading": {}, "state": state.to_json(), "actions": [given]}
    assert problem_with("run", run) is None
    bad = {**run, "actions": [{"player": "N", "meld": [{"kind": "", "cards": ["Ah"]}]}]}
    assert problem_with("run", bad) is not None
    case = {"id": "kind-with-onto", "ruleset": "cbc", "articles": ["27"], "requires": ["meld-kind"],
            "description": "a pile take naming the kind of a new meld while adding to a meld",
            "state": {"turn": {"player": "N", "phase": "draw"}, "pile": ["Ac"], "hands": {"N": "Ah Ad 4c"}},
            "actions": [{"player": "N", "take_pile": {"onto": 0, "with": ["Ah"], "kind": "aces"}}],
            "expect": [{"verdict": "rejected"}]}
    (tmp_path / "case.yaml").write_text(yaml.safe_dump([case]), encoding="utf-8")
    with pytest.raises(ErrorList) as refused:
        load_file(tmp_path / "case.yaml")
    assert "actions[0]" in str(refused.value)
    threes = "black-threes"     # the tag of a set of black threes (none is laid here)
    assert "meld-kind" in step_features(given, {"reason": "meld.laid"}, threes)
    assert "meld-kind" in step_features(take, {"reason": "pile.taken"}, threes)
    assert "meld-kind" not in step_features({"player": "N", "meld": [["4d", "5d", "6d"]]}, {"reason": "meld.laid"},
                                            threes)
