"""Fuzzing `canastra dispute` situations: the example situation and cases of
the suite (their expectations dropped), with lines dropped, repeated,
swapped or spoiled, and arbitrary text. A situation is refused with its
file, line and column, or ruled and printed as Markdown, HTML and JSON."""
from __future__ import annotations

import tempfile
from pathlib import Path

import yaml
from fuzzing import bounded, fuzz_settings, mutated_data, mutated_text, positioned
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_fixtures import TOKENS

from canastra_conformance.fixtures import load_all
from canastra_ref.dsl.loader import available
from canastra_ref.errors import CanastraError, ErrorList
from canastra_tools.dispute import evaluate, load_situation
from canastra_tools.ruling import RENDERERS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "docs" / "examples" / "aces-opening.yaml").read_text(encoding="utf-8")


def _situation(case) -> str:
    data = {"ruleset": case.ruleset, "reading": case.reading, "title": case.id}
    data.update({k: v for k, v in (("state", case.state), ("actions", case.actions), ("query", case.query))
                 if v is not None})
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


SITUATIONS = [EXAMPLE] + [_situation(case) for case in load_all()[::15]]
PLACE = Path(tempfile.mkdtemp(prefix="canastra-fuzz-situations-"))


@st.composite
def mutated(draw) -> str:
    text = draw(st.sampled_from(SITUATIONS))
    if draw(st.booleans()):                   # well-formed YAML, a value somewhere changed
        return yaml.safe_dump(draw(mutated_data(yaml.safe_load(text))), allow_unicode=True)
    return draw(mutated_text([text], TOKENS))


def _rule(text: str, ruleset: str) -> None:
    path = PLACE / "situation.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with bounded():
        try:
            situation = load_situation(path)
            report = evaluate(situation, rulesets=[situation.ruleset or ruleset])
        except (CanastraError, ErrorList) as exc:
            positioned(exc)
            return
        for render in RENDERERS.values():
            assert render(report)


@fuzz_settings(150)
@given(text=mutated(), ruleset=st.sampled_from(available()))
def test_mutated_situations(text, ruleset):
    _rule(text, ruleset)


@fuzz_settings(100)
@given(text=st.text(max_size=200), ruleset=st.sampled_from(available()))
def test_arbitrary_text_as_a_situation(text, ruleset):
    _rule(text, ruleset)
