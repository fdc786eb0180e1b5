"""Rendering a conformance run: text for people, JSON for tools, JUnit XML
for CI systems (junit.py). `render(result, fmt)` picks one."""
from __future__ import annotations

import json
import re
import textwrap
from collections import defaultdict

from canastra_ref.display import printable

from .grading import ERRORED, FAILED, OTHER_READING, PASSED, SKIPPED, XFAIL, XPASS
from .messages import PROTOCOL_VERSION
from .results import STATUSES, RunResult, citation_tier, counts, display_path

BASIC = (PASSED, FAILED, ERRORED, SKIPPED)      # always shown; the other statuses only when they occur

FORMATS = ("text", "json", "junit")


def render(result: RunResult, fmt: str, verbose: bool = False) -> str:
    if fmt == "json":
        return json.dumps(result.to_json(), indent=2, ensure_ascii=False, default=str) + "\n"
    if fmt == "junit":
        from .junit import junit_xml
        return junit_xml(result)
    return text(result, verbose)


# ------------------------------------------------------------------- text

def _natural(key: str):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", key)]


def _columns(outcomes) -> tuple[str, ...]:
    present = {o.status for o in outcomes}
    return BASIC + tuple(s for s in STATUSES if s not in BASIC and s in present)


def _row(label: str, c: dict, width: int, columns, cites: bool = True) -> str:
    cells = "".join(f"{c[s]:>{_width(s)}}" for s in columns)
    tail = f"{c['citations']['passed']:>6}/{c['citations']['passed'] + c['citations']['failed']}" if cites else ""
    return f"  {label:<{width}}{c['total']:>7}{cells}{tail}"


def _width(status: str) -> int:
    return max(9, len(status) + 2)


def _table(title: str, groups: dict[str, list], columns, cites: bool = True) -> list[str]:
    width = max([len(title) - 2] + [len(k) for k in groups]) + 2
    head = f"{title:<{width + 2}}{'cases':>7}" + "".join(f"{s:>{_width(s)}}" for s in columns)
    lines = [head + ("  cites" if cites else "")]
    for key in sorted(groups, key=_natural):
        lines.append(_row(key, counts(groups[key]), width, columns, cites))
    return lines


def summary_line(result: RunResult) -> str:
    c = counts(result.outcomes)
    checked = c["citations"]["passed"] + c["citations"]["failed"]
    extra = "".join(f", {c[s]} {s}" for s in STATUSES if s not in BASIC and c[s])
    line = (f"{c['total']} cases: {c[PASSED]} passed, {c[FAILED]} failed, {c[ERRORED]} errored, "
            f"{c[SKIPPED]} skipped{extra}; citations {c['citations']['passed']}/{checked}")
    if c[XPASS] and not result.strict:
        line += " (xpass allowed: not strict)"
    if result.restarts:
        line += f"; {result.restarts} restart{'s' if result.restarts != 1 else ''}"
    return line + f" ({result.duration:.2f} s)"


def declared_readings(readings: dict | None) -> list[str]:
    """The readings an implementation declares, one line per ruleset."""
    return [f"  {ruleset}: " + ", ".join(f"{printable(d)}={printable(r)}" for d, r in chosen.items())
            for ruleset, chosen in sorted((readings or {}).items()) if chosen]


def _indent(text: str, prefix: str = "      ") -> list[str]:
    return [prefix + line for line in printable(text).rstrip("\n").splitlines()]


def text(result: RunResult, verbose: bool = False) -> str:
    """The report for a person: the header, the summary, then what needs
    attention (failures with what was expected and what came, citations,
    expected failures), then what was set apart (other readings, skipped
    cases grouped by the feature they need); the table by article only when
    `verbose`. The last line is the summary again, for the end of a CI log."""
    lines = _header(result)
    by_ruleset, by_article = defaultdict(list), defaultdict(list)
    for outcome in result.outcomes:
        by_ruleset[outcome.case.ruleset].append(outcome)
        for article in outcome.case.articles:
            by_article[f"{outcome.case.ruleset} {article}"].append(outcome)
    columns = _columns(result.outcomes)
    lines += ["", "SUMMARY", "  " + summary_line(result)]
    if result.outcomes:
        lines += [""] + _table("by ruleset", by_ruleset, columns)
    lines += _failures(result) + _citations(result) + _expected_failures(result) + _other_readings(result) \
        + _skipped(result)
    if verbose and result.outcomes:
        lines += [""] + _table("by article", by_article, columns, cites=False)
    elif result.outcomes:
        lines += ["", f"(the table by article, {len(by_article)} rows: --verbose)"]
    lines += ["", summary_line(result)]
    return "\n".join(lines) + "\n"


