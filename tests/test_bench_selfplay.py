"""tools/bench_selfplay.py --baseline measures another checkout beside this
one, in the same rounds, and prints this checkout's figures as ratios to it;
a directory that is no checkout is refused with the reason. No figure is
asserted: the baseline here is this checkout itself."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "tools" / "bench_selfplay.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, cwd=ROOT)


def test_a_baseline_is_measured_beside_and_given_as_ratios():
    done = run("--hands", "1", "--rounds", "1", "--baseline", str(ROOT), "treze")
    assert done.returncode == 0, done.stderr
    table = done.stdout.split("against the baseline", 1)[1].splitlines()
    assert table[1].split()[:2] == ["ruleset", "base"]
    row = table[2].split()
    assert row[0] == "treze" and row[2].endswith("x") and row[3].endswith("x") and row[4].endswith("x")


def test_a_baseline_that_is_no_checkout_is_refused(tmp_path):
    done = run("--baseline", str(tmp_path), "treze")
    assert done.returncode == 2
    assert "no canastra_ref there" in done.stderr and str(tmp_path) in done.stderr
