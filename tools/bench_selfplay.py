#!/usr/bin/env python3
"""Benchmark: random self-play throughput per ruleset (figures only; no assertion).

    python tools/bench_selfplay.py [--hands N] [--rounds R] [--seed S] [RULESET ...]

Prints, per ruleset:
- self-play: complete hands per second with the random agents, accepted
  actions per second (each player decision the engine applied), engine calls
  per second (every `apply`, the agents' rejected trials included);
- replay: the same games' accepted actions applied again without the agents,
  which is the engine's own cost (hands/s and actions/s);
- the ratio of each ruleset's self-play hands/s to the fastest.
Times are CPU time (time.process_time), and the rulesets are measured in
interleaved rounds (every ruleset once per round, R rounds; each figure is the
median of its rounds), so that the figures and ratios hold on a shared,
loaded machine. Targets (issue 16): at least 150 hands/s on every ruleset,
each within 2x of the fastest; the last lines say whether they are met.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from canastra_ref.dsl.loader import available
from canastra_ref.engine import actions
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for


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
    trace: list[tuple] = []            # (state before the hand's first action, actions)

    def observe(before, action, after, verdict):
        if not trace or trace[-1][0] is None or before.turn.phase == "deal":
            trace.append((before, []))
        trace[-1][1].append(action)

    def games(observer=None):
        nonlocal played, accepted
        played = accepted = 0
        while played < hands:
            for record in self_play(engine, seed + played, hands - played, observer):
                if isinstance(record, dict):
                    break
                played += 1
                accepted += record.actions

    start = time.process_time()
    try:
        games()
    finally:
        agent_module.apply = original
    elapsed = time.process_time() - start
    calls_per_s = calls / elapsed
    games(observe)                     # the same games again, recorded for the replay
    start = time.process_time()
    for state, moves in trace:
        for action in moves:
            state, _ = original(engine, state, action)
    replay = time.process_time() - start
    return {"ruleset": ruleset, "hands": played, "seconds": elapsed, "hands_per_s": played / elapsed,
            "actions_per_s": accepted / elapsed, "calls_per_s": calls_per_s,
            "actions_per_hand": accepted / played, "replay_hands_per_s": played / replay,
            "replay_actions_per_s": accepted / replay}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=None)
    parser.add_argument("--hands", type=int, default=50, help="hands per ruleset per round (default 50)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are printed (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rulesets = args.rulesets or available()
    rounds = [[measure(r, args.hands, args.seed) for r in rulesets] for _ in range(max(1, args.rounds))]
    rows = [{key: (measured[0][key] if key in ("ruleset", "hands") else statistics.median(m[key] for m in measured))
             for key in measured[0]} for measured in zip(*rounds)]
    best = max(r["hands_per_s"] for r in rows)
    print(f"CPU time, medians of {len(rounds)} interleaved rounds of {args.hands} hands per ruleset")
    print(f"{'':<14}{'':>6}{'--------- self-play ---------':>31}{'------ replay ------':>22}")
    print(f"{'ruleset':<14}{'hands':>6}{'hands/s':>10}{'actions/s':>11}{'calls/s':>10}"
          f"{'hands/s':>11}{'actions/s':>11}{'actions/hand':>14}{'vs fastest':>12}")
    for r in rows:
        print(f"{r['ruleset']:<14}{r['hands']:>6}{r['hands_per_s']:>10.1f}{r['actions_per_s']:>11.0f}"
              f"{r['calls_per_s']:>10.0f}{r['replay_hands_per_s']:>11.1f}{r['replay_actions_per_s']:>11.0f}"
              f"{r['actions_per_hand']:>14.1f}{best / r['hands_per_s']:>11.2f}x")
    slowest = min(rows, key=lambda r: r["hands_per_s"])
    spread = best / slowest["hands_per_s"]
    print(f"target every ruleset >= 150 hands/s: slowest {slowest['ruleset']} {slowest['hands_per_s']:.1f} "
          f"({'met' if slowest['hands_per_s'] >= 150 else 'not met'})")
    print(f"target every ruleset within 2x of the fastest: {spread:.2f}x ({'met' if spread <= 2 else 'not met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
