"""Running cases against the reference implementation in-process, through the
very messages the out-of-process runner would send (canastra_ref.protocol)."""
from __future__ import annotations

from canastra_ref import protocol

from .fixtures import Case
from .grading import Grade, grade, message_for


def run_case(case: Case) -> tuple[dict, Grade]:
    answer = protocol.handle(message_for(case))
    return answer, grade(case, answer)


def run_all(cases: list[Case]) -> dict[str, Grade]:
    return {case.id: run_case(case)[1] for case in cases}
