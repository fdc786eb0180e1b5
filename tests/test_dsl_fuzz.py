"""Generated and mutated spec text never raises anything but the project's
own errors: bad input is always reported, never a traceback."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canastra_ref.dsl.build import build
from canastra_ref.dsl.parser import parse_text
from canastra_ref.errors import CanastraError, ErrorList

MINIMAL = (Path(__file__).parent / "data" / "minimal.canastra").read_text(encoding="utf-8")
LINES = MINIMAL.splitlines(keepends=True)
TOKENS = ["ruleset", "article", "informative", "because", "dispute", "reading", "default", "on",
          "def", "override", "exception", "when", "unless", "under", "and", "or", "not", "yes", "no",
          "=", "==", "<=", ">", "->", "..", ".", ",", ":", "[", "]", "(", ")", "-", "+", "*", "/",
          "@7", "@", "\"x\"", "\"", "4..A", "team.score", "meld.size", "deck.decks", "12", "0",
          "\n", "\n  ", "#", "\t", "é", "then"]


def _run(text: str) -> None:
    try:
        build([parse_text(text, "fuzz.canastra")])
    except (CanastraError, ErrorList):
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_arbitrary_text(text):
    _run(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_token_soup(tokens):
    _run('ruleset fuzz "t"\n' + " ".join(tokens))


@st.composite
def mutated(draw):
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "duplicate", "swap", "token", "cut"]))
        if action == "drop":
            del lines[i]
        elif action == "duplicate":
            lines.insert(i, lines[i])
        elif action == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif action == "token":
            words = lines[i].split(" ")
            k = draw(st.integers(0, len(words) - 1))
            words[k] = draw(st.sampled_from(TOKENS))
            lines[i] = " ".join(words)
        else:
            k = draw(st.integers(0, max(len(lines[i]) - 1, 0)))
            lines[i] = lines[i][:k] + "\n"
        if not lines:
            break
    return "".join(lines)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_spec(text):
    _run(text)
