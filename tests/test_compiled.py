"""The checkout's tests run the engine's .py files, never a compiled module left beside them.

A wheel compiles the modules canastra_ref/compiled.py lists (setup.py); an
editable install never does. A stray compiled module in the checkout (from
`setup.py build_ext --inplace`, or an old install) would be imported before its
.py and the tests would not run the source: this fails then."""
from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import canastra_ref.engine
from canastra_ref.compiled import COMPILED, build, compiled_modules

ROOT = Path(__file__).resolve().parent.parent


def test_the_listed_modules_load_from_their_py_files():
    for name in COMPILED:
        origin = importlib.import_module(name).__spec__.origin
        assert origin.endswith(".py"), f"{name} is loaded from {origin}, not from its .py"
        assert Path(origin).is_relative_to(ROOT), f"{name} is loaded from {origin}, outside this checkout"
    assert compiled_modules() == []
    assert build() == "pure Python"


def test_the_list_is_the_engine_package_and_the_modules_it_reads():
    engine = {f"canastra_ref.engine.{m.name}" for m in pkgutil.iter_modules(canastra_ref.engine.__path__)}
    assert engine <= set(COMPILED), f"engine modules not compiled: {sorted(engine - set(COMPILED))}"
    assert len(set(COMPILED)) == len(COMPILED)
    for name in COMPILED:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


def test_version_names_the_build():
    done = subprocess.run([sys.executable, "-m", "canastra_cli", "--version"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.splitlines()[1] == "engine: pure Python", done.stdout
