"""The report of a fuzzing run (canastra fuzz): its JSON form, the text a
terminal or a CI log shows, and the fixture files of the shrunk findings.

JSON (format "canastra-fuzz-report", version 1):

    {"format", "format_version", "implementation", "command", "seed", "jobs",
     "budget": {"seconds": N} or {"cases": N}, "near_legal", "reasons",
     "rulesets": [{"ruleset", "readings", "hands", "steps", "messages", "seconds",
                   "interrupted", "abandoned",
                   "faults": [{"fault", "job", "hand", "seed"}] (null where a fault was met shrinking),
                   "skipped": {message: count},
                   "unsent": {why: count},
                   "groups": [{"reason", "article", "kind", "count", "origins",
                               "mismatches", "answer", "fixture", "unwritten", "shrunk", "case"}]}],
     "summary": {"hands", "steps", "groups", "findings", "faults"}}

A group's `case` is its shrunk fixture (or the finding as found, when not
shrunk), `fixture` the file it was written to (with --out), `unwritten` why
no fixture was made (a difference no fixture's expectation states), `shrunk` how
far shrinking got ({"actions", "checks", "complete", "passes"}, or null).
"""
from __future__ import annotations

from pathlib import Path

from canastra_ref.display import printable

from .fuzz import Group, Tally
from .witness import slug, write

FORMAT, FORMAT_VERSION = "canastra-fuzz-report", 1


def fixture_id(implementation: str, ruleset: str, key) -> str:
    reason, article, kind = key
    return "-".join(p for p in ("fuzz", slug(implementation), ruleset, slug(reason), slug(article) or "uncited",
                                kind) if p)[:200]


def group_json(group: Group, case: dict | None, shrunk, path: str | None, unwritten: str | None = None) -> dict:
    reason, article, kind = group.key
    finding = group.finding
    return {"reason": reason, "article": article or None, "kind": kind, "count": group.count,
            "origins": group.origins, "mismatches": (shrunk.mismatches if shrunk else finding.mismatches)[:10],
            "answer": _answer(shrunk.answer if shrunk else finding.answer, shrunk, finding),
            "fixture": path, "unwritten": unwritten,
            "shrunk": None if shrunk is None else {"actions": len(shrunk.actions), "checks": shrunk.checks,
                                                   "complete": shrunk.complete, "passes": shrunk.steps},
            "case": case}


def _answer(answer, shrunk, finding) -> str:
    """The implementation's answer to the differing action, in a few words."""
    if shrunk is not None:
        if "results" not in answer:
            return f"errored: {_short(str(answer.get('message', '')))}"
        answer = answer["results"][-1]
    elif answer is None:
        return f"errored: {_short(finding.message)}"
    return f"{answer.get('verdict')} ({answer.get('reason')})" if isinstance(answer, dict) else _short(repr(answer))


def ruleset_json(tally: Tally, groups: list[dict]) -> dict:
    return {"ruleset": tally.ruleset, "readings": tally.readings, "hands": tally.hands, "steps": tally.steps,
            "messages": tally.messages, "seconds": round(tally.seconds, 1), "interrupted": tally.interrupted,
            "abandoned": tally.abandoned,
            "faults": tally.faults[:20], "skipped": dict(tally.skipped.most_common()),
            "unsent": dict(tally.unsent.most_common()), "groups": groups}


def report_json(header: dict, rulesets: list[dict]) -> dict:
    summary = {"hands": sum(r["hands"] for r in rulesets), "steps": sum(r["steps"] for r in rulesets),
               "groups": sum(len(r["groups"]) for r in rulesets),
               "findings": sum(g["count"] for r in rulesets for g in r["groups"]),
               "faults": sum(len(r["faults"]) for r in rulesets)}
    return {"format": FORMAT, "format_version": FORMAT_VERSION, **header, "rulesets": rulesets, "summary": summary}


def header_line(header: dict) -> str:
    impl = header["implementation"]
    budget = header["budget"]
    amount = f"{budget['seconds']:g} s" if "seconds" in budget else f"{budget['cases']:,} hands"
    return printable(f"canastra fuzz: {impl.get('name')} {impl.get('version', '')} ({impl.get('language', '?')}) "
                     f"against the reference; seed {header['seed']}, {header['jobs']} job"
                     f"{'s' if header['jobs'] != 1 else ''}, {amount} a ruleset", newlines=False)


