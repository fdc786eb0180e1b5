"""Where the suite's data lives, found with importlib.resources (in an editable
install and in an installed wheel alike): the fixtures, the JSON Schemas, the
protocol's text, the list of equivalent mutants. CANASTRA_FIXTURES_DIR points
at other fixtures."""
from __future__ import annotations

import os
from pathlib import Path

from canastra_ref.paths import package_dir

HERE = package_dir("canastra_conformance")
FIXTURES_DIR = Path(os.environ.get("CANASTRA_FIXTURES_DIR") or HERE / "fixtures")
SCHEMA_DIR = HERE / "schema"
PROTOCOL = HERE / "PROTOCOL.md"
PROTOCOL = HERE / "PROTOCOL.md"
EQUIVALENT_MUTANTS = HERE / "mutants-equivalent.yaml"
