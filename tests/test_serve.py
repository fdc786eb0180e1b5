"""canastra serve, the reference adapter: the protocol on stdin/stdout, garbage
answered with an error line (never a traceback), and every message and
answer of the suite of the shape its JSON Schema gives."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from canastra_cli.serve import serve
from canastra_conformance.messages import PROTOCOL_VERSION, problem_with
from canastra_ref import protocol

CASE = {"cmd": "run", "id": "x", "ruleset": "cbc", "reading": {}, "query": {"points": "Ah"}}


def exchange(*lines: bytes) -> list[dict]:
    out = io.BytesIO()
    assert serve(io.BytesIO(b"".join(lines)), out, warm=False) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_start_run_stop_as_a_subprocess():
    message = b'{"cmd":"start","protocol":1}\n' + json.dumps(CASE).encode() + b'\n{"cmd":"stop"}\n' \
              + json.dumps(CASE).encode() + b"\n"                  # after stop: not read
    done = subprocess.run([sys.executable, "-m", "canastra_cli", "serve"], input=message,
                          capture_output=True, timeout=60)
    assert done.returncode == 0
    started, answer = [json.loads(line) for line in done.stdout.splitlines()]
    assert problem_with("started", started) is None and started["ready"] is True
    assert answer == {"id": "x", "result": 15}
    assert done.stderr == b""


@pytest.mark.parametrize("line, message", [
    (b"hello\n", "the line is not JSON"),
    (b"{\"cmd\": \n", "the line is not JSON"),
    (b"\xff\xfe\n", "the line is not UTF-8"),
    (b"[1, 2]\n", "a message is an object with a 'cmd' string"),
    (b'{"cmd": "dance", "id": "q"}\n', "unknown cmd 'dance'"),
])
def test_garbage_gets_an_error_line_and_serving_goes_on(line, message):
    first, second = exchange(line, b"\n", json.dumps(CASE).encode() + b"\n")
    assert first["errored"] is True and first["message"].startswith(message)
    assert "Traceback" not in first["message"]
    assert second == {"id": "x", "result": 15}


def test_bad_run_messages_are_errored_answers_with_their_id():
    answers = exchange(json.dumps({**CASE, "ruleset": "nope"}).encode() + b"\n",
                       json.dumps({**CASE, "query": {"points": "Zz"}}).encode() + b"\n",
                       json.dumps({**CASE, "query": None, "state": 3, "actions": []}).encode() + b"\n")
    for answer in answers:
        assert answer["id"] == "x" and answer["errored"] is True
        assert problem_with("run-answer", answer) is None
    assert "unknown ruleset 'nope'" in answers[0]["message"]


def test_an_internal_error_is_an_errored_answer(monkeypatch, capsys):
    def broken(message, engine_factory=None):
        raise ZeroDivisionError("oops")
    monkeypatch.setattr(protocol, "handle", broken)
    [answer] = exchange(json.dumps(CASE).encode() + b"\n")
    assert answer == {"id": "x", "errored": True, "message": "internal error: ZeroDivisionError: oops"}
    assert "Traceback" in capsys.readouterr().err                 # the traceback goes to stderr


def test_wrong_protocol_version_is_refused():
    [answer] = exchange(b'{"cmd": "start", "protocol": 99}\n')
    assert answer["errored"] is True and answer["protocol"] == PROTOCOL_VERSION
    assert problem_with("started", answer) is None


def test_the_protocol_versions_agree():
    assert protocol.PROTOCOL_VERSION == PROTOCOL_VERSION


def test_runner_messages_have_their_shapes():
    assert problem_with("start", {"cmd": "start", "protocol": PROTOCOL_VERSION}) is None
    assert problem_with("stop", {"cmd": "stop"}) is None


def test_every_message_and_reference_answer_of_the_suite_has_its_shape():
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.grading import message_for
    for case in load_all():
        message = message_for(case)
        assert problem_with("run", message) is None, case.id
        assert "expect" not in message, case.id                  # expectations are never sent
        assert problem_with("run-answer", protocol.handle(message)) is None, case.id
