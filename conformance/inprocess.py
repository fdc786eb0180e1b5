"""Running cases against the reference implementation in-process, through the
very messages the out-of-process runner would send (canastra_ref.protocol),
its answers held to the same schema (schema/run-answer.schema.json)."""
from __future__ import annotations

from canastra_ref import protocol

from .fixtures import Case
from .grading import ERRORED, Grade, grade, message_for
from .messages import problem_with


def run_case(case: Case) -> tuple[dict, Grade]:
    answer = protocol.handle(message_for(case))
    problem = problem_with("run-answer", answer)
    if problem:
        return answer, Grade(ERRORED, message=f"the answer does not have the shape of run-answer.schema.json: "
                                              f"{problem}")
    return answer, grade(case, answer)


def run_all(cases: list[Case]) -> dict[str, Grade]:
    return {case.id: run_case(case)[1] for case in cases}