def _header(result: RunResult) -> list[str]:
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
    declared = declared_readings(result.info and result.info.get("readings"))
    if declared:
        lines.append("declared readings" + ("" if result.judged_by_readings else
                                            " (not applied: every case is graded)") + ":")
        lines += declared
    if result.xfail is not None:
        lines.append(f"expected failures: {result.xfail['file']}"
                     + ("" if result.xfail["strict"] else " (not strict: an unexpected pass does not fail the run)"))
        for entry in result.xfail["unused"]:
            lines.append(f"  warning: {entry.where}: {entry.pattern!r} matches no case of the suite")
    if result.start_error:
        lines += ["", f"START FAILED: {printable(result.start_error)}"]
    if result.stopped:
        lines += ["", f"STOPPED EARLY: {printable(result.stopped)}; the cases not run are errored"]
    if result.stderr.strip():
        lines += ["", "stderr outside any case:"] + _indent(result.stderr, "  | ")
    return lines


def _failures(result: RunResult) -> list[str]:
    bad = [o for o in result.outcomes if o.status in (FAILED, ERRORED) or o.status == XPASS and result.strict]
    unstarted = [o for o in bad if result.start_error and o.grade.message == result.start_error]
    bad = [o for o in bad if o not in unstarted]
    lines = []
    if unstarted:
        lines += ["", f"ERRORED {len(unstarted)} case{'s' if len(unstarted) != 1 else ''} never sent: "
                      f"{printable(result.start_error)}"]
    if not bad:
        return lines
    lines += ["", f"FAILURES ({len(bad)}: expected vs actual)"]
    for o in bad:
        lines += ["", f"  {o.status.upper()} {o.case.id}  ({display_path(o.case.file)}:{o.case.line})"]
        lines += [f"      {line}" for line in textwrap.wrap(printable(o.case.description, newlines=False), 100)]
        if o.status == XPASS:
            lines.append(f"      passed, but listed as an expected failure at {o.xfail.where}: {o.xfail.reason}")
            continue
        for m in o.grade.behaviour:
            lines.append(f"      {printable(m.path)}: expected {m.expected!r}")
            lines.append(f"      {' ' * len(m.path)}       got {printable(repr(m.actual))}")
        if o.grade.message:
            lines += _indent(o.grade.message)
        if o.stderr.strip():
            lines += ["      stderr:"] + _indent(o.stderr, "      | ")
    return lines


def _citations(result: RunResult) -> list[str]:
    cites = [o for o in result.outcomes if citation_tier(o) == "failed"]
    if not cites:
        return []
    lines = ["", "CITATIONS (the articles an answer must cite)"]
    for o in cites:
        for m in o.grade.citations:
            lines.append(f"  {o.case.id}: {m.path}: expected {m.expected}, got {printable(repr(m.actual))}")
    return lines


def _expected_failures(result: RunResult) -> list[str]:
    expected = [o for o in result.outcomes if o.status == XFAIL or o.status == XPASS and not result.strict]
    if not expected:
        return []
    lines = ["", "EXPECTED FAILURES (listed in the expected-failures file)"]
    for o in expected:
        first = str(o.grade.behaviour[0]) if o.grade.behaviour else o.grade.message.strip().split("\n")[0]
        lines.append(f"  {o.status.upper()} {o.case.id}: {o.xfail.reason}"
                     + (f"  [{printable(first)[:160]}]" if o.status == XFAIL and first else ""))
    return lines


def _other_readings(result: RunResult) -> list[str]:
    others = defaultdict(list)
    for o in result.outcomes:
        if o.status == OTHER_READING:
            for c in o.grade.conflicts:
                others[(o.case.ruleset, str(c))].append(o.case.id)
    if not others:
        return []
    lines = ["", "OTHER READING (written under a reading the implementation does not declare; not sent)"]
    for (ruleset, conflict), ids in sorted(others.items()):
        lines.append(f"  {len(ids):>4}  {ruleset}: {conflict}")
    return lines


def _skipped(result: RunResult) -> list[str]:
    """Skipped cases grouped by what they need: a feature the implementation does not
    declare (a case needing two counts under both), a ruleset it does not claim, or
    the reason given (a skip list, the implementation's own message)."""
    skipped = [o for o in result.outcomes if o.status == SKIPPED]
    if not skipped:
        return []
    info = result.info or {}
    features, rulesets, reasons = defaultdict(int), defaultdict(int), defaultdict(int)
    for o in skipped:
        missing = [t for t in o.case.requires if t not in info.get("features", o.case.requires)]
        if info and o.case.ruleset not in info.get("rulesets", []):
            rulesets[o.case.ruleset] += 1
        elif missing and o.grade.message.startswith("needs features"):
            for tag in missing:
                features[tag] += 1
        else:
            reasons[printable(o.grade.message or "skipped", newlines=False)] += 1
    lines = ["", f"SKIPPED ({len(skipped)})"]
    for title, groups in (("by the feature they need, which the implementation does not declare", features),
                          ("by the ruleset, which the implementation does not claim", rulesets),
                          ("for the reason given", reasons)):
        if groups:
            lines.append(f"  {title}:")
            lines += [f"  {n:>6}  {key}" for key, n in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0]))]
    return lines
