"""canastra conformance through the protocol: the reference passes, and every
kind of broken implementation (tests/data/impls/) gets the right report while
the run completes. The fixtures are the runner's own (tests/data/conformance/)."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from canastra_cli.cli import main

DATA = Path(__file__).resolve().parent / "data"
FIXTURES = DATA / "conformance"
IMPLS = DATA / "impls"
IDS = ["t-cbc-setup", "t-cbc-points-ace", "t-cbc-opening-75", "t-cbc-minimum-2490", "t-treze-setup",
       "t-treze-points-ace"]


def impl(name: str, *args: str) -> str:
    return shlex.join([sys.executable, str(IMPLS / f"{name}.py"), *args])


def conformance(directory: Path, *args: str, fmt: str = "json") -> tuple[int, str]:
    """Run the small suite; (exit status, the report). A JSON report must have
    the form --compare reads (conformance/schema/report.schema.json)."""
    from canastra_conformance.compare import load_report
    out = directory / f"report-{len(list(directory.iterdir()))}.{fmt}"
    code = main(["conformance", "--fixtures", str(FIXTURES), "--format", fmt, "--output", str(out), *args])
    if fmt == "json":
        load_report(str(out))
    return code, out.read_text(encoding="utf-8")


def report(directory: Path, *args: str) -> tuple[int, dict]:
    code, text = conformance(directory, *args)
    return code, json.loads(text)


def statuses(data: dict) -> dict[str, str]:
    return {case_id: record["status"] for case_id, record in data["cases"].items()}


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("reports")


# ------------------------------------------------------------------ reference

def test_the_reference_passes_through_the_subprocess(out):
    code, data = report(out)
    assert code == 0
    assert data["implementation"]["name"] == "canastra-ref"
    assert data["command"][-3:] == ["-m", "canastra_cli", "serve"]
    assert list(data["cases"]) == IDS
    assert set(statuses(data).values()) == {"passed"}
    assert data["summary"] == {"total": 6, "passed": 6, "failed": 0, "errored": 0, "skipped": 0,
                               "other-reading": 0, "xfail": 0, "xpass": 0, "citations": {"passed": 1, "failed": 0}}
    assert data["restarts"] == 0 and data["start_error"] is None
    assert data["cases"]["t-cbc-opening-75"]["citations"] == "passed"
    assert data["cases"]["t-cbc-setup"]["citations"] == "none"


def test_the_reference_grades_the_same_in_and_out_of_process(out):
    """The whole suite: the subprocess path gives every case the grade the
    in-process path gives (whatever the state of the fixtures being written)."""
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.inprocess import run_case
    report_file = out / "whole-suite.json"
    main(["conformance", "--format", "json", "--output", str(report_file)])
    data = json.loads(report_file.read_text(encoding="utf-8"))
    cases = load_all()
    assert list(data["cases"]) == [c.id for c in cases]
    for case in cases:
        _, grade = run_case(case)
        record = data["cases"][case.id]
        assert record["status"] == grade.status, case.id
        assert ("citation_mismatches" in record) == bool(grade.citations), case.id


# ------------------------------------------------------------------ faults

def test_crash_at_start(out):
    code, data = report(out, "--impl", impl("crash_at_start"))
    assert code == 1
    assert "did not start" in data["start_error"] and "exited with status 3" in data["start_error"]
    assert "boom at start" in data["start_error"]               # the last line of its stderr
    assert "RuntimeError: boom at start" in data["stderr"]
    assert set(statuses(data).values()) == {"errored"}
    assert data["implementation"] is None


def test_crash_mid_run_restarts_and_goes_on(out):
    code, data = report(out, "--impl", impl("crash_mid_run"))
    assert code == 1
    record = data["cases"]["t-cbc-points-ace"]
    assert record["status"] == "errored"
    assert "exited with status 70 before answering" in record["message"]
    assert "cannot count the points of an ace" in record["stderr"]
    assert data["restarts"] == 1
    assert [s for i, s in statuses(data).items() if i != "t-cbc-points-ace"] == ["passed"] * 5


def test_a_hang_is_killed_at_the_timeout(out):
    code, data = report(out, "--impl", impl("hang"), "--timeout", "1")
    assert code == 1
    record = data["cases"]["t-cbc-points-ace"]
    assert record["status"] == "errored" and "no answer to this case within 1 s" in record["message"]
    assert data["restarts"] == 1
    assert sum(s == "passed" for s in statuses(data).values()) == 5


def test_a_hang_at_start_is_killed_at_the_start_timeout(out):
    code, data = report(out, "--impl", shlex.join([sys.executable, "-c", "import time; time.sleep(60)"]),
                        "--start-timeout", "1")
    assert code == 1
    assert "no answer to start within 1 s" in data["start_error"]
    assert set(statuses(data).values()) == {"errored"}


def test_garbage_is_an_error_quoting_the_line(out):
    code, data = report(out, "--impl", impl("garbage"))
    assert code == 1
    record = data["cases"]["t-cbc-points-ace"]
    assert record["status"] == "errored"
    assert record["message"] == "the answer is not JSON (Expecting value at column 1): 'this is not json {'"
    assert sum(s == "passed" for s in statuses(data).values()) == 5


def test_wrong_shape_and_wrong_id(out):
    code, data = report(out, "--impl", impl("wrong_shape"))
    assert code == 1
    shape = data["cases"]["t-cbc-points-ace"]["message"]
    assert "run-answer.schema.json" in shape and "none of the keys results, result, skipped, errored" in shape
    assert '{"id": "t-cbc-points-ace", "verdict": "accepted"}' in shape
    assert data["cases"]["t-cbc-minimum-2490"]["message"] == \
        "the answer is for id 'someone-else', not 't-cbc-minimum-2490'"
    assert sum(s == "passed" for s in statuses(data).values()) == 4


def test_stderr_noise_is_kept_apart(out):
    code, data = report(out, "--impl", impl("stderr_noise"))
    assert code == 0 and set(statuses(data).values()) == {"passed"}
    assert "noise: starting up" in data["stderr"]
    for case_id, record in data["cases"].items():
        assert f"noise: got run {case_id}" in record["stderr"]
        assert "\ufffd" in record["stderr"]                      # bytes that are not UTF-8, replaced
    code, xml = conformance(out, "--impl", impl("stderr_noise"), fmt="junit")
    import xml.etree.ElementTree as ET
    root = ET.fromstring(xml)                                    # control characters did not break it
    assert "noise: got run" in root.find(".//testcase/system-err").text


def test_early_exit(out):
    code, data = report(out, "--impl", impl("exit_early"))
    assert code == 1
    assert statuses(data) == {"t-cbc-setup": "passed", "t-cbc-points-ace": "passed",
                              "t-cbc-opening-75": "errored", "t-cbc-minimum-2490": "passed",
                              "t-treze-setup": "passed", "t-treze-points-ace": "errored"}
    assert "exited with status 0 before answering this case" in data["cases"]["t-cbc-opening-75"]["message"]
    assert data["restarts"] == 1


@pytest.mark.parametrize("args, message", [
    ((), "it speaks protocol 2; this runner speaks protocol 1"),
    (("--refuse",), "it refused to start: I only speak protocol 2 (it speaks protocol 2)"),
])
def test_wrong_protocol_version(out, args, message):
    code, data = report(out, "--impl", impl("wrong_protocol", *args))
    assert code == 1
    assert data["start_error"] == f"the implementation did not start: {message}"
    assert set(statuses(data).values()) == {"errored"}


def test_a_command_that_cannot_run(out):
    code, data = report(out, "--impl", "/no/such/implementation --flag")
    assert code == 1
    assert data["start_error"].startswith("the implementation did not start: cannot run")


def test_unsupported_cases_are_skipped_not_failed(out):
    code, data = report(out, "--impl", impl("partial"))
    assert code == 0
    assert statuses(data) == {"t-cbc-setup": "skipped", "t-cbc-points-ace": "passed",
                              "t-cbc-opening-75": "skipped", "t-cbc-minimum-2490": "skipped",
                              "t-treze-setup": "skipped", "t-treze-points-ace": "skipped"}
    assert data["cases"]["t-cbc-setup"]["message"] == "no setup query here"
    assert data["cases"]["t-treze-setup"]["message"] == "ruleset 'treze' is not supported by partial"
    assert "opening-minimum" in data["cases"]["t-cbc-minimum-2490"]["message"]
    assert data["summary"]["skipped"] == 5


def test_wrong_answers_fail_with_expected_and_actual(out):
    code, data = report(out, "--impl", impl("wrong_answers"))
    assert code == 1
    ace = data["cases"]["t-cbc-points-ace"]
    assert ace["status"] == "failed" and ace["mismatches"] == [{"path": "result", "expected": 15, "actual": 14}]
    opening = data["cases"]["t-cbc-opening-75"]
    assert opening["status"] == "failed" and opening["citations"] == "failed"
    assert {"path": "results[1].reason", "expected": "opening.made", "actual": "opening.pending"} \
        in opening["mismatches"]
    code, text = conformance(out, "--impl", impl("wrong_answers"), fmt="text")
    assert "FAILED t-cbc-points-ace" in text and "result: expected 15" in text and "got 14" in text
    assert "6 cases: 4 passed, 2 failed, 0 errored, 0 skipped; citations 0/1" in text


def test_a_failed_restart_errors_the_rest_and_the_run_completes(out):
    marker = out / "started-once"
    code, data = report(out, "--impl", impl("crash_then_no_restart", str(marker)))
    assert code == 1
    assert statuses(data) == {"t-cbc-setup": "passed", **{i: "errored" for i in IDS[1:]}}
    assert "exited with status 70" in data["cases"]["t-cbc-points-ace"]["message"]
    assert data["start_error"].startswith("the implementation could not be restarted: the implementation "
                                          "exited with status 5 before answering start")
    for case_id in IDS[2:]:
        assert data["cases"][case_id]["message"] == data["start_error"]
    assert "cannot start twice" in data["stderr"]
    code, text = conformance(out, "--impl", impl("crash_then_no_restart", str(marker)), fmt="text")
    assert "ERRORED 6 cases never sent: the implementation did not start" in text


def test_parts_the_implementation_does_not_compute_are_not_graded(out):
    """An answer's `unsupported` paths: a case that expects something there is
    skipped when the rest passes, failed when the rest fails."""
    code, data = report(out, "--impl", impl("unsupported"))
    assert code == 0
    setup, opening = data["cases"]["t-cbc-setup"], data["cases"]["t-cbc-opening-75"]
    assert setup["status"] == "skipped"
    assert setup["message"] == "expects result.deck_size, which the implementation does not compute (unsupported)"
    assert opening["status"] == "skipped" and "results[1].state.teams.NS.opened" in opening["message"]
    code, data = report(out, "--impl", impl("unsupported", "--wrong-deal"))
    setup = data["cases"]["t-cbc-setup"]
    assert code == 1 and setup["status"] == "failed"
    assert [m["path"] for m in setup["mismatches"]] == ["result.cards_dealt"]
    assert setup["message"] == "graded without result.deck_size (unsupported)"


# ------------------------------------------------ runs that used to be lost (issue 17)

def test_an_answer_nested_100000_deep_errors_its_case_and_the_run_goes_on(out):
    code, data = report(out, "--impl", impl("deep_answer"))
    assert code == 1
    record = data["cases"]["t-cbc-points-ace"]
    assert record["status"] == "errored"
    assert record["message"].startswith("the answer nests arrays and objects more than 64 deep (at column 101)")
    assert data["restarts"] == 1 and sum(s == "passed" for s in statuses(data).values()) == 5


def test_an_answer_line_beyond_the_limit_errors_its_case_and_the_run_goes_on(out):
    """An answer line longer than 16 MiB is not read whole: the case is errored
    quoting its start, the process restarted, the other cases answered."""
    code, data = report(out, "--impl", impl("endless_line"))
    assert code == 1
    record = data["cases"]["t-cbc-points-ace"]
    assert record["status"] == "errored"
    assert record["message"].startswith("an answer line longer than the protocol allows: "
                                         "'{\"id\": \"t-cbc-points-ace\", \"result\": \"xxx")
    assert len(record["message"]) < 2000
    assert data["restarts"] == 1 and sum(s == "passed" for s in statuses(data).values()) == 5


def test_huge_answers_are_graded_and_not_kept(out):
    """Answers of 4 MB each: the report keeps what grading found (a preview of
    each value that differs, a message cut short), never the answers."""
    code, text = conformance(out, "--impl", impl("huge_answers"))
    data = json.loads(text)
    assert code == 1 and len(text) < 60_000
    points = data["cases"]["t-cbc-points-ace"]["mismatches"][0]
    assert points["path"] == "result" and points["expected"] == 15
    assert points["actual"].startswith("<a list of 1,000,000 items, more than 4,096 characters of JSON, not kept: "
                                       "['Ah', 'Ah',")
    opening = data["cases"]["t-cbc-opening-75"]
    assert opening["status"] == "failed" and "not kept" in opening["mismatches"][0]["actual"]


def _cases():
    from canastra_conformance.fixtures import load_all
    return load_all(FIXTURES)


@pytest.mark.parametrize("fault, stopped", [(KeyboardInterrupt, "the run was interrupted"),
                                            (RuntimeError, "the runner failed: RuntimeError: a bug")])
def test_a_run_stopped_midway_keeps_what_it_has(fault, stopped, capsys):
    """Whatever stops a run (Ctrl-C, a bug of the runner), the cases done keep
    their outcomes and the others are errored with the reason: the report is written."""
    from canastra_conformance.results import suite_info
    from canastra_conformance.runner import Runner, reference_command
    from canastra_conformance.suite import run_suite
    seen = []

    def hook(outcome):
        seen.append(outcome.case.id)
        if len(seen) == 2:
            raise fault("a bug")
    cases = _cases()
    result = run_suite(Runner(reference_command()), cases, suite_info(FIXTURES, len(cases)), on_outcome=hook)
    assert result.stopped == stopped
    assert [o.status for o in result.outcomes[:2]] == ["passed", "passed"]
    assert {o.status for o in result.outcomes[2:]} == {"errored"}
    assert result.outcomes[3].grade.message == f"not run: {stopped}"
    assert result.to_json()["stopped"] == stopped
    from canastra_conformance.report import render
    assert f"STOPPED EARLY: {stopped}" in render(result, "text")


def test_a_fixture_that_cannot_be_sent_errors_its_case_only():
    """A state holding what JSON cannot carry (a date, as YAML made of 2001-01-01) killed the run with a TypeError."""
    import dataclasses
    import datetime

    from canastra_conformance.runner import Runner, reference_command
    cases = _cases()
    opening = next(i for i, c in enumerate(cases) if c.id == "t-cbc-opening-75")
    cases[opening] = dataclasses.replace(cases[opening], state={**cases[opening].state,
                                                                "pending": {"at": datetime.date(2001, 1, 1)}})
    runner = Runner(reference_command())
    try:
        outcomes = runner.run_all(cases)
    finally:
        runner.close()
    assert outcomes[opening].status == "errored"
    assert "cannot be turned into a message (a fault of the suite)" in outcomes[opening].grade.message
    assert [o.status for i, o in enumerate(outcomes) if i != opening] == ["passed"] * 5


def test_an_output_that_cannot_be_written_is_refused_before_the_run(tmp_path, capsys, monkeypatch):
    import canastra_cli.conformance as command
    monkeypatch.setattr(command, "run_fixtures", lambda *a, **k: pytest.fail("the run started"))
    assert main(["conformance", "--output", str(tmp_path / "no" / "such" / "report.json")]) == 2
    assert f"--output {tmp_path}/no/such/report.json: no directory {tmp_path}/no/such" in capsys.readouterr().err
    assert main(["conformance", "--output", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
