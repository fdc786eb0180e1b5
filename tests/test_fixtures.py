"""Every fixture file validates against the schema and every case passes on
the reference implementation (in-process, through the protocol's messages)."""
from __future__ import annotations

import pytest

from canastra_conformance.fixtures import load_all
from canastra_conformance.inprocess import run_case

CASES = load_all()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_passes_on_the_reference(case):
    answer, grade = run_case(case)
    assert grade.status == "passed", (grade.message or "\n".join(map(str, grade.behaviour))) + f"\n{case.where()}"
    assert grade.cites_ok, "\n".join(map(str, grade.citations))
