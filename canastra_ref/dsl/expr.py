"""Type-checking and compiling the DSL's expression language.

An expression compiles to a Python function of an evaluation context (any
object with a `fact(name)` method, supplied by the engine). Type errors are
SpecErrors pointing at the offending sub-expression.

Types: "int", "bool", "enum:<domain>", "symbol" (a bare name: an enumeration
value, a rank, a kind), "list:int", "list:symbol", "ranks" (a rank range).
"""
from __future__ import annotations

import difflib
import operator
from dataclasses import dataclass, field
from typing import Callable

from ..cards import dsl_rank, rank_label
from ..errors import RuleError, SpecError
from . import ast, facts

Fn = Callable[[object], object]

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}


@dataclass
class Compiled:
    type: str
    fn: Fn
    facts: frozenset[str] = frozenset()          # fact names read
    definitions: tuple[str, ...] = ()            # helper definitions used, in order
    constant: object = field(default=None)       # the value when it reads no fact


class Compiler:
    """Compiles expressions of one ruleset: knows its helper definitions and kinds."""

    def __init__(self, definitions: dict[str, ast.Definition], canastra_kinds: tuple[str, ...],
                 meld_kinds: tuple[str, ...], scope: str, lines_of=None):
        self.definitions = definitions
        self.canastra_kinds = canastra_kinds
        self.meld_kinds = meld_kinds
        self.scope = scope
        self.lines_of = lines_of or (lambda pos: None)
        self._expanding: list[str] = []

    def error(self, message: str, node: ast.Expr, expected: str | None = None) -> SpecError:
        return SpecError(message, position=node.pos, expected=expected, source_line=self.lines_of(node.pos))

    def domain(self, type_: str) -> tuple[str, ...]:
        name = type_.split(":", 1)[1]
        if name == "meld-kind":
            return self.meld_kinds
        if name == "canastra-kind":
            return self.canastra_kinds
        if name == "canastra-kind-or-none":
            return self.canastra_kinds + ("none",)
        return facts.DOMAINS[name]

    # ------------------------------------------------------------------ entry
    def compile(self, node: ast.Expr, want: str | None = None) -> Compiled:
        result = self._compile(node)
        if want is not None and result.type != want:
            raise self.error(f"this is {_type_words(result.type)}, but {_type_words(want)} is needed here",
                             node, expected=_type_words(want))
        return result

    # --------------------------------------------------------------- visitors
    def _compile(self, node: ast.Expr) -> Compiled:
        if isinstance(node, tuple):         # the parser's dotted name with a rank range in it
            _, pos, parts = node
            shown = ".".join(f"{p[1]}..{p[2]}" if isinstance(p, tuple) else p for p in parts)
            raise SpecError(f"'{shown}' is not an expression: a rank range may stand in a setting's name "
                            "(points.8..K), not in a fact's", position=pos, source_line=self.lines_of(pos),
                            expected="a fact, a number, a name, a list or a rank range such as 8 .. K")
        method = getattr(self, "_" + type(node).__name__.lower())
        return method(node)

    def _int(self, node: ast.Int) -> Compiled:
        value = node.value
        return Compiled("int", lambda ctx: value, constant=value)

    def _bool(self, node: ast.Bool) -> Compiled:
        value = node.value
        return Compiled("bool", lambda ctx: value, constant=value)

    def _name(self, node: ast.Name) -> Compiled:
        dotted = node.dotted
        if len(node.parts) == 1 and dotted in self.definitions:
            return self._definition(node, self.definitions[dotted])
        fact = facts.lookup(dotted, self.canastra_kinds)
        if fact is not None:
            if fact.group not in facts.SCOPES[self.scope]:
                readable = ", ".join(sorted(facts.SCOPES[self.scope])) or "no game facts"
                raise self.error(f"the fact '{dotted}' cannot be read here", node,
                                 expected=f"a fact of the groups this setting reads ({readable})")
            return Compiled(fact.type, lambda ctx: ctx.fact(dotted), facts=frozenset({dotted}))
        if len(node.parts) == 1:
            value = node.parts[0]
            return Compiled("symbol", lambda ctx: value, constant=value)
        readable = [f.name.replace("<canastra-kind>", k) for f in facts.facts_in(self.scope)
                    for k in (self.canastra_kinds if "<canastra-kind>" in f.name else ("",))]
        close = difflib.get_close_matches(dotted, readable, n=3, cutoff=0.6)
        raise self.error(f"unknown fact '{dotted}'", node,
                         expected=("one of: " + ", ".join(close)) if close else
                         "a game fact this setting may read (docs/dsl.md lists them)")

    def _definition(self, node: ast.Name, definition: ast.Definition) -> Compiled:
        if definition.name in self._expanding:
            chain = " -> ".join(self._expanding + [definition.name])
            raise self.error(f"helper '{definition.name}' is defined in terms of itself ({chain})", node)
        self._expanding.append(definition.name)
        try:
            inner = self._compile(definition.expr)
        finally:
            self._expanding.pop()
        return Compiled(inner.type, inner.fn, inner.facts, inner.definitions + (definition.name,),
                        inner.constant)

    def _range(self, node: ast.Range) -> Compiled:
        low, high = dsl_rank(node.low), dsl_rank(node.high)
        if low is None or high is None:
            bad = node.low if low is None else node.high
            raise self.error(f"'{bad}' is not a rank", node, expected="a rank: 2 .. 10, J, Q, K, A")
        value = (node.low, node.high)
        return Compiled("ranks", lambda ctx: value, constant=value)

    def _listexpr(self, node: ast.ListExpr) -> Compiled:
        items = [self._compile(i) for i in node.items]
        kinds = {i.type for i in items}
        if kinds <= {"int"}:
            type_ = "list:int"
        elif kinds <= {"int", "symbol"} or all(k.startswith("enum:") or k in ("int", "symbol") for k in kinds):
            type_ = "list:symbol"
        else:
            raise self.error("a list holds numbers or names only", node)
        fns = [i.fn for i in items]
        used = frozenset().union(*(i.facts for i in items)) if items else frozenset()
        defs = tuple(d for i in items for d in i.definitions)
        if all(i.constant is not None for i in items):
            value = tuple(_as_symbol(i.constant) if type_ == "list:symbol" else i.constant for i in items)
            return Compiled(type_, lambda ctx: value, used, defs, constant=value)
        convert = _as_symbol if type_ == "list:symbol" else (lambda v: v)
        return Compiled(type_, lambda ctx: tuple(convert(f(ctx)) for f in fns), used, defs)

    def _unary(self, node: ast.Unary) -> Compiled:
        inner = self._compile(node.operand)
        if node.op == "not":
            self._expect(inner, "bool", node.operand)
            fn = inner.fn
            return Compiled("bool", lambda ctx: not fn(ctx), inner.facts, inner.definitions)
        self._expect(inner, "int", node.operand)
        fn = inner.fn
        return Compiled("int", lambda ctx: -fn(ctx), inner.facts, inner.definitions)

    def _index(self, node: ast.Index) -> Compiled:
        seq, idx = self._compile(node.sequence), self._compile(node.index)
        self._expect(seq, "list:int", node.sequence)
        self._expect(idx, "int", node.index)
        seq_fn, idx_fn, pos = seq.fn, idx.fn, node.pos

        def fn(ctx):
            values, i = seq_fn(ctx), idx_fn(ctx)
            if not 0 <= i < len(values):
                raise RuleError(f"index {i} is outside the list of {len(values)} values", position=pos)
            return values[i]
        return Compiled("int", fn, seq.facts | idx.facts, seq.definitions + idx.definitions)

    def _binary(self, node: ast.Binary) -> Compiled:
        left, right = self._compile(node.left), self._compile(node.right)
        used = left.facts | right.facts
        defs = left.definitions + right.definitions
        lf, rf = left.fn, right.fn
        op = node.op
        if op in ("and", "or"):
            self._expect(left, "bool", node.left)
            self._expect(right, "bool", node.right)
            fn = (lambda ctx: lf(ctx) and rf(ctx)) if op == "and" else (lambda ctx: lf(ctx) or rf(ctx))
            return Compiled("bool", fn, used, defs)
        if op in _ARITH or op == "/":
            self._expect(left, "int", node.left)
            self._expect(right, "int", node.right)
            if op == "/":
                pos = node.pos

                def fn(ctx):
                    divisor = rf(ctx)
                    if divisor == 0:
                        raise RuleError("division by zero", position=pos)
                    return int(lf(ctx) / divisor)
                return Compiled("int", fn, used, defs)
            f = _ARITH[op]
            return Compiled("int", lambda ctx: f(lf(ctx), rf(ctx)), used, defs)
        if op == "in":
            if not (right.type.startswith("list:") or right.type == "ranks"):
                raise self.error("the right side of 'in' must be a list", node.right, expected="[a, b, ...]")
            if right.type == "ranks":
                raise self.error("write the ranks of 'in' as a list, such as [4, A, K]", node.right)
            if left.type.startswith("enum:"):
                self._check_symbols(right, left.type, node.right)
                convert = _as_symbol
            elif left.type == "int" and right.type == "list:int":
                convert = lambda v: v  # noqa: E731
            else:
                raise self.error(f"'in' compares {_type_words(left.type)} with {_type_words(right.type)}", node)
            return Compiled("bool", lambda ctx: convert(lf(ctx)) in rf(ctx), used, defs)
        # comparisons
        compare = _COMPARE[op]
        if op in ("==", "!="):
            for a, b, b_node in ((left, right, node.right), (right, left, node.left)):
                if a.type.startswith("enum:") and b.type in ("symbol", "int"):
                    self._check_symbols(b, a.type, b_node)
                    if a is left:
                        return Compiled("bool", lambda ctx: compare(lf(ctx), _as_symbol(rf(ctx))), used, defs)
                    return Compiled("bool", lambda ctx: compare(_as_symbol(lf(ctx)), rf(ctx)), used, defs)
            if left.type == right.type and left.type in ("int", "bool") or \
                    left.type == right.type and left.type.startswith("enum:"):
                return Compiled("bool", lambda ctx: compare(lf(ctx), rf(ctx)), used, defs)
            raise self.error(f"cannot compare {_type_words(left.type)} with {_type_words(right.type)}", node)
        self._expect(left, "int", node.left)
        self._expect(right, "int", node.right)
        return Compiled("bool", lambda ctx: compare(lf(ctx), rf(ctx)), used, defs)

    # ---------------------------------------------------------------- helpers
    def _expect(self, compiled: Compiled, type_: str, node: ast.Expr) -> None:
        if compiled.type != type_:
            raise self.error(f"this is {_type_words(compiled.type)}, but {_type_words(type_)} is needed here",
                             node, expected=_type_words(type_))

    def _check_symbols(self, compiled: Compiled, enum_type: str, node: ast.Expr) -> None:
        domain = self.domain(enum_type)
        values = compiled.constant if isinstance(compiled.constant, tuple) else (compiled.constant,)
        if compiled.constant is None:
            raise self.error("compare with a name written out", node, expected="one of: " + ", ".join(domain))
        for value in values:
            if _as_symbol(value) not in domain:
                raise self.error(f"'{value}' is not one of the values here", node,
                                 expected="one of: " + ", ".join(domain))


def _as_symbol(value) -> str:
    """A rank written as a number (10) or a name compares as its DSL label."""
    if isinstance(value, int) and not isinstance(value, bool):
        rank = dsl_rank(str(value))
        return rank_label(rank) if rank else str(value)
    return str(value)


def _type_words(type_: str) -> str:
    if type_ == "int":
        return "a number"
    if type_ == "bool":
        return "a condition"
    if type_ == "symbol":
        return "a name"
    if type_ == "ranks":
        return "a rank range"
    if type_.startswith("list:"):
        return "a list"
    if type_.startswith("enum:"):
        return f"a {type_.split(':', 1)[1]} value"
    return type_
