"""A meld or a lay-off that puts down no card is no play (issue 18, finding 1).

An empty lay-off used to be accepted as `meld.laid-off`, marking the player as
having melded: under cbc 21 he then paid his cards instead of 100, and under
classica bater.5 a later going out "de mão" earned 100 instead of 200. Every
layer refuses it now: the engine's action parser (a clear error naming the
JSON path, for every ruleset), the protocol (an errored answer), and the
schemas of the protocol's messages and of the fixtures."""
from __future__ import annotations

import pytest
from positions import position

from canastra_conformance.fixtures import load_file
from canastra_conformance.messages import problem_with
from canastra_ref.dsl.loader import available
from canastra_ref.engine.actions import apply
from canastra_ref.engine.completion import complete
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.rules import engine_for
from canastra_ref.errors import ErrorList, InputError
from canastra_ref.protocol import handle

EMPTY = [
    ({"layoff": {"meld": 0, "cards": []}}, "$.actions[0].layoff.cards"),
    ({"layoff": {"meld": 0, "cards": "  "}}, "$.actions[0].layoff.cards"),
    ({"layoff": [{"meld": 0, "cards": ["4d"]}, {"meld": 0, "cards": []}]}, "$.actions[0].layoff[1].cards"),
    ({"layoff": []}, "$.actions[0].layoff"),
    ({"meld": [["Jh", "Qh", "Kh"], []]}, "$.actions[0].meld[1]"),
    ({"meld": []}, "$.actions[0].meld"),
]


def _state(engine):
    seats = engine.table.seats
    partial = {"turn": {"player": seats[0], "phase": "play"},
               "teams": {engine.table.team_of[seats[0]]: {"melds": [{"cards": ["Ac", "Ad", "Ah"]}]}},
               "hands": {seats[0]: ["Jh", "Qh", "Kh", "9c", "4d"], **{s: 11 for s in seats[1:]}}}
    return complete(engine.table, engine.deck, partial)


@pytest.mark.parametrize("ruleset", available())
@pytest.mark.parametrize("verb, path", EMPTY)
def test_the_engine_refuses_an_empty_play(ruleset, verb, path):
    engine = engine_for(ruleset)
    state = load_state(engine, _state(engine))
    with pytest.raises(InputError) as refused:
        apply(engine, state, {"player": engine.table.seats[0], **verb}, path="$.actions[0]")
    assert refused.value.json_path == path
    assert "at least one" in refused.value.message


@pytest.mark.parametrize("verb, path", EMPTY)
def test_the_protocol_answers_an_empty_play_with_an_error(verb, path):
    engine = engine_for("cbc")
    message = {"cmd": "run", "id": "empty", "ruleset": "cbc", "state": _state(engine),
               "actions": [{"player": "N", **verb}]}
    answer = handle(message)
    assert answer["errored"] is True and path in answer["message"]
    assert problem_with("run", message) is not None          # the message schema refuses it too


def test_a_real_lay_off_is_still_accepted():
    engine = engine_for("cbc")
    state = position(engine, {
        "turn": {"player": "N", "phase": "play"}, "teams": {"NS": {"melds": [{"cards": ["4h", "5h", "6h"]}]}},
        "hands": {"N": ["7h", "9c", "4d"], "E": 15, "S": 15, "W": 15}})
    new, verdict = apply(engine, state, {"player": "N", "layoff": {"meld": 0, "cards": ["7h"]}})
    assert verdict.reason == "meld.laid-off" and new.players["N"].melded


@pytest.mark.parametrize("verb", [v for v, _ in EMPTY])
def test_the_fixture_schema_refuses_an_empty_play(tmp_path, verb):
    case = tmp_path / "empty.yaml"
    case.write_text(
        "- id: empty-play\n  ruleset: cbc\n  articles: ['21']\n  requires: [scoring]\n"
        "  description: an empty play\n"
        "  state: {turn: {player: N, phase: play}, hands: {N: 4c, E: 15, S: 15, W: 15}}\n"
        f"  actions: [{{player: N, {next(iter(verb))}: {_yaml(next(iter(verb.values())))}}}]\n"
        "  expect: [{verdict: rejected}]\n", encoding="utf-8")
    with pytest.raises(ErrorList) as refused:
        load_file(case)
    assert "actions[0]" in str(refused.value)


def _yaml(value) -> str:
    import json
    return json.dumps(value)
