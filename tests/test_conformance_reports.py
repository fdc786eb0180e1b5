"""The runner's outputs (text, JSON, JUnit XML), --compare, the case filters
and bad input: exit statuses and messages, never a traceback."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from test_conformance_runner import FIXTURES, IDS, conformance, impl, report

from canastra_cli.cli import main


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return tmp_path_factory.mktemp("reports")


@pytest.fixture(scope="module")
def reports(out):
    """Two JSON reports: the reference and an implementation with wrong answers."""
    good, bad = out / "good.json", out / "bad.json"
    assert main(["conformance", "--fixtures", str(FIXTURES), "--format", "json", "--output", str(good)]) == 0
    assert main(["conformance", "--fixtures", str(FIXTURES), "--format", "json", "--output", str(bad),
                 "--impl", impl("wrong_answers")]) == 1
    return good, bad


def test_json_header_records_and_summary(reports):
    data = json.loads(reports[0].read_text())
    assert data["format"] == "canastra-conformance-report" and data["format_version"] == 2
    assert data["protocol"] == 1
    assert {"version", "digest", "fixtures", "cases"} <= set(data["suite"])
    assert data["implementation"]["language"] == "python"
    record = data["cases"]["t-cbc-opening-75"]
    assert record["file"].endswith("cbc/basics.yaml") and record["line"] == 18
    assert record["ruleset"] == "cbc" and record["articles"] == ["7", "valor.25"]
    assert set(data["summary"]) == {"total", "passed", "failed", "errored", "skipped", "other-reading", "xfail",
                                    "xpass", "citations"}
    assert data["readings"] == {} and data["judged_by_readings"] is True and data["xfail"] is None


def test_junit_is_valid_xml(out):
    code, text = conformance(out, "--impl", impl("wrong_answers"), fmt="junit")
    assert code == 1
    root = ET.fromstring(text)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("6", "2", "0", "0")
    assert [s.get("name") for s in root.findall("testsuite")] == ["cbc", "treze"]
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert list(cases) == IDS
    failure = cases["t-cbc-points-ace"].find("failure")
    assert failure is not None and "expected 15, got 14" in failure.text
    assert cases["t-cbc-opening-75"].find("system-out").text.startswith("citations: failed")
    assert cases["t-cbc-setup"].get("classname") == "cbc.basics"


def test_junit_errors_and_skips(out):
    code, text = conformance(out, "--impl", impl("partial"), fmt="junit")
    root = ET.fromstring(text)
    assert root.get("skipped") == "5" and len(root.findall(".//skipped")) == 5
    code, text = conformance(out, "--impl", impl("crash_at_start"), fmt="junit")
    root = ET.fromstring(text)
    assert root.get("errors") == "6" and len(root.findall(".//error")) == 6


def test_text_summaries_per_ruleset_and_article(out):
    code, text = conformance(out, fmt="text")
    assert code == 0
    assert "by ruleset" in text and "  cbc 7 " not in text and "(the table by article, 6 rows: --verbose)" in text
    code, text = conformance(out, "--verbose", fmt="text")
    assert "by article" in text and "  cbc 7 " in text and "  treze valor.1 " in text and "--verbose)" not in text
    assert text.rstrip().splitlines()[-1].startswith("6 cases: 6 passed, 0 failed, 0 errored, 0 skipped")


def test_text_leads_with_the_summary_then_the_failures(out):
    code, text = conformance(out, "--impl", impl("wrong_answers"), "--verbose", fmt="text")
    assert code == 1
    order = [text.index(heading) for heading in ("SUMMARY", "by ruleset", "FAILURES (2: expected vs actual)",
                                                 "CITATIONS", "by article")]
    assert order == sorted(order)
    failure = text[text.index("FAILED t-cbc-points-ace"):]
    assert failure.startswith("FAILED t-cbc-points-ace  (") and "basics.yaml:10)" in failure.splitlines()[0]
    assert failure.splitlines()[1].strip() == "an ace is worth 15 points"           # the case's description
    assert "result: expected 15" in failure and "got 14" in failure


def test_skipped_cases_grouped_by_feature(out):
    code, text = conformance(out, "--impl", impl("partial"), fmt="text")
    skipped = text[text.index("SKIPPED ("):]
    assert skipped.splitlines()[:7] == [
        "SKIPPED (5)",
        "  by the feature they need, which the implementation does not declare:",
        "       2  opening-minimum",
        "  by the ruleset, which the implementation does not claim:",
        "       2  treze",
        "  for the reason given:",
        "       1  no setup query here"]
    assert text.index("SKIPPED (") > text.index("SUMMARY")


def test_compare_shows_what_changed(out, reports, capsys):
    good, bad = reports
    assert main(["conformance", "--compare", str(good), str(bad)]) == 1     # regressions
    text = capsys.readouterr().out
    assert "regressed (2)" in text and "t-cbc-points-ace: passed -> failed" in text
    assert "citations regressed (1)" in text
    assert "summary: total 6 -> 6, passed 6 -> 4 (-2), failed 0 -> 2 (+2)" in text
    assert main(["conformance", "--compare", str(bad), str(good)]) == 0     # only fixes
    assert "fixed (2)" in capsys.readouterr().out
    target = out / "diff.json"
    assert main(["conformance", "--compare", str(good), str(bad), "--format", "json", "--output", str(target)]) == 1
    diff = json.loads(target.read_text())
    assert [e["id"] for e in diff["changes"]["regressed"]] == ["t-cbc-points-ace", "t-cbc-opening-75"]
    assert diff["clean"] is False


def test_compare_new_and_removed(out, reports, capsys):
    good = json.loads(reports[0].read_text())
    fewer = dict(good, cases={k: v for k, v in good["cases"].items() if k != "t-cbc-setup"})
    path = out / "fewer.json"
    path.write_text(json.dumps(fewer))
    assert main(["conformance", "--compare", str(path), str(reports[0])]) == 0
    assert "new (1)\n  t-cbc-setup: - -> passed" in capsys.readouterr().out


@pytest.mark.parametrize("content, message", [
    (None, "cannot read"), ("{not json", "is not JSON"), ('{"cases": {}}', "is not a conformance report"),
    # what escaped as a RecursionError, or was read whole (issue 17's limits, for files a run wrote)
    ("[" * 100_000 + "]" * 100_000, "bad-input.json nests arrays and objects more than 128 deep (at column 129)"),
    ('{"cases": ' + "9" * 5000 + "}", "bad-input.json holds the integer 99999999999999999999... (5000 digits)"),
    (b'{"cases": "caf\xe9"}', "bad-input.json is not UTF-8 (byte 15)"),
])
def test_compare_rejects_bad_input(out, reports, capsys, content, message):
    path = out / "missing.json"
    if content is not None:
        path = out / "bad-input.json"
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    assert main(["conformance", "--compare", str(reports[0]), str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert main(["profile", "--report", str(path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("edit, where", [
    (lambda r: r["summary"].update(total=None), "$.summary.total: None is not of type 'integer'"),
    (lambda r: r["cases"]["t-cbc-setup"].update(mismatches=[{"path": 3}]), "$.cases.t-cbc-setup.mismatches[0].path"),
    (lambda r: r.update(implementation="x"), "$.implementation: 'x' is not of type 'object', 'null'"),
    (lambda r: r.update(readings={"cbc": ["x"]}), "$.readings.cbc"),
])
def test_a_report_read_back_has_the_report_form(out, reports, capsys, edit, where):
    """--compare and profile --report used the values of a report as they came:
    a summary total of null raised TypeError (found by tests/test_fuzz_reports.py)."""
    data = json.loads(reports[1].read_text())
    edit(data)
    path = out / "edited.json"
    path.write_text(json.dumps(data))
    assert main(["conformance", "--compare", str(reports[0]), str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path} is not a valid conformance report at {where}" in err and "Traceback" not in err
    assert main(["profile", "--report", str(path)]) == 2
    assert f"is not a valid conformance report at {where}" in capsys.readouterr().err


def test_every_report_written_has_the_report_form(reports, tmp_path):
    """What the runner writes is what the schema --compare checks against says (a run that stopped early too)."""
    from canastra_conformance.compare import load_report
    for path in reports:
        load_report(str(path))
    stopped = tmp_path / "stopped.json"
    main(["conformance", "--fixtures", str(FIXTURES), "--format", "json", "--output", str(stopped),
          "--impl", impl("crash_at_start")])
    assert json.loads(stopped.read_text())["start_error"]
    load_report(str(stopped))


@pytest.mark.parametrize("args, ids", [
    (["--ruleset", "treze"], IDS[4:]),
    (["--article", "7"], ["t-cbc-opening-75", "t-cbc-minimum-2490"]),
    (["--article", "valor"], ["t-cbc-points-ace", "t-cbc-opening-75", "t-cbc-minimum-2490", "t-treze-points-ace"]),
    (["--id", "t-*-setup"], ["t-cbc-setup", "t-treze-setup"]),
    (["--ruleset", "cbc", "--id", "*points*"], ["t-cbc-points-ace"]),
])
def test_filters(out, args, ids):
    code, data = report(out, *args)
    assert code == 0 and list(data["cases"]) == ids


def test_skip_file(out):
    skip = out / "skip.txt"
    skip.write_text("# known gaps\nt-cbc-opening-*   # not yet\n\nt-treze-setup\n")
    code, data = report(out, "--skip", str(skip))
    assert code == 0
    assert data["cases"]["t-cbc-opening-75"] == {**data["cases"]["t-cbc-opening-75"], "status": "skipped",
                                                 "message": f"listed in {skip}:2"}
    assert data["cases"]["t-treze-setup"]["message"] == f"listed in {skip}:4"
    assert data["summary"]["skipped"] == 2 and data["summary"]["passed"] == 4


@pytest.mark.parametrize("args, message", [
    (["--ruleset", "nope"], "unknown ruleset 'nope'"),
    (["--id", "nothing-*"], "no case matches the filters"),
    (["--skip", "/no/such/skip/file"], "cannot read the skip file"),
    (["--impl", "'unclosed"], "--impl is not a valid command line"),
    (["--impl", ""], "--impl is empty"),
    (["--fixtures", "/no/such/dir"], "no fixture directory"),
])
def test_usage_errors(capsys, args, message):
    argv = ["conformance", "--fixtures", str(FIXTURES), *args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_timeout_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["conformance", "--timeout", "-1"])
    assert info.value.code == 2
    assert "more than 0 seconds" in capsys.readouterr().err


def test_broken_fixture_files_are_reported(tmp_path, capsys):
    (tmp_path / "cbc").mkdir()
    (tmp_path / "cbc" / "bad.yaml").write_text("- id: x\n  ruleset: cbc\n")
    assert main(["conformance", "--fixtures", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "bad.yaml:1:3" in err and "Traceback" not in err


def test_progress_on_a_terminal_and_in_a_log():
    import io

    from canastra_conformance.progress import Progress
    stream = io.StringIO()                    # a log: a plain line every tenth (at least 10 items apart), the last
    progress = Progress(stream, 205, "cases", label="conformance", counted=("passed", "failed"))
    for i in range(205):
        progress.update(f"case-{i}", "failed" if i == 30 else "passed")
    progress.finish()
    assert stream.getvalue().splitlines() == ["conformance: [ 21/205] cases: 21 passed, 0 failed",
                                              *[f"conformance: [{n:>3}/205] cases: {n - 1} passed, 1 failed"
                                                for n in (42, 63, 84, 105, 126, 147, 168, 189, 205)]]
    stream = io.StringIO()
    progress = Progress(stream, 6, "mutants", label="cbc")
    for i in range(6):
        progress.update()
    assert stream.getvalue() == "cbc: [6/6] mutants\n"      # a short piece of work: its end only
    stream = io.StringIO()
    progress = Progress(stream, 2, tty=True, interval=0, counted=("passed", "failed"))
    progress.update("a", "passed")
    progress.update("b", "failed")
    progress.finish()
    text = stream.getvalue()
    assert "[1/2] cases: 1 passed, 0 failed  a" in text and "[2/2] cases: 1 passed, 1 failed  b" in text
    assert text.endswith("\r\x1b[K") and "\n" not in text


def test_progress_of_work_measured_in_seconds():
    """canastra fuzz reports seconds (or hands) done, with the steps so far in words:
    in a log, a line as each tenth is passed, however far a report jumps."""
    import io

    from canastra_conformance.progress import Progress
    stream = io.StringIO()
    progress = Progress(stream, 0)
    progress.group("cbc", 600, "seconds")
    for done in (3, 59, 61, 62, 185, 599.6, 600.2):
        progress.at(done, f"{done * 100:,.0f} steps, 0 differences")
    assert stream.getvalue().splitlines() == ["cbc: [ 61/600] seconds: 6,100 steps, 0 differences",
                                              "cbc: [185/600] seconds: 18,500 steps, 0 differences",
                                              "cbc: [599/600] seconds: 59,960 steps, 0 differences",
                                              "cbc: [600/600] seconds: 60,020 steps, 0 differences"]
