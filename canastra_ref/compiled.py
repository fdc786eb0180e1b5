"""The compiled build: which modules a wheel compiles with Cython, and which build runs here.

The .py files are the one source of the engine. A wheel, or a regular
`pip install .`, compiles the modules of COMPILED with Cython (setup.py reads
this list) when a C compiler is there; the .py files ship beside the compiled
modules, which Python imports first. An editable install (`pip install -e .`)
never compiles: it runs the checkout's .py files, so an edited module always
runs. CANASTRA_PURE_PYTHON=1 at build time skips compiling. The compiled
modules play exactly as their source (.ci/wheel-check compares a digest of
every engine call of self-play made by each build).

This module stays pure Python, reads only the standard library, and imports the
modules it reports on only when asked (build()).
"""
from __future__ import annotations

import importlib
import re
from importlib.machinery import EXTENSION_SUFFIXES

# What an action and self-play run. Profiled (cProfile, self-play of every
# ruleset), the engine package takes 83% of the CPU time, the ruleset model
# (dsl/model: a Decision per rules query) 1.3% and the card notation 0.4%, the
# rest being builtins and the standard library; the next of ours, the seating
# order (0.3%) and the DSL's compiled expressions (0.1%), made no difference we
# could measure compiled (bench_selfplay, alternated runs), so they are left
# out, like parsing, checking, the conformance runner and the tools, whose time
# goes to lark, jsonschema and yaml. `canastra mutate` spends most of its time
# building a model of each mutant under each set of readings (dsl/build, with
# dsl/memo's caches and dsl/strict's check for silent defaults: 60% of cbc's
# mutation, cProfile): compiled, they cut its CPU time by about 17% (cbc, one
# process, alternated runs). None of these modules is introspected (no
# inspect, getsource, __code__ or pickled function): their dataclasses stay
# ordinary Python classes. The engine package's __init__ is documentation only.
COMPILED = (
    "canastra_ref.cards",
    "canastra_ref.dsl.build",
    "canastra_ref.dsl.memo",
    "canastra_ref.dsl.model",
    "canastra_ref.dsl.strict",
    "canastra_ref.engine.act",
    "canastra_ref.engine.actions",
    "canastra_ref.engine.agent",
    "canastra_ref.engine.completion",
    "canastra_ref.engine.context",
    "canastra_ref.engine.deal",
    "canastra_ref.engine.going_out",
    "canastra_ref.engine.legal",
    "canastra_ref.engine.loading",
    "canastra_ref.engine.melding",
    "canastra_ref.engine.melds",
    "canastra_ref.engine.near_legal",
    "canastra_ref.engine.opening",
    "canastra_ref.engine.pile",
    "canastra_ref.engine.play",
    "canastra_ref.engine.reasons",
    "canastra_ref.engine.rules",
    "canastra_ref.engine.scoring",
    "canastra_ref.engine.state",
    "canastra_ref.engine.threes",
    "canastra_ref.engine.turn",
    "canastra_ref.engine.verdict",
    "canastra_ref.engine.walk",
)

# A function Cython compiled is of the type cython_function_or_method, which
# lives in the module Cython shares between the modules of one release
# (_cython_3_3_1 for Cython 3.3.1).
_CYTHON_SHARED = re.compile(r"_cython_(\d+(?:_\d+)*)$")


def compiled_modules() -> list[str]:
    """The modules of COMPILED that this process imports from a compiled extension, not from .py."""
    return [name for name in COMPILED
            if importlib.import_module(name).__spec__.origin.endswith(tuple(EXTENSION_SUFFIXES))]


def _cython_release(module_name: str) -> str | None:
    for value in vars(importlib.import_module(module_name)).values():
        found = _CYTHON_SHARED.match(type(value).__module__ or "")
        if found:
            return found.group(1).replace("_", ".")
    return None


def build() -> str:
    """'compiled (Cython X.Y.Z)', 'pure Python', or which modules are compiled when only some are."""
    compiled = compiled_modules()
    if not compiled:
        return "pure Python"
    release = _cython_release(compiled[0])
    cython = f"Cython {release}" if release else "Cython, release unknown"
    if len(compiled) == len(COMPILED):
        return f"compiled ({cython})"
    return f"partly compiled ({cython}: {len(compiled)} of {len(COMPILED)} modules)"
