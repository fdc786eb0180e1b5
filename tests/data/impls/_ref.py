"""Shared by the deliberately broken implementations used to test the runner:
a protocol loop answering like the reference (canastra_ref.protocol), with a
hook that lets each script misbehave on chosen messages.

hook(message) returns None (answer like the reference), a dict (answer
that), or a str (write that line as it is); it may also exit or hang.
"""
from __future__ import annotations

import json
import sys

from canastra_ref import protocol


def write(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def serve(hook=None) -> None:
    for raw in sys.stdin:
        if not raw.strip():
            continue
        message = json.loads(raw)
        if message.get("cmd") == "stop":
            return
        answer = hook(message) if hook else None
        if answer is None:
            answer = protocol.handle(message)
        write(answer if isinstance(answer, str) else json.dumps(answer))
