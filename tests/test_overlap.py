"""The sweep over clause ranges (overlap.candidate_pairs) never skips a pair of
clauses that can apply together: every pair it leaves out is disjoint."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from canastra_ref.dsl.overlap import _disjoint, candidate_pairs

OPS = ("<", "<=", ">", ">=", "==", "!=")
atom = st.one_of(
    st.tuples(st.just("num"), st.sampled_from(["team.score", "stock.size"]), st.sampled_from(OPS),
              st.integers(-3, 3)),
    st.tuples(st.just("bool"), st.sampled_from(["turn.first", "team.opened"]), st.booleans()),
)
conjunction = st.one_of(st.none(), st.lists(atom, max_size=4))


@given(st.lists(conjunction, max_size=8))
def test_pairs_left_out_are_disjoint(conjunctions):
    proposed = set(candidate_pairs(conjunctions))
    for i in range(len(conjunctions)):
        for j in range(i + 1, len(conjunctions)):
            if (i, j) not in proposed:
                assert conjunctions[i] is not None and conjunctions[j] is not None
                assert _disjoint(conjunctions[i], conjunctions[j]), (conjunctions[i], conjunctions[j])
