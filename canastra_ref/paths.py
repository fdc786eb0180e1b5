"""Where the library's data lives: the grammar (package canastra_ref.grammar,
the repository's grammar/) and the specs (package canastra_ref.specs, the
repository's spec/), found with importlib.resources in an editable install
and in an installed wheel alike. CANASTRA_SPEC_DIR points at other specs."""
from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

SPEC_SUFFIX = ".canastra"


def package_dir(package: str) -> Path:
    """The directory holding a package's files (its data included)."""
    root = resources.files(package)
    if not isinstance(root, Path):      # a zipped install: the data has no file path to give
        raise RuntimeError(f"canastra-spec must be installed as files, not zipped ({package} is at {root})")
    return root


GRAMMAR = package_dir("canastra_ref.grammar") / "canastra.lark"
SPEC_DIR = Path(os.environ.get("CANASTRA_SPEC_DIR") or package_dir("canastra_ref.specs"))
