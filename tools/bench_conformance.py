"""Benchmark: conformance cases per second through the out-of-process
protocol (conformance/PROTOCOL.md), against the reference by default.

    python tools/bench_conformance.py [--impl COMMAND] [--repeat N] [--fixtures DIR]

Each repetition does what `canastra conformance` does: spawn the
implementation, load the fixtures while it starts up, run every case through
the protocol, stop it. Printed: the loading time, the protocol run (from the
end of loading to the implementation's exit) with cases per second, the CPU
time of the runner and of the implementation, and the best repetition.
Target: the whole suite in at most 2 s on a 2-core machine. Not a test:
nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import resource
import shlex
import sys
import time
from pathlib import Path


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def once(argv: list[str], directory: Path) -> dict:
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.results import counts
    from canastra_conformance.runner import Runner
    from canastra_conformance.suite import run_suite

    children, cpu = _children_cpu(), time.process_time()
    began = time.perf_counter()
    runner = Runner(argv)
    runner.spawn()
    cases = load_all(directory)
    loaded = time.perf_counter()
    result = run_suite(runner, cases, {"version": "bench", "digest": "", "fixtures": str(directory),
                                       "cases": len(cases)})
    ended = time.perf_counter()
    return {"cases": len(cases), "load": loaded - began, "run": ended - loaded, "total": ended - began,
            "runner_cpu": time.process_time() - cpu, "impl_cpu": _children_cpu() - children,
            "counts": counts(result.outcomes), "restarts": result.restarts}


def main(argv=None) -> int:
    from canastra_conformance.paths import FIXTURES_DIR
    from canastra_conformance.runner import reference_command

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--impl", help="the implementation's command (default: the reference, canastra serve)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fixtures", default=str(FIXTURES_DIR))
    args = parser.parse_args(argv)
    impl = shlex.split(args.impl) if args.impl else reference_command()
    print(f"implementation: {' '.join(impl)}; fixtures: {args.fixtures}; {os.cpu_count()} CPUs")
    runs = []
    for i in range(max(args.repeat, 1)):
        r = once(impl, Path(args.fixtures))
        c = r["counts"]
        print(f"run {i + 1}: {r['cases']} cases; loading {r['load']:.2f} s, protocol run {r['run']:.2f} s "
              f"= {r['cases'] / r['run']:.0f} cases/s, total {r['total']:.2f} s; CPU runner {r['runner_cpu']:.2f} s, "
              f"implementation {r['impl_cpu']:.2f} s; {c['passed']} passed, {c['failed']} failed, "
              f"{c['errored']} errored, {c['skipped']} skipped, {r['restarts']} restarts")
        runs.append(r)
    best = min(runs, key=lambda r: r["run"])
    load = os.getloadavg()[0]
    if load > (os.cpu_count() or 1) - 0.5:
        print(f"note: load average {load:.1f} on {os.cpu_count()} CPUs; other processes compete and inflate the times")
    print(f"best: {best['cases']} cases through the protocol in {best['run']:.2f} s = "
          f"{best['cases'] / best['run']:.0f} cases/s (total with loading {best['total']:.2f} s; target: at most 2 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
