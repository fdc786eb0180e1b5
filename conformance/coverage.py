"""Which articles and dispute readings the fixtures cover.

A ruleset's normative articles are covered by fixtures of that ruleset that
list them in `articles`. A ruleset that extends another is responsible only
for the articles its own clauses cite (the rest is covered under its base).
A dispute reading is covered by a fixture that names it in `reading`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from canastra_ref.dsl.loader import available, load

from .fixtures import Case


@dataclass
class Coverage:
    ruleset: str
    normative: list[str]
    covered: list[str]
    uncovered: list[str]
    informative: list[str]
    readings: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # dispute -> reading -> case ids
    uncovered_readings: list[str] = field(default_factory=list)              # "dispute.reading"
    cases: int = 0

    @property
    def complete(self) -> bool:
        return not self.uncovered and not self.uncovered_readings

    def to_json(self) -> dict:
        return {"normative": self.normative, "covered": self.covered, "uncovered": self.uncovered,
                "informative": self.informative, "cases": self.cases,
                "disputes": {d: {r: ids for r, ids in rs.items()} for d, rs in self.readings.items()},
                "uncovered_readings": self.uncovered_readings, "complete": self.complete}


def coverage(ruleset_id: str, cases: list[Case]) -> Coverage:
    ruleset = load(ruleset_id)
    mine = [c for c in cases if c.ruleset == ruleset_id]
    if ruleset.extends:
        own = {c.article for f in _own_clauses(ruleset) for c in f.citations}
        normative = [a for a in ruleset.articles if a in own and not ruleset.articles[a].informative]
        informative = []
        disputes = {n: d for n, d in ruleset.disputes.items() if d.pos.file == ruleset.files[-1]}
    else:
        normative = [a.id for a in ruleset.articles.values() if not a.informative]
        informative = [a.id for a in ruleset.articles.values() if a.informative]
        disputes = ruleset.disputes
    cited = {a for c in mine for a in c.articles}
    covered = [a for a in normative if a in cited]
    result = Coverage(ruleset_id, normative, covered, [a for a in normative if a not in cited], informative,
                      cases=len(mine))
    for name, dispute in disputes.items():
        result.readings[name] = {r.name: [c.id for c in mine if c.reading.get(name) == r.name]
                                 for r in dispute.readings}
        result.uncovered_readings += [f"{name}.{r}" for r, ids in result.readings[name].items() if not ids]
    return result


def _own_clauses(ruleset):
    return [c for c in ruleset.all_clauses if c.pos.file == ruleset.files[-1]]


def coverage_all(cases: list[Case], rulesets: list[str] | None = None) -> list[Coverage]:
    return [coverage(r, cases) for r in (rulesets or available())]
