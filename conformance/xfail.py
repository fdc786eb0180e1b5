"""Expected failures: a file listing the cases an implementation is known to
fail, each with the reason (canastra conformance --xfail FILE, and the pytest
plugin's --canastra-xfail FILE).

The file is YAML: a mapping from a fixture id, or a glob of ids (fnmatch:
`*`, `?`, `[...]`), to the reason, a non-empty string. Comments with `#`.

    # my-engine: known gaps
    classica-bater.2-no-canastra-no-going-out: going out without a canasta is allowed (issue 12)
    "cbc-7-*": the opening minimum is not implemented yet

A listed case that fails or errors is reported `xfail` and does not fail the
run; a listed case that passes is `xpass` and fails the run (it is time to
take it off the list) unless the run is not strict (--xfail-non-strict).
Skipped and other-reading cases are not graded, so a listing changes nothing
for them. The first entry matching a case is the one used.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from canastra_ref.errors import CanastraError, ErrorList, SourcePosition

from . import yaml_input


@dataclass(frozen=True)
class Entry:
    pattern: str            # a fixture id or a glob of ids
    reason: str
    file: str
    line: int

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def to_json(self) -> dict:
        return {"pattern": self.pattern, "reason": self.reason, "entry": self.where}


def read(path: str) -> list[Entry]:
    """The entries of an expected-failures file; CanastraError or ErrorList
    naming the file, line and column of every problem."""
    data, positions, lines = yaml_input.load(path, "the expected-failures file")

    def error(message: str, json_path: str) -> CanastraError:
        line, column = positions.get(json_path, (1, 1))
        return CanastraError(message, position=SourcePosition(path, line, column), json_path=json_path,
                             source_line=lines[line - 1] if 0 < line <= len(lines) else None,
                             expected="a mapping of fixture id (or glob) to the reason it is expected to fail")
    if data is None:
        return []
    if not isinstance(data, dict):
        raise error("an expected-failures file is a mapping, not a " + type(data).__name__, "$")
    entries, errors = [], []
    for pattern, reason in data.items():
        if not isinstance(reason, str) or not reason.strip():
            errors.append(error(f"the entry {pattern!r} has no reason (a non-empty string)", f"$.{pattern}"))
            continue
        entries.append(Entry(pattern, reason.strip(), path, positions.get(f"$.{pattern}", (1, 1))[0]))
    if errors:
        raise ErrorList(errors)
    return entries


def entry_for(case_id: str, entries: list[Entry]) -> Entry | None:
    """The first entry matching a fixture id."""
    return next((e for e in entries if fnmatch.fnmatchcase(case_id, e.pattern)), None)


def unused(entries: list[Entry], case_ids) -> list[Entry]:
    """The entries that match none of the ids (stale, or a typo)."""
    ids = list(case_ids)
    return [e for e in entries if not any(fnmatch.fnmatchcase(i, e.pattern) for i in ids)]
