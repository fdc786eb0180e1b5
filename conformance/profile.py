"""The reading profile of an implementation, inferred from its behaviour: for
every dispute of every ruleset, which reading it follows; the best reading
set of each ruleset and the pass rate under it; the closest ruleset. It is
computed from a conformance report in which every case was sent and graded
(`canastra conformance --every-reading`, or `canastra profile --impl`), and
the suite's cases.

What "matches" means. A case is **evidence** about dispute D when its
expectations do not hold under some other reading of D (readings.py: the
reference, run on the case under that reading, changes some expected value);
it is evidence for its own reading of D (named, or the default), and the
values the other reading changes are its **disputed values**, each with what
the other reading makes of it. A case that holds under every reading of D
says nothing about D, whatever it names. Evidence cases also test other
things (a whole state, a score, a reason code that implementations name
differently), so the answer is read at the disputed values only: where the
implementation gave the case's expected value, that is a point for the
case's reading; where it gave the other reading's value, a point for that
one; where it gave a third value, neither. The implementation **agrees**
with the case's reading when it scored points for it and none for another
reading, and **answers the other reading's way** in the reverse case; a
case that passed agrees. A case the reference cannot play under the other
reading agrees when it passed and tells nothing otherwise; one that errored
or was skipped is not graded.

Verdict per dispute, from the graded evidence cases: a reading is
**supported** by its own cases that agree and by the other readings' cases
answered its way;

- `follows` R: R is supported and no other reading is;
- `mixed`: two readings or more are supported (an implementation that honours
  the run message's `reading`, as the reference does, or an inconsistent one);
- `neither`: some evidence was graded and no reading is supported;
- `untested`: no evidence case was graded;
- `inapplicable`: whatever its evidence, the dispute changes no ruling under
  the best readings of the other disputes (below), the engine reading none of
  the settings its readings give (readings.moot_under): casa's
  restart-first-card, which says what a restarted turn does with the first
  player's card turned down, under failed-opening's reading discard, where no
  turn restarts. Its cases all assume a reading of the other dispute that the
  implementation does not follow, and an answer to them tells nothing of this
  one. `inapplicable_under` names the readings of the others that keep it
  from bearing (each dispute another reading of which would let it bear;
  empty when no single one would); it is null with every other verdict.

The **best reading set** of a ruleset takes, per dispute, the reading
followed; for `mixed`, the most supported reading; otherwise (and on ties)
the declared reading, else the default. A dispute is judged inapplicable
against the best readings of the others, and then takes the declared
reading, else the default. The pass rate under a reading set
counts the cases whose expectations hold under it, one dispute at a time
(the others are other-reading); the closest ruleset has the best pass rate
under its best reading set among the rulesets with enough graded cases
(MIN_GRADED, or a tenth of the best-covered ruleset, but no more than the
best-covered ruleset has).

JSON form (format "canastra-profile", version 2; version 1 had no verdict
inapplicable and no `inapplicable_under`):

    {"format": "canastra-profile", "format_version": 2,
     "implementation": {...} | null, "suite": {version, digest, cases, ...},
     "declared": {ruleset: {dispute: reading}},
     "rulesets": {ruleset: {
         "disputes": {dispute: {
             "question", "default", "declared": reading | null,
             "readings": {reading: {"evidence", "passed", "failed", "agree", "other_way", "not_graded",
                                    "support", "agreeing": [ids], "other_way_ids": [ids]}},
             "verdict": "follows" | "mixed" | "neither" | "untested" | "inapplicable",
             "reading": reading | null,                      # with follows
             "inapplicable_under": {dispute: reading} | null,   # with inapplicable
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
from .grading import ERRORED, FAILED, OTHER_READING, PASSED, SKIPPED, match
from .readings import WHOLE

FORMAT, FORMAT_VERSION = "canastra-profile", 2
VERDICTS = ("follows", "mixed", "neither", "untested", "inapplicable")
MIN_GRADED = 10


def outcome_of(record: dict) -> str:
    """A report record's status before expected failures (xfail, xpass) were applied."""
    return record.get("outcome", record["status"])


def _judge(record: dict, case_paths: dict) -> str | None:
    """The reading an answer took at a case's disputed values: "own" (the case's),
    another reading's name, or None (neither, or both). `case_paths`: other
    reading -> {path: its value}."""
    if outcome_of(record) == PASSED:
        return "own"
    if outcome_of(record) != FAILED:
        return None
    actual = {m["path"]: m["actual"] for m in record.get("mismatches", [])}
    points: set[str] = set()
    for other, values in case_paths.items():
        for path, value in values.items():
            if path == WHOLE:
                continue
            if not readings.overlaps(path, actual):
                points.add("own")
            elif path in actual and _same(actual[path], value, path):
                points.add(other)
    return next(iter(points)) if len(points) == 1 else None


def _same(actual, value, path: str) -> bool:
    out: list = []
    match(value, actual, path, out, multiset=".hands." in path)
    return not out


def dispute_card(cases: list[Case], records: dict, name: str, declared: str | None) -> dict:
    """The evidence, verdict and declaration check of one dispute, over the cases of its ruleset."""
    dispute = load(cases[0].ruleset).disputes[name]
    names = [r.name for r in dispute.readings]
    per = {r: {"evidence": 0, "passed": 0, "failed": 0, "agree": 0, "other_way": 0, "not_graded": 0,
               "support": 0, "agreeing": [], "other_way_ids": []} for r in names}
    for case in cases:
        own = readings.effective(case)[name]
        paths = {r: readings.disputed(case, name, r) for r in names if r != own}
        paths = {r: p for r, p in paths.items() if p}
        if not paths:
            continue
        cell = per[own]
        cell["evidence"] += 1
        record = records[case.id]
        status = outcome_of(record)
        if status not in (PASSED, FAILED):
            cell["not_graded"] += 1
            continue
        cell[status] += 1
        took = _judge(record, paths)
        if took == "own":
            cell["agree"] += 1
            cell["support"] += 1
            cell["agreeing"].append(case.id)
        elif took is not None:
            cell["other_way"] += 1
            cell["other_way_ids"].append(case.id)
            per[took]["support"] += 1
    supported = [r for r in names if per[r]["support"]]
    graded = any(per[r]["passed"] + per[r]["failed"] for r in names)
    if len(supported) == 1:
        verdict, followed = "follows", supported[0]
    elif supported:
        verdict, followed = "mixed", None
    else:
        verdict, followed = ("neither" if graded else "untested"), None
    card = {"question": dispute.question, "default": dispute.default, "declared": declared, "readings": per,
            "verdict": verdict, "reading": followed, "inapplicable_under": None, "declaration": None}
    _declaration(card)
    return card


def _declaration(card: dict) -> None:
    if card["declared"] is not None:
        followed = card["reading"]
        card["declaration"] = "unknown" if followed is None else "kept" if followed == card["declared"] else "broken"


def best_reading(card: dict) -> str:
    if card["verdict"] == "follows":
        return card["reading"]
    fallback = card["declared"] or card["default"]
    if card["verdict"] == "mixed":
        most = max(c["support"] for c in card["readings"].values())
        tied = [r for r, c in card["readings"].items() if c["support"] == most]
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
    moot = {name: readings.moot_under(cases[0].ruleset, name, best) for name in disputes}
    for name, keeping in moot.items():
        if keeping is not None:
            disputes[name].update(verdict="inapplicable", reading=None, inapplicable_under=keeping)
            _declaration(disputes[name])
            best[name] = best_reading(disputes[name])
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
