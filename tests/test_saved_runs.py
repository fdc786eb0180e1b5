"""Saved runs (canastra_tools.saved_runs, docs/implementations/*.json): what
they keep of a conformance report, and the report site built from them
showing expected versus actual; older saved runs still read, later ones and
mangled ones refused with a clear message."""
from __future__ import annotations

import json
import sys

import pytest
from conftest import DATA, SMALL_FIXTURES

from canastra_cli.cli import main
from canastra_conformance.fixtures import load_all
from canastra_conformance.policy import KEPT_VALUE, MESSAGE_LIMIT
from canastra_ref import __version__
from canastra_tools.saved_runs import FORMAT, FORMAT_VERSION, dump, saved_run


def _report(tmp_path, impl: str) -> dict:
    out = tmp_path / f"{impl}.json"
    main(["conformance", "--fixtures", str(SMALL_FIXTURES), "--format", "json", "--output", str(out),
          "--every-reading", "--impl", f"{sys.executable} {DATA / 'impls' / impl}.py"])
    return json.loads(out.read_text(encoding="utf-8"))


def _saved(tmp_path, impl: str) -> tuple[dict, object]:
    run = saved_run(_report(tmp_path, impl), load_all(SMALL_FIXTURES), spec_commit="0000000", engine_commit="1111111")
    path = tmp_path / f"{impl}.saved.json"
    path.write_text(dump(run), encoding="utf-8")
    return run, path


def _site(tmp_path, path) -> object:
    site = tmp_path / "site"
    assert main(["report", str(path), "--out", str(site), "--fixtures", str(SMALL_FIXTURES)]) == 0
    return site


@pytest.fixture
def wrong(tmp_path):
    return _saved(tmp_path, "wrong_answers")


def test_a_saved_run_keeps_the_answers_of_the_cases_that_did_not_pass(wrong):
    run, path = wrong
    assert run["format"] == FORMAT and run["format_version"] == FORMAT_VERSION == 2
    assert run["date"] and run["canastra_spec"]["version"] == __version__
    assert json.loads(path.read_text(encoding="utf-8")) == run
    cases = run["cases"]
    # tests/data/conformance/cbc/basics.yaml: an ace is worth 15 points; this implementation answers 14
    assert cases["t-cbc-points-ace"][2] == {"mismatches": [{"path": "result", "expected": 15, "actual": 14}]}
    # its opening stays pending where the fixture expects it made
    (mismatch,) = cases["t-cbc-opening-75"][2]["mismatches"]
    assert mismatch == {"path": "results[1].reason", "expected": "opening.made", "actual": "opening.pending"}
    passed = [item for item in cases.values() if item[0] == "passed"]
    assert passed and all(len(item) == 2 for item in passed)


def test_cases_never_sent_are_left_out_and_those_the_engine_skipped_kept(tmp_path):
    run, _ = _saved(tmp_path, "partial")       # claims cbc and three features; skips t-cbc-setup itself
    assert run["cases"]["t-cbc-setup"][0] == "skipped" and run["cases"]["t-cbc-setup"][2]["message"]
    assert "t-cbc-points-ace" in run["cases"]
    assert not any(i.startswith("t-treze") for i in run["cases"])          # a ruleset it does not claim
    assert "t-cbc-opening-75" not in run["cases"]                          # a feature it does not claim


def test_the_answers_kept_are_bounded_as_a_report_bounds_them(tmp_path):
    run, path = _saved(tmp_path, "huge_answers")        # 4 MB of padding in every answer
    for item in run["cases"].values():
        for mismatch in (item[2] if len(item) == 3 else {}).get("mismatches", []):
            assert len(json.dumps(mismatch["actual"])) < KEPT_VALUE + 400
        assert len((item[2] if len(item) == 3 else {}).get("message", "")) < MESSAGE_LIMIT + 100
    assert "not kept" in path.read_text(encoding="utf-8")
    assert path.stat().st_size < 20 * (KEPT_VALUE + MESSAGE_LIMIT)


def test_the_site_of_a_saved_run_shows_expected_and_actual(tmp_path, wrong):
    _, path = wrong
    text = (_site(tmp_path, path) / "cases" / "canastra-ref-0-1-0" / "cbc.html").read_text(encoding="utf-8")
    ace = text[text.index('id="c-t-cbc-points-ace"'):]
    ace = ace[:ace.index("</section>")]
    assert "<pre>15</pre>" in ace and "<pre>14</pre>" in ace
    assert "opening.pending" in text
    assert "older format" not in text and "keeps what the implementation" in text


def test_hostile_answers_of_a_saved_run_are_shown_as_text(tmp_path):
    _, path = _saved(tmp_path, "hostile_html")
    site = _site(tmp_path, path)
    shown = [p.read_text(encoding="utf-8") for p in (site / "cases").rglob("*.html")]
    assert not any("<script>alert" in text or "<img" in text for text in shown)
    assert any("no &lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;" in text for text in shown)


def test_a_saved_run_of_format_1_still_reads(tmp_path, wrong):
    run, _ = wrong
    older = {k: v for k, v in run.items() if k != "date"}
    older["format_version"] = 1
    older["canastra_spec"] = {k: v for k, v in run["canastra_spec"].items() if k != "version"}
    older["cases"] = {i: item[:2] for i, item in run["cases"].items() if item[0] != "skipped"}
    path = tmp_path / "older.json"
    path.write_text(dump(older), encoding="utf-8")
    text = (_site(tmp_path, path) / "cases" / "canastra-ref-0-1-0" / "cbc.html").read_text(encoding="utf-8")
    assert "older format" in text and "<pre>14</pre>" not in text


@pytest.mark.parametrize("change, message", [
    (lambda run: run.update(format_version=3), "is a saved implementation run of format version 3"),
    (lambda run: run["cases"].update({"t-cbc-points-ace": "failed"}), "case 't-cbc-points-ace'"),
    (lambda run: run["cases"].update({"t-cbc-points-ace": ["failed", ["2"], "14"]}), "case 't-cbc-points-ace'"),
    (lambda run: run["cases"].update({"t-cbc-points-ace": ["exploded", ["2"]]}), "status 'exploded'"),
    (lambda run: run.pop("engine"), "it has no 'engine'"),
])
def test_a_later_or_mangled_saved_run_is_refused_clearly(tmp_path, capsys, wrong, change, message):
    run, _ = wrong
    change(run)
    path = tmp_path / "mangled.json"
    path.write_text(json.dumps(run), encoding="utf-8")
    assert main(["report", str(path), "--out", str(tmp_path / "site"), "--fixtures", str(SMALL_FIXTURES)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and message in err
