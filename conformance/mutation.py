"""The spec-mutation check: do the fixtures notice when a rule changes?

Each mutant changes one clause of a ruleset's own spec file: a number moved
(n -> n+d, n -> n-d), a comparison flipped (< <= > >= == !=), `and` and `or`
swapped, a condition negated, a yes/no flipped, an enumeration value replaced,
a ladder step moved, a clause dropped, or the readings of a dispute swapped.
A mutant that no longer passes `canastra check` is stillborn and not counted.
The fixtures of the ruleset, and of the rulesets that extend it, are run
against the reference built from each mutant; a mutant is killed when some
case's behaviour grade changes. Survivors
are listed; conformance/mutants-equivalent.yaml names those judged equivalent,
each with its reason.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from canastra_ref.dsl import ast
from canastra_ref.dsl import settings as registry
from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import files_for, spec_file
from canastra_ref.engine.rules import Engine
from canastra_ref.errors import CanastraError, ErrorList
from canastra_ref.protocol import handle

from . import yaml_input
from .fixtures import Case
from .grading import PASSED, grade, message_for
from .paths import EQUIVALENT_MUTANTS

_FLIPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}


@dataclass
class Mutant:
    id: str                       # stable: ruleset:setting#k:operator[:detail]
    description: str
    spec: ast.SpecFile            # the mutated file (rulesets extending it see the mutation too)
    clause: ast.Clause | None = None
    status: str = "pending"       # killed | survived | stillborn
    killed_by: str = ""


@dataclass
class Report:
    ruleset: str
    mutants: list[Mutant] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for m in self.mutants if m.status == status)

    @property
    def viable(self) -> int:
        return self.count("killed") + self.count("survived")

    @property
    def kill_rate(self) -> float:
        return self.count("killed") / self.viable if self.viable else 1.0

    def to_json(self, equivalent: dict[str, str]) -> dict:
        survivors = [m for m in self.mutants if m.status == "survived"]
        return {"ruleset": self.ruleset, "mutants": len(self.mutants), "stillborn": self.count("stillborn"),
                "killed": self.count("killed"), "survived": len(survivors), "kill_rate": round(self.kill_rate, 4),
                "survivors": [{"id": m.id, "description": m.description, "equivalent": equivalent.get(m.id)}
                              for m in survivors]}


# ------------------------------------------------------------- expression edits

def _children(node: ast.Expr):
    for name in ("operand", "left", "right", "sequence", "index"):
        child = getattr(node, name, None)
        if isinstance(child, ast.Expr):
            yield name, child
    for i, item in enumerate(getattr(node, "items", ())):
        yield i, item


def _replace(node: ast.Expr, path: tuple, new: ast.Expr) -> ast.Expr:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        items = list(node.items)
        items[head] = _replace(items[head], rest, new)
        return dataclasses.replace(node, items=tuple(items))
    return dataclasses.replace(node, **{head: _replace(getattr(node, head), rest, new)})


def _expression_edits(node: ast.Expr, path=()):
    """(path, replacement, operator, detail) for every single edit of an expression."""
    if isinstance(node, ast.Int):
        delta = 1 if node.value < 10 else 5 if node.value < 100 else 10
        yield path, dataclasses.replace(node, value=node.value + delta), "number", f"{node.value}+{delta}"
        if node.value - delta >= 0:
            yield path, dataclasses.replace(node, value=node.value - delta), "number", f"{node.value}-{delta}"
    elif isinstance(node, ast.Bool):
        yield path, dataclasses.replace(node, value=not node.value), "flip", str(not node.value).lower()
    elif isinstance(node, ast.Binary):
        if node.op in _FLIPS:
            yield path, dataclasses.replace(node, op=_FLIPS[node.op]), "compare", f"{node.op}->{_FLIPS[node.op]}"
        elif node.op in ("and", "or"):
            other = "or" if node.op == "and" else "and"
            yield path, dataclasses.replace(node, op=other), "logic", f"{node.op}->{other}"
    for name, child in _children(node):
        yield from _expression_edits(child, path + (name,))


# ----------------------------------------------------------------- mutants

def mutants(ruleset: str) -> list[Mutant]:
    spec = spec_file(ruleset)
    out: list[Mutant] = []

    def with_clauses(clauses):
        return dataclasses.replace(spec, clauses=tuple(clauses))

    clauses = list(spec.clauses)
    seen: dict[str, int] = {}
    for i, clause in enumerate(clauses):
        # stable across unrelated edits: the k-th clause of this setting in the file
        k = seen[clause.setting] = seen.get(clause.setting, 0) + 1
        where = f"{ruleset}:{clause.setting}#{k}"
        label = f"{clause.setting} (line {clause.pos.line})"

        def variant(new_clause, op, detail, text):
            changed = clauses[:i] + [new_clause] + clauses[i + 1:]
            out.append(Mutant(f"{where}:{op}:{detail}", f"{label}: {text}", with_clauses(changed), clause))

        # the value
        setting = registry.find(clause.setting)
        if setting.is_enum:
            for other in setting.type:
                if other != getattr(clause.value, "dotted", None):
                    variant(dataclasses.replace(clause, value=ast.Name(clause.value.pos, (other,))),
                            "enum", other, f"value -> {other}")
        elif isinstance(clause.value, ast.Ladder):
            ladder = clause.value
            if ladder.then is not None:
                variant(dataclasses.replace(clause, value=dataclasses.replace(ladder, then=ladder.then + 10)),
                        "ladder", "then+10", f"ladder continues by {ladder.then + 10}")
            steps = list(ladder.steps)
            if len(steps) > 1:
                moved = steps[:1] + [steps[1] + 10] + steps[2:]
                if moved == sorted(set(moved)):
                    variant(dataclasses.replace(clause, value=dataclasses.replace(ladder, steps=tuple(moved))),
                            "ladder", "step+10", f"second step {steps[1]} -> {moved[1]}")
        elif setting.type in (registry.INT, registry.BOOL):
            for path, new, op, detail in _expression_edits(clause.value):
                variant(dataclasses.replace(clause, value=_replace(clause.value, path, new)),
                        op, f"value.{detail}", f"value {detail}")
        # the conditions
        for g, guard in enumerate(clause.guards):
            if guard.kind == "under":
                continue
            flipped = dataclasses.replace(guard, kind="unless" if guard.kind == "when" else "when")
            guards = clause.guards[:g] + (flipped,) + clause.guards[g + 1:]
            variant(dataclasses.replace(clause, guards=guards), "negate", f"guard{g}", f"condition {g} negated")
            for path, new, op, detail in _expression_edits(guard.expr):
                edited = dataclasses.replace(guard, expr=_replace(guard.expr, path, new))
                guards = clause.guards[:g] + (edited,) + clause.guards[g + 1:]
                variant(dataclasses.replace(clause, guards=guards), op, f"guard{g}.{detail}",
                        f"condition {g}: {detail}")
        # dropping the clause
        changed = clauses[:i] + clauses[i + 1:]
        out.append(Mutant(f"{where}:drop", f"{label}: clause dropped", with_clauses(changed), clause))
    # swapping the readings of each dispute declared in this file
    for dispute in spec.disputes:
        names = [r.name for r in dispute.readings]
        for a, b in zip(names, names[1:]):
            def swap(clause):
                guards = tuple(dataclasses.replace(g, reading=b if g.reading == a else a if g.reading == b
                                                   else g.reading)
                               if g.kind == "under" and g.dispute == dispute.name else g for g in clause.guards)
                return dataclasses.replace(clause, guards=guards)
            out.append(Mutant(f"{ruleset}:dispute.{dispute.name}:swap:{a}-{b}",
                              f"dispute {dispute.name}: readings {a} and {b} swapped",
                              with_clauses([swap(c) for c in clauses])))
    return out


# ----------------------------------------------------------------- running

def _chain(mutant: Mutant, ruleset: str) -> list[ast.SpecFile]:
    """The files of `ruleset` with the mutated file in place of the original."""
    return [mutant.spec if f.ruleset == mutant.spec.ruleset else f for f in files_for(spec_file(ruleset))]


def _factory(mutant: Mutant):
    engines: dict = {}

    def factory(ruleset: str, readings: tuple):
        key = (ruleset, readings)
        if key not in engines:
            engines[key] = Engine(build(_chain(mutant, ruleset), dict(readings)))
        return engines[key]
    return factory


def judge(mutant: Mutant, cases: list[Case], messages: dict[str, dict]) -> None:
    try:
        for ruleset in sorted({c.ruleset for c in cases} | {mutant.spec.ruleset}):
            build(_chain(mutant, ruleset), {})
        for case in cases:
            if case.reading:
                build(_chain(mutant, case.ruleset), dict(case.reading))
    except (ErrorList, CanastraError):
        mutant.status = "stillborn"
        return
    factory = _factory(mutant)
    for case in cases:
        try:
            answer = handle(messages[case.id], engine_factory=factory)
        except (ErrorList, CanastraError) as exc:      # a mutant whose engine cannot even start
            mutant.status, mutant.killed_by = "killed", f"{case.id} ({exc.message})"
            return
        if grade(case, answer).status != PASSED:
            mutant.status, mutant.killed_by = "killed", case.id
            return
    mutant.status = "survived"


def affected(ruleset: str) -> set[str]:
    """The ruleset and every ruleset that extends it (and so inherits its clauses)."""
    from canastra_ref.dsl.loader import available
    return {r for r in available() if any(f.ruleset == ruleset for f in files_for(spec_file(r)))}


def run(ruleset: str, cases: list[Case], progress=None) -> Report:
    family = affected(ruleset)
    mine = [c for c in cases if c.ruleset in family]
    messages = {c.id: message_for(c) for c in mine}
    report = Report(ruleset, mutants(ruleset))
    for i, mutant in enumerate(report.mutants):
        judge(mutant, mine, messages)
        if progress:
            progress(i + 1, len(report.mutants))
    return report


def equivalents() -> dict[str, str]:
    """Survivors judged equivalent: mutant id -> reason."""
    if not EQUIVALENT_MUTANTS.is_file():
        return {}
    data = yaml_input.load(EQUIVALENT_MUTANTS)[0] or []
    return {item["id"]: item["reason"] for item in data}
