"""`canastra check --strict`: no setting the engine reads falls silently to its
built-in default.

A composed ruleset (under one choice of readings) passes when every setting
the engine reads while playing it is stated by an active clause (a dispute's
reading states it through a clause `under` that reading), or listed
`unstated SETTING because "..."` with the reason the text's silence leaves no
real choice. Which settings are read comes from the registry: each per-kind
setting for every declared meld kind, canastra kind and wild card, and a
setting with `read_when` only where the setting it depends on may take one of
the values named (canastra_ref.dsl.settings.ReadWhen) and is itself read.

A setting whose clauses are all conditional falls to its default when none
applies; unless the conditions provably cover every case (an unconditional
clause, or `when E` beside `unless E`), that fall-through is reported at the
setting's first clause. Scoring terms are exempt: a term adds 0 where no
clause of it applies, which is what a term written "when ..." means.
"""
from __future__ import annotations

from functools import lru_cache

from ..errors import SourcePosition, SpecError
from . import ast
from . import settings as registry
from .memo import Memo
from .model import Ruleset

_EXPECTED = "a clause citing an article ({path} = ... @<article>), a clause under each reading of a dispute, " \
            "or 'unstated {path} because \"...\"' saying why the text's silence leaves no real choice"


def possible_values(ruleset: Ruleset, path: str) -> set | None:
    """The values a setting may take in this ruleset; None when a clause's value
    reads game facts (anything is possible)."""
    setting = registry.find(path)
    rules = ruleset.settings.get(path)
    if rules is None:
        return {setting.default}
    values: set = set()
    covered = False
    for rule in rules.clauses:
        if rule.value is None:
            values.add(rule.literal)
        elif not rule.value.facts:
            values.add(rule.value.fn(None))
        elif setting.type == registry.BOOL:
            values |= {True, False}
        else:
            return None
        covered = covered or not rule.conditions
    if not covered:
        values.add(setting.default)
    return values


_PLACEHOLDERS = ("<kind>", "<card>", "*")

# What is read and what falls to a default, by the ids of the clauses it depends on.
_MEMO = Memo()


def _names(ruleset: Ruleset, pattern: str) -> tuple[str, ...]:
    """The names a placeholder of the pattern stands for in this ruleset: its
    meld kinds, canastra kinds, scoring terms, or wild cards (JK, 2)."""
    head = pattern.split(".")[0]
    if head == "meld":
        return ruleset.meld_kinds
    if head == "canastra":
        return ruleset.canastra_kinds
    if head == "score":
        return ruleset.score_terms
    wild = ruleset.value("wild.cards")
    return tuple(c for c in registry.WILD_CARDS if c in wild)


@lru_cache(maxsize=None)
def _placeholder(pattern: str) -> str | None:
    return next((p for p in _PLACEHOLDERS if p in pattern), None)


def _may(ruleset: Ruleset, when: registry.ReadWhen, name: str | None, values_of) -> bool:
    """Whether the condition may hold; `name` is the kind or card of the setting read;
    `values_of(path)`: possible_values(ruleset, path)."""
    holder = _placeholder(when.setting)
    if holder == "*":
        paths = [when.setting.replace("*", n) for n in _names(ruleset, when.setting)]
    elif holder is not None:
        paths = [when.setting.replace(holder, name)]
    else:
        paths = [when.setting]
    for path in paths:
        values = values_of(path)
        if values is None:
            return True
        if when.other_than and values - set(when.values):
            return True
        if not when.other_than and values & set(when.values):
            return True
    return False


def read_settings(ruleset: Ruleset) -> dict[str, registry.Setting]:
    """Every optional setting (as a concrete path) the engine reads while
    playing the ruleset; required ones are always read and always stated.
    The dict is shared between rulesets that read the same: do not change it."""
    names = (ruleset.meld_kinds, ruleset.canastra_kinds, ruleset.score_terms, _wild(ruleset))
    gates = _MEMO.get(("gates",) + names, (), lambda: _gates(ruleset))
    rules = tuple(map(ruleset.settings.get, gates))
    return _MEMO.get(("read",) + names + tuple(map(id, rules)), rules, lambda: _read_settings(ruleset))


