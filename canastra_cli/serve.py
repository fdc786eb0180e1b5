"""canastra serve: the reference implementation speaking the conformance
protocol (conformance/PROTOCOL.md) on stdin/stdout, one JSON message a line.

Every line read gets exactly one line of answer, except stop (and blank
lines, ignored). A line that is not a JSON message is answered with an
errored line; an unexpected failure inside the engine is answered with an
errored line too, its traceback going to stderr. Nothing but protocol lines
ever reaches stdout: anything printed while handling a message goes to stderr.
"""
from __future__ import annotations

import contextlib
import json
import sys
import threading
import traceback

from canastra_ref.limits import MAX_MESSAGE_BYTES

from .common import EXIT_OK


def engine(ruleset: str, readings: tuple[tuple[str, str], ...]):
    """The engine of a ruleset, built once for every way of naming the same
    readings: a reading that is its dispute's default is left out of the key."""
    from canastra_ref.dsl.loader import load
    from canastra_ref.engine.rules import engine_for
    from canastra_ref.errors import CanastraError
    try:
        disputes = load(ruleset).disputes
    except CanastraError:
        return engine_for(ruleset, readings)     # let engine_for report the unknown ruleset
    kept = tuple((d, r) for d, r in readings if d not in disputes or disputes[d].default != r)
    return engine_for(ruleset, kept)


def warm_up() -> None:
    """Build the engines of every ruleset, under its default readings and each
    single other reading, before the cases ask for them (run in the background
    while the runner loads its fixtures). Failures are left for the cases to report."""
    from canastra_ref.dsl.loader import available, load
    from canastra_ref.engine.rules import engine_for
    try:
        rulesets = available()
        for ruleset in rulesets:
            engine_for(ruleset, ())
        for ruleset in rulesets:
            for name, dispute in load(ruleset).disputes.items():
                for reading in dispute.readings:
                    if reading.name != dispute.default:
                        engine_for(ruleset, ((name, reading.name),))
    except Exception:
        pass


def answer_line(line: bytes) -> tuple[dict | None, bool]:
    """(the answer to one input line or None, whether to stop)."""
    from canastra_ref import protocol
    from canastra_ref.json_input import JSONInputError, loads
    try:
        message = loads(line, "the line")
    except JSONInputError as exc:
        shown = line.decode("utf-8", "replace").strip()
        shown = shown if len(shown) <= 200 else shown[:200] + "..."
        return {"errored": True, "message": f"{exc.message}: {shown!r}"}, False
    case_id = message.get("id") if isinstance(message, dict) else None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            answer = protocol.handle(message, engine)
    except Exception as exc:  # a bug of the reference: report it as this case's error, keep serving
        traceback.print_exc(file=sys.stderr)
        answer = {"errored": True, "message": f"internal error: {type(exc).__name__}: {exc}"}
    if answer is None:
        return None, True
    if isinstance(case_id, str) and "id" not in answer:
        answer = {"id": case_id, **answer}
    return answer, False


def lines(stdin):
    """The input's lines; a line longer than a message may be is read to its
    end and given as None (the runner never sends one)."""
    while True:
        line = stdin.readline(MAX_MESSAGE_BYTES + 2)        # room for the line's own \r\n
        if not line:
            return
        if len(line.rstrip(b"\r\n")) <= MAX_MESSAGE_BYTES:
            yield line
            continue
        while line and not line.endswith(b"\n"):           # skip the rest, a bounded chunk at a time
            line = stdin.readline(1 << 16)
        yield None


def serve(stdin, stdout, warm: bool = True) -> int:
    """The protocol loop over binary streams; returns at stop or end of input."""
    warming = None
    for line in lines(stdin):
        if line is None:
            answer, stop = {"errored": True, "message": f"the line is longer than a message may be "
                                                        f"({MAX_MESSAGE_BYTES:,} bytes)"}, False
        elif not line.strip():
            continue
        else:
            answer, stop = answer_line(line)
        if stop:
            break
        stdout.write(json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")
        stdout.flush()
        if warm and warming is None and answer.get("ready"):
            warming = threading.Thread(target=warm_up, name="warm-up", daemon=True)
            warming.start()
    return EXIT_OK


def cmd_serve(args) -> int:
    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    except (BrokenPipeError, KeyboardInterrupt):
        return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "serve", help="speak the conformance protocol on stdin/stdout (the reference adapter)",
        description="Run the reference implementation as a conformance adapter: newline-delimited JSON "
                    "messages (start, run, stop) on stdin, one answer line each on stdout, diagnostics "
                    "on stderr. See conformance/PROTOCOL.md. 'canastra conformance' starts this itself.")
    p.set_defaults(func=cmd_serve)
