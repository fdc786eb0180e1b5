"""Which readings of the disputes a case's expectations hold under, and what
an implementation's declared readings mean for a case.

A case names in `reading` the readings it assumes; a dispute it does not
name takes its default reading. Naming is not enough to say what a case is
*about*, though: a case written under the default reading of a dispute may
never touch it, and another that does not name a dispute may still depend on
its default (49 cbc cases meld sets of aces of several suits: the aces-suit
dispute decides them all). So the suite asks the executable spec: a case's
expectations **hold under** reading R of dispute D when the reference, run
on the case's own message with D read as R (the case's other readings kept),
meets every one of them. Where they do not hold, the mismatches locate the
case's **disputed values**: the expected values (`results[0].verdict`,
`result.deck_size`, ...) that reading R changes, with what R makes of them.
The expected values themselves are always the fixture's, derived from the
article; the reference only says where, and how, two readings part. A case
the reference cannot even play under R (its table does not exist under R,
say 108 cards for a 104-card reading) has the whole answer, "$", as its one
disputed path, with no value.

- `effective(case)`                    the case's reading of every dispute of its ruleset
- `disputed(case, dispute, reading)`   path -> value under R of the disputed values (empty: the expectations hold)
- `conflicts(case, declared)`          the declared readings under which the expectations do not hold
- `declaration_problems(readings, claimed)`  what is wrong with a `readings` declaration (start answer)
- `overlaps(path, paths)`              whether a mismatch path falls on one of the disputed paths
- `bears(ruleset, dispute, chosen)`    whether a dispute can change any ruling under other disputes' readings
- `moot_under(ruleset, dispute, chosen)`  the readings under which a dispute changes no ruling, or None

A dispute may change rulings only under another's reading: casa's
restart-first-card says what a restarted turn does with the first player's
card turned down, and under failed-opening's reading discard no turn
restarts. The spec already says so through its settings: a dispute acts
only through the settings its readings' clauses give (`under D.R`), and the
engine reads a setting with `read_when` only where the setting it depends on
may take the values named (canastra_ref.dsl.settings; opening.restart_first_card
only where opening.failure_restarts_turn may be yes), which
canastra_ref.dsl.strict.read_settings works out for a ruleset under chosen
readings. A dispute **bears** under them when the engine reads one of its
settings (a required setting always). The answer errs towards bearing: a
setting is read where its condition may hold, not where it does.

A declaration is checked dispute by dispute: a case that depends on two
declared readings at once, through their combination only, is not found.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from canastra_ref.dsl import settings as registry
from canastra_ref.dsl.loader import available, load
from canastra_ref.dsl.strict import read_settings
from canastra_ref.errors import CanastraError, ErrorList

from .fixtures import Case

WHOLE = "$"            # the disputed path of a case that cannot be played under a reading at all
UNPLAYABLE = {WHOLE: None}
_disputed: dict[tuple, dict] = {}


@dataclass(frozen=True)
class Conflict:
    """A declared reading under which a case's expectations do not hold."""
    dispute: str
    assumes: str           # the case's reading of the dispute (named, or the default)
    declared: str

    def to_json(self) -> dict:
        return {"dispute": self.dispute, "assumes": self.assumes, "declared": self.declared}

    def __str__(self) -> str:
        return f"{self.dispute}={self.assumes}, declared {self.declared}"


def effective(case: Case) -> dict[str, str]:
    """The case's reading of every dispute of its ruleset: the one it names, else the default."""
    return {name: case.reading.get(name, dispute.default) for name, dispute in load(case.ruleset).disputes.items()}


def disputed(case: Case, dispute: str, reading: str) -> dict:
    """The case's expected values that do not hold when `dispute` is read as
    `reading` (the case's other readings kept), as grading path -> the value
    the reference gives there under that reading ("(missing)" for a key it
    leaves out): empty when they all hold, UNPLAYABLE when the reference cannot
    play the case under it. Computed once per process for each case, dispute
    and reading."""
    if effective(case).get(dispute) == reading:
        return {}
    key = (case.file, case.line, case.id, dispute, reading)
    if key not in _disputed:
        _disputed[key] = _compute(case, dispute, reading)
    return _disputed[key]


