"""The shapes of protocol messages (conformance/PROTOCOL.md): one JSON Schema
per message in schema/, and the checks the runner applies to every line an
implementation writes.

`problem_with(kind, data)` is None for a well-formed message, else a short
description of the first problem found, naming its JSON path.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import jsonschema

from canastra_ref.display import cut

from .paths import SCHEMA_DIR
from .policy import QUOTE_LIMIT
from .schemas import error_path

PROTOCOL_VERSION = 1
KINDS = ("start", "started", "run", "run-answer", "stop")


def schema_path(kind: str) -> Path:
    if kind not in KINDS:
        raise ValueError(f"unknown message kind {kind!r}")
    return SCHEMA_DIR / f"{kind}.schema.json"


@lru_cache(maxsize=None)
def validator(kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(schema_path(kind).read_text(encoding="utf-8")))


def _describe(error: jsonschema.ValidationError) -> str:
    """The most useful message of an error. For a oneOf of forms told apart by
    a key (results/result/skipped/errored; ready/errored): which keys are
    there, or what is wrong within the form whose key is there."""
    if error.validator == "oneOf" and isinstance(error.instance, dict):
        branches = [b for b in error.schema.get("oneOf", []) if isinstance(b, dict) and b.get("required")]
        keys = [b["required"][0] for b in branches]
        found = [k for k in keys if k in error.instance]
        if len(found) > 1:
            return f"it has {', '.join(repr(k) for k in found)}: only one of {', '.join(keys)} is allowed"
        if not found:
            return f"it has none of the keys {', '.join(keys)} (exactly one is required, at {error_path(error)})"
        i = keys.index(found[0])
        inner = [e for e in error.context or () if e.relative_schema_path and e.relative_schema_path[0] == i
                 and e.validator != "not"]
        if inner:
            return _describe(jsonschema.exceptions.best_match(inner))
    return f"{cut(error.message)} (at {error_path(error)})"


def problem_with(kind: str, data) -> str | None:
    """None when `data` is a well-formed message of this kind, else what is wrong with it."""
    errors = list(validator(kind).iter_errors(data))
    if not errors:
        return None
    # Which form the message has (the oneOf) matters more than details within it.
    forms = [e for e in errors if e.validator == "oneOf" and not e.absolute_path]
    return _describe(forms[0] if forms else jsonschema.exceptions.best_match(errors))


def quote(line: str, limit: int = QUOTE_LIMIT) -> str:
    """A line of an implementation's output, shortened for a report."""
    text = line.rstrip("\r\n")
    if len(text) > limit:
        text = text[:limit] + f"... [{len(text) - limit} more characters]"
    return repr(text)
