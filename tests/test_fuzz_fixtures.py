"""Fuzzing fixture files: the suite's own files with lines dropped, repeated,
swapped or spoiled with what YAML can say (anchors and aliases, tags, deep
nesting, huge numbers, NaN, dates, control characters), and arbitrary text.
Loading refuses with a position, or gives cases the runner can send, the
reference answers in the protocol's shape, and grading grades."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import yaml
from fuzzing import bounded, fuzz_settings, mutated_data, mutated_text, no_cache, positioned
from hypothesis import given
from hypothesis import strategies as st

from canastra_conformance.fixtures import fixture_files, load_all
from canastra_conformance.grading import grade, message_for
from canastra_conformance.messages import problem_with
from canastra_conformance.runner import encode
from canastra_ref import protocol
from canastra_ref.errors import CanastraError, ErrorList

FILES = [path.read_text(encoding="utf-8") for path in fixture_files()]
TOKENS = ["&a", "*a", "&b [*a, *a, *a]", "!!int", "!!bool", "!!str", "!!binary", "!foo", "!!python/name:os.system",
          "!!timestamp", "2001-01-01", ".nan", "-.inf", "9" * 30, "-" + "9" * 5000, "0x1F", "1_000", "~", "null",
          "yes", "[" * 70, "]" * 70, "{", "}", "- ", ": ", "? ", "---", "...", "|", ">", "'", '"', "#", "\t",
          "\x00", "\x1b[2J", "\u202e", "é", "JK", "10s", "Zz", "N", "NS", "ended: {player: N}",
          "pending: {at: 2001-01-01}", "opening_undo: {x: 1}", "deal: {deck: 5h 6h}", "<<: *a"]


@st.composite
def mutated(draw) -> str:
    text = draw(st.sampled_from(FILES))
    if draw(st.booleans()):                   # well-formed YAML, a value somewhere changed
        return yaml.safe_dump(draw(mutated_data(yaml.safe_load(text))), allow_unicode=True)
    return draw(mutated_text([text], [t + end for t in TOKENS for end in ("", " ", ",")]))


PLACE = Path(tempfile.mkdtemp(prefix="canastra-fuzz-fixtures-"))


def _check(write) -> None:
    """Write one fixture file (by `write(path)`) under PLACE/cbc/ and load the directory."""
    path = PLACE / "cbc" / "fuzz.yaml"
    path.parent.mkdir(exist_ok=True)
    write(path)
    with no_cache(), bounded():
        try:
            cases = load_all(PLACE)
        except (CanastraError, ErrorList) as exc:
            positioned(exc)
            return
        for case in cases:                      # what loads can be sent, answered and graded
            try:
                message = message_for(case)
            except (CanastraError, ErrorList) as exc:     # a state the deck cannot complete: a JSON path
                positioned(exc)
                continue
            assert problem_with("run", json.loads(encode(message))) is None
            answer = protocol.handle(message)
            assert problem_with("run-answer", answer) is None and "internal error" not in answer.get("message", "")
            grade(case, answer)


@fuzz_settings(200)
@given(text=mutated())
def test_mutated_fixture_files(text):
    _check(lambda path: path.write_text(text, encoding="utf-8"))


@fuzz_settings(200)
@given(text=st.text(max_size=300))
def test_arbitrary_text_as_a_fixture_file(text):
    _check(lambda path: path.write_text(text, encoding="utf-8", errors="surrogatepass"))


@fuzz_settings(50)
@given(data=st.binary(max_size=300))
def test_arbitrary_bytes_as_a_fixture_file(data):
    _check(lambda path: path.write_bytes(data))
