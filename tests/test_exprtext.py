"""tools.exprtext prints DSL expressions back so that they parse to the same
tree; tools.residual folds the facts a table fixes."""
from __future__ import annotations

import pytest

from canastra_ref.dsl import ast
from canastra_ref.dsl.loader import available, load
from canastra_ref.dsl.parser import parse_text
from canastra_tools import exprtext
from canastra_tools.residual import residual, table_facts


def _parse_expr(text: str) -> ast.Expr:
    spec = parse_text(f'ruleset t "t"\ndef x = {text} @1\n')
    return spec.definitions[0].expr


@pytest.mark.parametrize("ruleset", available())
def test_every_clause_round_trips(ruleset):
    model = load(ruleset)
    exprs = [c.value for c in model.all_clauses if not isinstance(c.value, ast.Ladder)]
    exprs += [g.expr for c in model.all_clauses for g in c.guards if g.kind != "under"]
    exprs += [d.expr for d in model.definitions.values()]
    assert exprs
    for expr in exprs:
        printed = exprtext.text(expr)
        assert _parse_expr(printed) == expr, printed


@pytest.mark.parametrize("text", [
    "a - (b - c)", "(a - b) - c", "-(a + b)", "not (a or b) and c", "a * (b + c)", "[1, 2][n] + 3",
    "not a == b", "(a or b) and (c or d)", "x in [A, K]", "4..A",
])
def test_minimal_parentheses(text):
    expr = _parse_expr(text)
    printed = exprtext.text(expr)
    assert _parse_expr(printed) == expr
    assert printed == text.replace("(a - b) - c", "a - b - c")


def test_helpers_are_inlined_on_request():
    model = load("cbc")
    clause = next(c for c in model.all_clauses if c.setting == "score.red_threes")
    assert exprtext.text(clause.value) == "red_threes_total"
    assert exprtext.text(clause.value, model.definitions) == "[0, 100, 200, 300, 800][team.red_threes]"


def test_value_text():
    assert exprtext.value_text(("4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")) == "4..A"
    assert exprtext.value_text(("4", "K", "A")) == "[4, K, A]"
    assert exprtext.value_text(True) == "yes" and exprtext.value_text(None) == "off"


def test_residual_folds_the_table():
    known = table_facts(4, 2)
    cond = _parse_expr("team.size == 1 and opponents.size == 1")
    assert residual(cond, known) == ast.Bool(None, False)
    cond = _parse_expr("team.melds >= 1 and team.size <= 2")
    assert exprtext.text(residual(cond, known)) == "team.melds >= 1"
    value = _parse_expr("-(150 * team.size + x)")
    assert exprtext.text(residual(value, known)) == "-(300 + x)"
    negated = _parse_expr("not (not team.opened or pile.contains.wild)")
    assert exprtext.text(residual(negated, {})) == "team.opened and not pile.contains.wild"
