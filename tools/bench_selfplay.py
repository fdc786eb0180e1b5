#!/usr/bin/env python3
"""Benchmark: random self-play throughput per ruleset (figures only; no assertion).

    python tools/bench_selfplay.py [--hands N] [--rounds R] [--seed S] [--baseline DIR] [RULESET ...]

Prints, per ruleset:
- self-play: complete hands per second with the random agents, accepted
  actions per second (each player decision the engine applied), engine calls
  per second (every `apply`, the agents' rejected trials included);
- replay: the same games' accepted actions applied again without the agents,
  which is the engine's own cost (hands/s and actions/s);
- the ratio of each ruleset's self-play hands/s to the fastest;
- which build of the engine ran (canastra_ref.compiled): compiled by a wheel,
  or its .py files.
Times are CPU time (time.process_time), and the rulesets are measured in
interleaved rounds (every ruleset once per round, R rounds; each figure is the
median of its rounds), so that the figures and ratios hold on a shared,
loaded machine. Targets (issue 16): at least 150 hands/s on every ruleset,
each within 2x of the fastest; the last lines say whether they are met.

With --baseline DIR (another checkout, e.g. `git worktree add /tmp/base main`),
each measurement runs twice in the same round, in fresh subprocesses: once
with this checkout's canastra_ref, once with DIR's canastra_ref and specs
(DIR/spec, through CANASTRA_SPEC_DIR); a last table gives this checkout's
figures as ratios to the baseline's: before/after in one run. The grammar
is this install's, so a baseline whose grammar differs is refused.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from canastra_ref.dsl.loader import available
from canastra_ref.engine import actions
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for
from canastra_ref.paths import GRAMMAR

try:
    from canastra_ref.compiled import build
except ImportError:     # a baseline checkout from before the compiled build: it runs its .py files
    def build() -> str:
        return "pure Python"

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))      # this checkout


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
    return {"ruleset": ruleset, "build": build(), "hands": played, "seconds": elapsed,
            "hands_per_s": played / elapsed, "actions_per_s": accepted / elapsed, "calls_per_s": calls_per_s,
            "actions_per_hand": accepted / played, "replay_hands_per_s": played / replay,
            "replay_actions_per_s": accepted / replay}


def _read(path) -> str | None:
    try:
        return open(path, encoding="utf-8").read()
    except OSError:
        return None


def measure_in(checkout: str, ruleset: str, hands: int, seed: int) -> dict:
    """measure() of the canastra_ref of `checkout`, in a fresh subprocess that imports it first."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([checkout, os.environ.get("PYTHONPATH", "")]),
               CANASTRA_SPEC_DIR=os.path.join(checkout, "spec"))
    done = subprocess.run([sys.executable, __file__, "--measure-one", ruleset, "--hands", str(hands),
                           "--seed", str(seed)], env=env, cwd=checkout, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{checkout} failed on {ruleset}:\n{done.stderr.strip()}")
    return json.loads(done.stdout)


def medians(rounds: list[list[dict]]) -> list[dict]:
    return [{key: (measured[0][key] if key in ("ruleset", "build", "hands")
                   else statistics.median(m[key] for m in measured))
             for key in measured[0]} for measured in zip(*rounds)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=None)
    parser.add_argument("--hands", type=int, default=50, help="hands per ruleset per round (default 50)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are printed (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", metavar="DIR",
                        help="another checkout whose canastra_ref is measured beside this one, for ratios")
    parser.add_argument("--measure-one", metavar="RULESET", help=argparse.SUPPRESS)   # a baseline's subprocess
    args = parser.parse_args()
    if args.measure_one:
        print(json.dumps(measure(args.measure_one, args.hands, args.seed)))
        return 0
    rulesets = args.rulesets or available()
    baseline = os.path.abspath(args.baseline) if args.baseline else None
    if baseline and not os.path.isdir(os.path.join(baseline, "canastra_ref")):
        parser.error(f"--baseline {args.baseline}: no canastra_ref there (give the root of a checkout)")
    if baseline and _read(os.path.join(baseline, "grammar", "canastra.lark")) != _read(GRAMMAR):
        # the baseline imports this install's grammar package (canastra_ref.grammar), not its own
        parser.error(f"--baseline {args.baseline}: its grammar/canastra.lark is not this install's {GRAMMAR}, "
                     "which its canastra_ref would be given")
    rounds, before = [], []
    for _ in range(max(1, args.rounds)):
        rounds.append([])
        before.append([])
        for ruleset in rulesets:
            if baseline:        # both in fresh subprocesses, so that neither runs warmer than the other
                rounds[-1].append(measure_in(HERE, ruleset, args.hands, args.seed))
                before[-1].append(measure_in(baseline, ruleset, args.hands, args.seed))
            else:
                rounds[-1].append(measure(ruleset, args.hands, args.seed))
    rows = medians(rounds)
    best = max(r["hands_per_s"] for r in rows)
    print(f"CPU time, medians of {len(rounds)} interleaved rounds of {args.hands} hands per ruleset; "
          f"engine: {rows[0]['build']}")
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
    if baseline:
        print(f"\nthis checkout against the baseline {baseline} (engine: {medians(before)[0]['build']}; "
              "ratios of the medians; above 1: faster here)")
        print(f"{'ruleset':<14}{'base hands/s':>13}{'hands/s':>9}{'actions/s':>11}{'replay':>8}"
              f"{'base actions/hand':>19}{'actions/hand':>14}")
        for r, b in zip(rows, medians(before)):
            print(f"{r['ruleset']:<14}{b['hands_per_s']:>13.1f}{r['hands_per_s'] / b['hands_per_s']:>8.2f}x"
                  f"{r['actions_per_s'] / b['actions_per_s']:>10.2f}x"
                  f"{r['replay_actions_per_s'] / b['replay_actions_per_s']:>7.2f}x"
                  f"{b['actions_per_hand']:>19.1f}{r['actions_per_hand']:>14.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
