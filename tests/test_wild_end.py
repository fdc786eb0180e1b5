"""The end of a sequence a wild card goes to, named by the action (issue 11).

Where a natural card takes a wild card's place, or a wild card is added with no
gap to fill, the card goes to an end of the sequence. Where the rules leave the
end open (wild.shift = any-end, or far-end with no card added beyond the wild
card's place) it is the player's choice: a layoff item, or a take_pile onto a
meld, names it with "wild_end". Without it the protocol's convention puts the
card above the highest card while there is room (PROTOCOL.md)."""
from __future__ import annotations

import pytest
from positions import position

from canastra_conformance.canonical import action as canonical_action
from canastra_conformance.fixtures import load_file
from canastra_conformance.messages import problem_with
from canastra_ref.engine.actions import apply, parse
from canastra_ref.engine.legal import legal_actions
from canastra_ref.engine.rules import engine_for
from canastra_ref.errors import ErrorList, InputError

CBC = engine_for("cbc")


def _state(meld: list[str], hand: list[str], phase: str = "play", pile=None, engine=CBC):
    partial = {"turn": {"player": "N", "phase": phase}, "teams": {"NS": {"melds": [{"cards": meld}]}},
               "hands": {"N": hand, "E": 15, "S": 15, "W": 15}}
    if pile is not None:
        partial["pile"] = pile
    return position(engine, partial)


def _meld_after(state, action, engine=CBC):
    new, verdict = apply(engine, state, {"player": "N", **action})
    assert verdict.verdict == "accepted", (verdict.reason, verdict.message)
    return new.teams["NS"].melds[0].cards


@pytest.mark.parametrize("action, path, words", [
    ({"layoff": {"meld": 0, "cards": ["7h"], "wild_end": "left"}}, "$.actions[0].layoff.wild_end", "'left'"),
    ({"layoff": {"meld": 0, "cards": ["7h"], "wild_end": None}}, "$.actions[0].layoff.wild_end", "null"),
    ({"layoff": [{"meld": 0, "cards": ["7h"]}, {"meld": 0, "cards": ["8h"], "wild_end": 1}]},
     "$.actions[0].layoff[1].wild_end", "1"),
    ({"take_pile": {"onto": 0, "with": [], "wild_end": "up"}}, "$.actions[0].take_pile.wild_end", "'up'"),
    ({"take_pile": {"with": ["7c", "7d"], "wild_end": "low"}}, "$.actions[0].take_pile.wild_end", "needs onto"),
])
def test_a_malformed_wild_end_is_an_input_error_naming_its_path(action, path, words):
    state = _state(["5h", "6h", "2h"], ["7h", "8h", "4d"])
    with pytest.raises(InputError) as refused:
        apply(CBC, state, {"player": "N", **action}, path="$.actions[0]")
    assert refused.value.json_path == path
    assert words in refused.value.message


def test_the_message_and_fixture_schemas_know_wild_end(tmp_path):
    state = _state(["5h", "6h", "2h"], ["7h", "8h", "4d"]).to_json()
    good = {"cmd": "run", "id": "x", "ruleset": "cbc", "reading": {}, "state": state,
            "actions": [{"player": "N", "layoff": {"meld": 0, "cards": ["7h"], "wild_end": "low"}}]}
    assert problem_with("run", good) is None
    bad = {**good, "actions": [{"player": "N", "layoff": {"meld": 0, "cards": ["7h"], "wild_end": "middle"}}]}
    assert problem_with("run", bad) is not None
    case = tmp_path / "case.yaml"
    case.write_text(
        "- id: wild-end-without-onto\n  ruleset: cbc\n  articles: ['30']\n  requires: [wild-end]\n"
        "  description: a pile take naming an end with no meld to add to\n"
        "  state: {turn: {player: N, phase: draw}, pile: [7c], hands: {N: 7d 7h 4c, E: 15, S: 15, W: 15}}\n"
        "  actions: [{player: N, take_pile: {with: [7d, 7h], wild_end: low}}]\n"
        "  expect: [{verdict: rejected}]\n", encoding="utf-8")
    with pytest.raises(ErrorList) as refused:
        load_file(case)
    assert "actions[0]" in str(refused.value)


def test_wild_end_survives_the_json_round_trip_and_the_runner():
    state = _state(["5h", "6h", "2h"], ["7h", "8h", "4d"])
    given = {"player": "N", "layoff": {"meld": 0, "cards": ["7h"], "wild_end": "low"}}
    assert parse(given, state).arg == [(0, ["7h"], "low")]
    assert canonical_action(given) == given
    listed = [a for a in legal_actions(CBC, state) if "layoff" in a]
    assert given in listed


def test_a_wild_card_given_way_goes_to_the_end_named_or_by_convention_above():
    # cbc 30: the two at the end of 5h 6h 2h is not held; it gives way to the 7h
    state = _state(["5h", "6h", "2h"], ["7h", "8h", "4d"])
    assert _meld_after(state, {"layoff": {"meld": 0, "cards": ["7h"], "wild_end": "low"}}) == ["2h", "5h", "6h", "7h"]
    assert _meld_after(state, {"layoff": {"meld": 0, "cards": ["7h"], "wild_end": "high"}}) == ["5h", "6h", "7h", "2h"]
    assert _meld_after(state, {"layoff": {"meld": 0, "cards": ["7h"]}}) == ["5h", "6h", "7h", "2h"]


