"""The article x implementation matrix of a ruleset, and the index's rates.

A cell counts the cases of one run that cite one article, by status (a case
citing three articles counts in three rows, as in the text report's table
by article); the totals row counts each case of the ruleset once. A cell's
colour is its worst news: failing (failed, errored or xpass), else xfail,
else passing, else other-reading, else skipped.
"""
from __future__ import annotations

from canastra_conformance.grading import ERRORED, FAILED, OTHER_READING, PASSED, SKIPPED, XFAIL, XPASS
from canastra_conformance.results import STATUSES

UNGRADED = (SKIPPED, OTHER_READING)


def cell(records: list[dict]) -> dict:
    counts = {status: 0 for status in STATUSES}
    for record in records:
        counts[record["status"]] += 1
    graded = len(records) - counts[SKIPPED] - counts[OTHER_READING]
    if counts[FAILED] or counts[ERRORED] or counts[XPASS]:
        tone = "fail"
    elif counts[XFAIL]:
        tone = "xfail"
    elif counts[PASSED]:
        tone = "pass"
    elif counts[OTHER_READING]:
        tone = "other"
    else:
        tone = "skip"
    return {"counts": counts, "total": len(records), "graded": graded, "tone": tone}


def article_order(model, cases) -> list[str]:
    """The articles the cases cite, in the rulebook's order (unknown ids last)."""
    cited = {a for case in cases for a in case.articles}
    known = [a for a in model.articles if a in cited]
    return known + sorted(cited - set(known))


def ruleset_matrix(model, cases: list, runs: list) -> dict:
    """{"rows": [{article, paraphrase, features, cases, cells}], "totals": [cell per run]}."""
    rows = []
    for article in article_order(model, cases):
        mine = [c for c in cases if article in c.articles]
        entry = model.articles.get(article)
        rows.append({"article": article, "paraphrase": entry.paraphrase if entry else "",
                     "features": sorted({t for c in mine for t in c.requires}), "cases": len(mine),
                     "cells": [cell([run.cases[c.id] for c in mine if c.id in run.cases]) for run in runs]})
    totals = [cell([run.cases[c.id] for c in cases if c.id in run.cases]) for run in runs]
    return {"rows": rows, "totals": totals, "features": sorted({t for c in cases for t in c.requires})}


def rate(counts: dict | None) -> dict | None:
    """A profile's pass rate (`under.profile` of a ruleset card) for a page: passed, graded, percent."""
    if not counts or not counts.get("graded"):
        return None
    return {"passed": counts["passed"], "graded": counts["graded"],
            "percent": round(100 * counts["passed"] / counts["graded"])}


def index_rows(runs: list, rulesets: list[str]) -> list[dict]:
    """Per run, per ruleset: the pass rate under the run's own reading profile."""
    rows = []
    for run in runs:
        cards = (run.profile or {}).get("rulesets", {})
        rows.append({"run": run, "closest": (run.profile or {}).get("closest"),
                     "rates": [rate(cards.get(r, {}).get("under", {}).get("profile")) for r in rulesets]})
    return rows