def ruleset_line(r: dict) -> str:
    readings = ", ".join(f"{d}={v}" for d, v in r["readings"].items()) or "the defaults"
    rate = f", {r['steps'] / r['seconds']:,.0f} steps/s" if r["seconds"] else ""
    note = " (interrupted)" if r["interrupted"] else ""
    return (f"{r['ruleset']} under {readings}: {r['hands']:,} hands, {r['steps']:,} steps compared in "
            f"{r['messages']:,} messages, {r['seconds']:g} s{rate}{note}")


def render_text(report: dict) -> str:
    lines = [header_line(report)]
    for r in report["rulesets"]:
        lines += ["", printable(ruleset_line(r), newlines=False)]
        groups = r["groups"]
        if r.get("abandoned"):
            lines.append(printable(f"  left early: {r['abandoned']}", newlines=False))
        if not groups:
            lines.append("  no difference found")
        else:
            total = sum(g["count"] for g in groups)
            lines.append(f"  {len(groups)} difference{'s' if len(groups) != 1 else ''} ({total:,} finding"
                         f"{'s' if total != 1 else ''}), by reason, article and kind:")
        for g in groups:
            article = g["article"] or "no article cited"
            lines.append(printable(f"  {g['count']:>6,}x {g['kind']}: {g['reason']} ({article}); the implementation: "
                                   f"{g['answer']}", newlines=False))
            for m in g["mismatches"][:3]:
                lines.append(printable(f"           {_short(m, 150)}", newlines=False))
            shrunk = g["shrunk"]
            if shrunk:
                state = "" if shrunk["complete"] else ", stopped at the limit of checks"
                where = f": {g['fixture']}" if g["fixture"] else ""
                lines.append(f"           shrunk to {shrunk['actions']} action{'s' if shrunk['actions'] != 1 else ''}"
                             f" in {shrunk['checks']} checks{state}{where}")
            elif g["fixture"]:
                lines.append(f"           not shrunk: {g['fixture']}")
            if g.get("unwritten"):
                lines.append(f"           no fixture: {g['unwritten']}")
        for title, counts in (("not sent (features it does not declare)", r["unsent"]),
                              ("skipped by the implementation", r["skipped"])):
            if counts:
                lines.append(f"  {title}: {sum(counts.values()):,} steps")
                for why, n in list(counts.items())[:5]:
                    lines.append(printable(f"    {n:>6,}  {_short(why, 140)}", newlines=False))
        for fault in r["faults"]:
            where = ", ".join(f"{k} {fault[k]}" for k in ("job", "hand", "seed") if fault.get(k) is not None)
            lines.append(printable(f"  a fault of the reference{f' ({where})' if where else ''}: {fault['fault']}",
                                   newlines=False))
    s = report["summary"]
    faults = f", {s['faults']} fault{'s' if s['faults'] != 1 else ''} of the reference" if s["faults"] else ""
    lines += ["", f"summary: {s['hands']:,} hands, {s['steps']:,} steps, {s['groups']} difference"
                  f"{'s' if s['groups'] != 1 else ''} ({s['findings']:,} findings){faults}"]
    return "\n".join(lines) + "\n"


def write_fixture(out: Path, ruleset: str, case: dict, group: Group, header: dict, shrunk) -> Path:
    """One group's case as a fixture file, OUT/<ruleset>/<id>.yaml, with a header
    that says where it comes from and what must be checked before it joins the suite."""
    impl = header["implementation"]
    origin = group.origins[0] if group.origins else {}
    reason, article, kind = group.key
    lines = [
        "Produced by canastra fuzz (differential fuzzing), not written from the rulebook.",
        f"Implementation: {impl.get('name')} {impl.get('version', '')}; ruleset {ruleset}.",
        f"Found {group.count} time(s); first in job {origin.get('job')}, hand {origin.get('hand')} "
        f"(dealt from seed {origin.get('seed')}), step {origin.get('step')}, of the run with --seed "
        f"{header['seed']} --jobs {header['jobs']}.",
        f"Difference ({kind}) on the last action: "
        + "; ".join(_short(m, 200) for m in (shrunk.mismatches if shrunk else group.finding.mismatches)[:3]),
        "",
        "The expectation is the reference's answer. Check it against the article(s) before",
        f"moving the case into conformance/fixtures/{ruleset}/.",
    ]
    if not article:
        lines.append(f"The reference cites no article for {reason}: the articles listed are those its judgement "
                     "consulted, or a placeholder the schema needs; name the right one when checking.")
    path = out / ruleset / f"{case['id']}.yaml"
    return write(path, [case], "\n".join(lines))


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "..."
