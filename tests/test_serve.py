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


# ------------------------------------------------------- bad input (issue 17)

def _full_state() -> dict:
    from canastra_ref.engine.completion import complete
    from canastra_ref.engine.rules import engine_for
    engine = engine_for("cbc")
    return complete(engine.table, engine.deck, {"hands": {"N": 3, "E": 3, "S": 3, "W": 3}})


def _with_state(**changes) -> dict:
    state = _full_state()
    state["turn"] = {**state["turn"], **changes.pop("turn", {})}
    return _run(query=None, state={**state, **changes}, actions=[{"player": "N", "draw": "stock"}])


def _run(**fields) -> dict:
    return {k: v for k, v in {**CASE, **fields}.items() if v is not None}


@pytest.mark.parametrize("message, where, expected", [
    (_run(query={"points": ["Ah"]}), "$.query.points", "a card is a string such as '4h' or 'JK', not ['Ah']"),
    (_run(ruleset="x" * 300), "$.ruleset", "a ruleset id: one of casa, cbc"),
    (_run(ruleset=["cbc"]), "$.ruleset", "a ruleset id"),
    (_run(reading={"aces-suit": ["x"]}), "$.reading.aces-suit", "the name of a reading"),
    (_run(reading={"d" * 300: "r"}), "$.reading.", "the name of a reading"),
    (_run(query={"opening_minimum": {"score": 100, "failures": "x"}}), "$.query.opening_minimum.failures",
     "an integer between 0 and"),
    (_run(query={"opening_minimum": {"score": "100"}}), "$.query.opening_minimum.score", "an integer"),
    (_run(query={"opening_minimum": {"score": 0, "when": 1}}), "$.query.opening_minimum.when", '{"score"'),
    (_run(query={"setup": "yes"}), "$.query.setup", "true"),
    (_run(query={"meld": "JK " * 200}), "$.query.meld", "at most 106 cards"),
    (_run(query={"meld": {"cards": "Ah"}}), "$.query.meld", "a list such as"),
    (_run(query={"tea": True}), "$.query.tea", "one of: setup, points"),
    (_run(state={}), "$", "state and actions, or query alone"),
    (_with_state(ended={"player": "N"}), "$.state.ended", "one of: went-out"),
    (_with_state(ended={"reason": "went-out", "extra": 1}), "$.state.ended.extra", "reason, player"),
    (_with_state(ended={"reason": "bored"}), "$.state.ended.reason", "one of: went-out"),
    (_with_state(ended={"reason": "went-out", "player": ["N"]}), "$.state.ended.player", "one of: N, E"),
    (_with_state(pending={"at": "2001-01-01"}), "$.state.pending.at", "player, team, melds"),
    (_with_state(pending={"player": "N", "team": "EW", "melds": []}), "$.state.pending.team", "NS"),
    (_with_state(pending={"player": "N", "team": "NS", "melds": [0]}), "$.state.pending.melds[0]",
     "no index (the team has no meld)"),
    (_with_state(turn={"opening_undo": {"x": 1}}), "$.state.turn.opening_undo.x", "pile"),
    (_with_state(turn={"opening_undo": {"pile": ["Ah", "Ah", "Ah"]}}), "$.state.turn.opening_undo.pile",
     "cards of the player's hand"),
    (_with_state(turn={"opening_undo": {"pile": [], "stock": [], "red_threes": [], "drawn": ["Ah", "Ah", "Ah"]}}),
     "$.state.turn.opening_undo.drawn", "cards of the player's hand or of the melds"),
    (_with_state(turn={"melds_laid": [0, 0]}), "$.state.turn.melds_laid[0]", "no index"),
    (_with_state(turn={"pile_meld": -1}), "$.state.turn.pile_meld", "0 or more"),
    (_with_state(turn={"touched_before": [{"meld": 0}]}), "$.state.turn.touched_before[0]", '"cards": [cards]'),
    (_with_state(turn={"touched_before": [{"meld": 0, "cards": [], "x": 1}]}), "$.state.turn.touched_before[0].x",
     "meld, cards, canastra, lost"),
    (_with_state(turn={"touched_before": [{"meld": 0, "cards": []}]}), "$.state.turn.touched_before[0].meld",
     "no index (the team has no meld)"),
    (_with_state(turn={"touched_before": [{"meld": 0, "cards": [], "lost": "real"}]}),
     "$.state.turn.touched_before[0].lost", "expected a list"),
    (_with_state(pending={"player": "N", "team": "NS", "melds": [], "touched_before": {}}),
     "$.state.pending.touched_before", "expected a list"),
    (_with_state(turn={"laid_lost": [{"meld": 0}]}), "$.state.turn.laid_lost[0]", '{"meld": index, "kind": kind}'),
    (_with_state(turn={"laid_lost": [{"meld": 0, "kind": "real", "x": 1}]}), "$.state.turn.laid_lost[0].x",
     "meld, kind"),
    (_with_state(turn={"laid_lost": [{"meld": 0, "kind": 7}]}), "$.state.turn.laid_lost[0].kind",
     "expected a canastra kind name"),
    (_with_state(pending={"player": "N", "team": "NS", "melds": [], "lost": "real"}),
     "$.state.pending.lost", "expected a list"),
    ({**_with_state(), "actions": [{"player": "N", "draw": "stock"}] * 1001}, "$.actions", "1 to 1,000 actions"),
])
def test_input_errors_name_the_path_and_what_was_expected(message, where, expected):
    [answer] = exchange(json.dumps(message).encode() + b"\n")
    assert answer["id"] == "x" and answer["errored"] is True, answer
    assert answer["message"].startswith(where) and expected in answer["message"], answer["message"]
    assert "internal error" not in answer["message"]


