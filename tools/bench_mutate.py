"""Benchmark: the full spec-mutation check (`canastra mutate` of every ruleset).

    python tools/bench_mutate.py [--jobs N] [--repeat N] [--exhaustive] [RULESET ...]

Each repetition judges every mutant of the rulesets (default: all) as
`canastra mutate` does, the fixtures already loaded. Printed per repetition:
the wall time, the CPU time of this process and of the pool's processes,
mutants per second of wall time, and the load average beside it (the machine
is shared: compare CPU time, or runs made side by side). Issue 16's target:
every ruleset in at most 20 s of wall time on a 2-core machine with the
default jobs. Not a test: nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import resource
import time


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process and of its reaped children (the pool's processes)."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def main(argv=None) -> int:
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.mutation import run_all
    from canastra_ref.dsl.loader import available

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", help="rulesets whose specs are mutated (default: all)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: one per core)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--exhaustive", action="store_true", help="run every case against every mutant")
    args = parser.parse_args(argv)
    rulesets = args.rulesets or available()
    cases = load_all()
    jobs = args.jobs or os.cpu_count() or 1
    print(f"{len(rulesets)} ruleset(s), {len(cases)} cases, {jobs} job(s), {os.cpu_count()} CPUs"
          f"{', exhaustive' if args.exhaustive else ''}")
    best = None
    for i in range(args.repeat):
        (own, children), began = _cpu(), time.perf_counter()
        reports = run_all(rulesets, cases, jobs=jobs, select=not args.exhaustive)
        wall = time.perf_counter() - began
        own_after, children_after = _cpu()
        mutants = sum(len(r.mutants) for r in reports)
        load = os.getloadavg()[0]
        print(f"  run {i + 1}: {wall:6.1f} s wall, CPU {own_after - own:5.1f} s here + "
              f"{children_after - children:5.1f} s in the pool, {mutants / wall:5.0f} mutants/s "
              f"({mutants} mutants; load {load:.1f})")
        best = wall if best is None else min(best, wall)
    print(f"best: {best:.1f} s wall; target <= 20 s with the default jobs on 2 cores: "
          f"{'met' if best <= 20 else 'not met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
