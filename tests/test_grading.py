"""Grading rules (canastra_conformance/grading.py) that the runner tests do not
reach: score terms left out, and the paths an answer says it does not compute."""
from __future__ import annotations

import pytest

from canastra_conformance.grading import covered, match


def mismatches(expected, actual, path="result"):
    out = []
    match(expected, actual, path, out)
    return [m.path for m in out]


def test_a_zero_term_may_be_left_out():
    expected = {"NS": {"terms": {"red_threes": {"value": 0}, "table": {"value": 110}}, "total": 110}}
    assert mismatches(expected, {"NS": {"terms": {"table": {"value": 110}}, "total": 110}}) == []
    assert mismatches(expected, {"NS": {"terms": {"red_threes": {"value": 100}, "table": {"value": 110}},
                                        "total": 110}}) == ["result.NS.terms.red_threes.value"]
    assert mismatches({"NS": {"terms": {"table": {"value": 110}}}}, {"NS": {"terms": {}}}) == \
        ["result.NS.terms.table"]                                         # only a zero may be left out
    assert mismatches({"NS": {"ended": {"value": 0}}}, {"NS": {}}) == ["result.NS.ended"]   # only a term


@pytest.mark.parametrize("path,patterns,expected", [
    ("result.target", ["result.target"], True),
    ("result.target.x", ["result.target"], True),
    ("result.targets", ["result.target"], False),
    ("result", ["result.target"], False),
    ("results[1].score.NS.terms.hand.value", ["results[*].score.*.terms"], True),
    ("results[1].score.NS.total", ["results[*].score.*.terms"], False),
    ("results[1].score", ["results[*].score.*.terms"], False),
    ("results[0].state.turn.drawn", ["results[*].state.turn.drawn", "result.x"], True),
])
def test_unsupported_paths(path, patterns, expected):
    assert covered(path, patterns) is expected
