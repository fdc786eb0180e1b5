"""canastra conformance --compare A.json B.json: what changed between two runs
(JSON reports of results.py), keyed by fixture id.

Changes, from A to B: fixed (now passes: passed or xpass), regressed (passed,
now fails or errors), changed (any other change of status: to or from
skipped, other-reading, or an expected failure), different (still failing,
erroring or xfail, for another reason), new and removed cases, and the
citation tier fixed or regressed. The comparison is "clean" when nothing
regressed. Reports of format versions 1 and 2 are read.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import jsonschema

from canastra_ref.display import cut, printable
from canastra_ref.errors import CanastraError
from canastra_ref.json_input import loads
from canastra_ref.limits import MAX_DEPTH

from .grading import ERRORED, FAILED, PASSED, XFAIL, XPASS
from .paths import SCHEMA_DIR
from .results import FORMAT, READABLE_VERSIONS, STATUSES
from .schemas import error_path

PASSING, FAILING = (PASSED, XPASS), (FAILED, ERRORED, XFAIL)

KINDS = ("regressed", "fixed", "changed", "different", "new", "removed", "citations regressed",
         "citations fixed")


# A report nests an answer's values (at most MAX_DEPTH levels: the runner
# refuses deeper answers) within a few levels of its own.
REPORT_DEPTH = 2 * MAX_DEPTH


def read_json(path: str):
    """A JSON file's data (a report or a saved run) within the limits JSON input
    is held to; a clear error when it cannot be read, is not JSON or goes past them."""
    try:
        text = Path(path).read_bytes()
    except OSError as exc:
        raise CanastraError(f"cannot read {path}: {exc.strerror or exc}") from None
    return loads(text, str(path), max_depth=REPORT_DEPTH)


def load_report(path: str) -> dict:
    """A report as --compare and profile read it: its every value of the form
    conformance/schema/report.schema.json gives (the report site reads the
    records it can instead, runs.py)."""
    data = checked_report(read_json(path), path)
    error = jsonschema.exceptions.best_match(_report_schema().iter_errors(data))
    if error is not None:
        raise CanastraError(f"{path} is not a valid conformance report at {cut(error_path(error))}: "
                            f"{cut(error.message)}",
                            expected="the output of 'canastra conformance --format json' "
                                     "(conformance/schema/report.schema.json)")
    return data


@lru_cache(maxsize=None)
def _report_schema() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((SCHEMA_DIR / "report.schema.json").read_text(encoding="utf-8")))


def checked_report(data, path: str) -> dict:
    """The data of a JSON conformance report, checked (`path` names it in errors)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("cases"), dict):
        raise CanastraError(f"{path} is not a conformance report",
                            expected="the output of 'canastra conformance --format json'")
    if data.get("format_version") not in READABLE_VERSIONS:
        raise CanastraError(f"{path} is a conformance report of format version {data.get('format_version')!r}",
                            expected="version " + " or ".join(map(str, READABLE_VERSIONS)))
    for case_id, record in data["cases"].items():
        if not isinstance(record, dict) or record.get("status") not in STATUSES:
            raise CanastraError(f"{path}: case {case_id!r} has no valid status")
    return data


def _detail(record: dict):
    return record.get("message"), record.get("mismatches")


def compare(a: dict, b: dict) -> dict:
    """{kind: [{id, before, after, message?}]} plus both headers and summaries."""
    changes = {kind: [] for kind in KINDS}
    ca, cb = a["cases"], b["cases"]
    for case_id in list(ca) + [k for k in cb if k not in ca]:      # the order of the runs
        before, after = ca.get(case_id), cb.get(case_id)
        entry = {"id": case_id, "before": before and before["status"], "after": after and after["status"]}
        if after and after.get("message"):
            entry["message"] = after["message"]
        if before is None:
            changes["new"].append(entry)
            continue
        if after is None:
            changes["removed"].append(entry)
            continue
        s, t = before["status"], after["status"]
        if s != t:
            kind = "fixed" if t in PASSING and s not in PASSING else \
                "regressed" if s in PASSING and t in (FAILED, ERRORED) else "changed"
            changes[kind].append(entry)
        elif s in FAILING and _detail(before) != _detail(after):
            changes["different"].append(entry)
        x, y = before.get("citations"), after.get("citations")
        if x == "passed" and y == "failed":
            changes["citations regressed"].append({"id": case_id, "before": x, "after": y})
        elif x == "failed" and y == "passed":
            changes["citations fixed"].append({"id": case_id, "before": x, "after": y})
    return {"a": _header(a), "b": _header(b), "changes": changes,
            "summary": {"a": a.get("summary"), "b": b.get("summary")},
            "clean": not changes["regressed"] and not changes["citations regressed"]}


def _header(report: dict) -> dict:
    impl = report.get("implementation") or {}
    return {"implementation": f"{impl.get('name', '?')} {impl.get('version', '')}".strip(),
            "suite": (report.get("suite") or {}).get("version"), "digest": (report.get("suite") or {}).get("digest")}


def compare_text(diff: dict, path_a: str, path_b: str) -> str:
    a, b = diff["a"], diff["b"]
    lines = [printable(f"{name}: {path}  ({run['implementation']}, suite {run['suite']}, digest {run['digest']})",
                       newlines=False) for name, path, run in (("A", path_a, a), ("B", path_b, b))]
    if a["digest"] != b["digest"]:
        lines.append("note: the two runs used different fixture files")
    total = 0
    for kind in KINDS:
        entries = diff["changes"][kind]
        total += len(entries)
        if not entries:
            continue
        lines += ["", f"{kind} ({len(entries)})"]
        for e in entries:
            arrow = f"{e['before'] or '-'} -> {e['after'] or '-'}"
            line = f"  {e['id']}: {arrow}" + (f"  ({_short(str(e['message']))})" if e.get("message") else "")
            lines.append(printable(line, newlines=False))
    if not total:
        lines += ["", "no change"]
    sa, sb = diff["summary"]["a"] or {}, diff["summary"]["b"] or {}
    parts = []
    for key in ("total",) + STATUSES:
        x, y = sa.get(key, 0), sb.get(key, 0)
        if key not in ("total", PASSED, FAILED, ERRORED, "skipped") and not x and not y:
            continue
        parts.append(f"{key} {x} -> {y}" + (f" ({y - x:+d})" if y != x else ""))
    lines += ["", "summary: " + ", ".join(parts)]
    return "\n".join(lines) + "\n"


def _short(message: str, limit: int = 120) -> str:
    first = message.strip().splitlines()[0] if message.strip() else ""
    return first if len(first) <= limit else first[:limit] + "..."
