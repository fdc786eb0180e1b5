"""The semantic diff (tools.diff) as text, Markdown or JSON.

Every concept is shown: one that agrees in a line summarising its settings;
one that differs with, for each differing setting, both sides' clauses (as
they apply at each side's table), the articles each side cites, the clauses
that cannot apply at a table, and the disputes that guard the setting with
their readings.
"""
from __future__ import annotations

import json

from .concepts import CONCEPTS
from .diff import CITES_ONLY, DEAD_ONLY, DIFFERS, SAME, Diff, DisputeView, SettingDiff, SideView

_MARK = {DIFFERS: "≠", CITES_ONLY: "~", DEAD_ONLY: "≈", SAME: "="}
_WORDS = {CITES_ONLY: "same rule, other citations", DEAD_ONLY: "differs only in clauses that cannot apply at "
          "these tables"}


def short(s: SettingDiff, side: str = "a") -> str:
    v: SideView = getattr(s, side)
    if len(v.clauses) == 1 and not v.clauses[0].condition:
        return f"{s.path} = {v.clauses[0].text}"
    return f"{s.path} ({len(v.clauses)} clauses)"


def _cites(cites) -> str:
    return " ".join("@" + c for c in cites)


def _reading_line(d: DisputeView) -> str:
    readings = ", ".join(r.name + ("*" if r.name == d.chosen else "") for r in d.readings)
    return f"dispute {d.name} [{readings}] — {d.question}"


# ---------------------------------------------------------------------- text

def text(diff: Diff) -> str:
    a, b = diff.a, diff.b
    width = max(len(a.label), len(b.label))
    out = [f"{a.label} ({a.model.title})", f"  vs {b.label} ({b.model.title})", ""]
    counts = {st: sum(1 for s in diff.settings if s.status == st) for st in _MARK}
    out.append(f"{counts[DIFFERS]} settings differ, {counts[DEAD_ONLY]} differ only where they cannot apply, "
               f"{counts[CITES_ONLY]} differ only in citations, {counts[SAME]} agree")
    for concept in CONCEPTS:
        settings = diff.of_concept(concept.id)
        if not settings:
            continue
        status = diff.concept_status(concept.id)
        agreeing = [s for s in settings if s.status == SAME]
        out.append("")
        if status == "agree":
            out.append(f"{concept.title}: agree — " + "; ".join(short(s) for s in agreeing))
        else:
            out.append(f"{concept.title}: {status}")
            for s in settings:
                if s.status != SAME:
                    out += _text_setting(s, a.label, b.label, width)
            if agreeing:
                out.append("  = agree: " + "; ".join(short(s) for s in agreeing))
        for side, label in (("a", a.label), ("b", b.label)):
            for d in diff.disputes(concept.id, side):
                out.append(f"  {label}: {_reading_line(d)}")
    return "\n".join(out) + "\n"


def _text_setting(s: SettingDiff, la: str, lb: str, width: int) -> list[str]:
    note = f"  ({_WORDS[s.status]})" if s.status in _WORDS else ""
    out = [f"  {_MARK[s.status]} {s.path}{note}"]
    for side, label in (("a", la), ("b", lb)):
        v: SideView = getattr(s, side)
        lines = [c.text + (f"   {_cites(c.cites)}" if c.cites else "") for c in v.clauses] or [v.absent or "(none)"]
        if v.absent and v.clauses:
            lines = [v.absent]
        out.append(f"      {label:<{width}}  {lines[0]}")
        out += [f"      {'':<{width}}  {line}" for line in lines[1:]]
        for c in v.dead:
            out.append(f"      {'':<{width}}  cannot apply at this table: {c.text}   {_cites(c.cites)}")
        for d in v.disputes:
            others = [r for r in d.readings if r.name != d.chosen]
            out.append(f"      {'':<{width}}  disputed ({d.name}): reading {d.chosen} in force"
                       + ("" if d.chosen != d.default else " (default)"))
            for r in others:
                rule = "; ".join(c.text for c in r.clauses) or "(no clause)"
                out.append(f"      {'':<{width}}    under {r.name}: {rule}")
    return out


# ------------------------------------------------------------------ markdown

def _cell(v: SideView) -> str:
    if v.absent:
        return v.absent.replace("|", "\\|")
    parts = []
    for c in v.clauses:
        parts.append(f"`{c.text}`" + (f" {_cites(c.cites)}" if c.cites else ""))
    for c in v.dead:
        parts.append(f"*cannot apply here:* `{c.text}`")
    for d in v.disputes:
        parts.append(f"*disputed:* {d.name} = {d.chosen}")
    return "<br>".join(parts).replace("|", "\\|")


def markdown(diff: Diff) -> str:
    a, b = diff.a, diff.b
    out = [f"# {a.label} vs {b.label}", "",
           f"- **{a.label}**: {a.model.title}", f"- **{b.label}**: {b.model.title}", ""]
    rows = []
    for concept in CONCEPTS:
        if diff.of_concept(concept.id):
            n = sum(1 for s in diff.of_concept(concept.id) if s.status == DIFFERS)
            rows.append(f"| {concept.title} | {diff.concept_status(concept.id)} | {n} |")
    out += ["| concept | status | settings that differ |", "|---|---|---|", *rows]
    for concept in CONCEPTS:
        settings = diff.of_concept(concept.id)
        if not settings:
            continue
        out += ["", f"## {concept.title}", ""]
        agreeing = [s for s in settings if s.status == SAME]
        differing = [s for s in settings if s.status != SAME]
        if differing:
            out += [f"| setting | {a.label} | {b.label} |", "|---|---|---|"]
            for s in differing:
                note = f" ({_WORDS[s.status]})" if s.status in _WORDS else ""
                out.append(f"| `{s.path}`{note} | {_cell(s.a)} | {_cell(s.b)} |")
            out.append("")
        if agreeing:
            out.append("Agree: " + "; ".join(f"`{short(s)}`" for s in agreeing) + ".")
        for side, label in (("a", a.label), ("b", b.label)):
            for d in diff.disputes(concept.id, side):
                out += ["", f"**{label}, dispute `{d.name}`** — {d.question} (on {', '.join(d.articles)})", ""]
                for r in d.readings:
                    mark = " — *in force*" if r.name == d.chosen else ""
                    default = " (default)" if r.name == d.default else ""
                    out.append(f"- `{r.name}`{default}{mark}: {r.description}")
    return "\n".join(out) + "\n"


def as_json(diff: Diff) -> str:
    return json.dumps(diff.to_json(), indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"text": text, "md": markdown, "json": as_json}
