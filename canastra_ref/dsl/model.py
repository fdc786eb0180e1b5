"""The typed, immutable ruleset model and how a setting is decided.

A Ruleset is a composed spec (its own file plus the rulesets it extends) under
one choice of reading for every dispute. Each setting holds its clauses,
compiled. Deciding a setting follows Catala's default logic: an applicable
exception wins; otherwise exactly one ordinary clause must apply; two
applicable clauses are an error, never "last one wins". Every decision
carries the clause that made it and the articles it cites.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import RuleError
from . import ast
from .expr import Compiled
from .settings import Setting


@dataclass(frozen=True)
class RuleClause:
    """A clause ready to run: its syntax, compiled conditions and value."""
    clause: ast.Clause
    conditions: tuple[Compiled, ...]      # all must hold ("unless" already negated)
    value: Compiled | None                # None for literal-valued settings
    literal: object = None                # enum names, ranks, card lists, ladders
    cites: tuple[str, ...] = ()           # the clause's own citations, then its helpers'

    @property
    def label(self) -> str:
        return self.clause.label

    @property
    def exception(self) -> bool:
        return self.clause.modifier == "exception"

    def applies(self, ctx) -> bool:
        for condition in self.conditions:
            if not condition.fn(ctx):
                return False
        return True

    def evaluate(self, ctx):
        return self.literal if self.value is None else self.value.fn(ctx)


@dataclass(frozen=True)
class Decision:
    """A setting's value and why: the deciding clause and its citations."""
    setting: str
    value: object
    clause: str | None            # label of the deciding clause; None: the setting's default
    cites: tuple[str, ...]


@dataclass
class SettingRules:
    setting: Setting
    path: str
    clauses: tuple[RuleClause, ...]
    first_match: bool = False      # the static check proved no two clauses (nor exceptions) apply at once
    # the Decision where the setting has one clause, unconditional, whose value reads no fact
    constant: Decision | None = field(default=None, repr=False)

    def __post_init__(self):
        # Fast path: one unconditional clause whose value reads no fact.
        if len(self.clauses) == 1:
            only = self.clauses[0]
            if not only.conditions and (only.value is None or not only.value.facts):
                value = only.literal if only.value is None else only.value.fn(None)
                self.constant = Decision(self.path, value, only.label, only.cites)
        # Exceptions are tried before ordinary clauses; each clause whose value
        # reads no fact gets its Decision made once, here.
        self._exceptions = tuple(c for c in self.clauses if c.exception)
        self._ordinary = tuple(c for c in self.clauses if not c.exception)
        self._decisions = {}
        for clause in self.clauses:
            if clause.value is None or not clause.value.facts:
                try:
                    value = clause.evaluate(None)
                except RuleError:          # raised when the clause is decided, as it would be
                    continue
                self._decisions[id(clause)] = Decision(self.path, value, clause.label, clause.cites)
        self._default = None if self.setting.required else Decision(self.path, self.setting.default, None, ())
        # the Decisions of clauses whose value reads facts, by (clause, value): a frozen
        # dataclass costs more to build than the clause to evaluate, and values repeat
        self._made: dict[tuple, Decision] = {}
        # every decision made, by the facts read to make it (_Fork); None: none yet
        self._tree: _Fork | Decision | None = None
        self._leaves = 0

    def decide(self, ctx) -> Decision:
        """The decision in `ctx` (an object whose fact(name) gives the same
        value each time it is asked during one decision). The clauses are a
        function of the facts they read, and which fact they read next is a
        function of the values read before: a decision once made is found
        again by reading those facts, in the same order, without evaluating
        the clauses (tests/test_engine_fast_paths.py compares the two)."""
        if self.constant is not None:
            return self.constant
        if ctx is None:
            return self._evaluate(ctx)
        node = self._tree
        while node.__class__ is _Fork:
            value = ctx.fact(node.fact)
            node = node.after.get((value.__class__, value))
        if node is not None:
            return node
        reading = _Reading(ctx)
        decision = self._evaluate(reading)
        if self._leaves < _MOST_LEAVES:
            self._learn(list(reading.values.items()), decision)
        return decision

    def _learn(self, read: list[tuple[str, object]], decision: Decision) -> None:
        """Keep the decision at the end of the path of the facts read to make it."""
        self._leaves += 1
        if not read:
            self._tree = decision       # the clauses read no fact in this situation: nor in any
            return
        if self._tree is None:
            self._tree = _Fork(read[0][0])
        node = self._tree
        for i, (fact, value) in enumerate(read):
            assert node.fact == fact, (self.path, node.fact, fact)
            key = (value.__class__, value)      # the type too: 1 == True, but they print apart
            if i + 1 == len(read):
                node.after[key] = decision
            else:
                node = node.after.setdefault(key, _Fork(read[i + 1][0]))

    def _evaluate(self, ctx) -> Decision:
        """The decision, from the clauses."""
        chosen = self._first(ctx) if self.first_match else self._only(ctx)
        if chosen is None:
            if self._default is None:
                where = ", ".join(f"{c.label} ({c.clause.pos})" for c in self.clauses)
                raise RuleError(f"no clause of '{self.path}' applies in this situation "
                                f"(its clauses: {where})")
            return self._default
        made = self._decisions.get(id(chosen))
        if made is not None:
            return made
        value = chosen.evaluate(ctx)
        key = (id(chosen), type(value), value)      # the type too: 1 == True, but they print apart
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = Decision(self.path, value, chosen.label, chosen.cites)
        return made

    def _only(self, ctx) -> RuleClause | None:
        """The applicable exception, else the applicable ordinary clause; two
        applicable at once are an error."""
        for group, what in ((self._exceptions, "exceptions"), (self._ordinary, "clauses")):
            found = [c for c in group if c.applies(ctx)]
            if len(found) > 1:
                raise _conflict(self.path, found, what)
            if found:
                return found[0]
        return None

    def _first(self, ctx) -> RuleClause | None:
        """_only() for clauses the static check proved pairwise exclusive: the
        first that applies is the only one, so the rest are not evaluated."""
        for clause in self._exceptions:
            if clause.applies(ctx):
                return clause
        for clause in self._ordinary:
            if clause.applies(ctx):
                return clause
        return None


