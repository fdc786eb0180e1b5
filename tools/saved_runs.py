"""The saved run of a third-party engine (docs/implementations/NAME.json):
what one conformance run of it keeps in the repository, written by
tools/implementations.py, read by the report site (tools/site/runs.py).

Format "canastra-implementation-run", version 2:

    {"format": "canastra-implementation-run", "format_version": 2,
     "date": "2026-12-01T13:00:00+00:00",          # when the run started (UTC)
     "canastra_spec": {"version", "commit", "digest", "cases"},   # the tool and the suite it ran
     "engine": {"commit", "implementation": {...}, "rulesets": [...]},   # as the engine declared at start
     "summary": {...},                             # the conformance report's
     "cases": {"<fixture id>": [status, articles] | [status, articles, answer]},
     "profile": {...}}                             # canastra_conformance.profile's JSON form

`cases` lists every case sent to the engine; those the runner did not send
(a ruleset or feature the engine does not claim) were skipped and are left
out. A case that did not pass keeps, as its third item, what the conformance
report says of the engine's answer: {"message"?, "mismatches"?:
[{path, expected, actual}], "citation_mismatches"?}, bounded as the report
bounds them (an answer's value beyond policy.KEPT_VALUE characters is a
preview, a message is cut at policy.MESSAGE_LIMIT). Never its stderr, never
a whole answer, never what a passing case answered.

Version 1 (no date, no tool version, no answers, the cases the engine
skipped left out) is read as well: its cases show their status only.

The file is written with one line per case and per ruleset of the profile,
so that a refresh shows in a diff as the cases and rulesets it changed.
"""
from __future__ import annotations

import json

from canastra_conformance.grading import PASSED
from canastra_conformance.profile import profile
from canastra_conformance.runner import not_claimed

FORMAT, FORMAT_VERSION = "canastra-implementation-run", 2
READABLE_VERSIONS = (1, 2)
ANSWER_KEYS = ("message", "mismatches", "citation_mismatches")


def saved_run(report: dict, suite_cases: list, *, spec_commit: str, engine_commit: str | None) -> dict:
    """The saved run of a conformance report (canastra-conformance-report JSON,
    every case graded: `canastra conformance --every-reading`) over these cases."""
    info = {"implementation": report["implementation"], "rulesets": report["rulesets"],
            "features": report["features"]}
    unsent = {c.id for c in suite_cases if not_claimed(info, c.ruleset, c.requires)}
    suite = report["suite"]
    cases = {}
    for case_id, record in report["cases"].items():
        if case_id in unsent:
            continue
        status = record.get("outcome", record["status"])
        item = [status, record["articles"]]
        answer = {k: record[k] for k in ANSWER_KEYS if record.get(k)}
        if status != PASSED and answer:
            item.append(answer)
        cases[case_id] = item
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "date": report.get("date"),
            "canastra_spec": {"version": suite.get("version"), "commit": spec_commit, "digest": suite["digest"],
                              "cases": suite["cases"]},
            "engine": {"commit": engine_commit, "implementation": report["implementation"],
                       "rulesets": report["rulesets"]},
            "summary": report["summary"], "cases": cases, "profile": profile(report, suite_cases)}


def dump(run: dict) -> str:
    """A saved run as JSON text, a line per case and per ruleset of the profile."""
    def compact(value) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def block(mapping: dict, indent: str) -> str:
        return "{\n" + ",\n".join(f"{indent} {compact(k)}: {compact(v)}" for k, v in mapping.items()) \
            + f"\n{indent}}}"
    profile = dict(run["profile"])
    rulesets = profile.pop("rulesets")
    head = {k: v for k, v in run.items() if k not in ("cases", "profile")}
    lines = [f" {compact(k)}: {compact(v)}" for k, v in head.items()]
    lines.append(f' "cases": {block(run["cases"], " ")}')
    body = [f'  {compact(k)}: {compact(v)}' for k, v in profile.items()]
    body.append(f'  "rulesets": {block(rulesets, "  ")}')
    lines.append(' "profile": {\n' + ",\n".join(body) + "\n }")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def case_records(data: dict) -> dict[str, dict]:
    """Fixture id -> {"status", "articles", and the answer's keys where kept}, as
    a conformance report's case record reads. ValueError, naming the case,
    where an item is not [status, articles] or [status, articles, answer]."""
    out = {}
    for case_id, item in data["cases"].items():
        if not isinstance(item, list) or len(item) not in (2, 3) or not isinstance(item[1], list) \
                or len(item) == 3 and not isinstance(item[2], dict):
            raise ValueError(f"case {case_id!r}: expected [status, articles] or [status, articles, answer]")
        answer = item[2] if len(item) == 3 else {}
        out[case_id] = {"status": item[0], "articles": item[1], **{k: answer[k] for k in ANSWER_KEYS if k in answer}}
    return out
