"""Malformed fixture files get errors naming file, line and column."""
from __future__ import annotations

import pytest

from canastra_conformance.fixtures import load_all, load_file
from canastra_ref.errors import CanastraError, ErrorList

GOOD = """\
- id: t-setup
  ruleset: cbc
  articles: ["basico.baralhos"]
  requires: [setup]
  description: the deck has 106 cards
  query: {setup: true}
  expect: {result: {deck_size: 106}}
"""


def _write(tmp_path, text, name="cases.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_good_file_loads(tmp_path):
    [case] = load_file(_write(tmp_path, GOOD))
    assert case.id == "t-setup" and case.kind == "query" and case.line == 1


def test_yaml_syntax_error_has_a_position(tmp_path):
    with pytest.raises(CanastraError) as info:
        load_file(_write(tmp_path, GOOD.replace("query: {setup: true}", "query: {setup: true")))
    assert info.value.position.line >= 6 and "not valid YAML" in info.value.message


def test_schema_error_names_line_column_and_path(tmp_path):
    with pytest.raises(ErrorList) as info:
        load_file(_write(tmp_path, GOOD.replace("requires: [setup]", "requires: setup")))
    [error] = info.value.errors
    assert (error.position.line, error.position.column) == (4, 13)
    assert error.json_path == "$[0].requires"


@pytest.mark.parametrize("old,new,expected", [
    ("expect: {result: {deck_size: 106}}", "expect:\n  - {}", "is not of type 'object'"),
    ("query: {setup: true}", "state: {turn: {player: N, phase: draw}}\n  actions: [{player: N, draw: stock}]",
     "is not of type 'array'"),
])
def test_the_expectation_has_the_shape_of_the_case(tmp_path, old, new, expected):
    """A query expects {result: ...}, actions a list of results: the other shape
    is refused where it is written (it once reached grading and raised)."""
    with pytest.raises(ErrorList) as info:
        load_file(_write(tmp_path, GOOD.replace(old, new)))
    [error] = info.value.errors
    assert error.json_path == "$[0].expect" and expected in error.message


def test_bad_card_is_reported(tmp_path):
    text = GOOD.replace("query: {setup: true}", "query: {points: Zz}")
    with pytest.raises(ErrorList) as info:
        load_file(_write(tmp_path, text))
    assert info.value.errors[0].json_path.startswith("$[0].query")


def test_cross_file_checks(tmp_path):
    _write(tmp_path, GOOD, "a.yaml")
    _write(tmp_path, GOOD.replace('articles: ["basico.baralhos"]', 'articles: ["999"]')
           .replace("requires: [setup]", "requires: [nonsense]"), "b.yaml")
    with pytest.raises(ErrorList) as info:
        load_all(tmp_path)
    messages = [e.message for e in info.value.errors]
    assert any("id already used" in m for m in messages)
    assert any("article '999' is not in the inventory of cbc" in m for m in messages)
    assert any("unknown feature tag 'nonsense'" in m for m in messages)


def test_a_deck_order_given_as_one_string_is_sent_as_cards(tmp_path):
    """deal.deck as one string (the schema and README allow it) was split into characters ("unknown card '5'")."""
    from canastra_conformance.grading import message_for
    text = GOOD.replace("  query: {setup: true}\n  expect: {result: {deck_size: 106}}\n",
                        "  state: {turn: {phase: deal}, hands: {N: 0, E: 0, S: 0, W: 0}, started: false}\n"
                        "  actions: [{player: W, deal: {deck: 5h 6h 7h JK}}]\n  expect: [{verdict: accepted}]\n")
    [case] = load_file(_write(tmp_path, text))
    deck = message_for(case)["actions"][0]["deal"]["deck"]
    assert deck[:4] == ["5h", "6h", "7h", "JK"] and len(deck) == 106
