"""The semantic diff of two rulesets, from the ruleset model alone.

For every setting either side gives (canastra_ref.dsl.settings), the clauses
of each side are put in a comparable form: helpers inlined, and the facts the
table fixes for a whole game (the size of each team) folded in
(tools.residual), so that a clause that cannot apply at a side's table is set
apart as *dead* and a condition that always holds there disappears. Two sides
agree on a setting when their live clauses are the same up to citations.

Statuses of a setting:

- `same`: the same live clauses (the citations of different rulebooks are
  naturally different and are shown, not compared);
- `cites-only`: the same live clauses but other citations, between two
  rulesets written from one rulebook (a ruleset and its extension, or one
  ruleset under two readings);
- `dead-only`: the clauses differ only in clauses that cannot apply at either
  table;
- `differs`: the live clauses differ.

Each side also lists the disputes that guard clauses of the setting, with the
reading in force and the clauses of every other reading.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from canastra_ref.dsl import ast
from canastra_ref.dsl import settings as registry
from canastra_ref.dsl.model import Ruleset

from . import exprtext
from .concepts import CONCEPTS, concept_of
from .residual import constant, residual, table_facts
from .sides import Side

SAME, CITES_ONLY, DEAD_ONLY, DIFFERS = "same", "cites-only", "dead-only", "differs"


@dataclass(frozen=True)
class ClauseView:
    value: str                    # the value, as it applies at this table
    condition: str | None         # the condition, as it applies at this table (None: always)
    exception: bool
    cites: tuple[str, ...]
    reading: str | None           # "dispute.reading" when the clause is guarded by one
    written: str                  # the clause as the spec writes it (without citations)
    line: str                     # file:line of the clause

    @property
    def key(self) -> tuple:
        return (self.exception, self.condition, self.value)

    @property
    def text(self) -> str:
        head = "exception: " if self.exception else ""
        return head + self.value + (f" when {self.condition}" if self.condition else "")

    def to_json(self) -> dict:
        return {"value": self.value, "condition": self.condition, "exception": self.exception,
                "cites": list(self.cites), "reading": self.reading, "written": self.written, "at": self.line}


@dataclass(frozen=True)
class ReadingView:
    name: str
    description: str
    clauses: tuple[ClauseView, ...]       # this setting's clauses under this reading

    def to_json(self) -> dict:
        return {"name": self.name, "description": self.description,
                "clauses": [c.to_json() for c in self.clauses]}


@dataclass(frozen=True)
class DisputeView:
    name: str
    question: str
    articles: tuple[str, ...]
    chosen: str
    default: str
    default_reason: str
    readings: tuple[ReadingView, ...]

    def to_json(self) -> dict:
        return {"name": self.name, "question": self.question, "articles": list(self.articles),
                "chosen": self.chosen, "default": self.default, "default_reason": self.default_reason,
                "readings": [r.to_json() for r in self.readings]}


@dataclass
class SideView:
    clauses: list[ClauseView] = field(default_factory=list)     # live at this table
    dead: list[ClauseView] = field(default_factory=list)        # cannot apply at this table
    absent: str | None = None          # why no clause: the setting's default, or a missing kind
    disputes: list[DisputeView] = field(default_factory=list)

    @property
    def keys(self) -> list:
        return sorted(c.key for c in self.clauses)

    @property
    def cites(self) -> list[str]:
        return list(dict.fromkeys(c for clause in self.clauses for c in clause.cites))

    def summary(self) -> str:
        if not self.clauses or self.absent:
            return self.absent or "(none)"
        return "; ".join(c.text for c in self.clauses)

    def to_json(self) -> dict:
        return {"clauses": [c.to_json() for c in self.clauses], "dead": [c.to_json() for c in self.dead],
                "absent": self.absent, "cites": self.cites, "disputes": [d.to_json() for d in self.disputes]}


@dataclass
class SettingDiff:
    path: str
    concept: str
    status: str
    a: SideView
    b: SideView

    def to_json(self) -> dict:
        return {"path": self.path, "concept": self.concept, "status": self.status,
                "a": self.a.to_json(), "b": self.b.to_json()}


@dataclass
class Diff:
    a: Side
    b: Side
    settings: list[SettingDiff]

    def of_concept(self, concept: str) -> list[SettingDiff]:
        return [s for s in self.settings if s.concept == concept]

    @property
    def differences(self) -> list[SettingDiff]:
        return [s for s in self.settings if s.status != SAME]

    def concept_status(self, concept: str) -> str:
        statuses = {s.status for s in self.of_concept(concept)}
        if DIFFERS in statuses:
            return "differ"
        if statuses - {SAME}:
            return "agree in effect"
        return "agree"

    def disputes(self, concept: str, side: str) -> list[DisputeView]:
        seen: dict[str, DisputeView] = {}
        for s in self.of_concept(concept):
            for d in getattr(s, side).disputes:
                seen.setdefault(d.name, d)
        return list(seen.values())

    def to_json(self) -> dict:
        return {
            "a": side_json(self.a), "b": side_json(self.b),
            "concepts": [{"id": c.id, "title": c.title, "status": self.concept_status(c.id),
                          "settings": [s.to_json() for s in self.of_concept(c.id)],
                          "disputes": {"a": [d.name for d in self.disputes(c.id, "a")],
                                       "b": [d.name for d in self.disputes(c.id, "b")]}}
                         for c in CONCEPTS if self.of_concept(c.id)],
            "differences": [s.path for s in self.differences],
            "articles": {"a": _cited(self.a.model, self.settings, "a"), "b": _cited(self.b.model, self.settings, "b")},
        }


def side_json(side: Side) -> dict:
    m = side.model
    return {"ruleset": side.ruleset, "title": m.title, "source": m.source, "readings": dict(side.readings),
            "label": side.label, "extends": list(m.extends)}


def _cited(model: Ruleset, settings: list[SettingDiff], side: str) -> dict[str, str]:
    ids = dict.fromkeys(c for s in settings for c in getattr(s, side).cites)
    return {i: model.articles[i].paraphrase for i in ids if i in model.articles}


# ------------------------------------------------------------------ building

def _known(model: Ruleset) -> dict:
    return table_facts(model.value("table.players"), model.value("table.team_size"))


def _conjunction(guards) -> ast.Expr | None:
    parts = [g.expr if g.kind == "when" else ast.Unary(g.expr.pos, "not", g.expr)
             for g in guards if g.kind != "under"]
    if not parts:
        return None
    result = parts[0]
    for part in parts[1:]:
        result = ast.Binary(result.pos, "and", result, part)
    return result


def view(model: Ruleset, clause: ast.Clause, known: dict,
         cites: tuple[str, ...] | None = None) -> tuple[ClauseView, bool]:
    """A clause in comparable form, and whether it can apply at this table."""
    defs = model.definitions
    setting = registry.find(clause.setting)
    condition = _conjunction(clause.guards)
    live, cond_text = True, None
    if condition is not None:
        folded = residual(condition, known, defs)
        if constant(folded) is False:
            live, cond_text = False, exprtext.text(condition, defs)     # as written: why it cannot apply
        elif constant(folded) is not True:
            cond_text = exprtext.text(folded)
    if setting.type in (registry.INT, registry.BOOL):
        value_text = exprtext.text(residual(clause.value, known, defs))
    else:
        value_text = _literal_text(clause.value)
    readings = [f"{d}.{r}" for d, r in clause.readings]
    if cites is None:
        cites = _clause_cites(model, clause)
    written = exprtext.clause_text(clause, cites=False)
    return ClauseView(value_text, cond_text, clause.modifier == "exception", tuple(cites),
                      readings[0] if readings else None, written,
                      f"{clause.pos.file.rsplit('/', 1)[-1]}:{clause.pos.line}"), live


def _literal_text(node: ast.Expr) -> str:
    from canastra_ref.cards import RANKS, dsl_rank
    if isinstance(node, ast.Range):
        low, high = dsl_rank(node.low), dsl_rank(node.high)
        if low and high:
            return exprtext.value_text(RANKS[RANKS.index(low):RANKS.index(high) + 1])
    if isinstance(node, ast.ListExpr):
        items = [exprtext.text(i) for i in node.items]
        ranks = [dsl_rank(i) for i in items]
        if all(ranks) and not any(i == "JK" for i in items):
            return exprtext.value_text(tuple(ranks))
        return "[" + ", ".join(items) + "]"
    return exprtext.text(node)


def _clause_cites(model: Ruleset, clause: ast.Clause) -> tuple[str, ...]:
    cites = list(clause.cites)
    for name in sorted(model._helpers_of(clause)):
        for c in model.definitions[name].citations:
            if c.article not in cites:
                cites.append(c.article)
    return tuple(cites)


def side_view(model: Ruleset, path: str) -> SideView:
    known = _known(model)
    out = SideView()
    active = model.settings.get(path)
    for rule in (active.clauses if active else ()):
        clause_view, live = view(model, rule.clause, known, rule.cites)
        (out.clauses if live else out.dead).append(clause_view)
    if not active:
        out.absent = _absent(model, path)
        default = _default_clause(path)
        if default is not None and not out.absent.startswith("(no meld") and not out.absent.startswith("(no canastra"):
            out.clauses.append(default)
    out.disputes = _disputes(model, path, known)
    return out


def _default_clause(path: str) -> ClauseView | None:
    """What a setting the spec does not give is worth: its documented default
    (a scoring term adds 0); None for a setting that is off or required."""
    setting = registry.find(path)
    if path.startswith("score."):
        return ClauseView("0", None, False, (), None, "(not given)", "")
    if setting is None or setting.required or setting.default is None:
        return None
    return ClauseView(exprtext.value_text(setting.default), None, False, (), None, "(not given)", "")


def _absent(model: Ruleset, path: str) -> str:
    found = registry.entity(path)
    if found and found[0] == "meld" and found[1] not in model.meld_kinds:
        return f"(no meld kind '{found[1]}')"
    if found and found[0] == "canastra" and found[1] not in model.canastra_kinds:
        return f"(no canastra kind '{found[1]}')"
    if found and found[0] == "score":
        return "(no such scoring term: adds 0)"
    setting = registry.find(path)
    return f"(not given: {exprtext.value_text(setting.default)})"


def _disputes(model: Ruleset, path: str, known: dict) -> list[DisputeView]:
    names = dict.fromkeys(d for c in model.all_clauses if c.setting == path for d, _ in c.readings)
    out = []
    for name in names:
        dispute = model.disputes[name]
        readings = []
        for reading in dispute.readings:
            clauses = [c for c in model.all_clauses if c.setting == path
                       and all(not (d == name and r != reading.name) for d, r in c.readings)
                       and all(d == name or model.readings.get(d) == r for d, r in c.readings)]
            readings.append(ReadingView(reading.name, reading.description,
                                        tuple(view(model, c, known)[0] for c in clauses)))
        out.append(DisputeView(name, dispute.question, tuple(c.article for c in dispute.articles),
                               model.readings[name], dispute.default, dispute.default_reason, tuple(readings)))
    return out


def _structure(model: Ruleset) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Pseudo-settings: the kinds a ruleset declares (their order matters for canastras)."""
    return {"(meld kinds)": ("melds", model.meld_kinds),
            "(canastra kinds, in the order tried)": ("canastras", model.canastra_kinds)}


