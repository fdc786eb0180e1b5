"""Loading fixture files: YAML with positions, the JSON Schema, and the checks
a schema cannot make (unique ids, known rulesets, articles, readings, tags).

Every problem is a CanastraError naming the file, line and column of the
offending value and its JSON path.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

import jsonschema
import yaml

from canastra_ref.cache import cached
from canastra_ref.display import cut
from canastra_ref.errors import CanastraError, ErrorList, SourcePosition
from canastra_ref.features import FEATURES
from canastra_ref.files import read_text

from . import yaml_input
from .paths import FIXTURES_DIR, SCHEMA_DIR
from .schemas import error_path

SCHEMA_PATH = SCHEMA_DIR / "fixture.schema.json"


@dataclass(frozen=True)
class Case:
    id: str
    ruleset: str
    articles: tuple[str, ...]
    reading: dict
    requires: tuple[str, ...]
    description: str
    state: dict | None
    actions: list | None
    query: dict | None
    expect: object
    file: str
    line: int
    positions: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def kind(self) -> str:
        return "query" if self.query is not None else "actions"

    def where(self, path: str = "") -> str:
        mark = self.positions.get(path)
        return f"{self.file}:{mark[0]}:{mark[1]}" if mark else f"{self.file}:{self.line}"


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _inline(node, defs: dict):
    """The schema with every local "$ref" replaced by its definition: the same
    validation, about twice as fast with jsonschema (the schema has no cycles)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            rest = {k: _inline(v, defs) for k, v in node.items() if k != "$ref"}
            return {"allOf": [_inline(defs[ref[len("#/$defs/"):]], defs)], **rest} if rest \
                else _inline(defs[ref[len("#/$defs/"):]], defs)
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    return node


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_inline(schema(), schema().get("$defs", {})))


def _best(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """The most specific of a oneOf/anyOf failure's sub-errors."""
    return jsonschema.exceptions.best_match([error]) if error.context else error


def load_file(path: Path) -> list[Case]:
    """The cases of one fixture file; ErrorList of every problem found. A file
    that validated once is not validated again until its text, the schema or
    the code changes (canastra_ref.cache)."""
    text = read_text(path)
    data, positions = cached("fixture", ("canastra_ref", "canastra_conformance"),
                             (_libraries(), SCHEMA_PATH.read_text(encoding="utf-8"), str(path), text),
                             lambda: _validated(path, text), decode=_decode_validated)
    per_case: dict[int, dict] = {}
    for key, mark in positions.items():
        if key.startswith("$["):
            index, _, rest = key[2:].partition("]")
            per_case.setdefault(int(index), {})[rest] = mark
    return [Case(id=c["id"], ruleset=c["ruleset"], articles=tuple(c["articles"]), reading=c.get("reading", {}),
                 requires=tuple(c["requires"]), description=c["description"], state=c.get("state"),
                 actions=c.get("actions"), query=c.get("query"), expect=c["expect"], file=str(path),
                 line=positions[f"$[{i}]"][0], positions=per_case.get(i, {}))
            for i, c in enumerate(data)]


@lru_cache(maxsize=1)
def _libraries() -> str:
    return f"pyyaml {yaml.__version__}, jsonschema {version('jsonschema')}"


def _decode_validated(data) -> tuple[object, dict[str, tuple[int, int]]]:
    value, positions = data
    return value, {path: (line, column) for path, (line, column) in positions.items()}


def _validated(path: Path, text: str):
    """(data, positions) of a fixture file that passes the schema, else ErrorList."""
    lines = text.splitlines()
    data, positions = yaml_input.parse(text, str(path))
    errors: list[CanastraError] = []

    def err(message: str, json_path: str, expected: str | None = None):
        mark = positions.get(json_path) or positions.get(json_path.rsplit(".", 1)[0]) or (1, 1)
        errors.append(CanastraError(message, position=SourcePosition(str(path), mark[0], mark[1]),
                                    json_path=json_path, expected=expected,
                                    source_line=lines[mark[0] - 1] if mark[0] - 1 < len(lines) else None))

    validator = _validator()
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        best = _best(error)
        err(f"{cut(best.message)} (at {error_path(best)})", error_path(best))
    if errors:
        raise ErrorList(errors)
    return data, positions


def fixture_files(directory: Path = FIXTURES_DIR) -> list[Path]:
    return sorted(Path(directory).rglob("*.yaml"))


def load_all(directory: Path = FIXTURES_DIR) -> list[Case]:
    """Every case of the suite, with every cross-file check; ErrorList on problems."""
    from .rulesets import ruleset_for
    cases: list[Case] = []
    errors: list[CanastraError] = []
    for path in fixture_files(directory):
        try:
            cases += load_file(path)
        except ErrorList as exc:
            errors += exc.errors
        except CanastraError as exc:
            errors.append(exc)
    seen: dict[str, Case] = {}
    for case in cases:
        def err(message, path="", expected=None):
            line, col = case.positions.get(path, (case.line, 1))
            errors.append(CanastraError(f"case {case.id}: {message}",
                                        position=SourcePosition(case.file, line, col), expected=expected))
        if case.id in seen:
            err(f"id already used at {seen[case.id].where()}", ".id", "a unique id")
        seen.setdefault(case.id, case)
        try:
            ruleset = ruleset_for(case.ruleset, case.reading)
        except CanastraError as exc:
            err(exc.message, ".ruleset" if "ruleset" in exc.message else ".reading", exc.expected)
            continue
        for i, article in enumerate(case.articles):
            if article not in ruleset.articles:
                err(f"article {article!r} is not in the inventory of {case.ruleset}", f".articles[{i}]")
        for i, tag in enumerate(case.requires):
            if tag not in FEATURES:
                err(f"unknown feature tag {tag!r}", f".requires[{i}]", "a tag of conformance/README.md")
        if case.actions is not None and isinstance(case.expect, list) and len(case.expect) != len(case.actions):
            err(f"{len(case.actions)} actions but {len(case.expect)} expectations", ".expect",
                "one expectation per action")
    if errors:
        raise ErrorList(errors)
    return cases
