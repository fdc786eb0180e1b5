#!/usr/bin/env python3
"""Benchmark: random self-play throughput per ruleset (figures only; no assertion).

    python tools/bench_selfplay.py [--hands N] [--seed S] [RULESET ...]

Prints, per ruleset: complete hands per second, accepted actions per second
(each player decision the engine applied), engine calls per second (every
`apply`, including the agent's rejected trials), and the ratio to the fastest.
Targets (issue 4): at least 100 hands/s on every ruleset, each within 2x of
the fastest.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from canastra_ref.dsl.loader import available  # noqa: E402
from canastra_ref.engine import actions  # noqa: E402
from canastra_ref.engine.play import self_play  # noqa: E402
from canastra_ref.engine.rules import engine_for  # noqa: E402


def measure(ruleset: str, hands: int, seed: int) -> dict:
    engine = engine_for(ruleset)
    calls = 0
    original = actions.apply

    def counting(*args, **kw):
        nonlocal calls
        calls += 1
        return original(*args, **kw)

    import canastra_ref.engine.agent as agent_module
    agent_module.apply = counting
    played = accepted = 0
    start = time.perf_counter()
    try:
        while played < hands:
            for record in self_play(engine, seed + played, hands - played):
                if isinstance(record, dict):
                    break
                played += 1
                accepted += record.actions
    finally:
        agent_module.apply = original
    elapsed = time.perf_counter() - start
    return {"ruleset": ruleset, "hands": played, "seconds": elapsed, "hands_per_s": played / elapsed,
            "actions_per_s": accepted / elapsed, "calls_per_s": calls / elapsed,
            "actions_per_hand": accepted / played}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=None)
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = [measure(r, args.hands, args.seed) for r in (args.rulesets or available())]
    best = max(r["hands_per_s"] for r in rows)
    print(f"{'ruleset':<14}{'hands':>6}{'hands/s':>10}{'actions/s':>11}{'calls/s':>10}"
          f"{'actions/hand':>14}{'vs fastest':>12}")
    for r in rows:
        print(f"{r['ruleset']:<14}{r['hands']:>6}{r['hands_per_s']:>10.1f}{r['actions_per_s']:>11.0f}"
              f"{r['calls_per_s']:>10.0f}{r['actions_per_hand']:>14.1f}{best / r['hands_per_s']:>11.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
