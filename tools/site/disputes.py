"""A dispute's page: its question, readings and default; the clauses each
reading guards; the fixtures written under each reading; each engine's
reading of it (from the runs' profiles); and rulings, as `canastra dispute`
gives them, of the fixtures that name a reading, ruled under every reading
of the dispute (tools/dispute.py), plus the situations given with
--situation that the dispute bears on.
"""
from __future__ import annotations

from .. import cardtext
from ..dispute import rule
from .rulebook import clause_view

SITUATION_KEYS = ("state", "actions", "query")


def readings_of(model, name: str) -> list[dict]:
    dispute = model.disputes[name]
    clauses = [c for c in model.all_clauses if any(g.kind == "under" and g.dispute == name for g in c.guards)]
    return [{"name": r.name, "description": r.description, "default": r.name == dispute.default,
             "clauses": [clause_view(c) for c in clauses
                         if any(g.kind == "under" and g.reading == r.name for g in c.guards)]}
            for r in dispute.readings]


def written_under(cases: list, name: str, reading: str) -> list:
    """The ruleset's fixtures that name this reading of the dispute."""
    return [c for c in cases if c.reading.get(name) == reading]


def engines(runs: list, ruleset: str, name: str) -> list[dict]:
    """Each run's card for the dispute, where its profile has the ruleset."""
    out = []
    for run in runs:
        card = ((run.profile or {}).get("rulesets", {}).get(ruleset) or {}).get("disputes", {}).get(name)
        out.append({"run": run, "card": card})
    return out


def _situation(case) -> dict:
    return {k: getattr(case, k) for k in SITUATION_KEYS if getattr(case, k) is not None}


def ruling_rows(model, case, name: str) -> list[dict]:
    """The case ruled under every reading of the dispute (its other readings kept)."""
    rows = []
    for reading in model.disputes[name].readings:
        chosen = {**case.reading, name: reading.name}
        chosen = {d: r for d, r in chosen.items() if r != model.disputes[d].default}
        rows.append({"reading": reading.name, "assumed": case.reading.get(name, model.disputes[name].default)
                     == reading.name, **outcome_view(rule(model.id, chosen, _situation(case)).outcome)})
    return rows


def outcome_view(outcome) -> dict:
    """What a ruling says, as short texts: each action's verdict, the score, the query's result."""
    if not outcome.fits:
        return {"steps": [], "score": None, "result": None, "error": "does not fit this table: " + outcome.error}
    steps = [{"verdict": s.verdict, "reason": s.reason, "cites": s.cites} for s in outcome.steps]
    score = None
    if outcome.score:
        score = [{"team": t, "total": s["total"], "terms": ", ".join(f"{k} {v:+d}" for k, v in s["terms"].items() if v)}
                 for t, s in outcome.score.items()]
    return {"steps": steps, "score": score, "result": None if outcome.score else outcome.result,
            "error": outcome.error}


def situation_text(case) -> list[str]:
    """The case's actions or query in words (tools/cardtext.py)."""
    if case.query is not None:
        return [cardtext.query(case.query)]
    return [cardtext.action(a) for a in case.actions or []]


def rulings(model, cases: list, name: str) -> list[dict]:
    """For each reading, the first fixture that names it, ruled under every reading."""
    out = []
    for reading in model.disputes[name].readings:
        named = written_under(cases, name, reading.name)
        if named:
            case = named[0]
            out.append({"case": case, "words": situation_text(case), "rows": ruling_rows(model, case, name)})
    return out


def situation_rulings(reports: list, ruleset: str, name: str) -> list[dict]:
    """The --situation reports (tools.dispute.evaluate) in which this dispute bears on the ruling."""
    out = []
    for report in reports:
        for ruling in report.rulings:
            if ruling.ruleset != ruleset:
                continue
            for dispute in ruling.disputes:
                if dispute.name == name:
                    rows = [{"reading": dispute.chosen, "assumed": True, **outcome_view(ruling.ruling.outcome)}]
                    rows += [{"reading": r, "assumed": False, **outcome_view(alt.outcome)}
                             for r, _, alt in dispute.readings]
                    out.append({"situation": report.situation, "rows": rows})
    return out
