"""Shared test helpers: where the rulebook sources are, and a temporary spec directory."""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# the on-disk cache (canastra_ref/cache.py) of a test run lives and dies with it
if "CANASTRA_CACHE_DIR" not in os.environ:
    os.environ["CANASTRA_CACHE_DIR"] = tempfile.mkdtemp(prefix="canastra-test-cache-")
    atexit.register(shutil.rmtree, os.environ["CANASTRA_CACHE_DIR"], True)

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
SOURCES = Path(os.environ.get("CANASTRA_SOURCES", ROOT.parent / "shared" / "sources"))


@pytest.fixture
def sources() -> Path:
    """The directory of the five rulebook texts (skips when this checkout has none)."""
    if not (SOURCES / "cbc.txt").is_file():
        pytest.skip(f"rulebook sources not found at {SOURCES} (set CANASTRA_SOURCES)")
    return SOURCES


@pytest.fixture
def minimal_text() -> str:
    return (DATA / "minimal.canastra").read_text(encoding="utf-8")
