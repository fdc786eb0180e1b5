"""The one YAML loader of fixture files and situations (conformance/yaml_input.py):
plain data with positions; every file that used to escape as a traceback, hang
or exhaust memory (issue 17) is refused at file:line:column."""
from __future__ import annotations

import os

import pytest
from test_fixture_loading import GOOD as CASE

from canastra_cli.cli import main
from canastra_conformance.yaml_input import load, parse
from canastra_ref.errors import CanastraError

# Nine levels of nine aliases each: a billion values once expanded.
LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8))

REFUSED = [
    ("recursive alias", "- &a [*a]\n", (1, 7), "the alias *a repeats a value that contains it"),
    ("5,000 nested lists", "[" * 5000 + "]" * 5000, (1, 1001), "nesting depth"),
    ("block nesting", "".join("  " * i + "-\n" for i in range(100)), (65, 129), "nested more than 64 deep"),
    ("a 5,000-digit integer", "x: " + "9" * 5000 + "\n", (1, 4), "(5000 characters) is too large"),
    ("beyond 2^53", "x: 9007199254740992\n", (1, 4), "the number 9007199254740992 is too large"),
    ("!!int abc", "x: !!int abc\n", (1, 4), "'abc' is not an integer"),
    ("!!bool 15", "x: !!bool 15\n", (1, 4), "'15' is not a boolean"),
    ("!foo x", "x: !foo x\n", (1, 4), "the tag !foo is not allowed"),
    ("!!python", "x: !!python/object/apply:os.system [true]\n", (1, 4), "python/object/apply:os.system is not allowed"),
    ("!!binary", "x: !!binary aGk=\n", (1, 4), "binary is not allowed"),
    ("!!set", "x: !!set {a}\n", (1, 4), "set is not allowed"),
    ("!!timestamp", "x: !!timestamp 2001-01-01\n", (1, 4), "timestamp is not allowed"),
    ("NaN", "x: .nan\n", (1, 4), "'.nan' is not a finite number"),
    ("infinity", "x: [1, -.inf]\n", (1, 8), "'-.inf' is not a finite number"),
    ("billion laughs", LAUGHS, (6, 8), "more than 100,000 values"),
    ("too many aliases", "a: &a 1\nb: [" + ", ".join(["*a"] * 101) + "]\n", (2, 405), "more than 100 aliases"),
    ("an unknown alias", "a: *b\n", (1, 4), "no anchor &b"),
    ("a duplicate key", "a: 1\nb: 2\na: 3\n", (3, 1), "duplicate key 'a'"),
    ("a list as a key", "? [a]\n: 1\n", (1, 3), "a key must be a plain value"),
    ("two documents", "a: 1\n---\nb: 2\n", (2, 1), "a second YAML document"),
    ("a control character", "a: b\x1bc\n", (1, 5), "the character '\\x1b' is not allowed"),
    ("a syntax error", "a: [1, 2\n", (2, 1), "not valid YAML: did not find expected ',' or ']'"),
]


@pytest.mark.parametrize("text, where, message", [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused_with_a_position(text, where, message):
    with pytest.raises(CanastraError) as info:
        parse(text, "f.yaml")
    error = info.value
    assert message in error.message
    assert (error.position.file, error.position.line, error.position.column) == ("f.yaml", *where)


def test_plain_data_and_positions():
    data, positions = parse("- id: x\n  state: {hands: {N: [Ah, 2c]}, n: 12, f: 1.5, t: yes, z: ~}\n"
                            "  when: 2001-01-01\n  <<: {a: 1}\n  big: -9007199254740991\n", "f.yaml")
    assert data == [{"id": "x", "state": {"hands": {"N": ["Ah", "2c"]}, "n": 12, "f": 1.5, "t": True, "z": None},
                     "when": "2001-01-01", "<<": {"a": 1}, "big": -9007199254740991}]
    assert positions["$[0].state.hands.N[1]"] == (2, 27)
    assert positions["$[0].when"] == (3, 9)


def test_aliases_within_budget_are_copies():
    data, _ = parse("a: &a [1, 2]\nb: *a\n", "f.yaml")
    assert data == {"a": [1, 2], "b": [1, 2]} and data["a"] is not data["b"]


@pytest.mark.parametrize("make, message", [
    (lambda p: p.write_bytes(b"a: caf\xe9\n"), "f.yaml:1:7: error: not UTF-8 text: byte 0xe9"),
    (lambda p: p.mkdir(), "cannot read"),
    (lambda p: os.mkfifo(p), "not a regular file"),
    (lambda p: p.write_bytes(b"#" * (1024 * 1024 + 1)), "larger than 1024 KiB"),
])
def test_unreadable_files(tmp_path, make, message):
    path = tmp_path / "f.yaml"
    make(path)
    with pytest.raises(CanastraError) as info:
        load(path)
    assert message in info.value.render()




@pytest.mark.parametrize("edit, where", [
    (lambda t: "- &a [*a]\n", ":1:7:"),
    (lambda t: "[" * 5000 + "]" * 5000, ":1:1001:"),
    (lambda t: t.replace("106}}", "1" + "0" * 5000 + "}}"), ":7:32:"),
    (lambda t: t.replace("setup: true", "setup: !!int abc"), ":6:18:"),
    (lambda t: t.replace("setup: true", "setup: !!bool 15"), ":6:18:"),
    (lambda t: t.replace("setup: true", "setup: !foo x"), ":6:18:"),
    (lambda t: t.replace("106}}", ".nan}}"), ":7:32:"),
    (lambda t: LAUGHS, ":6:8:"),
    (lambda t: t.replace("query: {setup: true}", "state: {pending: {at: 2001-01-01}}\n  actions: "
                                                 "[{player: N, draw: stock}]").replace(
        "expect: {result: {deck_size: 106}}", "expect: [{verdict: accepted}]"), ":6:20:"),
])
def test_conformance_refuses_bad_fixture_files(tmp_path, capsys, edit, where):
    """A fixture file under --fixtures DIR/cbc/: an error at its position, never a traceback or a hang."""
    (tmp_path / "cbc").mkdir()
    path = tmp_path / "cbc" / "bad.yaml"
    path.write_text(edit(CASE), encoding="utf-8")
    assert main(["conformance", "--fixtures", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}{where}" in err and "Traceback" not in err


def test_conformance_refuses_a_directory_named_like_a_fixture_file(tmp_path, capsys):
    (tmp_path / "cbc" / "x.yaml").mkdir(parents=True)
    (tmp_path / "cbc" / "good.yaml").write_text(CASE, encoding="utf-8")
    assert main(["conformance", "--fixtures", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "x.yaml: Is a directory" in err and "Traceback" not in err
