"""The results of a conformance run, and their JSON form (the report format
every output and --compare work from).

JSON report (format "canastra-conformance-report", version 1):

    {"format": "canastra-conformance-report", "format_version": 1,
     "suite": {"version", "digest", "fixtures", "cases"},
     "protocol": 1,
     "implementation": {name, version, language, homepage, ...} | null,
     "rulesets": [...], "features": [...],        # as declared at start
     "command": [...], "start_error": null | "...", "restarts": 0,
     "stderr": "...",                              # written outside any case
     "duration": 1.23,
     "cases": {"<fixture id>": {"ruleset", "articles", "file", "line", "status",
               "message"?, "mismatches"?: [{path, expected, actual}],
               "citations": "passed" | "failed" | "none" | "not-graded",
               "citation_mismatches"?: [...], "stderr"?: "...", "duration"}},
     "summary": {"total", "passed", "failed", "errored", "skipped",
                 "citations": {"passed", "failed"}}}
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from canastra_ref import __version__

from .fixtures import fixture_files
from .grading import ERRORED, FAILED, PASSED, SKIPPED
from .messages import PROTOCOL_VERSION
from .runner import Outcome

FORMAT, FORMAT_VERSION = "canastra-conformance-report", 1
STATUSES = (PASSED, FAILED, ERRORED, SKIPPED)


def suite_info(directory: Path, cases: int) -> dict:
    """The suite's version (the package's) and a digest of its fixture files."""
    digest = hashlib.sha256()
    for path in fixture_files(directory):
        digest.update(path.relative_to(directory).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return {"version": __version__, "digest": digest.hexdigest()[:16], "fixtures": str(directory),
            "cases": cases}


def display_path(file: str) -> str:
    """A fixture path relative to the current directory when it is below it."""
    try:
        relative = os.path.relpath(file)
    except ValueError:
        return file
    return file if relative.startswith("..") else relative


def citation_tier(outcome: Outcome) -> str:
    """passed/failed when the case expects citations and its behaviour was graded."""
    if outcome.status not in (PASSED, FAILED):
        return "not-graded"
    expects = outcome.case.kind == "actions" and any(
        isinstance(e, dict) and "cites" in e for e in outcome.case.expect)
    if not expects:
        return "none"
    return "failed" if outcome.grade.citations else "passed"


def _mismatches(items) -> list[dict]:
    return [{"path": m.path, "expected": m.expected, "actual": m.actual} for m in items]


def case_record(outcome: Outcome) -> dict:
    case, grade = outcome.case, outcome.grade
    record = {"ruleset": case.ruleset, "articles": list(case.articles), "file": display_path(case.file),
              "line": case.line, "status": grade.status}
    if grade.message:
        record["message"] = grade.message
    if grade.behaviour:
        record["mismatches"] = _mismatches(grade.behaviour)
    record["citations"] = citation_tier(outcome)
    if grade.citations:
        record["citation_mismatches"] = _mismatches(grade.citations)
    if outcome.stderr:
        record["stderr"] = outcome.stderr
    record["duration"] = round(outcome.duration, 6)
    return record


def counts(outcomes: list[Outcome]) -> dict:
    out = {"total": len(outcomes), **{s: 0 for s in STATUSES}, "citations": {"passed": 0, "failed": 0}}
    for outcome in outcomes:
        out[outcome.status] += 1
        tier = citation_tier(outcome)
        if tier in ("passed", "failed"):
            out["citations"][tier] += 1
    return out


@dataclass
class RunResult:
    suite: dict
    command: list[str]
    info: dict | None                   # the implementation's answer to start
    start_error: str | None
    outcomes: list[Outcome] = field(default_factory=list)
    restarts: int = 0
    stderr: str = ""
    duration: float = 0.0

    @property
    def ok(self) -> bool:
        """Nothing failed or errored (the exit status)."""
        summary = counts(self.outcomes)
        return summary[FAILED] == 0 and summary[ERRORED] == 0

    @property
    def implementation(self) -> dict | None:
        return self.info["implementation"] if self.info else None

    def to_json(self) -> dict:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "suite": self.suite,
                "protocol": PROTOCOL_VERSION, "implementation": self.implementation,
                "rulesets": self.info["rulesets"] if self.info else None,
                "features": self.info["features"] if self.info else None,
                "command": self.command, "start_error": self.start_error, "restarts": self.restarts,
                "stderr": self.stderr, "duration": round(self.duration, 3),
                "cases": {o.case.id: case_record(o) for o in self.outcomes},
                "summary": counts(self.outcomes)}
