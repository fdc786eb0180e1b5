"""Fuzzing canastra serve's input: lines made from the suite's own run
messages, a value somewhere replaced by anything JSON holds (or by what it
does not), keys dropped or added, lines cut or spoiled. Every line gets an
answer of the protocol's shape; an input error names its JSON path; none is
an internal error, a traceback, a hang or an answer beyond bounds."""
from __future__ import annotations

import json

from fuzzing import bounded, fuzz_settings, mutated_data
from hypothesis import given
from hypothesis import strategies as st

from canastra_cli.serve import answer_line
from canastra_conformance.fixtures import load_all
from canastra_conformance.grading import message_for
from canastra_conformance.messages import problem_with
from canastra_ref.json_input import JSONInputError, loads

MESSAGES = [message_for(case) for case in load_all()] + [{"cmd": "start", "protocol": 1}]

@st.composite
def lines(draw) -> bytes:
    message = draw(mutated_data(draw(st.sampled_from(MESSAGES))))
    line = json.dumps(message, ensure_ascii=draw(st.booleans())).encode("utf-8")
    spoil = draw(st.sampled_from(["none", "none", "none", "cut", "bytes", "deep", "number", "constant"]))
    if spoil == "cut":
        line = line[:draw(st.integers(0, len(line)))]
    elif spoil == "bytes":
        at = draw(st.integers(0, len(line)))
        line = line[:at] + draw(st.binary(min_size=1, max_size=8)) + line[at:]
    elif spoil == "deep":
        depth = draw(st.integers(60, 5000))
        line = line[:-1] + b', "x": ' + b"[" * depth + b"]" * depth + b"}"
    elif spoil == "number":
        line = line[:-1] + b', "x": ' + b"9" * draw(st.integers(15, 6000)) + b"}"
    elif spoil == "constant":
        line = line[:-1] + b', "x": ' + draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity", b"1e999"])) + b"}"
    return line


@fuzz_settings(300)
@given(lines())
def test_every_line_gets_an_answer_of_the_protocol(line):
    with bounded():
        answer, stop = answer_line(line)
    if stop:
        assert answer is None
        return
    assert isinstance(answer, dict)
    text = json.dumps(answer)
    message = answer.get("message", "")
    assert "internal error" not in message, message
    if answer.get("errored"):
        assert isinstance(message, str) and 0 < len(message) < 10_000
    try:
        sent = loads(line)
    except JSONInputError:                     # not JSON, or beyond the limits: answered without an id
        assert answer.get("errored") and "id" not in answer
        return
    if isinstance(sent, dict) and sent.get("cmd") == "run" and isinstance(sent.get("id"), str) \
            and 0 < len(sent["id"]) <= 200:
        assert answer.get("id") == sent["id"]
        assert problem_with("run-answer", answer) is None, text[:500]
        if answer.get("errored"):          # an input error says where: a JSON path
            assert message.startswith("$"), message[:300]
    elif isinstance(sent, dict) and sent.get("cmd") == "start":
        assert problem_with("started", answer) is None, text[:500]
