"""The line channel to an implementation (conformance/process.py) reads
stdout only as far as an answer may go: a line beyond the limit is an
overflow however it arrives, and a process writing without end is never
read into memory without bound."""
from __future__ import annotations

import sys
import time

import pytest

from canastra_conformance import process
from canastra_conformance.process import LINE, OVERFLOW, ImplementationProcess

LIMIT = 1000


@pytest.fixture
def small_limit(monkeypatch):
    monkeypatch.setattr(process, "MAX_LINE", LIMIT)


def _run(code: str) -> ImplementationProcess:
    return ImplementationProcess([sys.executable, "-c", code])


def test_a_long_line_already_whole_is_an_overflow(small_limit):
    """The line and its newline may all be read before the length is looked at
    (a loaded machine): it was taken as an answer whatever its length."""
    channel = _run(f"import sys; sys.stdout.write('x' * {LIMIT + 1} + '\\n'); sys.stdout.flush()")
    try:
        channel.proc.wait(10)                        # everything written is in the pipe (less than its 64 KiB)
        status, start = channel.read_line(time.monotonic() + 10)
        assert status == OVERFLOW and start == b"x" * LIMIT
    finally:
        channel.kill()


def test_a_line_at_the_limit_is_a_line(small_limit):
    channel = _run(f"import sys; sys.stdout.write('x' * {LIMIT} + '\\n'); sys.stdout.flush()")
    try:
        assert channel.read_line(time.monotonic() + 10) == (LINE, b"x" * LIMIT)
    finally:
        channel.kill()


def test_endless_output_is_read_only_as_far_as_the_limit(small_limit):
    channel = _run("import sys\nwhile True: sys.stdout.write('x' * 65536); sys.stdout.flush()")
    try:
        status, _ = channel.read_line(time.monotonic() + 10)
        assert status == OVERFLOW
        assert len(channel._out) <= LIMIT + 65536          # one read past the limit at most
    finally:
        channel.kill()
