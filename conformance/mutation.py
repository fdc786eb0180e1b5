"""The spec-mutation check: do the fixtures notice when a rule changes?

Each mutant changes one clause of a ruleset's own spec file: a number moved
(n -> n+d, n -> n-d), a comparison flipped (< <= > >= == !=), `and` and `or`
swapped, a condition negated, a yes/no flipped, an enumeration value replaced,
a ladder step moved, a clause dropped, or the readings of a dispute swapped.
A mutant that no longer passes `canastra check` is stillborn and not counted;
so is one that leaves a setting to a silent default, where the original specs
pass `canastra check --strict` (dropping a clause that states its setting's
default changes no behaviour, but the strict check refuses it).
The fixtures of the ruleset, and of the rulesets that extend it, are run
against the reference built from each mutant; a mutant is killed when some
case's behaviour grade changes. Survivors
are listed; conformance/mutants-equivalent.yaml names those judged equivalent,
each with its reason.

Only the cases that can notice a mutant are run against it: each case is run
once on the unmutated specs with every setting its decisions read recorded
(the engine built for it included), and a mutant runs the cases that read a
setting whose active clauses it changes under the case's ruleset and
readings, plus any case that fails even unmutated. A case that reads none of
them takes the very same decisions under the mutant, so its grade cannot
change; where the mutant changes the meld, canastra or scoring kinds, every
case of that ruleset and readings runs. The kills are exactly those of
running every case (tests/test_mutation.py compares them), and the mutants
are judged in a process pool.
"""
from __future__ import annotations

import dataclasses
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from canastra_ref.dsl import ast
from canastra_ref.dsl import settings as registry
from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import available, check_file, files_for, load, spec_file
from canastra_ref.dsl.strict import silent_defaults
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.rules import Engine
from canastra_ref.engine.state import State
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
    settings: frozenset = frozenset()   # the settings whose clauses it changes
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
            out.append(Mutant(f"{where}:{op}:{detail}", f"{label}: {text}", with_clauses(changed), clause,
                              frozenset({clause.setting})))

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
        out.append(Mutant(f"{where}:drop", f"{label}: clause dropped", with_clauses(changed), clause,
                          frozenset({clause.setting})))
    # swapping the readings of each dispute declared in this file
    for dispute in spec.disputes:
        names = [r.name for r in dispute.readings]
        for a, b in zip(names, names[1:]):
            def swap(clause):
                guards = tuple(dataclasses.replace(g, reading=b if g.reading == a else a if g.reading == b
                                                   else g.reading)
                               if g.kind == "under" and g.dispute == dispute.name else g for g in clause.guards)
                # a clause the swap leaves alone stays the same object (builds reuse its compiled form)
                return dataclasses.replace(clause, guards=guards) if guards != clause.guards else clause
            guarded = frozenset(c.setting for c in clauses if any(d == dispute.name for d, _ in c.readings))
            out.append(Mutant(f"{ruleset}:dispute.{dispute.name}:swap:{a}-{b}",
                              f"dispute {dispute.name}: readings {a} and {b} swapped",
                              with_clauses([swap(c) for c in clauses]), settings=guarded))
    return out


# ----------------------------------------------------------------- running

@lru_cache(maxsize=None)
def _files(ruleset: str) -> tuple[ast.SpecFile, ...]:
    return tuple(files_for(spec_file(ruleset)))


def _chain(mutant: Mutant, ruleset: str) -> list[ast.SpecFile]:
    """The files of `ruleset` with the mutated file in place of the original."""
    return [mutant.spec if f.ruleset == mutant.spec.ruleset else f for f in _files(ruleset)]


def _factory(built: dict):
    """The engine factory of a mutant whose rulesets are `built`: (ruleset, readings) -> Ruleset."""
    engines: dict = {}

    def factory(ruleset: str, readings: tuple):
        key = (ruleset, readings)
        if key not in engines:
            engines[key] = Engine(built[key])
        return engines[key]
    return factory