@pytest.mark.parametrize("line, message", [
    (b"1" * 5000 + b"\n", "the line holds the integer 11111111111111111111... (5000 digits), too large"),
    (b"[" * 100_000 + b"\n", "the line nests arrays and objects more than 64 deep (at column 65)"),
    (b'{"cmd": "run", "x": NaN}\n', "the line holds NaN, which is not JSON"),
    (b'{"cmd": "run", "x": 1e999}\n', "the line holds the number 1e999, too large"),
    (b'{"cmd": "start", "protocol": ' + b"9" * 100 + b"}\n", "the line holds the integer"),
    (b"{" + b" " * (1024 * 1024) + b"}\n", "the line is longer than a message may be (1,048,576 bytes)"),
    (b'{"cmd": "run", "id": ["x"]}\n', "$.id: error: the case id ['x'] is not a name"),
    (b'{"cmd": "' + b"z" * 5000 + b'"}\n', "unknown cmd 'zzzzzzzzzzzz"),
])
def test_lines_beyond_the_limits_are_answered_and_serving_goes_on(line, message):
    first, second = exchange(line, json.dumps(CASE).encode() + b"\n")
    assert first["errored"] is True and first["message"].startswith(message), first["message"][:300]
    assert len(first["message"]) < 1000
    assert second == {"id": "x", "result": 15}


def test_a_huge_failure_count_is_answered_at_once():
    """Ladder.after looped once per failure: 10^12 failures never answered."""
    [answer] = exchange(json.dumps({**CASE, "query": {"opening_minimum": {"score": 100, "failures": 10 ** 12}}})
                        .encode() + b"\n")
    assert answer == {"id": "x", "result": 210 + 30 * (10 ** 12 - 4)}      # cbc: 75 -> ... -> 210 then +30


def test_integers_beyond_the_limit_are_refused_in_process_too():
    """The JSON reader refuses them on the wire; a state built in process (a situation) is checked as well."""
    answer = protocol.handle(_with_state(teams={"NS": {"score": 2 ** 60}}))
    assert answer["errored"] is True and answer["message"].startswith("$.state.teams.NS.score: error: the integer")


def _with_meld(turn: dict, pending: dict | None = None) -> dict:
    """A run whose team NS holds 4c 5c 6c 7c (meld 0), N to play."""
    from canastra_ref.engine.completion import complete
    from canastra_ref.engine.rules import engine_for
    engine = engine_for("cbc")
    state = complete(engine.table, engine.deck, {
        "hands": {"N": 3, "E": 3, "S": 3, "W": 3},
        "teams": {"NS": {"opened": True, "melds": [{"kind": "sequence", "cards": ["4c", "5c", "6c", "7c"]}]}},
        "turn": {"player": "N", "phase": "play", **turn}, "pending": pending})
    return _run(query=None, state=state, actions=[{"player": "N", "discard": state["hands"]["N"][0]}])


@pytest.mark.parametrize("message, where, expected", [
    (_with_meld({"touched_before": [{"meld": 0, "cards": ["4c", "5c", "6c", "8c"]}]}),
     "$.state.turn.touched_before[0].cards", "holds cards it does not hold now: 8c"),
    (_with_meld({"melds_laid": [0], "touched_before": [{"meld": 0, "cards": ["4c"]}]}),
     "$.state.turn.touched_before[0].meld", "a meld of an earlier turn"),
    (_with_meld({"touched_before": [{"meld": 0, "cards": ["4c"]}, {"meld": 0, "cards": ["5c"]}]}),
     "$.state.turn.touched_before[1].meld", "each meld once"),
    (_with_meld({}, {"player": "N", "team": "NS", "melds": [],
                     "touched_before": [{"meld": 0, "cards": ["4c", "4c"]}]}),
     "$.state.pending.touched_before[0].cards", "holds cards it does not hold now: 4c"),
    (_with_meld({"laid_lost": [{"meld": 0, "kind": "real"}]}), "$.state.turn.laid_lost[0].meld",
     "an index of turn.melds_laid"),
])
def test_a_meld_as_it_was_holds_only_cards_it_holds_now(message, where, expected):
    """turn.touched_before (and pending's) gives back the cards a turn added to a
    meld of an earlier turn: a record that would create cards is refused."""
    [answer] = exchange(json.dumps(message).encode() + b"\n")
    assert answer["errored"] is True, answer
    assert answer["message"].startswith(where) and expected in answer["message"], answer["message"]


def test_a_meld_as_it_was_reads_back_as_given():
    """A valid touched_before is accepted, and the discard that ends the turn starts the next one empty."""
    message = _with_meld({"touched_before": [{"meld": 0, "cards": ["4c", "5c", "6c"], "canastra": None}]})
    [answer] = exchange(json.dumps(message).encode() + b"\n")
    assert "errored" not in answer, answer
    assert answer["results"][0]["verdict"] == "accepted"
    assert answer["results"][0]["state"]["turn"]["touched_before"] == []
