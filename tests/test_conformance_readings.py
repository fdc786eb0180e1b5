"""Declared readings (PROTOCOL.md, "readings" in the answer to start): the
runner grades a case only where its expectations hold under the readings the
implementation declares; the others are other-reading, never failures; a
declaration naming what the suite does not have stops the run at start.
The fixtures are tests/data/readings/, the implementations tests/data/impls/."""
from __future__ import annotations

import json
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from canastra_cli.cli import main
from canastra_conformance.compare import load_report

DATA = Path(__file__).resolve().parent / "data"
FIXTURES = DATA / "readings"
SAME_SUIT = {"cbc": {"aces-suit": "same-suit"}}


def follows(readings: dict, *flags: str) -> str:
    return shlex.join([sys.executable, str(DATA / "impls" / "follows_readings.py"), json.dumps(readings), *flags])


def run(tmp_path: Path, impl: str, *args: str, fmt: str = "json") -> tuple[int, str]:
    out = tmp_path / f"report-{len(list(tmp_path.iterdir()))}.{fmt}"
    code = main(["conformance", "--fixtures", str(FIXTURES), "--impl", impl, "--format", fmt, "--output", str(out),
                 *args])
    if fmt == "json":           # of the form --compare reads
        load_report(str(out))
    return code, out.read_text(encoding="utf-8")


def statuses(data: dict) -> dict[str, str]:
    return {case_id: record["status"] for case_id, record in data["cases"].items()}


def test_cases_under_other_readings_are_not_failures(tmp_path):
    code, text = run(tmp_path, follows(SAME_SUIT, "--declare"))
    data = json.loads(text)
    assert code == 0
    assert data["readings"] == SAME_SUIT and data["judged_by_readings"] is True
    assert statuses(data) == {
        "r-aces-any-suit": "other-reading",     # names the reading the engine does not follow
        "r-aces-unnamed": "other-reading",      # names none, but holds only under the default any-suit
        "r-aces-same-suit": "passed",
        "r-ace-points-same-suit": "passed",
        "r-kings-no-set": "passed",             # names none and holds under either reading: graded
        "r-three-zero": "passed", "r-three-five": "passed"}      # three-points is not declared: graded
    record = data["cases"]["r-aces-unnamed"]
    assert record["other_reading"] == [{"dispute": "aces-suit", "assumes": "any-suit", "declared": "same-suit"}]
    assert record["message"] == "written under aces-suit=any-suit; the implementation declares aces-suit=same-suit"
    assert data["summary"]["other-reading"] == 2 and data["summary"]["failed"] == 0


def test_undeclared_disputes_are_graded_as_before(tmp_path):
    """The same engine without the declaration fails what it does not follow;
    an engine that follows one reading of three-points fails the other's case."""
    code, text = run(tmp_path, follows({"cbc": {"aces-suit": "same-suit", "three-points": "five"}}))
    data = json.loads(text)
    assert code == 1 and data["readings"] == {}
    assert {i for i, s in statuses(data).items() if s == "failed"} == {"r-aces-any-suit", "r-aces-unnamed",
                                                                        "r-three-zero"}


def test_every_reading_sends_every_case(tmp_path):
    code, text = run(tmp_path, follows(SAME_SUIT, "--declare"), "--every-reading")
    data = json.loads(text)
    assert code == 1 and data["judged_by_readings"] is False and data["readings"] == SAME_SUIT
    assert data["summary"]["other-reading"] == 0 and data["summary"]["failed"] == 2


def test_the_text_and_junit_reports_show_the_status(tmp_path):
    code, text = run(tmp_path, follows(SAME_SUIT, "--declare"), fmt="text")
    assert "declared readings:\n  cbc: aces-suit=same-suit" in text
    assert "other-reading" in next(line for line in text.splitlines() if line.startswith("by ruleset"))
    assert "OTHER READING (written under a reading the implementation does not declare; not sent)\n" \
           "     2  cbc: aces-suit=any-suit, declared same-suit" in text
    assert text.rstrip().splitlines()[-1].startswith("7 cases: 5 passed, 0 failed, 0 errored, 0 skipped, "
                                                     "2 other-reading;")
    code, xml = run(tmp_path, follows(SAME_SUIT, "--declare"), fmt="junit")
    root = ET.fromstring(xml)
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("7", "0", "2")
    skipped = {c.get("name"): c.find("skipped") for c in root.iter("testcase")}
    assert skipped["r-aces-any-suit"].get("type") == "other-reading"
    assert skipped["r-aces-same-suit"] is None


def test_compare_shows_the_change_of_status(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    main(["conformance", "--fixtures", str(FIXTURES), "--impl", follows(SAME_SUIT), "--format", "json",
          "--output", str(a)])
    main(["conformance", "--fixtures", str(FIXTURES), "--impl", follows(SAME_SUIT, "--declare"), "--format", "json",
          "--output", str(b)])
    capsys.readouterr()
    assert main(["conformance", "--compare", str(a), str(b)]) == 0        # nothing regressed
    out = capsys.readouterr().out
    assert "changed (2)\n  r-aces-any-suit: failed -> other-reading" in out
    assert "other-reading 0 -> 2 (+2)" in out


@pytest.mark.parametrize("declared,where,expected", [
    ({"cbc": {"aces-suit": "same-suits"}}, "$.readings.cbc.aces-suit: unknown reading 'same-suits'",
     "expected one of: any-suit, same-suit"),
    ({"cbc": {"aces": "same-suit"}}, "$.readings.cbc.aces: unknown dispute 'aces' of cbc",
     "expected one of: first-card, three-points,"),
    ({"cbd": {}}, "$.readings.cbd: unknown ruleset 'cbd'", "expected one of: casa, cbc, classica,"),
])
def test_a_wrong_declaration_is_a_clear_error_at_start(tmp_path, declared, where, expected):
    code, text = run(tmp_path, follows({}, "--declare-json", json.dumps(declared)))
    data = json.loads(text)
    assert code == 1
    assert data["start_error"].startswith("the implementation did not start: its declared readings name what the "
                                          "suite does not have: ")
    assert where in data["start_error"] and expected in data["start_error"]
    assert set(statuses(data).values()) == {"errored"}


def test_readings_for_a_ruleset_it_does_not_claim(tmp_path):
    impl = shlex.join([sys.executable, str(DATA / "impls" / "partial.py"), "--readings",
                       json.dumps({"treze": {"set-ranks": "aces-only"}})])
    code, text = run(tmp_path, impl)
    assert code == 1
    assert "$.readings.treze: readings for 'treze', which is not among the rulesets it claims (cbc)" \
        in json.loads(text)["start_error"]


def test_a_declaration_of_the_wrong_shape_breaks_the_protocol(tmp_path):
    code, text = run(tmp_path, follows({}, "--declare-json", json.dumps({"cbc": ["same-suit"]})))
    start_error = json.loads(text)["start_error"]
    assert "started.schema.json" in start_error and "$.readings.cbc" in start_error
