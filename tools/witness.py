"""Witnesses of the behavioural diff written as fixture-shaped YAML.

A witness file holds one case per side: the same situation (with each
table's own team names), and what that side rules, with the articles it
cites, as the case's expectation. The cases validate against the fixture
schema (conformance/schema/fixture.schema.json), so a witness can be moved
into conformance/fixtures/<ruleset>/ once its expectation has been checked
against the article text (the engine proposed it; the text must confirm it).
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from .situation import Outcome, resolve

_TAGS = {"setup": ["setup"], "points": ["card-points"], "opening-minimum": ["opening-minimum"],
         "opening": ["opening-minimum"], "take-pile": ["pile-take"], "going-out": ["going-out"],
         "draw": ["stock-exhaustion"], "first-turn": ["first-card-redraw"], "deal": ["setup"],
         "ask-partner": ["ask-partner"], "score": ["scoring"], "meld": ["canastras"]}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def expectation(outcome: Outcome) -> object:
    if outcome.kind == "query":
        return {"result": outcome.result}
    out = []
    for i, step in enumerate(outcome.steps):
        item = {"verdict": step.verdict, "reason": step.reason}
        if step.cites:
            item["cites"] = list(step.cites)
        if i == len(outcome.steps) - 1 and outcome.score is not None:
            item["score"] = {t: {"total": s["total"]} for t, s in outcome.score.items()}
        out.append(item)
    return out


def articles(outcome: Outcome, fallback: list[str], model) -> list[str]:
    found = [c for s in outcome.steps for c in s.cites]
    if outcome.score:
        found += [c for s in outcome.score.values() for c in s["cites"]]
    found += fallback
    found = [c for c in dict.fromkeys(found) if c in model.articles and not model.articles[c].informative]
    if not found:
        found = [next(a.id for a in model.articles.values() if not a.informative)]
    return found


def case(side, engine, situation: dict, outcome: Outcome, *, ident: str, description: str,
         requires: list[str], fallback_cites: list[str]) -> dict:
    concrete = resolve(engine.table, situation)
    out = {"id": ident, "ruleset": side.ruleset}
    if side.readings:
        out["reading"] = dict(side.readings)
    out["articles"] = articles(outcome, fallback_cites, side.model)
    out["requires"] = list(requires)
    out["description"] = description
    if "query" in concrete:
        out["query"] = concrete["query"]
    else:
        out["state"] = concrete.get("state") or {}
        out["actions"] = concrete["actions"]
    out["expect"] = expectation(outcome)
    return out


def tags_for(family: str, situation: dict) -> list[str]:
    tags = list(_TAGS.get(family, []))
    q = situation.get("query") or {}
    if "meld" in q:
        cards = q["meld"]
        ranks = {c[:-1] for c in cards if c != "JK" and not c.startswith("2")}
        tags = ["same-rank-sets" if len(ranks) <= 1 else "sequences"]
        if any(c == "JK" or c.startswith("2") for c in cards):
            tags.append("wilds")
        if len(cards) >= 7:
            tags.append("canastras")
    for action in situation.get("actions") or []:
        if "take_pile" in action and "onto" in action["take_pile"]:
            tags.append("pile-onto-meld")
        if "misdeal" in action:
            tags.append("misdeal")
        if "exact_cut" in action:
            tags.append("exact-cut")
    return list(dict.fromkeys(tags))


class _Dumper(yaml.SafeDumper):
    pass


def _flow_lists(dumper, data):
    flow = all(isinstance(x, (str, int, bool)) or x is None for x in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _flow_lists)


def write(path: Path, cases: list[dict], header: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    comment = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines())
    body = yaml.dump(cases, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)
    path.write_text(comment + body, encoding="utf-8")
    return path
