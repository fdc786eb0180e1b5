"""DSL expressions printed back as text.

`text(expr)` writes an expression of the rules DSL (canastra_ref.dsl.ast) in
the DSL's own syntax, with only the parentheses the grammar needs, so that
what it prints parses back to the same tree. Helpers defined with `def` can be
inlined (`definitions=`), which is how two rulesets whose helpers share a name
but not a meaning are told apart. `value_text` renders a clause's value,
literal settings included (rank lists, card lists, ladders, names).

Precedence, loosest first, as in grammar/canastra.lark: or, and, not,
comparisons and `in`, + and -, * and /, unary minus, indexing.
"""
from __future__ import annotations

from canastra_ref.dsl import ast

_LEVEL = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4,
          "+": 5, "-": 5, "*": 6, "/": 6}
_NEG, _POSTFIX, _ATOM = 7, 8, 9
_NON_ASSOCIATIVE = {"==", "!=", "<", "<=", ">", ">=", "in"}     # a < b < c does not parse


def level(node: ast.Expr, definitions=None) -> int:
    if isinstance(node, ast.Binary):
        return _LEVEL[node.op]
    if isinstance(node, ast.Unary):
        return _LEVEL["not"] if node.op == "not" else _NEG
    if isinstance(node, ast.Index):
        return _POSTFIX
    if isinstance(node, ast.Name) and definitions and _is_helper(node, definitions):
        return level(definitions[node.dotted].expr, definitions)
    return _ATOM


def _is_helper(node: ast.Name, definitions) -> bool:
    return len(node.parts) == 1 and node.dotted in definitions


def text(node: ast.Expr, definitions: dict | None = None) -> str:
    """The expression in DSL syntax; helpers named in `definitions` are inlined."""
    return _Printer(definitions or {}).render(node)


class _Printer:
    def __init__(self, definitions: dict):
        self.definitions = definitions
        self._stack: list[str] = []

    def render(self, node: ast.Expr) -> str:
        if isinstance(node, ast.Int):
            return str(node.value)
        if isinstance(node, ast.Bool):
            return "yes" if node.value else "no"
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.Range):
            return f"{node.low}..{node.high}"
        if isinstance(node, ast.ListExpr):
            return "[" + ", ".join(self.render(i) for i in node.items) + "]"
        if isinstance(node, ast.Ladder):
            steps = " -> ".join(str(s) for s in node.steps)
            return steps + (f" then +{node.then}" if node.then is not None else "")
        if isinstance(node, ast.Unary):
            if node.op == "not":
                return "not " + self._operand(node.operand, _LEVEL["not"], strict=False)
            return "-" + self._operand(node.operand, _NEG, strict=False)
        if isinstance(node, ast.Index):
            return self._operand(node.sequence, _POSTFIX, strict=False) + "[" + self.render(node.index) + "]"
        if isinstance(node, ast.Binary):
            mine = _LEVEL[node.op]
            left = self._operand(node.left, mine, strict=node.op in _NON_ASSOCIATIVE)
            right = self._operand(node.right, mine, strict=True)
            return f"{left} {node.op} {right}"
        raise TypeError(f"not a DSL expression: {node!r}")

    def _name(self, node: ast.Name) -> str:
        if _is_helper(node, self.definitions) and node.dotted not in self._stack:
            self._stack.append(node.dotted)
            try:
                return self.render(self.definitions[node.dotted].expr)
            finally:
                self._stack.pop()
        return node.dotted

    def _operand(self, node: ast.Expr, parent: int, strict: bool) -> str:
        """An operand, in parentheses when it binds more loosely than its operator
        (or as loosely, on the side where the grammar does not associate)."""
        inner = level(node, self.definitions)
        rendered = self.render(node)
        if inner < parent or (strict and inner == parent):
            return f"({rendered})"
        return rendered


def guard_text(guard: ast.Guard, definitions: dict | None = None) -> str:
    """`when E`, `unless E` or `under D.R`, as written."""
    if guard.kind == "under":
        return f"under {guard.dispute}.{guard.reading}"
    return f"{guard.kind} {text(guard.expr, definitions)}"


def clause_text(clause: ast.Clause, definitions: dict | None = None, cites: bool = True) -> str:
    """A whole clause in DSL syntax (one line)."""
    head = (clause.modifier + " " if clause.modifier else "") + \
        (clause.explicit_label + ": " if clause.explicit_label else "")
    out = f"{head}{clause.setting} = {text(clause.value, definitions)}"
    for guard in clause.guards:
        out += " " + guard_text(guard, definitions)
    if cites:
        out += "".join(f" @{c.article}" for c in clause.citations)
    return out


def value_text(value) -> str:
    """A decided or literal value as the DSL writes it: yes/no, numbers, names,
    [lists], rank runs as low..high, ladders."""
    from canastra_ref.cards import RANKS, rank_label
    if value is None:
        return "off"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, ast.Expr):
        return text(value)
    if isinstance(value, tuple):
        labels = [rank_label(v) if v in RANKS else str(v) for v in value]
        if len(value) > 2 and all(v in RANKS for v in value):
            idx = [RANKS.index(v) for v in value]
            if idx == list(range(idx[0], idx[0] + len(idx))):
                return f"{labels[0]}..{labels[-1]}"
        return "[" + ", ".join(labels) + "]"
    return str(value)