def test_a_wild_card_added_without_a_gap_goes_to_the_end_named():
    state = _state(["5h", "6h", "7h"], ["JK", "9c", "4d"])
    assert _meld_after(state, {"layoff": {"meld": 0, "cards": ["JK"], "wild_end": "low"}}) == ["JK", "5h", "6h", "7h"]
    assert _meld_after(state, {"layoff": {"meld": 0, "cards": ["JK"]}}) == ["5h", "6h", "7h", "JK"]
    # the convention falls back below the lowest card when the top is full
    top = _state(["Qh", "Kh", "Ah"], ["JK", "9c", "4d"])
    assert _meld_after(top, {"layoff": {"meld": 0, "cards": ["JK"]}}) == ["JK", "Qh", "Kh", "Ah"]
    new, verdict = apply(CBC, top, {"player": "N", "layoff": {"meld": 0, "cards": ["JK"], "wild_end": "high"}})
    assert (verdict.verdict, verdict.reason) == ("rejected", "layoff.wild-end-full") and new is top


def test_wild_end_changes_nothing_where_no_wild_card_goes_to_an_end():
    state = _state(["4h", "5h", "6h"], ["7h", "9c", "4d"])
    assert _meld_after(state, {"layoff": {"meld": 0, "cards": ["7h"], "wild_end": "low"}}) == ["4h", "5h", "6h", "7h"]
    listed = [a for a in legal_actions(CBC, state) if "layoff" in a]
    assert listed and not any("wild_end" in a["layoff"] for a in listed)


def test_a_pile_take_onto_a_meld_names_the_end():
    # cbc 8 forbids wild cards with the discard, and 30 lets the two of 5h 6h 2h give way to it
    state = _state(["5h", "6h", "2h"], ["8c", "9d", "4d"], phase="draw", pile=["Kc", "7h"])
    low = {"take_pile": {"onto": 0, "with": [], "wild_end": "low"}}
    assert _meld_after(state, low) == ["2h", "5h", "6h", "7h"]
    assert _meld_after(state, {"take_pile": {"onto": 0, "with": []}}) == ["5h", "6h", "7h", "2h"]
    assert {"player": "N", **low} in legal_actions(CBC, state)


def test_legal_actions_list_a_named_end_only_where_it_changes_the_layout():
    # ituiutaba 7.8 (wild-shift-scope every-addition): the joker of 6h 7h JK giving way to the
    # 8h with the 9h beyond goes below; naming the high end is refused, naming the low end is
    # what the unnamed action does already
    engine = engine_for("ituiutaba")
    state = _state(["6h", "7h", "JK"], ["8h", "9h", "Qc", "Kd"], engine=engine)
    listed = [a["layoff"] for a in legal_actions(engine, state) if "layoff" in a]
    both = [item for item in listed if sorted(item["cards"]) == ["8h", "9h"]]
    assert len(both) == 1 and "wild_end" not in both[0]
    new, verdict = apply(engine, state, {"player": "N", "layoff": {"meld": 0, "cards": ["8h", "9h"],
                                                                   "wild_end": "high"}})
    assert (verdict.reason, verdict.cites) == ("layoff.wild-end-refused", ["7.8", "7.9"])


def test_fuzzing_sends_a_named_end_only_to_an_implementation_declaring_wild_end():
    from canastra_tools.fuzz import step_features
    laid = {"reason": "meld.laid-off"}
    threes = "black-threes"     # the tag of a set of black threes (none is laid here)
    assert "wild-end" in step_features({"player": "N", "layoff": {"meld": 0, "cards": ["7h"], "wild_end": "low"}},
                                       laid, threes)
    assert "wild-end" in step_features({"player": "N", "layoff": [{"meld": 0, "cards": ["7h"]},
                                                                  {"meld": 1, "cards": ["8c"], "wild_end": "high"}]},
                                       laid, threes)
    assert "wild-end" not in step_features({"player": "N", "layoff": {"meld": 0, "cards": ["7h"]}}, laid, threes)
    taken = step_features({"player": "N", "take_pile": {"onto": 0, "with": [], "wild_end": "low"}},
                          {"reason": "pile.taken"}, threes)
    assert {"pile-take", "pile-onto-meld", "wild-end"} <= set(taken)


def test_the_end_a_far_end_rule_sends_one_wild_card_to_leaves_the_others_to_the_action():
    # wild.shift far-end sends the joker giving way to the 7h (with the 8h beyond) to the low
    # end; the two added in the same play fills no gap and goes where the action says
    from canastra_ref.engine.melds import MeldError, extend
    engine = engine_for("cbc", (("wilds-per-meld", "unlimited"),))
    kind = engine.meld_kind("sequence")
    ranks = engine.value("meld.sequence.ranks")

    def added(end):
        return extend(engine, kind, ["5h", "6h", "JK"], ["7h", "8h", "2h"], ranks, [], lambda: "far-end", end)[0]
    assert added(None) == ["JK", "5h", "6h", "7h", "8h", "2h"]
    # one wild_end names the end of every wild card the addition puts at an end
    with pytest.raises(MeldError) as refused:       # the joker may not go high
        added("high")
    assert refused.value.reason == "layoff.wild-end-refused"
    with pytest.raises(MeldError) as full:          # the joker, as the four, took the last low place
        added("low")
    assert full.value.reason == "layoff.wild-end-full"