def _compute(case: Case, dispute: str, reading: str) -> dict:
    from .grading import ERRORED, PASSED
    from .inprocess import run_case
    variant = dataclasses.replace(case, reading={**case.reading, dispute: reading})
    try:
        _, grade = run_case(variant)
    except (CanastraError, ErrorList):        # the case's table cannot be laid under this reading
        return UNPLAYABLE
    if grade.status == PASSED:
        return {}
    if grade.status == ERRORED or not grade.behaviour:
        return UNPLAYABLE
    return {m.path: m.actual for m in grade.behaviour}


def conflicts(case: Case, declared: dict[str, str]) -> list[Conflict]:
    """The declared readings (dispute -> reading, for the case's ruleset)
    under which the case's expectations do not hold, one dispute at a time."""
    mine = effective(case)
    return [Conflict(name, mine[name], reading) for name, reading in declared.items()
            if name in mine and mine[name] != reading and disputed(case, name, reading)]


def bears(ruleset: str, dispute: str, chosen: dict[str, str]) -> bool:
    """Whether the engine reads, under the readings `chosen` of the other
    disputes (the rest at their defaults) and any reading of `dispute`, a
    setting a clause under a reading of `dispute` gives. Readings whose
    combination does not build tell nothing: the dispute is taken to bear."""
    others = {name: reading for name, reading in chosen.items() if name != dispute}
    try:
        spec = load(ruleset, others)
        paths = {clause.setting for clause in spec.all_clauses if any(d == dispute for d, _ in clause.readings)}
        return any(registry.find(path).required for path in paths) or \
            any(paths & read_settings(load(ruleset, {**others, dispute: reading.name})).keys()
                for reading in spec.disputes[dispute].readings)
    except (CanastraError, ErrorList):
        return True


def moot_under(ruleset: str, dispute: str, chosen: dict[str, str]) -> dict[str, str] | None:
    """None when `dispute` bears under the readings `chosen`; else those of
    them that keep it from bearing, one dispute at a time: each dispute of
    `chosen` another reading of which would let it bear (empty when no single
    one would)."""
    if bears(ruleset, dispute, chosen):
        return None
    disputes = load(ruleset).disputes
    return {name: reading for name, reading in chosen.items() if name != dispute and any(
        bears(ruleset, dispute, {**chosen, name: other.name})
        for other in disputes[name].readings if other.name != reading)}


def overlaps(path: str, paths) -> bool:
    """Whether `path` lies on, above or below one of `paths` (grading paths such
    as results[1].state.teams.NS.melds[0]; WHOLE covers everything)."""
    for other in paths:
        if WHOLE in (path, other) or path == other:
            return True
        short, long = sorted((path, other), key=len)
        if long.startswith(short) and long[len(short)] in ".[":
            return True
    return False


def declaration_problems(readings, claimed) -> list[str]:
    """What is wrong with the `readings` of a start answer (ruleset -> dispute
    -> reading), each naming its JSON path and the names expected there."""
    problems = []
    known = available()
    for ruleset, chosen in readings.items():
        where = f"$.readings.{ruleset}"
        if ruleset not in known:
            problems.append(f"{where}: unknown ruleset {ruleset!r}; expected one of: {', '.join(known)}")
            continue
        if ruleset not in claimed:
            problems.append(f"{where}: readings for {ruleset!r}, which is not among the rulesets it claims "
                            f"({', '.join(claimed) or 'none'})")
            continue
        disputes = load(ruleset).disputes
        for name, reading in chosen.items():
            if name not in disputes:
                problems.append(f"{where}.{name}: unknown dispute {name!r} of {ruleset}; expected one of: "
                                f"{', '.join(disputes) or '(it has none)'}")
            elif disputes[name].reading(reading) is None:
                names = ", ".join(r.name for r in disputes[name].readings)
                problems.append(f"{where}.{name}: unknown reading {reading!r} of dispute {name}; "
                                f"expected one of: {names}")
    return problems
