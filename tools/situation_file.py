"""Reading a situation file: a fixture-shaped case without expectations.

A situation is a YAML (or JSON) mapping, or a list holding one, with:

    id, title, description       optional words for the ruling
    ruleset                      optional: rule under this ruleset only
    reading                      optional: dispute -> reading assumed (with ruleset)
    state + actions, or query    as in a fixture (conformance/README.md)

It is checked against the definitions of the fixture schema
(conformance/schema/fixture.schema.json); every error names the file, line
and column of the offending value and its JSON path.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jsonschema

from canastra_conformance import yaml_input
from canastra_conformance.paths import SCHEMA_DIR
from canastra_ref.display import cut
from canastra_ref.errors import CanastraError, ErrorList, InputError, SourcePosition

SCHEMA = SCHEMA_DIR / "fixture.schema.json"
FIELDS = ("id", "title", "description", "ruleset", "reading", "state", "actions", "query")


@dataclass
class Situation:
    file: str
    data: dict                               # state + actions, or query
    ruleset: str | None = None
    reading: dict = field(default_factory=dict)
    title: str = ""
    description: str = ""
    positions: dict = field(default_factory=dict, repr=False)
    lines: list = field(default_factory=list, repr=False)

    def error(self, message: str, path: str = "$", expected: str | None = None) -> InputError:
        at = path
        mark = self.positions.get(at)
        while mark is None and at not in ("$", ""):
            at = at[:at.rindex("[")] if at.endswith("]") else at.rsplit(".", 1)[0]
            mark = self.positions.get(at)
        mark = mark or (1, 1)
        line = self.lines[mark[0] - 1] if 0 < mark[0] <= len(self.lines) else None
        return InputError(f"{message} [{path}]" if path not in ("$", "") and path not in message else message,
                          position=SourcePosition(self.file, mark[0], mark[1]), expected=expected,
                          source_line=line)


@lru_cache(maxsize=1)
def schema() -> dict:
    fixture = json.loads(SCHEMA.read_text(encoding="utf-8"))
    defs = fixture["$defs"]
    return {
        "$defs": defs, "type": "object", "additionalProperties": False,
        "properties": {"id": {"type": "string"}, "title": {"type": "string"},
                       "description": {"type": "string"}, "ruleset": {"type": "string"},
                       "reading": {"type": "object", "additionalProperties": {"type": "string"}},
                       "state": {"$ref": "#/$defs/state"},
                       "actions": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/action"}},
                       "query": {"$ref": "#/$defs/query"}},
        "oneOf": [{"required": ["actions"], "not": {"required": ["query"]}},
                  {"required": ["query"], "not": {"anyOf": [{"required": ["state"]}, {"required": ["actions"]}]}}],
    }


def _json_path(error) -> str:
    out = "$"
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _message(error) -> tuple[str, str | None]:
    """A schema error in words: a bad card is named as such."""
    from canastra_ref.cards import parse_card
    if error.validator == "pattern" and isinstance(error.instance, str):
        for token in error.instance.split() or [error.instance]:
            try:
                parse_card(token)
            except CanastraError as exc:
                return f"unknown card {token!r}", exc.expected
    return cut(error.message), None


def load_situation(path: Path) -> Situation:
    if not path.exists():
        raise CanastraError(f"no such situation file: {path}")
    data, positions, lines = yaml_input.load(path)
    sit = Situation(str(path), {}, positions=positions, lines=lines)
    if isinstance(data, list):
        if len(data) != 1:
            raise sit.error(f"a situation file holds one situation, not a list of {len(data)}", "$")
        data = data[0]
        sit.positions = {"$" + k[len("$[0]"):]: v for k, v in positions.items() if k.startswith("$[0]")}
        sit.positions.setdefault("$", positions.get("$", (1, 1)))
    if not isinstance(data, dict):
        raise sit.error("a situation is a mapping with a state and actions, or a query", "$",
                        expected="keys such as state:, actions: (see docs/examples/)")
    if "expect" in data:
        raise sit.error("a situation states no expectations: remove 'expect' (the dispute report gives the "
                        "rulings)", "$.expect")
    errors = []
    validator = jsonschema.Draft202012Validator(schema())
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        best = jsonschema.exceptions.best_match([error]) if error.context else error
        where = _json_path(best)
        message, expected = _message(best)
        errors.append(sit.error(f"{message} (at {where})", where, expected))
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorList(errors)
    sit.ruleset = data.get("ruleset")
    sit.reading = dict(data.get("reading") or {})
    sit.title = data.get("title") or data.get("id") or path.stem
    sit.description = data.get("description", "")
    sit.data = {k: data[k] for k in ("state", "actions", "query") if k in data}
    if sit.reading and not sit.ruleset:
        raise sit.error("a reading needs the ruleset it belongs to", "$.reading", expected="ruleset: <id>")
    return sit