def _key(case: Case) -> tuple:
    """The (ruleset, readings) of the model a case runs on."""
    return case.ruleset, tuple(sorted(case.reading.items()))


def _kinds(ruleset) -> tuple:
    return ruleset.meld_kinds, ruleset.canastra_kinds, ruleset.score_terms


def _changed(mutant: Mutant, model, original) -> frozenset | None:
    """The settings whose active clauses differ between the mutant's model and
    the original one (under the same ruleset and readings): a case that reads
    none of them takes the very same decisions. None when the meld, canastra
    or scoring kinds differ: then any case may decide differently."""
    if _kinds(model) != _kinds(original):
        return None
    return frozenset(path for path in mutant.settings
                     if _clauses(model.settings.get(path)) != _clauses(original.settings.get(path)))


def _clauses(rules) -> tuple:
    return tuple(id(rule.clause) for rule in rules.clauses) if rules is not None else ()


class _Recording:
    """A ruleset that notes every setting decided through it."""

    def __init__(self, ruleset, reads: set):
        self._ruleset, self._reads = ruleset, reads

    def decide(self, path: str, ctx=None):
        self._reads.add(path)
        return self._ruleset.decide(path, ctx)

    def value(self, path: str, ctx=None):
        return self.decide(path, ctx).value

    def __getattr__(self, name):
        return getattr(self._ruleset, name)


@dataclass
class Baseline:
    """What the unmutated specs do with the cases: the settings each case's
    decisions read, and the cases that fail even unmutated; the state each
    case starts from, with the settings read to make it (the engine's and the
    state's own), so that a mutant changing none of them reuses it (a State is
    never modified: actions work on copies)."""
    reads: dict[str, frozenset]
    failing: frozenset
    states: dict[str, tuple[State, frozenset]]


def baseline(cases: list[Case], messages: dict[str, dict]) -> Baseline:
    reads, failing, states = {}, set(), {}
    for case in cases:
        seen: set[str] = set()

        def factory(ruleset: str, readings: tuple, seen=seen):
            # a fresh engine: nothing it caches hides a setting from the record
            return Engine(_Recording(load(ruleset, dict(readings)), seen))

        def loader(engine, data, root, seen=seen, case=case):
            states[case.id] = load_state(engine, data, root=root), frozenset(seen)
            return states[case.id][0]
        try:
            answer = handle(messages[case.id], engine_factory=factory, state_loader=loader)
            passed = grade(case, answer).status == PASSED
        except (ErrorList, CanastraError):
            passed = False
        reads[case.id] = frozenset(seen)
        if not passed:
            failing.add(case.id)
    return Baseline(reads, frozenset(failing), states)


def _loader(known: Baseline | None, case: Case, changed: frozenset | None):
    """The state loader of a case under a mutant whose model for it changes
    `changed` (None: its kinds): the state read unmutated where none of the
    settings that made it changed."""
    def loader(engine, data, root):
        state, made_by = known.states.get(case.id, (None, None))
        if state is not None and changed is not None and not made_by & changed:
            return state
        return load_state(engine, data, root=root)
    return loader if known is not None else load_state


