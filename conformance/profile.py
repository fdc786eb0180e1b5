"""The reading profile of an implementation, inferred from its behaviour: for
every dispute of every ruleset, which reading it follows; the best reading
set of each ruleset and the pass rate under it; the closest ruleset. It is
computed from a conformance report in which every case was sent and graded
(`canastra conformance --every-reading`, or `canastra profile --impl`), and
the suite's cases.

What "matches" means. A case is **evidence** about dispute D when its
expectations do not hold under some other reading of D (readings.py: the
reference, run on the case under that reading, fails some expected value);
it is then evidence for its own reading of D (named, or the default), and
the expected values that the other readings would change are its
**disputed paths**. A case that holds under every reading of D says nothing
about D, whatever it names. Evidence cases also test other things (a
state, a score, a reason), so passing is not required: the implementation
**agrees** with the case's reading when the case passed, or failed only at
paths away from the disputed ones (`results[1].state.teams.NS.melds` is on
the path `results[1].state.teams.NS.melds[0].cards[2]`, and the reverse).
A case that errored or was skipped is not graded.

Verdict per dispute, from the graded evidence cases:

- `follows` R: some case of reading R agrees, and no case of another reading does;
- `mixed`: cases of two readings or more agree (an implementation that honours
  the run message's `reading`, as the reference does, or an inconsistent one);
- `neither`: some evidence was graded and no case agrees;
- `untested`: no evidence case was graded.

The **best reading set** of a ruleset takes, per dispute, the reading
followed; for `mixed`, the reading whose graded evidence cases agree most
often; otherwise (and on ties) the declared reading, else the default. The pass rate under a
reading set counts the cases whose expectations hold under it, one dispute
at a time (the others are other-reading); the closest ruleset has the best
pass rate under its best reading set among the rulesets with enough graded
cases (MIN_GRADED, or a tenth of the best-covered ruleset, but no more than
the best-covered ruleset has).

JSON form (format "canastra-profile", version 1):

    {"format": "canastra-profile", "format_version": 1,
     "implementation": {...} | null, "suite": {version, digest, cases, ...},
     "declared": {ruleset: {dispute: reading}},
     "rulesets": {ruleset: {
         "disputes": {dispute: {
             "question", "default", "declared": reading | null,
             "readings": {reading: {"evidence", "passed", "failed", "agree", "not_graded",
                                    "agreeing": [ids], "disagreeing": [ids]}},
             "verdict": "follows" | "mixed" | "neither" | "untested",
             "reading": reading | null,                      # with follows
             "declaration": "kept" | "broken" | "unknown" | null}},   # null: none declared
         "profile": {dispute: reading},                      # the best reading set
         "under": {"profile" | "default" | "declared": {"graded", "passed", "failed", "errored",
                   "skipped", "other_reading", "rate", "failing": [ids]}}}},
     "closest": {"ruleset", "profile", "graded", "passed", "rate"} | null}

`under.declared` is absent for a ruleset without a declaration; `rate` is
null when nothing was graded.
"""
from __future__ import annotations

from canastra_ref.dsl.loader import load

from . import readings
from .fixtures import Case
from .grading import ERRORED, FAILED, OTHER_READING, PASSED, SKIPPED

FORMAT, FORMAT_VERSION = "canastra-profile", 1
VERDICTS = ("follows", "mixed", "neither", "untested")
MIN_GRADED = 10


def outcome_of(record: dict) -> str:
    """A report record's status before expected failures (xfail, xpass) were applied."""
    return record.get("outcome", record["status"])


def _evidence(case: Case, dispute: str, readings_: list[str]) -> frozenset[str]:
    """The disputed paths of a case about a dispute: empty when it is no evidence."""
    own = readings.effective(case)[dispute]
    paths: set[str] = set()
    for other in readings_:
        if other != own:
            paths |= readings.disputed(case, dispute, other)
    return frozenset(paths)


def _agrees(record: dict, paths: frozenset[str]) -> bool:
    if outcome_of(record) == PASSED:
        return True
    mismatches = [m["path"] for m in record.get("mismatches", [])]
    return bool(mismatches) and not any(readings.overlaps(m, paths) for m in mismatches)