def _read_settings(ruleset: Ruleset) -> dict[str, registry.Setting]:
    read: dict[str, registry.Setting] = {}
    known: dict[str, set | None] = {}        # possible values by path: many conditions read the same setting

    def values_of(path: str) -> set | None:
        """A setting that is itself never read takes no value the engine acts on
        (a gate of a gate: pile.take.onto_meld_hand_cards, read only where the top
        card may join a meld); a placeholder gate is taken as read."""
        if path not in known:
            known[path] = set()             # a cycle of gates would end here: none exists
            gate = registry.find(path)
            gated = gate is not None and gate.read_when and gate.pattern == path and not gate.required
            known[path] = set() if gated and not any(_may(ruleset, w, None, values_of) for w in gate.read_when) \
                else possible_values(ruleset, path)
        return known[path]
    for setting in registry.SETTINGS:
        if not setting.in_play:
            continue
        if setting.required:
            continue              # stated, or the ruleset does not build
        holder = _placeholder(setting.pattern)
        names = (None,) if holder is None else \
            tuple(n for n in _names(ruleset, setting.pattern) if n not in setting.not_for)
        for name in names:
            if setting.read_when and not any(_may(ruleset, w, name, values_of) for w in setting.read_when):
                continue
            path = setting.pattern if name is None else setting.pattern.replace(holder, name)
            read[path] = setting
    return read


def _wild(ruleset: Ruleset) -> tuple[str, ...]:
    return tuple(ruleset.value("wild.cards"))


def _gates(ruleset: Ruleset) -> tuple[str, ...]:
    """Every setting (as a concrete path) whose possible values may decide
    whether another is read: what read_settings depends on besides the names
    of kinds, terms and wild cards."""
    gates: dict[str, None] = {}
    for setting in registry.SETTINGS:
        for when in setting.read_when:
            holder = _placeholder(when.setting)
            names = (None,) if holder is None else \
                _names(ruleset, when.setting) + _names(ruleset, setting.pattern)
            for name in names:
                gates.setdefault(when.setting if name is None else when.setting.replace(holder, name), None)
    return tuple(gates)


def _polar(guard: ast.Guard) -> tuple[ast.Expr, bool]:
    expr, positive = guard.expr, guard.kind == "when"
    while isinstance(expr, ast.Unary) and expr.op == "not":
        expr, positive = expr.operand, not positive
    return expr, positive


def _covered(rules) -> bool:
    """Whether some clause of the setting applies in every situation, provably."""
    single = set()
    for rule in rules.clauses:
        conditions = rule.clause.conditions
        if not conditions:
            return True
        if len(conditions) == 1:
            single.add(_polar(conditions[0]))
    return any((expr, not positive) in single for expr, positive in single)


def silent_defaults(ruleset: Ruleset, header: SourcePosition, lines_of=lambda pos: None) -> list[SpecError]:
    """The settings the engine reads that fall to a built-in default without
    an `unstated` entry, as errors: at the setting's first clause where it has
    clauses, else at the ruleset's header line, naming the setting."""
    errors = []
    for path, setting, rules in _falling(ruleset):
        if rules is None:
            if path in ruleset.unstated:
                continue
            errors.append(SpecError(
                f"'{path}' is read while playing {ruleset.id} but nothing states it: it falls to "
                f"its built-in default ({setting.default_text()})", position=header,
                source_line=lines_of(header), expected=_EXPECTED.format(path=path)))
        else:
            first = rules.clauses[0].clause
            errors.append(SpecError(
                f"every clause of '{path}' has a condition; where none applies it falls to its "
                f"built-in default ({setting.default_text()})", position=first.pos,
                source_line=lines_of(first.pos),
                expected="a clause for the remaining cases (such as one with 'unless' the same condition), "
                         "or an unconditional clause that the others take exception to"))
    return errors


def _falling(ruleset: Ruleset) -> tuple:
    """(path, setting, clauses) of each setting read (scoring terms aside) that
    has no clause (clauses None) or whose clauses may all fail to apply."""
    read = read_settings(ruleset)
    rules = tuple(map(ruleset.settings.get, read))
    return _MEMO.get(("falling", id(read)) + tuple(map(id, rules)), (read,) + rules, lambda: tuple(
        (path, setting, group) for (path, setting), group in zip(read.items(), rules)
        if not path.startswith("score.") and (group is None or not _covered(group))))