# the decisions a setting keeps (a bound: an int fact such as a score has many values)
_MOST_LEAVES = 4096


class _Fork:
    """A node of a setting's decision tree: the fact its clauses read next,
    and by its value (with its type) the node, or the Decision, that follows."""
    __slots__ = ("fact", "after")

    def __init__(self, fact: str):
        self.fact, self.after = fact, {}


class _Reading:
    """A context that notes the facts read from it, in order, each once."""
    __slots__ = ("ctx", "values")

    def __init__(self, ctx):
        self.ctx, self.values = ctx, {}

    def fact(self, name: str):
        if name in self.values:
            return self.values[name]
        value = self.values[name] = self.ctx.fact(name)
        return value


def _conflict(path: str, clauses, what: str) -> RuleError:
    where = "; ".join(f"{c.label} at {c.clause.pos}" for c in clauses)
    return RuleError(f"two {what} of '{path}' apply at once: {where}",
                     expected="conditions that exclude each other, or one clause marked 'exception'")


@dataclass(frozen=True)
class Ruleset:
    id: str
    title: str
    source: str | None
    files: tuple[str, ...]                          # base first
    extends: tuple[str, ...]                        # ancestor ids, nearest first
    articles: dict[str, ast.Article]
    disputes: dict[str, ast.Dispute]
    readings: dict[str, str]                        # dispute -> chosen reading
    settings: dict[str, SettingRules]
    all_clauses: tuple[ast.Clause, ...]             # every clause of every reading, for tools
    definitions: dict[str, ast.Definition]
    meld_kinds: tuple[str, ...]
    canastra_kinds: tuple[str, ...]
    score_terms: tuple[str, ...]
    unstated: dict[str, ast.Unstated] = field(default_factory=dict)   # in effect: no active clause
    source_sections: tuple[ast.SourceSection, ...] = ()   # texts beside the source, by article prefix

    # ---------------------------------------------------------------- queries
    def decide(self, path: str, ctx=None) -> Decision:
        rules = self.settings.get(path)
        if rules is None:
            return self._default(path)
        return rules.decide(ctx)

    def _default(self, path: str) -> Decision:
        """The documented default of a setting the spec does not give."""
        cache = self.__dict__.setdefault("_defaults", {})
        decision = cache.get(path)
        if decision is None:
            from .settings import find
            setting = find(path)
            if setting is None:
                raise KeyError(f"'{path}' is not a setting")
            decision = cache[path] = Decision(path, setting.default, None, ())
        return decision

    def value(self, path: str, ctx=None):
        return self.decide(path, ctx).value

    def has(self, path: str) -> bool:
        return path in self.settings

    def cites(self, path: str) -> tuple[str, ...]:
        """Every article cited by any clause of a setting (for static facts)."""
        rules = self.settings.get(path)
        if rules is None:
            return ()
        seen: dict[str, None] = {}
        for clause in rules.clauses:
            for cite in clause.cites:
                seen.setdefault(cite, None)
        return tuple(seen)

    def clauses_citing(self, article: str) -> list[ast.Clause]:
        """Clauses citing the article themselves or through a helper they use."""
        helpers = {name for name, d in self.definitions.items()
                   if article in (c.article for c in d.citations)}
        return [c for c in self.all_clauses
                if article in c.cites or helpers & self._helpers_of(c)]

    def _helpers_of(self, clause: ast.Clause) -> set[str]:
        found: set[str] = set()
        pending = [clause.value] + [g.expr for g in clause.conditions]
        while pending:
            node = pending.pop()
            if isinstance(node, ast.Name) and len(node.parts) == 1 and node.dotted in self.definitions:
                if node.dotted not in found:
                    found.add(node.dotted)
                    pending.append(self.definitions[node.dotted].expr)
            for child in (getattr(node, "operand", None), getattr(node, "left", None),
                          getattr(node, "right", None), getattr(node, "sequence", None),
                          getattr(node, "index", None), *getattr(node, "items", ())):
                if isinstance(child, ast.Expr):
                    pending.append(child)
        return found

    def disputes_on(self, article: str) -> list[ast.Dispute]:
        return [d for d in self.disputes.values() if article in (c.article for c in d.articles)]

    @property
    def reading_label(self) -> str:
        changed = [f"{d}={r}" for d, r in self.readings.items() if r != self.disputes[d].default]
        return ",".join(changed) or "default"