def judge(mutant: Mutant, cases: list[Case], messages: dict[str, dict], known: Baseline | None = None,
          strict: bool = False) -> None:
    """Run the cases against the mutant; with `known`, only those that can notice it.
    With `strict` (the original specs pass `check --strict`), a mutant that leaves
    a setting to a silent default under the readings the cases use is stillborn."""
    wanted = {(mutant.spec.ruleset, ())} | {(c.ruleset, ()) for c in cases} | {_key(c) for c in cases}
    built = {}
    for ruleset, readings in sorted(wanted):
        try:
            model = build(_chain(mutant, ruleset), dict(readings))
        except (ErrorList, CanastraError):
            mutant.status = "stillborn"
            return
        if strict and silent_defaults(model, mutant.spec.pos):
            mutant.status = "stillborn"
            return
        built[ruleset, readings] = model
    changed = {key: _changed(mutant, model, load(key[0], dict(key[1]))) for key, model in built.items()}
    if known is not None:
        cases = [c for c in cases if c.id in known.failing or changed[_key(c)] is None
                 or known.reads[c.id] & changed[_key(c)]]
    factory = _factory(built)
    for case in cases:
        try:
            answer = handle(messages[case.id], engine_factory=factory,
                            state_loader=_loader(known, case, changed[_key(case)]))
        except (ErrorList, CanastraError) as exc:      # a mutant whose engine cannot even start
            mutant.status, mutant.killed_by = "killed", f"{case.id} ({exc.message})"
            return
        if grade(case, answer).status != PASSED:
            mutant.status, mutant.killed_by = "killed", case.id
            return
    mutant.status = "survived"


def affected(ruleset: str) -> set[str]:
    """The ruleset and every ruleset that extends it (and so inherits its clauses)."""
    return {r for r in available() if any(f.ruleset == ruleset for f in files_for(spec_file(r)))}


def passes_strict(rulesets) -> bool:
    """Whether every one of these specs passes `canastra check --strict`."""
    return all(not check_file(Path(spec_file(r).path), strict=True)[1] for r in rulesets)


# The work a pool process needs, set once per process by _start (or inherited).
_WORK: dict = {}


def _start(cases: list[Case], known: Baseline | None, messages: dict[str, dict]) -> None:
    _WORK.update(cases=cases, known=known, messages=messages, mutants={})


def _judge_one(ruleset: str, index: int) -> tuple[str, str, str]:
    if ruleset not in _WORK["mutants"]:
        family = affected(ruleset)
        _WORK["mutants"][ruleset] = (mutants(ruleset), [c for c in _WORK["cases"] if c.ruleset in family],
                                     passes_strict(family))
    found, mine, strict = _WORK["mutants"][ruleset]
    mutant = found[index]
    judge(mutant, mine, _WORK["messages"], _WORK["known"], strict)
    return mutant.id, mutant.status, mutant.killed_by


def run_all(rulesets: list[str], cases: list[Case], jobs: int | None = None, select: bool = True,
            progress=None) -> list[Report]:
    """The mutation reports of `rulesets`, mutants judged in `jobs` processes
    (default: one per core; 1 runs them here). `select`: run each mutant only
    against the cases that can notice it (the same kills, much sooner)."""
    jobs = jobs or os.cpu_count() or 1
    family = set().union(*(affected(r) for r in rulesets)) if rulesets else set()
    mine = [c for c in cases if c.ruleset in family]
    messages = {c.id: message_for(c) for c in mine}
    known = baseline(mine, messages) if select else None
    reports = [Report(r, mutants(r)) for r in rulesets]
    work = [(report, i) for report in reports for i in range(len(report.mutants))]
    _start(mine, known, messages)
    done = 0
    if jobs == 1:
        results = (_judge_one(report.ruleset, i) for report, i in work)
        pool = None
    else:
        pool = ProcessPoolExecutor(jobs, initializer=_start, initargs=(mine, known, messages))
        results = pool.map(_judge_one, [r.ruleset for r, _ in work], [i for _, i in work],
                           chunksize=max(1, len(work) // (jobs * 64)))   # small: the processes finish together
    try:
        for (report, i), (mutant_id, status, killed_by) in zip(work, results):
            mutant = report.mutants[i]
            assert mutant.id == mutant_id
            mutant.status, mutant.killed_by = status, killed_by
            done += 1
            if progress:
                progress(done, len(work))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return reports


def equivalents() -> dict[str, str]:
    """Survivors judged equivalent: mutant id -> reason."""
    if not EQUIVALENT_MUTANTS.is_file():
        return {}
    data = yaml_input.load(EQUIVALENT_MUTANTS)[0] or []
    return {item["id"]: item["reason"] for item in data}
