"""Fuzzing the JSON files a run leaves (conformance reports, saved runs),
which canastra conformance --compare, profile --report and canastra report
read back: a report of the small suite with values nudged, replaced,
dropped or added, and its text cut, spoiled or nested deep. Each file is
refused with an error naming it, or compared, profiled and read as a run
of the report site."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from fuzzing import bounded, fuzz_settings, mutated_data, mutated_text
from hypothesis import given
from hypothesis import strategies as st

from canastra_cli.cli import main
from canastra_conformance.compare import compare, compare_text, load_report
from canastra_conformance.fixtures import load_all
from canastra_conformance.profile import profile
from canastra_conformance.profile_report import FORMATS, render
from canastra_ref.errors import CanastraError
from canastra_tools.site.runs import read

FIXTURES = Path(__file__).resolve().parent / "data" / "conformance"
PLACE = Path(tempfile.mkdtemp(prefix="canastra-fuzz-reports-"))
CASES = load_all(FIXTURES)


def _reports() -> list[str]:
    """A report of the reference and one of an implementation answering wrong."""
    texts = []
    for impl in ([], ["--impl", f"python {FIXTURES.parent / 'impls' / 'wrong_answers.py'}"]):
        out = PLACE / f"report-{len(texts)}.json"
        main(["conformance", "--fixtures", str(FIXTURES), "--format", "json", "--output", str(out), *impl])
        texts.append(out.read_text(encoding="utf-8"))
    return texts


REPORTS = _reports()
TOKENS = ['"x"', "null", "[]", "{}", "-1", "1e999", "NaN", "9" * 5000, "[" * 200, '"\\u0000"', '"\x1b[2J"']


@st.composite
def reports(draw) -> bytes:
    text = draw(st.sampled_from(REPORTS))
    how = draw(st.sampled_from(["data", "data", "text", "cut", "bytes"]))
    if how == "data":
        return json.dumps(draw(mutated_data(json.loads(text))), ensure_ascii=False).encode("utf-8")
    if how == "text":
        return draw(mutated_text([json.dumps(json.loads(text), indent=1)], TOKENS)).encode("utf-8", "surrogatepass")
    if how == "cut":
        return text.encode("utf-8")[:draw(st.integers(0, len(text)))]
    data = text.encode("utf-8")
    at = draw(st.integers(0, len(data)))
    return data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]


@fuzz_settings(150)
@given(content=reports())
def test_a_mangled_report_is_refused_or_read(content):
    path = PLACE / "fuzz.json"
    path.write_bytes(content)
    with bounded():
        try:
            report = load_report(str(path))
        except CanastraError as exc:
            assert str(path) in exc.render() and len(exc.render()) < 10_000
            return
        good = json.loads(REPORTS[0])
        assert isinstance(compare_text(compare(good, report), "good.json", str(path)), str)
        for fmt in FORMATS:
            assert render(profile(report, CASES), fmt)
        try:
            read(str(path))
        except CanastraError as exc:
            assert str(path) in exc.render()
