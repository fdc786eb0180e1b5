"""Each class of spec error: its message, its position, the caret and the hint.

Every case edits the small valid spec tests/data/minimal.canastra so that
exactly one thing is wrong, then checks what `canastra check` reports.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from canastra_ref.dsl.loader import check_file


def _check(tmp_path: Path, files: dict[str, str]):
    for name, text in files.items():
        (tmp_path / f"{name}.canastra").write_text(text, encoding="utf-8")
    first = next(iter(files))
    return check_file(tmp_path / f"{first}.canastra", tmp_path)


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


# (name, old text, new text, line marker in the new text, column, message fragment, expected fragment)
CASES = [
    ("syntax: missing value", "deck.decks = 2 @1", "deck.decks = @1", "deck.decks =", 14,
     "unexpected", "a number"),
    ("syntax: stray character", "deck.decks = 2 @1", "deck.decks = 2 $ @1", "deck.decks", 16,
     "unexpected character '$'", None),
    ("syntax: unterminated dispute", "  default any because \"test\"\n", "", "dispute aces", None,
     "unexpected", "'default'"),
    ("unknown setting", "deck.jokers = 2 @1", "deck.jokerz = 2 @1", "deck.jokerz", 1,
     "unknown setting 'deck.jokerz'", "deck.jokers"),
    ("unknown fact", "team.score <= 2490", "team.scor <= 2490", "team.scor", 27,
     "unknown fact 'team.scor'", "team.score"),
    ("fact read out of scope", "score.table = team.table_points @8", "score.table = meld.size @8",
     "score.table", 15, "cannot be read here", None),
    ("type error", "deck.decks = 2 @1", "deck.decks = yes @1", "deck.decks", 14,
     "this is a condition, but a number is needed", "a number"),
    ("unknown rank", "meld.run.ranks = 4..A @4", "meld.run.ranks = 4..Z @4", "meld.run.ranks", 18,
     "'4..Z' is not a rank range", None),
    ("unknown enumeration value", "play.direction = clockwise @2", "play.direction = sideways @2",
     "play.direction", 18, "takes one of its values", "clockwise"),
    ("citation missing from the inventory", "deal.cards = 11 @2", "deal.cards = 11 @22", "deal.cards", 17,
     "citation of article '22'", "2"),
    ("clause without citation", "deal.cards = 11 @2", "deal.cards = 11", "deal.cards", 1,
     "cites no article", "at least one citation"),
    ("citing an informative article", "deal.cards = 11 @2", "deal.cards = 11 @2 @9", "deal.cards", 20,
     "article '9' is informative", None),
    ("article not accounted for", 'informative 9', 'article 10 "unused"\ninformative 9', "article 10", 9,
     "article '10' is normative but no clause cites it", "informative"),
    ("duplicate article", 'article 8 "going out and scoring"',
     'article 8 "going out and scoring"\narticle 8 "again"', 'article 8 "again"', 9,
     "article '8' is listed twice", None),
    ("dispute default not a reading", "default any because", "default anything because", "default anything",
     11, "the default of dispute 'aces' is not one of its readings", "any, same"),
    ("dispute on a missing article", "on 4\n", "on 44\n", "dispute aces", 52,
     "is on article '44', which the inventory lacks", None),
    ("unknown reading", "under aces.same", "under aces.other", "under aces.other", 27,
     "dispute 'aces' has no reading 'other'", "any, same"),
    ("contradictory clauses", "opening.minimum = 120 when team.score >= 2500 @6",
     "opening.minimum = 120 when team.score >= 2400 @6", "team.score >= 2400", 1,
     "contradictory clauses", "exclude each other"),
    ("exception without condition", "game.target = 5000 @8",
     "game.target = 5000 @8\nexception game.target = 4000 @8", "exception game.target", 25,
     "an exception needs a 'when' or 'unless' condition", None),
    ("deck arithmetic", "deck.jokers = 2 @1", "deck.jokers = 2 @1\ndeck.size = 104 @1", "deck.size", 1,
     "deck.size is 104, but 2 decks of 52 and 2 jokers make 106", None),
    ("missing required setting", "game.target = 5000 @8\n", "", "ruleset minimal", 9,
     "gives no value for 1 required setting", "game.target"),
    ("helper defined in terms of itself", "score.hand = -team.hand_points @8",
     "def a = b @8\ndef b = a @8\nscore.hand = a @8", "def b = a", 9,
     "defined in terms of itself", None),
    ("rounded apart names no term", "game.target = 5000 @8",
     "game.target = 5000 @8\nscoring.rounded_apart = [hands] @8", "scoring.rounded_apart", 1,
     "scoring.rounded_apart names 'hands', which is not a scoring term", "hand"),
    ("term both unrounded and rounded apart", "game.target = 5000 @8",
     "game.target = 5000 @8\nscoring.unrounded = [hand] @8\nscoring.rounded_apart = [hand] @8",
     "scoring.rounded_apart", 1, "'hand' is both left out of the rounding", "at most one"),
    ("dispute reading that guards nothing", "meld.aces.suits = same @4 under aces.same\n", "",
     "reading same", 11, "reading 'same' of dispute 'aces' guards no clause", None),
    # input that used to escape as a traceback (issue 17)
    ("a 5,000-digit number", "deck.decks = 2 @1", "deck.decks = " + "9" * 5000 + " @1", "deck.decks", 14,
     "the number 99999999999999999999... (5000 digits) is too large", "at most 9,007,199,254,740,991"),
    ("a number in a ladder beyond the integers", "deck.decks = 2 @1",
     "deck.decks = 2 @1\nopening.ladder = 75 -> 90071992547409920 @6", "opening.ladder", 24,
     "the number 90071992547409920 is too large", None),
    ("a 5,000-character token where a string belongs", 'default any because "test"',
     'default any because ' + "9" * 5000 + "dispute", "default any", 23,
     "unexpected '9999999999999999999999999999999999999999... (5007 characters)'", "a quoted string"),
    ("an unknown escape in a string", '"Minimal test ruleset"', '"a\\x"', "ruleset minimal", 19,
     "unknown escape '\\x' in a string", '\\" for a quote'),
    ("a unicode escape in a string", '"Minimal test ruleset"', '"\\N{FOO} \\u12"', "ruleset minimal", 18,
     "unknown escape '\\N' in a string", None),
    ("'not' 500 deep", "opening.minimum = 75 when team.score <= 2490 @6",
     "opening.minimum = 75 when " + "not " * 500 + "team.score <= 2490 @6", "opening.minimum = 75", 283,
     "nested more than 64 levels deep", "def"),
    ("a sum of 500 terms", "deck.decks = 2 @1", "deck.decks = " + " + ".join(["1"] * 500) + " @1", "deck.decks",
     14, "nested more than 64 levels deep", None),
    ("more decks than play can hold", "deck.decks = 2 @1", "deck.decks = 50000000 @1", "deck.decks", 1,
     "deck.decks is 50000000", "between 1 and 8 decks"),
    ("no deck", "deck.decks = 2 @1", "deck.decks = 0 @1", "deck.decks", 1, "deck.decks is 0", None),
    ("more jokers than decks hold", "deck.jokers = 2 @1", "deck.jokers = 9 @1", "deck.jokers", 1,
     "deck.jokers is 9 for 2 deck(s)", "two per deck"),
    ("a deal larger than the deck", "deal.cards = 11 @2", "deal.cards = 60 @2", "deal.cards", 1,
     "4 players dealt 60 cards each need 240 cards, and the deck holds 106", "at most 26 cards each"),
    ("a deal that leaves no stock", "deal.cards = 11 @2", "deal.cards = 27 @2", "deal.cards", 1,
     "need 108 cards", "at most 26 cards each"),
    ("nothing dealt", "deal.cards = 11 @2", "deal.cards = 0 @2", "deal.cards", 1, "deal.cards is 0", None),
    ("a rank range inside a fact's name", "team.score <= 2490", "team.score .. 1 <= 2490", "team.score", 27,
     "'team.score..1' is not an expression", "a rank range such as 8 .. K"),
    ("a section of another text without its prefix", 'ruleset minimal "Minimal test ruleset"',
     'ruleset minimal "Minimal test ruleset"\nsource "notes.md" section "x"', 'section "x"', 30,
     "unexpected end of the line", "'as'"),
]


@pytest.mark.parametrize("name,old,new,marker,column,message,expected", CASES, ids=[c[0] for c in CASES])
def test_error_class(tmp_path, minimal_text, name, old, new, marker, column, message, expected):
    text = _edit(minimal_text, old, new)
    checked, errors = _check(tmp_path, {"minimal": text})
    matching = [e for e in errors if message in e.message]
    assert matching, f"no error containing {message!r}; got: {[e.message for e in errors]}"
    error = matching[0]
    if name.startswith("syntax: unterminated"):
        assert error.position.line > _line_of(text, marker)
    else:
        assert error.position.line == _line_of(text, marker)
    if column is not None:
        assert error.position.column == column
    if expected is not None:
        assert expected in (error.expected or "")
    rendered = error.render()
    first = rendered.splitlines()[0]
    assert first.startswith(f"{error.position.file}:{error.position.line}:{error.position.column}: error: ")
    assert "^" in rendered.splitlines()[2]


def test_valid_minimal_spec_has_no_errors(tmp_path, minimal_text):
    checked, errors = _check(tmp_path, {"minimal": minimal_text})
    assert errors == []
    assert checked == ["default", "aces=same"]


def _extension(body: str) -> str:
    return 'ruleset variant "A variant" extends minimal\n' + body


def test_override_of_a_missing_clause(tmp_path, minimal_text):
    ext = _extension("override nothing-here: deal.cards = 13 @2\n")
    checked, errors = _check(tmp_path, {"variant": ext, "minimal": minimal_text})
    missing = [e for e in errors if "override of 'nothing-here'" in e.message]
    assert [e.message for e in missing] == [
        "override of 'nothing-here', a clause that does not exist in its base rulesets"]
    assert missing[0].position.line == 2


def test_override_replaces_the_base_clause(tmp_path, minimal_text):
    from canastra_ref.dsl.build import build
    from canastra_ref.dsl.loader import files_for
    from canastra_ref.dsl.parser import parse_text
    (tmp_path / "minimal.canastra").write_text(minimal_text)
    ext = parse_text(_extension("override deal.cards = 13 @2\n"), "variant.canastra")
    ruleset = build(files_for(ext, tmp_path))
    decision = ruleset.decide("deal.cards")
    assert decision.value == 13
    assert ruleset.extends == ("minimal",)
    assert len(ruleset.settings["deal.cards"].clauses) == 1


def test_extends_an_unknown_ruleset(tmp_path):
    checked, errors = _check(tmp_path, {"variant": 'ruleset variant "x" extends nowhere\n'})
    assert "extends 'nowhere', which does not exist" in errors[0].message
    assert (errors[0].position.line, errors[0].position.column) == (1, 29)


def test_a_string_keeps_its_characters(minimal_text):
    from canastra_ref.dsl.parser import parse_text
    spec = parse_text(_edit(minimal_text, '"Minimal test ruleset"', '"café \\"x\\" \\\\ ♥"'), "minimal.canastra")
    assert spec.title == 'café "x" \\ ♥'


def test_the_file_name_is_the_ruleset_id(tmp_path, minimal_text):
    """A file classica-2p.canastra declaring ruleset classica-two passed check and was refused by play."""
    checked, errors = _check(tmp_path, {"other-name": minimal_text})
    assert [e.message for e in errors] == ["file other-name.canastra declares ruleset 'minimal'"]
    assert "ruleset other-name (the file's name)" in errors[0].expected
    assert (errors[0].position.line, errors[0].position.column) == (2, 9)


@pytest.mark.parametrize("content, message", [
    (b'ruleset minimal "caf\xe9"\n', "minimal.canastra:1:21: error: not UTF-8 text: byte 0xe9"),
    (b"#" * (1024 * 1024 + 1), "larger than 1024 KiB"),
])
def test_unreadable_spec_files(tmp_path, capsys, content, message):
    from canastra_cli.cli import main
    (tmp_path / "minimal.canastra").write_bytes(content)
    assert main(["check", str(tmp_path / "minimal.canastra")]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_spec_that_passes_check_can_be_played(tmp_path, minimal_text):
    """What check accepts, play can deal: the largest deal check allows."""
    from canastra_ref.dsl.build import build
    from canastra_ref.dsl.parser import parse_text
    from canastra_ref.engine.play import self_play
    from canastra_ref.engine.rules import Engine
    text = _edit(minimal_text, "deal.cards = 11 @2", "deal.cards = 26 @2")
    assert _check(tmp_path, {"minimal": text})[1] == []
    engine = Engine(build([parse_text(text, "minimal.canastra")]))
    record = next(self_play(engine, 1, 1))
    assert record.end["reason"]
