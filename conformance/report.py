"""Rendering a conformance run: text for people, JSON for tools, JUnit XML
for CI systems (junit.py). `render(result, fmt)` picks one."""
from __future__ import annotations

import json
import re
from collections import defaultdict

from canastra_ref.display import printable

from .grading import ERRORED, FAILED, PASSED, SKIPPED
from .messages import PROTOCOL_VERSION
from .results import STATUSES, RunResult, citation_tier, counts, display_path

FORMATS = ("text", "json", "junit")


def render(result: RunResult, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(result.to_json(), indent=2, ensure_ascii=False, default=str) + "\n"
    if fmt == "junit":
        from .junit import junit_xml
        return junit_xml(result)
    return text(result)


# ------------------------------------------------------------------- text

def _natural(key: str):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", key)]


def _row(label: str, c: dict, width: int, cites: bool = True) -> str:
    cells = "".join(f"{c[s]:>9}" for s in STATUSES)
    tail = f"{c['citations']['passed']:>6}/{c['citations']['passed'] + c['citations']['failed']}" if cites else ""
    return f"  {label:<{width}}{c['total']:>7}{cells}{tail}"


def _table(title: str, groups: dict[str, list], cites: bool = True) -> list[str]:
    width = max([len(title) - 2] + [len(k) for k in groups]) + 2
    head = f"{title:<{width + 2}}{'cases':>7}" + "".join(f"{s:>9}" for s in STATUSES)
    lines = [head + ("  cites" if cites else "")]
    for key in sorted(groups, key=_natural):
        lines.append(_row(key, counts(groups[key]), width, cites))
    return lines


def summary_line(result: RunResult) -> str:
    c = counts(result.outcomes)
    checked = c["citations"]["passed"] + c["citations"]["failed"]
    line = (f"{c['total']} cases: {c[PASSED]} passed, {c[FAILED]} failed, {c[ERRORED]} errored, "
            f"{c[SKIPPED]} skipped; citations {c['citations']['passed']}/{checked}")
    if result.restarts:
        line += f"; {result.restarts} restart{'s' if result.restarts != 1 else ''}"
    return line + f" ({result.duration:.2f} s)"


def _indent(text: str, prefix: str = "      ") -> list[str]:
    return [prefix + line for line in printable(text).rstrip("\n").splitlines()]


def text(result: RunResult) -> str:
    impl = result.implementation
    lines = []
    if impl:                      # everything the implementation says, shown as text, never obeyed
        line = f"{impl.get('name')} {impl.get('version', '')} ({impl.get('language', '?')})" \
            + (f", {impl['homepage']}" if impl.get("homepage") else "")
        lines.append(f"implementation: {printable(line, newlines=False)}")
    lines.append(f"command: {printable(' '.join(result.command), newlines=False)}")
    s = result.suite
    lines.append(f"suite {s['version']} (fixtures digest {s['digest']}), {len(result.outcomes)} cases selected, "
                 f"protocol {PROTOCOL_VERSION}")
    if result.start_error:
        lines += ["", f"START FAILED: {printable(result.start_error)}"]
    if result.stderr.strip():
        lines += ["", "stderr outside any case:"] + _indent(result.stderr, "  | ")
    by_ruleset, by_article = defaultdict(list), defaultdict(list)
    for outcome in result.outcomes:
        by_ruleset[outcome.case.ruleset].append(outcome)
        for article in outcome.case.articles:
            by_article[f"{outcome.case.ruleset} {article}"].append(outcome)
    if result.outcomes:
        lines += [""] + _table("by ruleset", by_ruleset) + [""] + _table("by article", by_article, cites=False)
    bad = [o for o in result.outcomes if o.status in (FAILED, ERRORED)]
    unstarted = [o for o in bad if result.start_error and o.grade.message == result.start_error]
    bad = [o for o in bad if o not in unstarted]
    if unstarted:
        lines += ["", f"ERRORED {len(unstarted)} case{'s' if len(unstarted) != 1 else ''} never sent: "
                      f"{printable(result.start_error)}"]
    if bad:
        lines += ["", "FAILURES (expected vs actual)"]
        for o in bad:
            lines.append(f"  {o.status.upper()} {o.case.id}  ({display_path(o.case.file)}:{o.case.line})")
            for m in o.grade.behaviour:
                lines.append(f"      {printable(m.path)}: expected {m.expected!r}")
                lines.append(f"      {' ' * len(m.path)}       got {printable(repr(m.actual))}")
            if o.grade.message:
                lines += _indent(o.grade.message)
            if o.stderr.strip():
                lines += ["      stderr:"] + _indent(o.stderr, "      | ")
    cites = [o for o in result.outcomes if citation_tier(o) == "failed"]
    if cites:
        lines += ["", "CITATIONS (the articles an answer must cite)"]
        for o in cites:
            for m in o.grade.citations:
                lines.append(f"  {o.case.id}: {m.path}: expected {m.expected}, got {printable(repr(m.actual))}")
    skipped = defaultdict(list)
    for o in result.outcomes:
        if o.status == SKIPPED:
            skipped[o.grade.message or "skipped"].append(o.case.id)
    if skipped:
        lines += ["", "SKIPPED"]
        for reason, ids in sorted(skipped.items()):
            lines.append(f"  {len(ids):>4}  {printable(reason)}")
    lines += ["", summary_line(result)]
    return "\n".join(lines) + "\n"
