"""The syntax tree of a spec file: frozen dataclasses, each with its source
position, built from Lark's parse tree by canastra_ref.dsl.parser."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from functools import cached_property

from ..errors import SourcePosition

# ----------------------------------------------------------------- expressions

@dataclass(frozen=True)
class Expr:
    pos: SourcePosition = field(compare=False, repr=False)


@dataclass(frozen=True)
class Int(Expr):
    value: int = 0


@dataclass(frozen=True)
class Bool(Expr):
    value: bool = False


@dataclass(frozen=True)
class Name(Expr):
    """A dotted name: a game fact (team.score), a helper defined with `def`, or
    a bare symbol (an enumeration value such as counterclockwise, a rank such
    as A, a canastra kind)."""
    parts: tuple[str, ...] = ()

    @property
    def dotted(self) -> str:
        return ".".join(self.parts)


@dataclass(frozen=True)
class Range(Expr):
    """A rank range, low..high, such as 4..A."""
    low: str = ""
    high: str = ""


@dataclass(frozen=True)
class ListExpr(Expr):
    items: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Unary(Expr):
    op: str = ""          # "not" or "-"
    operand: Expr | None = None


@dataclass(frozen=True)
class Binary(Expr):
    op: str = ""          # and or == != < <= > >= in + - * /
    left: Expr | None = None
    right: Expr | None = None


@dataclass(frozen=True)
class Index(Expr):
    sequence: Expr | None = None
    index: Expr | None = None


@dataclass(frozen=True)
class Ladder(Expr):
    """75 -> 120 -> 150 then +30: opening minimums after successive failures."""
    steps: tuple[int, ...] = ()
    then: int | None = None

    def after(self, minimum: int, failures: int) -> int:
        """The minimum after `failures` more failed openings starting from `minimum`:
        each failure moves to the next step above it; past the last step, `then`
        adds up. Bounded work for any count: the steps, then one product."""
        value = minimum
        for step in self.steps:
            if failures <= 0:
                return value
            if step > value:
                value, failures = step, failures - 1
        return value + self.then * failures if self.then is not None and failures > 0 else value


# ------------------------------------------------------------------ statements

@dataclass(frozen=True)
class Citation:
    article: str
    pos: SourcePosition = field(compare=False, repr=False)


@dataclass(frozen=True)
class Guard:
    """`when E`, `unless E` (stored as kind "when" with a negated expression is
    avoided so messages can quote what the author wrote) or `under D.R`."""
    kind: str                       # "when" | "unless" | "under"
    expr: Expr | None = None
    dispute: str | None = None
    reading: str | None = None
    pos: SourcePosition = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Article:
    id: str
    paraphrase: str
    informative_reason: str | None
    pos: SourcePosition = field(compare=False, repr=False)

    @property
    def informative(self) -> bool:
        return self.informative_reason is not None


@dataclass(frozen=True)
class Reading:
    name: str
    description: str
    pos: SourcePosition = field(compare=False, repr=False)


@dataclass(frozen=True)
class Dispute:
    name: str
    question: str
    articles: tuple[Citation, ...]
    readings: tuple[Reading, ...]
    default: str
    default_reason: str
    pos: SourcePosition = field(compare=False, repr=False)
    default_pos: SourcePosition = field(default=None, compare=False, repr=False)

    def reading(self, name: str) -> Reading | None:
        return next((r for r in self.readings if r.name == name), None)


@dataclass(frozen=True)
class Definition:
    name: str
    expr: Expr
    guards: tuple[Guard, ...]
    citations: tuple[Citation, ...]
    pos: SourcePosition = field(compare=False, repr=False)


@dataclass(frozen=True)
class Clause:
    """`[label:] [override|exception] setting = value [when ...] [under D.R] @cites`."""
    setting: str
    value: Expr
    guards: tuple[Guard, ...]
    citations: tuple[Citation, ...]
    pos: SourcePosition = field(compare=False, repr=False)
    explicit_label: str | None = None
    modifier: str | None = None       # None | "override" | "exception"
    ruleset: str = ""                  # the ruleset whose file holds the clause
    setting_pos: SourcePosition = field(default=None, compare=False, repr=False)

    @property
    def label(self) -> str:
        """Explicit label, or the setting path for an unlabelled clause."""
        return self.explicit_label or self.setting

    # computed once per clause: every build reads them, under every reading of every mutant
    @cached_property
    def conditions(self) -> tuple[Guard, ...]:
        return tuple(g for g in self.guards if g.kind != "under")

    @cached_property
    def readings(self) -> tuple[tuple[str, str], ...]:
        return tuple((g.dispute, g.reading) for g in self.guards if g.kind == "under")

    @property
    def cites(self) -> tuple[str, ...]:
        return tuple(c.article for c in self.citations)


@dataclass(frozen=True)
class Unstated:
    """`unstated SETTING because "..."`: the rulebook does not state a setting
    the engine reads, and the reason its silence leaves no real choice; the
    setting keeps its documented default."""
    setting: str
    reason: str
    pos: SourcePosition = field(compare=False, repr=False)
    setting_pos: SourcePosition = field(default=None, compare=False, repr=False)
    ruleset: str = ""                  # the ruleset whose file holds the entry


@dataclass(frozen=True)
class SourceSection:
    """`source "FILE" section "SLUG" as PREFIX`: the articles PREFIX.<n> are
    the items numbered n in the markdown section SLUG of FILE, a text kept
    beside the rulebook (clarifications its authors declare binding)."""
    file: str
    section: str
    prefix: str
    pos: SourcePosition = field(compare=False, repr=False)


@dataclass(frozen=True)
class SpecFile:
    path: str
    ruleset: str
    title: str
    extends: str | None
    source: str | None
    articles: tuple[Article, ...]
    disputes: tuple[Dispute, ...]
    definitions: tuple[Definition, ...]
    clauses: tuple[Clause, ...]
    pos: SourcePosition = field(compare=False, repr=False)
    extends_pos: SourcePosition | None = field(default=None, compare=False, repr=False)
    lines: tuple[str, ...] = field(default=(), compare=False, repr=False)
    unstated: tuple[Unstated, ...] = ()
    source_sections: tuple[SourceSection, ...] = ()

    def line(self, number: int) -> str | None:
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return None


# ------------------------------------------------------------------ JSON form

def _classes() -> dict[str, type]:
    return {cls.__name__: cls for cls in globals().values() if isinstance(cls, type) and is_dataclass(cls)}


def to_json(node):
    """A syntax tree as JSON data: a node is {"@": its class, field: value, ...};
    every sequence of the tree is a tuple, written as a list."""
    if is_dataclass(node):
        return {"@": type(node).__name__, **{f.name: to_json(getattr(node, f.name)) for f in fields(node)}}
    if isinstance(node, tuple):
        return [to_json(item) for item in node]
    return node


def from_json(data):
    """The syntax tree of to_json's data; only the classes of this module (and
    SourcePosition) are built, anything else raises ValueError."""
    if isinstance(data, dict):
        cls = _CLASSES.get(data.get("@"))
        if cls is None:
            raise ValueError(f"not a syntax tree node: {data.get('@')!r}")
        return cls(**{name: from_json(value) for name, value in data.items() if name != "@"})
    if isinstance(data, list):
        return tuple(from_json(item) for item in data)
    return data


_CLASSES = _classes()
