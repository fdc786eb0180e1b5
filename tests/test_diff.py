"""canastra diff: the semantic diff of two rulesets, concept by concept."""
from __future__ import annotations

import json

import pytest

from canastra_cli.cli import main
from canastra_tools.concepts import CONCEPTS
from canastra_tools.diff import CITES_ONLY, DEAD_ONLY, DIFFERS, SAME, compare
from canastra_tools.sides import parse_side, parse_sides


def _diff(a, b, **kw):
    return compare(*parse_sides(a, b, **kw))


def _by_path(diff):
    return {s.path: s for s in diff.settings}


def test_a_ruleset_agrees_with_itself():
    diff = _diff("uruguaya", "uruguaya")
    assert diff.differences == []
    assert all(diff.concept_status(c.id) == "agree" for c in CONCEPTS if diff.of_concept(c.id))


def test_cbc_against_ituiutaba():
    s = _by_path(_diff("cbc", "ituiutaba"))
    assert s["deck.jokers"].status == DIFFERS
    assert s["deck.jokers"].a.clauses[0].value == "2" and s["deck.jokers"].b.clauses[0].value == "4"
    assert s["deck.jokers"].a.cites == ["basico.baralhos"] and s["deck.jokers"].b.cites == ["1.1"]
    assert s["deck.decks"].status == SAME
    assert s["meld.fours.shape"].a.absent == "(no meld kind 'fours')"
    opening = s["opening.minimum"]
    assert opening.status == DIFFERS
    assert any(c.condition == "team.score < 2500" and c.value == "80" for c in opening.b.clauses)
    assert [d.name for d in opening.a.disputes] == ["score-between-bands", "canastra-opening-source"]
    assert [d.name for d in opening.b.disputes] == ["canastra-opening-source"]


def test_a_default_equals_an_absent_setting():
    s = _by_path(_diff("classica", "uruguaya"))
    assert s["meld.set.suits"].status == SAME          # classica says any, uruguaya leaves the default any
    assert s["score.unkept_yes"].status == SAME        # a term of 0 against no term at all


def test_clauses_that_cannot_apply_at_a_table_are_set_apart():
    s = _by_path(_diff("classica", "uruguaya"))
    going_out = s["going_out.allowed"]
    assert going_out.status == DEAD_ONLY
    assert [c.text for c in going_out.a.clauses] == ["team.canastras >= 1"]
    assert len(going_out.a.dead) == 2
    # the same clauses decide differently at a table of two
    s2 = _by_path(_diff("classica", "classica-2p"))
    assert s2["going_out.allowed"].status == DIFFERS
    assert [c.text for c in s2["going_out.allowed"].b.clauses] == ["team.canastras >= 2"]


def test_a_ruleset_against_another_reading_of_itself():
    diff = _diff("cbc", "cbc:aces-suit=same-suit")
    assert [s.path for s in diff.differences] == ["meld.aces.suits"]
    same = _diff("cbc", "cbc", only_b={"aces-suit": "same-suit"})
    assert [s.path for s in same.differences] == ["meld.aces.suits"]
    dispute = diff.differences[0].a.disputes[0]
    assert dispute.name == "aces-suit" and dispute.chosen == "any-suit"
    assert {r.name for r in dispute.readings} == {"any-suit", "same-suit"}


def test_a_ruleset_against_its_extension():
    s = _by_path(_diff("classica", "classica-2p"))
    assert {p for p, v in s.items() if v.status == DIFFERS} >= {"table.players", "deal.cards", "draw.cards"}
    assert all(v.status in (SAME, DIFFERS, DEAD_ONLY, CITES_ONLY) for v in s.values())


def test_a_reading_for_both_sides_goes_where_the_dispute_is():
    a, b = parse_sides("cbc", "ituiutaba", both={"negative-five": "away-from-zero"})
    assert a.reading_map == {"negative-five": "away-from-zero"} == b.reading_map
    a, b = parse_sides("cbc", "uruguaya", both={"aces-suit": "same-suit"})
    assert a.reading_map == {"aces-suit": "same-suit"} and b.readings == ()


@pytest.mark.parametrize("fmt", ["text", "md", "json"])
def test_command_formats(fmt, capsys):
    assert main(["diff", "cbc", "ituiutaba", "--format", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        data = json.loads(out)
        assert data["a"]["ruleset"] == "cbc" and "deck.jokers" in data["differences"]
        deck = next(c for c in data["concepts"] if c["id"] == "deck")
        jokers = next(s for s in deck["settings"] if s["path"] == "deck.jokers")
        assert jokers["a"]["cites"] == ["basico.baralhos"]
    elif fmt == "md":
        assert "| `deck.jokers` | `2` @basico.baralhos | `4` @1.1 |" in out
        assert "**cbc, dispute `aces-suit`**" in out
    else:
        assert "≠ deck.jokers" in out and "@basico.baralhos" in out
        assert "Game end: differ" in out and "≠ game.tie" in out        # cbc plays a level game on


def test_command_reading_syntaxes(capsys):
    assert main(["diff", "cbc", "cbc", "--reading-b", "aces-suit=same-suit"]) == 0
    first = capsys.readouterr().out
    assert "≠ meld.aces.suits" in first
    assert main(["diff", "cbc", "cbc:aces-suit=same-suit"]) == 0
    assert "≠ meld.aces.suits" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["diff", "cbc", "nope"], "unknown ruleset 'nope'"),
    (["diff", "cbc", "cbc:aces-suit=bogus"], "dispute 'aces-suit' has no reading 'bogus'"),
    (["diff", "cbc", "cbc:aces-suit"], "takes DISPUTE=READING"),
    (["diff", "cbc", "treze", "--reading", "nosuch=x"], "neither cbc nor treze has a dispute 'nosuch'"),
    (["diff", "cbc", "treze", "--reading", "oops"], "--reading takes DISPUTE=READING"),
    (["diff", "cbc"], "diff takes two rulesets"),
    (["diff", "cbc", "treze", "--out", "x"], "--out goes with --behaviour"),
    (["diff", "cbc", "treze", "--matrix"], "give no ruleset"),
])
def test_bad_input_is_an_error_not_a_traceback(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_parse_side_rejects_an_unknown_ruleset_before_loading():
    with pytest.raises(Exception) as info:
        parse_side("nosuch:a=b")
    assert "unknown ruleset 'nosuch'" in str(info.value)