def dispute_card(cases: list[Case], records: dict, name: str, declared: str | None) -> dict:
    """The evidence, verdict and declaration check of one dispute, over the cases of its ruleset."""
    dispute = load(cases[0].ruleset).disputes[name]
    names = [r.name for r in dispute.readings]
    per = {r: {"evidence": 0, "passed": 0, "failed": 0, "agree": 0, "not_graded": 0, "agreeing": [],
               "disagreeing": []} for r in names}
    for case in cases:
        paths = _evidence(case, name, names)
        if not paths:
            continue
        cell = per[readings.effective(case)[name]]
        cell["evidence"] += 1
        record = records[case.id]
        status = outcome_of(record)
        if status not in (PASSED, FAILED):
            cell["not_graded"] += 1
            continue
        cell[status] += 1
        if _agrees(record, paths):
            cell["agree"] += 1
            cell["agreeing"].append(case.id)
        else:
            cell["disagreeing"].append(case.id)
    agreeing = [r for r in names if per[r]["agree"]]
    graded = any(per[r]["passed"] + per[r]["failed"] for r in names)
    if len(agreeing) == 1:
        verdict, followed = "follows", agreeing[0]
    elif agreeing:
        verdict, followed = "mixed", None
    else:
        verdict, followed = ("neither" if graded else "untested"), None
    card = {"question": dispute.question, "default": dispute.default, "declared": declared, "readings": per,
            "verdict": verdict, "reading": followed, "declaration": None}
    if declared is not None:
        card["declaration"] = "unknown" if followed is None else "kept" if followed == declared else "broken"
    return card


def best_reading(card: dict) -> str:
    if card["verdict"] == "follows":
        return card["reading"]
    fallback = card["declared"] or card["default"]
    if card["verdict"] == "mixed":
        share = {r: c["agree"] / (c["passed"] + c["failed"]) for r, c in card["readings"].items() if c["agree"]}
        tied = [r for r in share if share[r] == max(share.values())]
        return fallback if fallback in tied else tied[0]
    return fallback


def under(cases: list[Case], records: dict, chosen: dict[str, str]) -> dict:
    """The cases graded, passed, failed... when the readings `chosen` are taken
    (a case whose expectations do not hold under one of them is other-reading)."""
    out = {"graded": 0, "passed": 0, "failed": 0, "errored": 0, "skipped": 0, "other_reading": 0, "rate": None,
           "failing": []}
    for case in cases:
        status = outcome_of(records[case.id])
        if status == OTHER_READING or readings.conflicts(case, chosen):
            out["other_reading"] += 1
        elif status == SKIPPED:
            out["skipped"] += 1
        else:
            out[status] += 1
            out["graded"] += 1
            if status in (FAILED, ERRORED):
                out["failing"].append(case.id)
    if out["graded"]:
        out["rate"] = round(out["passed"] / out["graded"], 4)
    return out


def ruleset_card(cases: list[Case], records: dict, declared: dict[str, str]) -> dict:
    ruleset = load(cases[0].ruleset)
    disputes = {name: dispute_card(cases, records, name, declared.get(name)) for name in ruleset.disputes}
    best = {name: best_reading(card) for name, card in disputes.items()}
    rates = {"profile": under(cases, records, best),
             "default": under(cases, records, {n: d.default for n, d in ruleset.disputes.items()})}
    if declared:
        rates["declared"] = under(cases, records, declared)
    return {"disputes": disputes, "profile": best, "under": rates}


def closest(cards: dict[str, dict]) -> dict | None:
    graded = {name: card["under"]["profile"] for name, card in cards.items()}
    most = max((g["graded"] for g in graded.values()), default=0)
    floor = max(min(MIN_GRADED, most), most // 10, 1)
    eligible = {name: g for name, g in graded.items() if g["graded"] >= floor and g["rate"] is not None}
    if not eligible:
        return None
    name = max(eligible, key=lambda n: (eligible[n]["rate"], eligible[n]["graded"]))
    g = eligible[name]
    return {"ruleset": name, "profile": cards[name]["profile"], "graded": g["graded"], "passed": g["passed"],
            "rate": g["rate"]}


def profile(report: dict, cases: list[Case], rulesets: list[str] | None = None) -> dict:
    """The profile (JSON form above) of the implementation a report is of.
    `cases`: the suite the report ran (cases it lacks are left out);
    `rulesets`: only these (default: every ruleset with a case in the report)."""
    records = report["cases"]
    mine = [c for c in cases if c.id in records and (not rulesets or c.ruleset in rulesets)]
    by_ruleset: dict[str, list[Case]] = {}
    for case in mine:
        by_ruleset.setdefault(case.ruleset, []).append(case)
    declared = report.get("readings") or {}
    cards = {name: ruleset_card(group, records, declared.get(name, {})) for name, group in sorted(by_ruleset.items())}
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "implementation": report.get("implementation"),
            "suite": report.get("suite"), "declared": declared, "rulesets": cards, "closest": closest(cards)}
