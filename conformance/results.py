"""The results of a conformance run, and their JSON form (the report format
every output and --compare work from).

JSON report (format "canastra-conformance-report", version 2):

    {"format": "canastra-conformance-report", "format_version": 2,
     "suite": {"version", "digest", "fixtures", "cases"},
     "protocol": 1,
     "implementation": {name, version, language, homepage, ...} | null,
     "rulesets": [...], "features": [...],        # as declared at start
     "readings": {ruleset: {dispute: reading}} | null,   # as declared at start
     "judged_by_readings": true,                   # false: every case graded (canastra profile)
     "xfail": null | {"file", "strict", "unused": [{pattern, reason, entry}]},
     "command": [...], "start_error": null | "...", "restarts": 0,
     "stopped": null | "...",                      # why the run ended early (its other cases errored)
     "date": "2026-12-01T11:20:00+00:00" | null,   # when the run started (UTC); absent before it was kept
     "stderr": "...",                              # written outside any case
     "duration": 1.23,
     "cases": {"<fixture id>": {"ruleset", "articles", "file", "line", "status",
               "outcome"?: "passed" | "failed" | "errored",   # with status xfail or xpass
               "xfail"?: {pattern, reason, entry},
               "other_reading"?: [{dispute, assumes, declared}],
               "message"?, "mismatches"?: [{path, expected, actual}],
               "citations": "passed" | "failed" | "none" | "not-graded",
               "citation_mismatches"?: [...], "stderr"?: "...", "duration"}},
     "summary": {"total", "passed", "failed", "errored", "skipped", "other-reading", "xfail", "xpass",
                 "citations": {"passed", "failed"}}}

Statuses: passed, failed, errored, skipped; other-reading (written under a
reading the implementation does not declare: not sent, never a failure);
xfail and xpass (listed as expected failures: failed or errored, passed).
Version 1 reports (no other-reading, xfail or xpass) are read as well.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from canastra_ref import __version__

from .fixtures import fixture_files
from .grading import ERRORED, FAILED, OTHER_READING, PASSED, SKIPPED, XFAIL, XPASS, Elided
from .messages import PROTOCOL_VERSION
from .runner import Outcome

FORMAT, FORMAT_VERSION = "canastra-conformance-report", 2
READABLE_VERSIONS = (1, 2)
STATUSES = (PASSED, FAILED, ERRORED, SKIPPED, OTHER_READING, XFAIL, XPASS)


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
    if outcome.grade.status not in (PASSED, FAILED):
        return "not-graded"
    expects = outcome.case.kind == "actions" and any(
        isinstance(e, dict) and "cites" in e for e in outcome.case.expect)
    if not expects:
        return "none"
    return "failed" if outcome.grade.citations else "passed"


def _mismatches(items) -> list[dict]:
    return [{"path": m.path, "expected": m.expected,
             "actual": str(m.actual) if isinstance(m.actual, Elided) else m.actual} for m in items]


def case_record(outcome: Outcome) -> dict:
    case, grade = outcome.case, outcome.grade
    record = {"ruleset": case.ruleset, "articles": list(case.articles), "file": display_path(case.file),
              "line": case.line, "status": outcome.status}
    if outcome.status != grade.status:
        record["outcome"] = grade.status
    if outcome.xfail is not None:
        record["xfail"] = outcome.xfail.to_json()
    if grade.conflicts:
        record["other_reading"] = [c.to_json() for c in grade.conflicts]
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
    judged_by_readings: bool = True
    xfail: dict | None = None           # {"file", "strict", "unused": [Entry]} when a file was given
    stopped: str | None = None          # why the run stopped before its last case (interrupted...)
    date: str | None = None             # when the run started, ISO 8601 in UTC

    @property
    def strict(self) -> bool:
        """An unexpected pass (xpass) fails the run."""
        return self.xfail is None or self.xfail["strict"]

    @property
    def ok(self) -> bool:
        """Nothing failed or errored, no strict xpass, and the implementation
        started (the exit status)."""
        summary = counts(self.outcomes)
        return summary[FAILED] == 0 and summary[ERRORED] == 0 and not (self.strict and summary[XPASS]) \
            and self.start_error is None

    @property
    def implementation(self) -> dict | None:
        return self.info["implementation"] if self.info else None

    def to_json(self) -> dict:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "suite": self.suite,
                "protocol": PROTOCOL_VERSION, "implementation": self.implementation,
                "rulesets": self.info["rulesets"] if self.info else None,
                "features": self.info["features"] if self.info else None,
                "readings": self.info["readings"] if self.info else None,
                "judged_by_readings": self.judged_by_readings,
                "xfail": None if self.xfail is None else {
                    "file": self.xfail["file"], "strict": self.xfail["strict"],
                    "unused": [e.to_json() for e in self.xfail["unused"]]},
                "command": self.command, "start_error": self.start_error, "stopped": self.stopped,
                "restarts": self.restarts,
                "stderr": self.stderr, "duration": round(self.duration, 3), "date": self.date,
                "cases": {o.case.id: case_record(o) for o in self.outcomes},
                "summary": counts(self.outcomes)}
