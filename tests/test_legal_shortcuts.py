"""The candidate searches of canastra_ref.engine.legal skip a suit or a meld
when a cheap test shows that it yields nothing (_has_run: no natural run long
enough for a sequence where no wild card can fill a gap; _none_within: no
natural card near a sequence a hand without wild cards adds to). The skips
must never drop a candidate: with them and without them, every state of a
few hands of self-play gets the same candidates, in the same order (the
random agent picks by position, so the order decides its games)."""
from __future__ import annotations

import pytest

import canastra_ref.engine.legal as legal
from canastra_ref.dsl.loader import available
from canastra_ref.engine.legal import options
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for

VERBS = ("meld", "layoff", "take_pile")


def _candidates(engine, states) -> list:
    return [[[a.json for a in options(engine, state).get(verb)] for verb in VERBS] for state in states]


@pytest.mark.parametrize("ruleset", available())
def test_the_shortcuts_drop_no_candidate(ruleset, monkeypatch):
    engine = engine_for(ruleset)
    states = []
    for record in self_play(engine, 5, 3, lambda before, *_: states.append(before)):
        if isinstance(record, dict):
            break
    fast = _candidates(engine, states)
    monkeypatch.setattr(legal, "_has_run", lambda *_: True)
    monkeypatch.setattr(legal, "_none_within", lambda *_: False)
    assert _candidates(engine, states) == fast
