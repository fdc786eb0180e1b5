"""Shared test helpers: where the rulebook sources are, and a temporary spec directory."""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from sources import CASA_RULEBOOK

# the on-disk cache (canastra_ref/cache.py) of a test run lives and dies with it
if "CANASTRA_CACHE_DIR" not in os.environ:
    os.environ["CANASTRA_CACHE_DIR"] = tempfile.mkdtemp(prefix="canastra-test-cache-")
    atexit.register(shutil.rmtree, os.environ["CANASTRA_CACHE_DIR"], True)

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
SOURCES = Path(os.environ.get("CANASTRA_SOURCES", ROOT.parent / "shared" / "sources"))
# the house rulebook of the casa ruleset lives in the user's checkout of
# dgmneto/canastra (with the clarifications of its CLAUDE.md), not beside the five
CASA_SOURCE = os.environ.get("CANASTRA_CASA_SOURCE")


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true",
                     help="fuzz tests try 100,000 inputs per surface instead of a few hundred "
                          "(also CANASTRA_FUZZ=long, or CANASTRA_FUZZ=<number>; tests/fuzzing.py)")


def pytest_configure(config):
    if config.getoption("--fuzz-long"):
        os.environ["CANASTRA_FUZZ"] = "long"


@pytest.fixture
def sources() -> Path:
    """The directory of the five rulebook texts (skips when this checkout has none)."""
    if not (SOURCES / "cbc.txt").is_file():
        pytest.skip(f"rulebook sources not found at {SOURCES} (set CANASTRA_SOURCES)")
    return SOURCES


@pytest.fixture
def casa_source() -> Path:
    """The directory holding canastra-regras-da-casa.md and its CLAUDE.md: the
    user's checkout of dgmneto/canastra named by CANASTRA_CASA_SOURCE, else the
    rulebook directory if a copy was put there (skips when neither has it)."""
    for directory in ([Path(CASA_SOURCE)] if CASA_SOURCE else []) + [SOURCES]:
        if (directory / CASA_RULEBOOK).is_file():
            return directory
    pytest.skip(f"{CASA_RULEBOOK} not found (set CANASTRA_CASA_SOURCE to your checkout of "
                f"dgmneto/canastra, or put the file in {SOURCES})")


@pytest.fixture
def minimal_text() -> str:
    return (DATA / "minimal.canastra").read_text(encoding="utf-8")


# ------------------------------------------------------------ the report site

SAVED_RUNS = sorted((ROOT / "docs" / "implementations").glob("*.json"))
SAVED_RUNS = [p for p in SAVED_RUNS if not p.name.endswith(".random-play.json")]
SMALL_FIXTURES = DATA / "conformance"


def small_runs(directory: Path) -> dict[str, Path]:
    """Conformance reports over the small test suite: the reference, the same
    implementation giving wrong answers (a later run of it: its history), and
    an implementation whose every word is markup."""
    import sys

    from canastra_cli.cli import main
    runs = {}
    for name, impl in (("ref", None), ("wrong", "wrong_answers.py"), ("hostile", "hostile_html.py")):
        path = directory / f"{name}.json"
        argv = ["conformance", "--fixtures", str(SMALL_FIXTURES), "--format", "json", "--output", str(path)]
        if impl:
            argv += ["--impl", f"{sys.executable} {DATA / 'impls' / impl}"]
        main(argv)
        runs[name] = path
    return runs


@pytest.fixture(scope="session")
def small_site(tmp_path_factory):
    """(site directory, {name: run path}) built from small_runs."""
    from canastra_tools.site.build import build
    directory = tmp_path_factory.mktemp("small-site")
    runs = small_runs(directory)
    build([str(runs["ref"]), str(runs["wrong"]), str(runs["hostile"])], directory / "site",
          fixtures=SMALL_FIXTURES)
    return directory / "site", runs


@pytest.fixture(scope="session")
def saved_site(tmp_path_factory):
    """The site of every saved run of docs/implementations/ (the whole suite)."""
    from canastra_tools.site.build import build
    directory = tmp_path_factory.mktemp("saved-site")
    build([str(p) for p in SAVED_RUNS], directory)
    return directory
