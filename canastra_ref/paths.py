"""Where the project's data lives: the grammar, the specs and the fixtures sit
beside the package in the source tree (install it with `pip install -e .`).
CANASTRA_SPEC_DIR and CANASTRA_FIXTURES_DIR point elsewhere when set."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRAMMAR = ROOT / "grammar" / "canastra.lark"
SPEC_DIR = Path(os.environ.get("CANASTRA_SPEC_DIR", ROOT / "spec"))
FIXTURES_DIR = Path(os.environ.get("CANASTRA_FIXTURES_DIR", ROOT / "conformance" / "fixtures"))
SPEC_SUFFIX = ".canastra"
