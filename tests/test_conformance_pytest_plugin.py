"""The pytest plugin (entry point pytest11): `pytest --canastra-impl COMMAND`
in any directory collects the installed suite, one item per case, named for a
CI's JUnit report, beside the directory's own tests. Run in subprocesses, in a
temporary directory outside the checkout: the plugin's session is not this one."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_conformance_runner import FIXTURES, IDS, impl

REFERENCE = shlex.join([sys.executable, "-m", "canastra_cli", "serve"])


def pytest_run(where: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    # --canastra-fixtures=DIR, not "--canastra-fixtures DIR": pytest picks its rootdir before it knows
    # a plugin's options, and would take DIR for a test path and look for a configuration above it
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=where,
                          capture_output=True, text=True, timeout=600, env=env)


@pytest.fixture
def elsewhere(tmp_path) -> Path:
    """An empty directory, like the root of an engine's own repository."""
    return tmp_path


def test_it_collects_one_item_per_case_of_the_installed_suite(elsewhere):
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.paths import FIXTURES_DIR
    done = pytest_run(elsewhere, "--canastra-impl", REFERENCE, "--collect-only", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    collected = [line for line in done.stdout.splitlines() if "::" in line]
    expected = [f"canastra/{Path(case.file).relative_to(FIXTURES_DIR).with_suffix('').as_posix()}::{case.id}"
                for case in load_all()]
    assert collected == expected


def test_nothing_is_collected_without_an_implementation(elsewhere):
    done = pytest_run(elsewhere, "--collect-only", "-q")
    assert done.returncode == 5 and "no tests collected" in done.stdout
    done = pytest_run(elsewhere, f"--canastra-fixtures={FIXTURES}")
    assert done.returncode == 4
    assert "--canastra-fixtures goes with --canastra-impl COMMAND" in done.stderr


def test_the_reference_passes(elsewhere):
    junit = elsewhere / "report.xml"
    done = pytest_run(elsewhere, "--canastra-impl", REFERENCE, f"--canastra-fixtures={FIXTURES}", "-v",
                      "--junitxml", str(junit))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 passed" in done.stdout
    assert "canastra/cbc/basics::t-cbc-opening-75 PASSED" in done.stdout
    cases = [(c.get("classname"), c.get("name")) for c in ET.parse(junit).getroot().iter("testcase")]
    assert cases == [(f"canastra.{case_id.split('-')[1]}.basics", case_id) for case_id in IDS]


def test_rulesets_are_chosen(elsewhere):
    done = pytest_run(elsewhere, "--canastra-impl", REFERENCE, f"--canastra-fixtures={FIXTURES}",
                      "--canastra-ruleset", "treze", "-v")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout and "t-cbc" not in done.stdout
    done = pytest_run(elsewhere, "--canastra-impl", REFERENCE, "--canastra-ruleset", "cbd")
    assert done.returncode != 0
    assert "--canastra-ruleset: unknown ruleset 'cbd'; expected one of: casa, cbc, " in done.stdout + done.stderr


def test_beside_the_repositorys_own_tests(elsewhere):
    (elsewhere / "test_engine.py").write_text("def test_own():\n    pass\n")
    args = ("--canastra-impl", REFERENCE, f"--canastra-fixtures={FIXTURES}", "-v")
    done = pytest_run(elsewhere, *args)
    assert done.returncode == 0 and "7 passed" in done.stdout, done.stdout + done.stderr
    done = pytest_run(elsewhere, *args, "-m", "canastra")
    assert "6 passed, 1 deselected" in done.stdout
    done = pytest_run(elsewhere, *args, "-m", "not canastra")
    assert "1 passed, 6 deselected" in done.stdout


def test_loaded_by_name_with_autoload_off_and_never_twice(elsewhere):
    args = ("-p", "canastra_conformance.pytest_plugin", "--canastra-impl", REFERENCE,
            f"--canastra-fixtures={FIXTURES}")
    done = pytest_run(elsewhere, *args)
    assert done.returncode == 0 and "6 passed" in done.stdout, done.stdout + done.stderr
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = pytest_run(elsewhere, *args, env=env)
    assert done.returncode == 0 and "6 passed" in done.stdout, done.stdout + done.stderr


def test_against_an_implementation(elsewhere):
    done = pytest_run(elsewhere, f"--canastra-fixtures={FIXTURES}", "-rA", "--canastra-impl", impl("partial"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 5 skipped" in done.stdout
    assert "ruleset 'treze' is not supported by partial" in done.stdout
    done = pytest_run(elsewhere, f"--canastra-fixtures={FIXTURES}", "--canastra-impl", impl("wrong_answers"))
    assert done.returncode == 1
    assert "failed: t-cbc-points-ace" in done.stdout and "result: expected 15, got 14" in done.stdout
    assert "Traceback" not in done.stdout
    assert "2 failed, 4 passed" in done.stdout


def test_citations_warn_or_fail(elsewhere):
    args = (f"--canastra-fixtures={FIXTURES}", "-k", "opening", "--canastra-impl",
            impl("wrong_answers", "--cites-only"))
    done = pytest_run(elsewhere, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "CitationWarning: t-cbc-opening-75: results[1].cites" in done.stdout
    done = pytest_run(elsewhere, *args, "--canastra-strict-cites")
    assert done.returncode == 1
    assert "citations: t-cbc-opening-75: results[1].cites: expected ['7'], got []" in done.stdout


def test_a_bad_fixture_file_is_a_collection_error(elsewhere):
    bad = elsewhere / "fixtures" / "cbc"
    bad.mkdir(parents=True)
    (bad / "broken.yaml").write_text("- id: x\n  ruleset: cbc\n  articles: [7\n")
    done = pytest_run(elsewhere, "--canastra-impl", REFERENCE, f"--canastra-fixtures={bad.parent}")
    assert done.returncode == 2
    assert "broken.yaml:4:1: error: not valid YAML" in done.stdout
    assert "Traceback" not in done.stdout
