"""What the fuzz tests share: how many inputs each tries, a CPU-time bound
on each input, and the invariant every input surface is held to: a
positioned error or a valid result, never a traceback, a hang or an
unbounded allocation (issue 17).

Fast by default (a few hundred inputs per surface, within the suite's run);
`pytest --fuzz-long` (or CANASTRA_FUZZ=long) tries FUZZ_LONG inputs per
surface (the stateful engine test: 1,000 runs per ruleset reading),
CANASTRA_FUZZ=<number> exactly that many:

    CANASTRA_FUZZ=100000 python -m pytest tests/test_fuzz_*.py tests/test_dsl_fuzz.py

A hang or an unbounded allocation shows as a failure, not a stuck run or
an exhausted machine: an input may use at most CPU_SECONDS of processor
time (not wall-clock time, which a loaded machine stretches) and grow the
process's address space by at most MEMORY_BYTES (Linux; elsewhere CPU time
only).
"""
from __future__ import annotations

import os
import resource
import signal
from contextlib import contextmanager

from hypothesis import settings
from hypothesis import strategies as st

from canastra_ref.errors import CanastraError, ErrorList

FUZZ_LONG = 100_000
CPU_SECONDS = 20
# What one input may add to the address space: far above any input's honest
# need (the largest, a self-played hand, takes a few MB), far below what the
# billion laughs or a deck of 50,000,000 decks took (GBs).
MEMORY_BYTES = 1024 ** 3
# An error message repeats what it was given only in part.
MESSAGE_LIMIT = 10_000


def examples(fast: int, long: int = FUZZ_LONG) -> int:
    """The inputs a fuzz test tries: `fast` by default, `long` with --fuzz-long,
    CANASTRA_FUZZ=<number> exactly that many."""
    wanted = os.environ.get("CANASTRA_FUZZ", "")
    if wanted == "long":
        return long
    return int(wanted) if wanted.isdigit() else fast


def fuzz_settings(fast: int, **options) -> settings:
    """Hypothesis settings for a fuzz test: `examples(fast)` inputs, no
    deadline (CPU time is bounded instead, with bounded)."""
    return settings(max_examples=examples(fast), deadline=None, **options)


class Hang(AssertionError):
    """An input used more than CPU_SECONDS of processor time."""


class Unbounded(AssertionError):
    """An input allocated more than MEMORY_BYTES."""


def _address_space() -> int | None:
    """The process's address space in bytes (VmSize), None where /proc does not say."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


@contextmanager
def bounded(seconds: float = CPU_SECONDS, memory: int = MEMORY_BYTES):
    """Fail the input that uses more than `seconds` of this process's CPU time,
    or grows its address space by more than `memory` bytes."""
    def expire(signum, frame):
        raise Hang(f"more than {seconds} s of CPU time on one input")
    previous = signal.signal(signal.SIGVTALRM, expire)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    limits = resource.getrlimit(resource.RLIMIT_AS)
    size = _address_space()
    if size is not None and (limits[0] == resource.RLIM_INFINITY or size + memory < limits[0]):
        resource.setrlimit(resource.RLIMIT_AS, (size + memory, limits[1]))
    try:
        yield
    except MemoryError:
        raise Unbounded(f"more than {memory // 1024 ** 2} MiB allocated for one input") from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, limits)
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


def positioned(error) -> None:
    """The invariant of a refused input: every error says where (file:line:column
    or a JSON path) and what, in a message of bounded length."""
    errors = error.errors if isinstance(error, ErrorList) else [error]
    assert errors, "an empty list of errors"
    for e in errors:
        assert isinstance(e, CanastraError)
        assert e.message and len(e.render()) < MESSAGE_LIMIT, e.render()[:300]
        assert e.position is not None or e.json_path is not None, f"an error with no position: {e.render()}"


@contextmanager
def no_cache():
    """The on-disk cache off: an entry per fuzzed input would fill the disk."""
    before = os.environ.get("CANASTRA_CACHE")
    os.environ["CANASTRA_CACHE"] = "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ["CANASTRA_CACHE"]
        else:
            os.environ["CANASTRA_CACHE"] = before


# ------------------------------------------------------------ mutating data

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-2 ** 80, 2 ** 80),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30),
                    st.sampled_from(["N", "E", "NS", "N+SE+SW", "Ah", "JK", "10s", "Zz", "3h", "stock", "draw",
                                     "play", "went-out", "cbc", "", "x" * 300, "4h 5h 6h", "sequence", "suja"]))


def _containers(inner):
    return st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5))


values = st.recursive(scalars, _containers, max_leaves=20)


CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"] + ["JK"]
SEATS = ["N", "E", "S", "W", "NE", "SE", "SW", "NW"]


def nudged(value):
    """A value near `value`, of its own kind where it has one (a count, a card,
    a seat, a list of cards): changes a validator lets through more often."""
    if isinstance(value, bool):
        return st.just(not value)
    if isinstance(value, int):
        return st.one_of(st.integers(value - 3, value + 3), st.sampled_from([0, 1, 7, 75, 120, 2490, 2500, 5000, -1]))
    if isinstance(value, str) and value in CARDS:
        return st.sampled_from(CARDS)
    if isinstance(value, str) and value in SEATS:
        return st.sampled_from(SEATS)
    if isinstance(value, list) and value and all(isinstance(c, str) and c in CARDS for c in value):
        return st.one_of(st.just(value[1:]), st.just(value[:-1]),
                         st.builds(lambda c: value + [c], st.sampled_from(CARDS)),
                         st.builds(lambda c: [c] + value[1:], st.sampled_from(CARDS)))
    return values


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, path + (key,))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _paths(inner, path + (i,))


@st.composite
def mutated_data(draw, data):
    """A copy of JSON-like `data` with one to three changes at random places:
    a value nudged (nudged) or replaced by any other, a key dropped or added."""
    import copy
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(data))[1:]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        how = draw(st.sampled_from(["nudge", "nudge", "nudge", "replace", "drop", "add"]))
        if how == "drop":
            del parent[path[-1]]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=12))] = draw(values)
        elif how == "nudge":
            parent[path[-1]] = draw(nudged(parent[path[-1]]))
        else:
            parent[path[-1]] = draw(values)
    return data


@st.composite
def mutated_text(draw, texts, tokens):
    """One of `texts` with one to four lines dropped, repeated, swapped, cut
    short, or a word of theirs replaced by one of `tokens`."""
    lines = draw(st.sampled_from(texts)).splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "repeat", "swap", "token", "token", "cut"]))
        if how == "drop":
            del lines[i]
        elif how == "repeat":
            lines.insert(i, lines[i])
        elif how == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "token":
            words = lines[i].split(" ")
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(tokens))
            lines[i] = " ".join(words)
        else:
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))] + "\n"
    return "".join(lines)
