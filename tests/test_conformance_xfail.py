"""Expected failures (canastra conformance --xfail FILE, and the pytest
plugin's --canastra-xfail FILE): a listed case that fails is xfail, one that
passes is xpass and fails the run unless non-strict; a bad file is a clear
error. The fixtures are tests/data/conformance/, the implementation one that
fails t-cbc-points-ace and t-cbc-opening-75 (tests/data/impls/wrong_answers.py)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from test_conformance_pytest_plugin import pytest_run
from test_conformance_runner import FIXTURES, impl

from canastra_cli.cli import main
from canastra_conformance.compare import load_report

LISTED = """\
# known gaps of wrong_answers
t-cbc-points-ace: aces are worth 14 here
"t-cbc-opening-*": the opening never completes
t-cbc-setup: listed, but it passes
t-no-such-case-*: a stale entry
"""


@pytest.fixture
def listed(tmp_path):
    path = tmp_path / "xfail.yaml"
    path.write_text(LISTED, encoding="utf-8")
    return path


def run(tmp_path, *args, fmt="json"):
    out = tmp_path / f"report-{len(list(tmp_path.iterdir()))}.{fmt}"
    code = main(["conformance", "--fixtures", str(FIXTURES), "--impl", impl("wrong_answers"), "--format", fmt,
                 "--output", str(out), *args])
    if fmt == "json":           # of the form --compare reads
        load_report(str(out))
    return code, out.read_text(encoding="utf-8")


def test_listed_failures_are_xfail_and_a_listed_pass_is_xpass(tmp_path, listed):
    code, text = run(tmp_path, "--xfail", str(listed))
    data = json.loads(text)
    assert code == 1                                      # the xpass fails a strict run
    cases = data["cases"]
    assert cases["t-cbc-points-ace"]["status"] == "xfail" and cases["t-cbc-points-ace"]["outcome"] == "failed"
    assert cases["t-cbc-points-ace"]["xfail"] == {"pattern": "t-cbc-points-ace", "reason": "aces are worth 14 here",
                                                  "entry": f"{listed}:2"}
    assert cases["t-cbc-points-ace"]["mismatches"][0]["actual"] == 14       # what failed is kept
    assert cases["t-cbc-opening-75"]["status"] == "xfail"
    assert cases["t-cbc-setup"]["status"] == "xpass" and cases["t-cbc-setup"]["outcome"] == "passed"
    assert cases["t-treze-setup"]["status"] == "passed" and "xfail" not in cases["t-treze-setup"]
    assert data["xfail"] == {"file": str(listed), "strict": True, "unused": [
        {"pattern": "t-no-such-case-*", "reason": "a stale entry", "entry": f"{listed}:5"}]}
    assert (data["summary"]["xfail"], data["summary"]["xpass"], data["summary"]["failed"]) == (2, 1, 0)


def test_non_strict_lets_an_xpass_through(tmp_path, listed):
    code, text = run(tmp_path, "--xfail", str(listed), "--xfail-non-strict")
    assert code == 0 and json.loads(text)["xfail"]["strict"] is False


def test_without_the_xpass_the_run_passes(tmp_path):
    path = tmp_path / "gaps.yaml"
    path.write_text("t-cbc-points-ace: aces are worth 14 here\nt-cbc-opening-75: never completes\n")
    code, _ = run(tmp_path, "--xfail", str(path))
    assert code == 0


def test_text_and_junit(tmp_path, listed):
    code, text = run(tmp_path, "--xfail", str(listed), fmt="text")
    assert f"expected failures: {listed}" in text
    assert f"warning: {listed}:5: 't-no-such-case-*' matches no case of the suite" in text
    assert "XPASS t-cbc-setup" in text and f"passed, but listed as an expected failure at {listed}:4" in text
    assert "EXPECTED FAILURES (listed in the expected-failures file)\n  XFAIL t-cbc-points-ace: aces are worth 14 " \
           "here  [result: expected 15, got 14]" in text
    assert text.rstrip().splitlines()[-1].startswith("6 cases: 3 passed, 0 failed, 0 errored, 0 skipped, 2 xfail, "
                                                     "1 xpass;")
    code, xml = run(tmp_path, "--xfail", str(listed), fmt="junit")
    root = ET.fromstring(xml)
    assert (root.get("failures"), root.get("skipped")) == ("1", "2")
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert cases["t-cbc-points-ace"].find("skipped").get("type") == "xfail"
    assert cases["t-cbc-setup"].find("failure").get("type") == "xpass"


def test_compare_across_an_xfail_file(tmp_path, listed, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path, extra in ((a, []), (b, ["--xfail", str(listed)])):
        main(["conformance", "--fixtures", str(FIXTURES), "--impl", impl("wrong_answers"), "--format", "json",
              "--output", str(path), *extra])
    capsys.readouterr()
    assert main(["conformance", "--compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "t-cbc-points-ace: failed -> xfail" in out and "t-cbc-setup: passed -> xpass" in out
    assert "regressed" not in out


@pytest.mark.parametrize("text,message", [
    ("t-cbc-setup:\n", "the entry 't-cbc-setup' has no reason"),
    ("- t-cbc-setup\n", "an expected-failures file is a mapping, not a list"),
    ("t-cbc-setup: [a, b]\n", "the entry 't-cbc-setup' has no reason"),
    ("t-cbc-setup: x\nt-cbc-setup: y\n", "duplicate key 't-cbc-setup'"),
    ("t-cbc-setup: 'x\n", "not valid YAML"),
])
def test_a_bad_file_is_a_usage_error_naming_the_place(tmp_path, capsys, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    code = main(["conformance", "--fixtures", str(FIXTURES), "--xfail", str(path)])
    err = capsys.readouterr().err
    assert code in (1, 2) and message in err and str(path) in err
    assert "Traceback" not in err


def test_non_strict_needs_a_file(capsys):
    assert main(["conformance", "--fixtures", str(FIXTURES), "--xfail-non-strict"]) == 2
    assert "--xfail-non-strict needs --xfail FILE" in capsys.readouterr().err


# ------------------------------------------------------------------ the pytest plugin

def plugin(where, *args):
    return pytest_run(where, f"--canastra-fixtures={FIXTURES}", "-rA", "--canastra-impl", impl("wrong_answers"),
                      *args)


def test_the_plugin_honours_the_same_file(tmp_path, listed):
    done = plugin(tmp_path, "--canastra-xfail", str(listed))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed, 3 passed, 2 xfailed" in done.stdout
    assert "XPASS(strict)" in done.stdout and "t-cbc-setup" in done.stdout
    assert f"aces are worth 14 here ({listed}:2)" in done.stdout
    done = plugin(tmp_path, "--canastra-xfail", str(listed), "--canastra-xfail-non-strict")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed, 2 xfailed, 1 xpassed" in done.stdout


def test_the_plugin_rejects_a_bad_file(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("t-cbc-setup:\n")
    done = plugin(tmp_path, "--canastra-xfail", str(path))
    assert done.returncode == 4                           # a usage error
    assert "the entry 't-cbc-setup' has no reason" in done.stderr and f"{path}:1" in done.stderr


def test_the_plugin_skips_cases_under_other_readings(tmp_path):
    from test_conformance_readings import FIXTURES as READING_FIXTURES
    from test_conformance_readings import SAME_SUIT, follows
    done = pytest_run(tmp_path, f"--canastra-fixtures={READING_FIXTURES}", "-rA",
                      "--canastra-impl", follows(SAME_SUIT, "--declare"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 passed, 2 skipped" in done.stdout
    assert "other reading: written under aces-suit=any-suit; the implementation declares aces-suit=same-suit" \
        in done.stdout
