"""Can two clauses of one setting apply at the same time?

Used by the static check for contradictory clauses, and to let a setting
whose clauses provably exclude each other stop at the first that applies. Conditions are reduced to
conjunctions of simple atoms (a number fact compared with a constant, a yes/no
fact, an enumeration fact equal to a name); two conjunctions exclude each other
when some fact gets disjoint ranges, opposite truth values or different names.
Clauses under different readings of one dispute never meet. When a condition
is too complex to analyse, the clauses are assumed compatible and a clash, if
any, is reported at run time.
"""
from __future__ import annotations

from . import ast

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _atoms(expr: ast.Expr, positive: bool, definitions) -> list[tuple] | None:
    """Atoms whose conjunction is `expr` (or its negation); None if not simple."""
    if isinstance(expr, ast.Name):
        if len(expr.parts) == 1 and expr.dotted in definitions:
            return _atoms(definitions[expr.dotted].expr, positive, definitions)
        return [("bool", expr.dotted, positive)]
    if isinstance(expr, ast.Unary) and expr.op == "not":
        return _atoms(expr.operand, not positive, definitions)
    if isinstance(expr, ast.Binary):
        if expr.op == "and" and positive or expr.op == "or" and not positive:
            left = _atoms(expr.left, positive, definitions)
            right = _atoms(expr.right, positive, definitions)
            return None if left is None or right is None else left + right
        if expr.op in _FLIP:
            op = expr.op if positive else _NEGATE[expr.op]
            left, right = expr.left, expr.right
            if isinstance(left, ast.Int) and isinstance(right, ast.Name):
                left, right, op = right, left, _FLIP[op]
            if isinstance(left, ast.Name) and isinstance(right, ast.Int):
                return [("num", left.dotted, op, right.value)]
            if isinstance(left, ast.Name) and isinstance(right, ast.Name) and op in ("==", "!="):
                return [("enum", left.dotted, op, right.dotted)]
    return None


def _interval(op: str, value: int) -> tuple[float, float] | None:
    inf = float("inf")
    return {"<": (-inf, value - 1), "<=": (-inf, value), ">": (value + 1, inf),
            ">=": (value, inf), "==": (value, value)}.get(op)


def _disjoint(a: list[tuple], b: list[tuple]) -> bool:
    atoms = a + b
    bounds: dict[str, list[float]] = {}
    excluded: dict[str, set[int]] = {}
    truth: dict[str, bool] = {}
    names: dict[str, str] = {}
    not_names: dict[str, set[str]] = {}
    for atom in atoms:
        if atom[0] == "bool":
            _, fact, value = atom
            if truth.setdefault(fact, value) != value:
                return True
        elif atom[0] == "num":
            _, fact, op, value = atom
            if op == "!=":
                excluded.setdefault(fact, set()).add(value)
                continue
            low, high = _interval(op, value)
            current = bounds.setdefault(fact, [float("-inf"), float("inf")])
            current[0], current[1] = max(current[0], low), min(current[1], high)
            if current[0] > current[1]:
                return True
        else:
            _, fact, op, value = atom
            if op == "==":
                if names.setdefault(fact, value) != value:
                    return True
            else:
                not_names.setdefault(fact, set()).add(value)
    for fact, (low, high) in bounds.items():
        if low == high and low in excluded.get(fact, ()):
            return True
    return any(names.get(fact) in values for fact, values in not_names.items())


def conjunction(clause: ast.Clause, definitions) -> list[tuple] | None:
    """The clause's conditions as a conjunction of atoms; None when too complex
    to analyse. Computed once per clause by callers comparing many pairs."""
    atoms: list[tuple] = []
    for guard in clause.conditions:
        found = _atoms(guard.expr, guard.kind == "when", definitions)
        if found is None:
            return None
        atoms += found
    return atoms


OVERLAP, DISJOINT, UNKNOWN = "overlap", "disjoint", "unknown"


def relation(a: ast.Clause, b: ast.Clause, atoms_a, atoms_b) -> str:
    """OVERLAP when both clauses can provably apply together (a contradiction),
    DISJOINT when they provably never do, UNKNOWN when a condition is too
    complex to tell (assumed compatible; a clash is reported at run time).
    `atoms_a`, `atoms_b`: their conjunctions."""
    readings_a, readings_b = dict(a.readings), dict(b.readings)
    if any(readings_b.get(d, r) != r for d, r in readings_a.items()):
        return DISJOINT
    if atoms_a is None or atoms_b is None:
        return UNKNOWN
    return DISJOINT if _disjoint(atoms_a, atoms_b) else OVERLAP


def candidate_pairs(conjunctions: list[list[tuple] | None]):
    """The index pairs (i < j) of clauses that might overlap; every other pair
    is disjoint. When every conjunction bounds one number fact (team.score >= 0
    and team.score < 1500, ...), clauses are swept in the order of their
    bounds and only those whose ranges meet are paired, so that a setting with
    many clauses is checked in about n log n steps, not n squared."""
    count = len(conjunctions)
    common = None
    if all(c is not None for c in conjunctions):
        for atoms in conjunctions:
            facts = {a[1] for a in atoms if a[0] == "num" and a[2] != "!="}
            common = facts if common is None else common & facts
        common = sorted(common or ())
    if not common:
        yield from ((i, j) for i in range(count) for j in range(i + 1, count))
        return
    fact = common[0]
    spans = []
    for i, atoms in enumerate(conjunctions):
        low, high = float("-inf"), float("inf")
        for atom in atoms:
            if atom[0] == "num" and atom[1] == fact and atom[2] != "!=":
                a, b = _interval(atom[2], atom[3])
                low, high = max(low, a), min(high, b)
        spans.append((low, high, i))
    spans.sort()
    for k, (low, high, i) in enumerate(spans):
        for other_low, _, j in spans[k + 1:]:
            if other_low > high:
                break
            yield (i, j) if i < j else (j, i)
