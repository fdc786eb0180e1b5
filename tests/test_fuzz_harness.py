"""The fuzz tests' own bounds (tests/fuzzing.py) catch what they are there
for: an input that loops, or one that allocates without bound, fails the
test instead of hanging it or exhausting the machine."""
from __future__ import annotations

import resource
import sys

import pytest
from fuzzing import Hang, Unbounded, bounded, examples


def test_a_loop_is_a_hang():
    with pytest.raises(Hang), bounded(seconds=0.2):
        while True:
            pass


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the memory bound reads /proc")
def test_an_unbounded_allocation_fails_and_the_bound_is_lifted_after():
    before = resource.getrlimit(resource.RLIMIT_AS)
    kept = []
    with pytest.raises(Unbounded), bounded(memory=256 * 1024 ** 2):
        while True:                             # 16 MiB at a time, as a growing structure would
            kept.append(bytearray(16 * 1024 ** 2))
    assert len(kept) >= 8       # what the input allocated before the bound (space freed earlier is reused)
    kept.clear()
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_how_many_inputs(monkeypatch):
    monkeypatch.delenv("CANASTRA_FUZZ", raising=False)
    assert examples(300) == 300
    monkeypatch.setenv("CANASTRA_FUZZ", "long")
    assert examples(300) == 100_000 and examples(12, long=1000) == 1000
    monkeypatch.setenv("CANASTRA_FUZZ", "5000")
    assert examples(300) == 5000
