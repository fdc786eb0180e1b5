"""The pytest plugin: `pytest conformance/` collects one item per fixture case,
named by its id, run against the reference in-process or against
--canastra-impl through the protocol. (Run in subprocesses: the plugin is not
part of this test session.)"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from test_conformance_runner import FIXTURES, IDS, impl

ROOT = Path(__file__).resolve().parents[1]


def pytest_run(*args: str, fixtures: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if fixtures is not None:
        env["CANASTRA_FIXTURES_DIR"] = str(fixtures)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_pytest_conformance_collects_one_item_per_case():
    from canastra_conformance.fixtures import load_all
    done = pytest_run("conformance/", "--collect-only")
    assert done.returncode == 0, done.stdout + done.stderr
    collected = [line.split("::", 1)[1] for line in done.stdout.splitlines() if "::" in line]
    assert collected == [case.id for case in load_all()]


def test_the_plugin_against_the_reference_in_process():
    done = pytest_run("-p", "canastra_conformance.pytest_plugin", str(FIXTURES), "-vv", fixtures=FIXTURES)
    assert done.returncode == 0, done.stdout + done.stderr
    for case_id in IDS:
        assert f"::{case_id} PASSED" in done.stdout
    assert "6 passed" in done.stdout


def test_the_plugin_against_an_implementation():
    done = pytest_run("-p", "canastra_conformance.pytest_plugin", str(FIXTURES), "-rA",
                      "--canastra-impl", impl("partial"), fixtures=FIXTURES)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 5 skipped" in done.stdout
    assert "ruleset 'treze' is not supported by partial" in done.stdout
    done = pytest_run("-p", "canastra_conformance.pytest_plugin", str(FIXTURES),
                      "--canastra-impl", impl("wrong_answers"), fixtures=FIXTURES)
    assert done.returncode == 1
    assert "failed: t-cbc-points-ace" in done.stdout and "result: expected 15, got 14" in done.stdout
    assert "Traceback" not in done.stdout
    assert "2 failed, 4 passed" in done.stdout


def test_citations_warn_or_fail():
    args = ("-p", "canastra_conformance.pytest_plugin", str(FIXTURES), "-k", "opening",
            "--canastra-impl", impl("wrong_answers", "--cites-only"))
    done = pytest_run(*args, fixtures=FIXTURES)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "CitationWarning: t-cbc-opening-75: results[1].cites" in done.stdout
    done = pytest_run(*args, "--canastra-strict-cites", fixtures=FIXTURES)
    assert done.returncode == 1
    assert "citations: t-cbc-opening-75: results[1].cites: expected ['7'], got []" in done.stdout
