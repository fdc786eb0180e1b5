"""docs/implementations.md is generated (tools/implementations.py) from the
saved runs in docs/implementations/: the page is what they give, and every
defect it lists is shown by the saved run it cites."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from canastra_conformance.fixtures import load_file
from canastra_conformance.profile import FORMAT as PROFILE_FORMAT
from canastra_tools import implementations as impl
from canastra_tools import saved_runs

ENGINES = impl.engines()["engines"]
RUNS = {name: impl.saved(name) for name in ENGINES}


def test_the_page_is_current():
    assert impl.PAGE.read_text(encoding="utf-8") == impl.render(), \
        "docs/implementations.md is not what the saved runs give: run python tools/implementations.py"


def test_every_engine_has_a_saved_run_of_one_suite():
    # one suite (its digest); the runs may come from different commits of it,
    # since refreshing an engine needs only that engine's checkout
    assert all(run is not None and play is not None for run, play in RUNS.values())
    suites = {run["canastra_spec"]["digest"] for run, _ in RUNS.values()}
    assert len(suites) == 1
    for run, _ in RUNS.values():
        assert run["format"] == saved_runs.FORMAT and run["profile"]["format"] == PROFILE_FORMAT
        assert run["format_version"] == saved_runs.FORMAT_VERSION      # the site shows their answers
        assert run["profile"]["suite"]["digest"] == run["canastra_spec"]["digest"]


@pytest.mark.skipif(shutil.which("git") is None or not (impl.ROOT / ".git").exists(), reason="not a git checkout")
def test_the_suite_is_that_of_a_commit():
    for commit in {r["canastra_spec"]["commit"] for r, _ in RUNS.values()}:
        done = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=impl.ROOT, capture_output=True)
        assert done.returncode == 0, f"commit {commit} of the saved runs is not in this repository"


@pytest.mark.parametrize("name", list(ENGINES))
def test_each_defect_is_shown_by_the_saved_run(name):
    run, play = RUNS[name]
    for defect in ENGINES[name].get("defects") or []:
        assert defect.get("cases") or defect.get("seeds") or defect.get("probe") or defect.get("fuzz"), \
            defect["title"]
        assert defect["articles"], defect["title"]
        for case_id in defect.get("cases", []):
            status = run["cases"].get(case_id, ["not sent"])[0]
            assert status in ("failed", "errored"), f"{name}: {case_id} is {status} in the saved run"
        for seed in defect.get("seeds", []):
            assert play["first_seed"] <= seed < play["first_seed"] + play["hands"], f"{name}: seed {seed} not played"
        for ident in defect.get("fuzz", []):
            assert list(impl.fuzz_dir(name).glob(f"*/{ident}.yaml")), f"{name}: no saved fuzzing fixture {ident}"


@pytest.mark.parametrize("name", [n for n in ENGINES if ENGINES[n].get("fuzz")])
def test_each_fuzzing_campaign_is_saved_with_valid_fixtures(name):
    report = impl.saved_fuzz(name)
    if report is None:
        pytest.skip(f"{name}: its fuzzing campaign is not saved yet")
    campaign = ENGINES[name]["fuzz"]
    assert [r["ruleset"] for r in report["rulesets"]] == campaign["rulesets"]
    assert report["budget"] == {"cases": campaign["hands"]} and report["seed"] == campaign.get("seed", 0)
    written = {p.relative_to(impl.ROOT).as_posix() for p in impl.fuzz_dir(name).glob("*/*.yaml")}
    listed = {g["fixture"] for r in report["rulesets"] for g in r["groups"] if g["fixture"]}
    assert written == listed
    for path in written:          # fixture files of the suite's format
        assert load_file(impl.ROOT / path), path
