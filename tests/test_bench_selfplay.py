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


def baseline_tree(tmp_path, grammar: str | None = None) -> Path:
    """A baseline checkout made of this one's canastra_ref, its grammar (or `grammar`)
    and a spec directory of its own holding classica only."""
    base = tmp_path / "base"
    (base / "grammar").mkdir(parents=True)
    (base / "canastra_ref").symlink_to(ROOT / "canastra_ref")
    (base / "grammar" / "canastra.lark").write_text(grammar or (ROOT / "grammar" / "canastra.lark").read_text())
    (base / "spec").mkdir()
    (base / "spec" / "classica.canastra").write_text((ROOT / "spec" / "classica.canastra").read_text())
    return base


def test_a_baseline_is_measured_with_its_own_specs(tmp_path):
    # the baseline's spec directory has no treze: were this checkout's specs read, it would run
    done = run("--hands", "1", "--rounds", "1", "--baseline", str(baseline_tree(tmp_path)), "treze")
    assert done.returncode != 0
    assert "failed on treze" in done.stderr and "treze" in done.stderr.split("failed on treze", 1)[1]


def test_a_baseline_with_another_grammar_is_refused(tmp_path):
    done = run("--baseline", str(baseline_tree(tmp_path, grammar="start: NAME\n")), "treze")
    assert done.returncode == 2
    assert "grammar" in done.stderr and "not this install's" in done.stderr
