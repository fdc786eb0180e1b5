"""The behavioural diff (tools.behaviour) as text, Markdown or JSON: per
semantic difference, its witness (the situation, both rulings, the file) or
the reason none can exist."""
from __future__ import annotations

import json

from .behaviour import Report, ruling


def _situation(sit: dict) -> str:
    text = json.dumps(sit, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= 160 else text[:157] + "..."


def _counts(report: Report) -> str:
    n = len(report.findings)
    alone = sum(1 for f in report.findings if f.witness and f.witness.strict)
    together = sum(1 for f in report.findings if f.witness and not f.witness.strict)
    reasons = sum(1 for f in report.findings if f.reason)
    return (f"{n} semantic differences: {alone} witnessed by a situation the setting alone accounts for, "
            f"{together} by a situation where it acts with other differences, {reasons} with the reason no "
            f"witness exists")


def text(report: Report) -> str:
    a, b = report.diff.a.label, report.diff.b.label
    width = max(len(a), len(b))
    out = [f"Behavioural diff: {a} vs {b}",
           f"fixtures: {report.fixtures_run} cases run under both rulesets"
           + (f" ({report.fixtures_skipped} did not fit both tables)" if report.fixtures_skipped else ""),
           f"search: Hypothesis, up to {report.budget} situations per family, witnesses shrunk to minimal ones",
           _counts(report), ""]
    for f in report.findings:
        out.append(f"≠ {f.setting.path}  [{f.setting.concept}]")
        w = f.witness
        if w is None:
            out.append(f"    no witness: {f.reason}")
            continue
        how = "" if w.strict else " (acting with other differences)"
        out.append(f"    witness{how}: {w.origin}" + (f" -> {w.file}" if w.file else ""))
        out.append(f"    situation: {_situation(w.situation)}")
        out.append(f"    {a:<{width}}  {ruling(w.a, w.b)}")
        out.append(f"    {b:<{width}}  {ruling(w.b, w.a)}")
    if report.other:
        out += ["", f"{len(report.other)} more fixture situations are ruled differently "
                    f"(by differences witnessed above):"]
        for w in report.other:
            by = f" [{', '.join(w.paths)}]" if w.paths else ""
            out.append(f"  {w.origin}{by}" + (f" -> {w.file}" if w.file else ""))
    return "\n".join(out) + "\n"


def markdown(report: Report) -> str:
    a, b = report.diff.a.label, report.diff.b.label
    out = [f"# Behavioural diff: {a} vs {b}", "", _counts(report) + ".", "",
           f"| setting | witness or reason | {a} | {b} |", "|---|---|---|---|"]
    for f in report.findings:
        w = f.witness
        if w is None:
            out.append(f"| `{f.setting.path}` | *no witness:* {f.reason} | | |")
            continue
        how = "" if w.strict else " (with other differences)"
        where = f" — `{w.file}`" if w.file else ""
        out.append(f"| `{f.setting.path}` | {w.origin}{how}{where} | {_cell(ruling(w.a, w.b))} | "
                   f"{_cell(ruling(w.b, w.a))} |")
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def as_json(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False, default=str) + "\n"


RENDERERS = {"text": text, "md": markdown, "json": as_json}
