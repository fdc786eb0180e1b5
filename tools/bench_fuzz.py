#!/usr/bin/env python3
"""Benchmark: differential fuzzing throughput against the reference through
the protocol (figures only; no assertion).

    python tools/bench_fuzz.py [--hands N] [--seed S] [--jobs N] [RULESET ...]

Per ruleset, one campaign of N hands against `canastra serve` (the reference
as any implementation, in its own process), with:
- steps: the actions sent and compared;
- CPU time of the fuzzer (this process: generating the games, the
  reference's answers, encoding, reading and comparing answers) and of the
  implementation (the serve process, read from /proc while it runs, after
  a first campaign of 5 hands: its start-up and warm-up left out), and steps per CPU second of the two together: one
  message is in flight at a time, so that is the throughput one core gives
  (target of issue 14: at least 2,000 steps/s);
- the share of the fuzzer's CPU spent generating the games.
Then, with --jobs N (default 2), the same total of hands with 1 and with N
processes, side by side: steps per CPU second of all processes (near-equal
means no overhead, so N cores give N times the throughput), and the
wall-clock ratio (bounded by the cores free on this shared machine: the
load average is printed with it). CPU time, never a lone wall-clock figure.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time

from canastra_conformance.runner import Runner, reference_command
from canastra_ref.dsl.loader import available
from canastra_ref.engine.walk import games
from canastra_tools.fuzz import Campaign, Settings, fuzz


def _process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) of a running process, from /proc (Linux); None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_core(ruleset: str, hands: int, seed: int) -> dict:
    runner = Runner(reference_command())
    try:
        Campaign(runner, Settings(ruleset, cases=5, seed=seed + 1)).run()     # past the start-up and warm-up
        time.sleep(1.0)
        campaign = Campaign(runner, Settings(ruleset, cases=hands, seed=seed))
        pid = runner.process.proc.pid
        impl_before, before = _process_cpu(pid), time.process_time()
        tally = campaign.run()
        fuzzer = time.process_time() - before
        impl_after = _process_cpu(pid)
    finally:
        runner.close()
    impl = None if impl_before is None or impl_after is None else impl_after - impl_before
    total = fuzzer + (impl or 0.0)
    return {"ruleset": ruleset, "hands": tally.hands, "steps": tally.steps, "fuzzer": fuzzer, "impl": impl,
            "per_cpu_s": tally.steps / total, "generating": _generation(campaign, hands) / fuzzer,
            "differences": len(tally.groups)}


def _generation(campaign: Campaign, hands: int) -> float:
    """CPU seconds the campaign's games take to generate alone (the same games again)."""
    s = campaign.settings
    start = time.process_time()
    for _ in zip(range(hands), games(campaign.engine, s.rng(), near_legal=s.near_legal)):
        pass
    return time.process_time() - start


def scaling(ruleset: str, hands: int, seed: int, jobs: int) -> list[dict]:
    rows = []
    for n in (1, jobs):
        cpu_before, children_before, wall_before = time.process_time(), _children_cpu(), time.monotonic()
        tally = fuzz(reference_command(), Settings(ruleset, cases=hands, seed=seed), jobs=n)
        wall = time.monotonic() - wall_before
        cpu = time.process_time() - cpu_before + _children_cpu() - children_before
        rows.append({"jobs": n, "hands": tally.hands, "steps": tally.steps, "cpu": cpu, "wall": wall,
                     "per_cpu_s": tally.steps / cpu, "per_wall_s": tally.steps / wall})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=None)
    parser.add_argument("--hands", type=int, default=40, help="hands a campaign (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes of the scaling run (default 2)")
    args = parser.parse_args()
    rulesets = args.rulesets or available()
    print("one core: a campaign against `canastra serve`, CPU seconds of the fuzzer and of the implementation")
    print(f"{'ruleset':<14}{'hands':>6}{'steps':>8}{'fuzzer s':>10}{'impl s':>8}{'steps/CPU-s':>13}"
          f"{'generating':>12}")
    for ruleset in rulesets:
        r = one_core(ruleset, args.hands, args.seed)
        impl = f"{r['impl']:.2f}" if r["impl"] is not None else "?"
        print(f"{ruleset:<14}{r['hands']:>6}{r['steps']:>8}{r['fuzzer']:>10.2f}{impl:>8}{r['per_cpu_s']:>13,.0f}"
              f"{r['generating']:>11.0%}" + ("  DIFFERENCES FOUND" if r["differences"] else ""))
        sys.stdout.flush()
    ruleset = rulesets[0]
    print(f"\nscaling: {ruleset}, {args.hands} hands in all, 1 and {args.jobs} jobs (load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); CPU of every process, start-ups included")
    rows = scaling(ruleset, args.hands, args.seed, args.jobs)
    print(f"{'jobs':>4}{'steps':>8}{'CPU s':>8}{'steps/CPU-s':>13}{'wall s':>8}{'steps/wall-s':>14}")
    for r in rows:
        print(f"{r['jobs']:>4}{r['steps']:>8}{r['cpu']:>8.2f}{r['per_cpu_s']:>13,.0f}{r['wall']:>8.1f}"
              f"{r['per_wall_s']:>14,.0f}")
    one, many = rows
    print(f"{args.jobs} jobs against 1: CPU per step x{(many['cpu'] / many['steps']) / (one['cpu'] / one['steps']):.2f}"
          f", wall-clock speed-up x{many['per_wall_s'] / one['per_wall_s']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