def compare(a: Side, b: Side) -> Diff:
    ma, mb = a.model, b.model
    same_source = ma.source is not None and ma.source == mb.source
    paths = sorted(set(ma.settings) | set(mb.settings), key=_order)
    out: list[SettingDiff] = []
    for pseudo, (concept, va) in _structure(ma).items():
        vb = _structure(mb)[pseudo][1]
        status = SAME if tuple(va) == tuple(vb) else DIFFERS
        out.append(SettingDiff(pseudo, concept, status,
                               SideView([ClauseView(", ".join(va) or "(none)", None, False, (), None, "", "")]),
                               SideView([ClauseView(", ".join(vb) or "(none)", None, False, (), None, "", "")])))
    for path in paths:
        va, vb = side_view(ma, path), side_view(mb, path)
        out.append(SettingDiff(path, concept_of(path).id, _status(va, vb, same_source), va, vb))
    order = {c.id: i for i, c in enumerate(CONCEPTS)}
    out.sort(key=lambda s: order[s.concept])          # stable: structure rows first in each concept
    return Diff(a, b, out)


def _status(a: SideView, b: SideView, same_source: bool) -> str:
    if a.keys != b.keys:
        return DIFFERS
    if same_source and sorted((c.key, c.cites) for c in a.clauses) != sorted((c.key, c.cites) for c in b.clauses):
        return CITES_ONLY
    if sorted(c.key for c in a.dead) != sorted(c.key for c in b.dead):
        return DEAD_ONLY
    return SAME


def _order(path: str):
    """Settings in the registry's order, then by path."""
    setting = registry.find(path)
    index = registry.SETTINGS.index(setting) if setting else len(registry.SETTINGS)
    return (index, path)
