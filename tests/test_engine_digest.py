"""canastra_tools.engine_digest: the digest of every engine call of self-play, by which .ci/wheel-check shows
that the compiled wheel plays exactly as the .py files."""
from __future__ import annotations

import subprocess
import sys

from canastra_ref.engine import actions, agent, legal
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for
from canastra_tools.engine_digest import digest


def test_every_call_counts_and_the_engine_is_given_back():
    accepted = sum(record.actions for record in self_play(engine_for("cbc"), 0, 2) if not isinstance(record, dict))
    calls, first = digest("cbc", 2, 0)
    assert calls > accepted                      # the agents' rejected trials count too
    assert digest("cbc", 2, 0) == (calls, first)
    assert digest("cbc", 2, 1)[1] != first
    assert agent.apply is legal.apply is actions.apply


def test_an_unknown_ruleset_is_a_usage_error():
    done = subprocess.run([sys.executable, "-m", "canastra_tools.engine_digest", "nope"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and "unknown ruleset(s): nope" in done.stderr and "Traceback" not in done.stderr
