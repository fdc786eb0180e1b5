"""What is left of a DSL expression once some facts are known.

A table fixes a few facts for a whole game: the size of every team
(`team.size`, `opponents.size`). Under those, some clauses can never apply
(classica's 2-player going-out rule at a table of two teams of two) and some
conditions always hold. `residual(expr, known)` partially evaluates an
expression: known facts become their values, constant parts are folded, and
`and`/`or`/`not` are simplified, so what remains reads only the facts that
still vary. Helpers are inlined. The result is a new syntax tree (or a Bool/Int
leaf); the semantics are unchanged wherever the known facts hold.
"""
from __future__ import annotations

import operator

from canastra_ref.dsl import ast

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def table_facts(players: int, team_size: int) -> dict[str, int]:
    """The facts a table of `players` in teams of `team_size` fixes."""
    return {"team.size": team_size, "opponents.size": players - team_size}


def residual(node: ast.Expr, known: dict, definitions: dict | None = None) -> ast.Expr:
    return _Residual(known, definitions or {}).walk(node)


def constant(node: ast.Expr):
    """The Python value of a folded leaf (Int, Bool), or None when it still varies."""
    if isinstance(node, (ast.Int, ast.Bool)):
        return node.value
    return None


class _Residual:
    def __init__(self, known: dict, definitions: dict):
        self.known, self.definitions = known, definitions
        self._stack: list[str] = []

    def walk(self, node: ast.Expr) -> ast.Expr:
        pos = node.pos
        if isinstance(node, ast.Name):
            if len(node.parts) == 1 and node.dotted in self.definitions and node.dotted not in self._stack:
                self._stack.append(node.dotted)
                try:
                    return self.walk(self.definitions[node.dotted].expr)
                finally:
                    self._stack.pop()
            if node.dotted in self.known:
                return _leaf(pos, self.known[node.dotted])
            return node
        if isinstance(node, ast.Unary):
            inner = self.walk(node.operand)
            value = constant(inner)
            if value is not None:
                return _leaf(pos, (not value) if node.op == "not" else -value)
            if node.op == "not":
                return negate(inner)
            return ast.Unary(pos, node.op, inner)
        if isinstance(node, ast.Binary):
            return self._binary(node)
        if isinstance(node, ast.Index):
            seq, idx = self.walk(node.sequence), self.walk(node.index)
            i = constant(idx)
            if isinstance(seq, ast.ListExpr) and isinstance(i, int) and 0 <= i < len(seq.items):
                return seq.items[i]
            return ast.Index(pos, seq, idx)
        if isinstance(node, ast.ListExpr):
            return ast.ListExpr(pos, tuple(self.walk(i) for i in node.items))
        return node

    def _binary(self, node: ast.Binary) -> ast.Expr:
        pos, op = node.pos, node.op
        left, right = self.walk(node.left), self.walk(node.right)
        lv, rv = constant(left), constant(right)
        if op in ("and", "or"):
            absorbing = op == "or"          # True absorbs "or", False absorbs "and"
            for value, other in ((lv, right), (rv, left)):
                if value is None:
                    continue
                if bool(value) == absorbing:
                    return _leaf(pos, absorbing)
                return other
            return ast.Binary(pos, op, left, right)
        if lv is not None and rv is not None and not isinstance(lv, bool) and not isinstance(rv, bool):
            if op in _COMPARE:
                return _leaf(pos, _COMPARE[op](lv, rv))
            if op in _ARITH:
                return _leaf(pos, _ARITH[op](lv, rv))
            if op == "/" and rv:
                return _leaf(pos, int(lv / rv))
        return ast.Binary(pos, op, left, right)


_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def negate(node: ast.Expr) -> ast.Expr:
    """`not node`, with the negation pushed inwards (De Morgan, flipped
    comparisons, double negation removed) so conditions read plainly."""
    pos = node.pos
    if isinstance(node, ast.Unary) and node.op == "not":
        return node.operand
    if isinstance(node, ast.Binary) and node.op in ("and", "or"):
        return ast.Binary(pos, "or" if node.op == "and" else "and", negate(node.left), negate(node.right))
    if isinstance(node, ast.Binary) and node.op in _FLIP:
        return ast.Binary(pos, _FLIP[node.op], node.left, node.right)
    if isinstance(node, ast.Bool):
        return ast.Bool(pos, not node.value)
    return ast.Unary(pos, "not", node)


def _leaf(pos, value) -> ast.Expr:
    if isinstance(value, bool):
        return ast.Bool(pos, value)
    if isinstance(value, int):
        return ast.Int(pos, value)
    return ast.Name(pos, (str(value),))
