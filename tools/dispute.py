"""The dispute report: one table situation under every ruleset and reading.

For each ruleset (the one the situation names, or every ruleset whose table
it fits), the situation is ruled under the default readings; then, for every
dispute of the ruleset and every other reading of it, under that reading
alone. A dispute *bears on* the situation when one of its other readings
changes the verdicts, the score or the articles cited. Each ruling carries
its deciding articles with their paraphrases and, given the rulebook texts
(--sources), their wording (tools.sources).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from canastra_ref.dsl.loader import available, load
from canastra_ref.engine.reasons import REASONS
from canastra_ref.engine.rules import engine_for
from canastra_ref.errors import CanastraError, ErrorList, InputError

from . import situation as situations
from .situation_file import Situation, load_situation  # noqa: F401  (re-exported for the command)


@dataclass
class Article:
    id: str
    paraphrase: str
    quote: str | None = None

    def to_json(self) -> dict:
        out = {"id": self.id, "paraphrase": self.paraphrase}
        if self.quote is not None:
            out["quote"] = self.quote
        return out


@dataclass
class Ruling:
    ruleset: str
    readings: dict
    outcome: situations.Outcome
    articles: list[Article] = field(default_factory=list)

    @property
    def cites(self) -> list[str]:
        out = [c for s in self.outcome.steps for c in s.cites]
        if self.outcome.score:
            out += [c for s in self.outcome.score.values() for c in s["cites"]]
        return list(dict.fromkeys(out))

    def signature(self):
        """What a dispute must change to bear on the situation: the verdicts and
        reasons, the score, the citations (or the query result)."""
        o = self.outcome
        score = tuple(sorted((t, s["total"], tuple(s["cites"])) for t, s in (o.score or {}).items()))
        return (o.fits, o.error, repr(o.result), tuple((s.verdict, s.reason, tuple(s.cites)) for s in o.steps), score)

    def to_json(self) -> dict:
        out = {"readings": self.readings, **self.outcome.to_json()}
        for step in out.get("results", []):
            step["meaning"] = REASONS.get(step["reason"], "")
        out["articles"] = [a.to_json() for a in self.articles]
        return out


@dataclass
class DisputeRuling:
    name: str
    question: str
    on: list[str]
    chosen: str
    default_reason: str
    readings: list[tuple[str, str, Ruling]]        # (reading, description, ruling) for each other reading
    on_articles: list[Article] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"dispute": self.name, "question": self.question, "on": self.on, "in_force": self.chosen,
                "why_default": self.default_reason,
                "readings": [{"reading": r, "description": d, **ruling.to_json()} for r, d, ruling in self.readings]}


@dataclass
class RulesetRuling:
    ruleset: str
    title: str
    ruling: Ruling
    disputes: list[DisputeRuling]
    team_names: dict                 # seat -> team

    def to_json(self) -> dict:
        return {"ruleset": self.ruleset, "title": self.title, "ruling": self.ruling.to_json(),
                "disputes": [d.to_json() for d in self.disputes]}


@dataclass
class Report:
    situation: Situation
    rulings: list[RulesetRuling]
    not_fitting: list[tuple[str, str]]          # (ruleset, why)
    sources: str | None = None
    source_notes: dict = field(default_factory=dict)   # ruleset -> why no quotes

    def to_json(self) -> dict:
        return {"situation": {"title": self.situation.title, "description": self.situation.description,
                              "file": self.situation.file, **self.situation.data},
                "rulings": [r.to_json() for r in self.rulings],
                "does_not_fit": [{"ruleset": r, "why": w} for r, w in self.not_fitting],
                "sources": self.sources, "source_notes": self.source_notes}


def _engine(ruleset: str, readings: dict):
    return engine_for(ruleset, tuple(sorted(readings.items())))


def _articles(model, ids, quotes: dict) -> list[Article]:
    return [Article(i, model.articles[i].paraphrase if i in model.articles else "", quotes.get(i))
            for i in ids]


def rule(ruleset: str, readings: dict, sit: dict) -> Ruling:
    return Ruling(ruleset, dict(readings), situations.run(_engine(ruleset, readings), sit))


def evaluate(situation: Situation, rulesets: list[str] | None = None, sources: Path | None = None) -> Report:
    named = [situation.ruleset] if situation.ruleset else (rulesets or available())
    if situation.ruleset and rulesets and situation.ruleset not in rulesets:
        raise situation.error(f"the situation names ruleset '{situation.ruleset}', not "
                              f"{', '.join(rulesets)}", "$.ruleset")
    for rid in named:
        if rid not in available():
            where = "$.ruleset" if situation.ruleset else "$"
            err = InputError(f"unknown ruleset '{rid}'", expected="one of: " + ", ".join(available()))
            raise situation.error(err.message, where, err.expected) if situation.ruleset else err
    report = Report(situation, [], [], str(sources) if sources else None)
    for rid in named:
        base_readings = dict(situation.reading) if rid == situation.ruleset else {}
        try:
            model = load(rid, base_readings)
        except InputError as exc:
            raise situation.error(exc.message, "$.reading", exc.expected) from None
        base = rule(rid, {d: r for d, r in model.readings.items() if r != model.disputes[d].default},
                    situation.data)
        if not base.outcome.fits:
            if situation.ruleset:
                raise situation.error(f"the situation does not fit the table of {rid}: {base.outcome.error}",
                                      _json_path(base.outcome.error))
            report.not_fitting.append((rid, base.outcome.error))
            continue
        disputes = []
        for name, dispute in model.disputes.items():
            others = []
            for reading in dispute.readings:
                if reading.name == model.readings[name]:
                    continue
                readings = {d: r for d, r in model.readings.items() if r != model.disputes[d].default}
                readings[name] = reading.name
                if reading.name == dispute.default:
                    readings.pop(name)
                alt = rule(rid, readings, situation.data)
                if alt.signature() != base.signature():
                    others.append((reading.name, reading.description, alt))
            if others:
                disputes.append(DisputeRuling(name, dispute.question, [c.article for c in dispute.articles],
                                              model.readings[name], dispute.default_reason, others))
        engine = _engine(rid, base.readings)
        report.rulings.append(RulesetRuling(rid, model.title, base, disputes, dict(engine.table.team_of)))
        _attach_articles(report, model, rid, base, disputes, sources)
    if not report.rulings:
        reasons = "; ".join(f"{r}: {w}" for r, w in report.not_fitting)
        raise situation.error(f"the situation fits the table of no ruleset ({reasons})", "$")
    return report


def _attach_articles(report: Report, model, rid: str, base: Ruling, disputes, sources) -> None:
    rulings = [base] + [r for d in disputes for _, _, r in d.readings]
    ids = list(dict.fromkeys(c for r in rulings for c in r.cites))
    ids += [c for d in disputes for c in d.on if c not in ids]
    quotes: dict = {}
    if sources is not None:
        from .sources import quotes as read_quotes
        quotes, note = read_quotes(sources, model, ids)
        if note:
            report.source_notes[rid] = note
    for r in rulings:
        r.articles = _articles(model, r.cites, quotes)
    for d in disputes:
        d.on_articles = _articles(model, d.on, quotes)


def _json_path(message: str) -> str:
    head = message.split(":", 1)[0]
    return head if head.startswith("$") else "$.state"


__all__ = ["evaluate", "load_situation", "Report", "CanastraError", "ErrorList"]
