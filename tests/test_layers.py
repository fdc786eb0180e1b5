"""The import graph of the installed packages: layers import only downwards
and canastra_ref has no import circle.

Every import counts, those inside functions too: a circle hidden in a
function body is still a circle. Layers, bottom first:

    canastra_ref: its base modules (errors, cards, seating, ...), then dsl,
                  then engine, then protocol, strategies and compiled (which imports
                  the engine's modules by name to report on its build)
    canastra_conformance
    canastra_tools
    canastra_cli
"""
from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

import pytest

PACKAGES = ("canastra_ref", "canastra_conformance", "canastra_tools", "canastra_cli")


def _modules() -> dict[str, Path]:
    """Module name -> source file, for every module of the four packages."""
    found = {}
    for package in PACKAGES:
        root = Path(str(resources.files(package)))
        for path in sorted(root.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if package == "canastra_tools" and parts[0] == "adapters":
                continue            # scripts run by path, not part of the package
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package,) + parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The project's modules that `name` imports anywhere in its source."""
    is_package = path.name == "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")[: len(name.split(".")) - node.level + is_package]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            targets = [f"{module}.{alias.name}" for alias in node.names] + [module]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:      # from package import module / name
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def layer(module: str) -> tuple[int, int]:
    """(package level, level inside canastra_ref) of a module."""
    package = module.split(".")[0]
    inner = 0
    if package == "canastra_ref":
        part = module.split(".")[1] if "." in module else ""
        inner = {"dsl": 1, "engine": 2, "protocol": 3, "strategies": 3, "compiled": 3}.get(part, 0)
    return PACKAGES.index(package), inner


def test_the_graph_sees_every_layer():
    assert {m.split(".")[0] for m in MODULES} == set(PACKAGES)
    assert "canastra_ref.engine.rules" in GRAPH["canastra_ref.engine.actions"]
    assert "canastra_ref.dsl.loader" in GRAPH["canastra_ref.engine.rules"]


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_upward_import(module):
    upward = sorted(t for t in GRAPH[module] if layer(t) > layer(module))
    assert not upward, f"{module} imports the layer(s) above it: {', '.join(upward)}"


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v] & graph.keys()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle():
    assert _circles(GRAPH) == []


def test_a_circle_is_found():
    graph = {name: set(targets) for name, targets in GRAPH.items()}
    graph["canastra_ref.errors"].add("canastra_ref.cards")          # cards imports errors
    assert _circles(graph) == [["canastra_ref.cards", "canastra_ref.errors"]]
