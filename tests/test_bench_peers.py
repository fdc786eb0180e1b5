"""tools/bench_peers.py times canasta-openspiel in the interpreter that has
open_spiel (--openspiel-python) when this one has not, through
tools/bench_peer_worker.py; a peer it cannot run is skipped with the reason.
A stand-in checkout (a game of two-decision hands, with no open_spiel) makes
the worker's round trip testable anywhere; no figure is asserted."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "tools" / "bench_peers.py"

STAND_IN = '''
class _State:
    def __init__(self):
        self._hand_number, self.moves = 0, 0

    def is_terminal(self):
        return self.moves >= 2

    def is_chance_node(self):
        return False

    def legal_actions(self):
        return [0, 1]

    def apply_action(self, action):
        self.moves += 1


class CanastaGame:
    def new_initial_state(self):
        return _State()
'''


def bench(tmp_path: Path, game: str, python: str) -> str:
    (tmp_path / "canasta").mkdir()
    (tmp_path / "canasta" / "canasta_game.py").write_text(game)
    run = subprocess.run([sys.executable, str(BENCH), "--hands", "2", "--rounds", "1",
                          "--openspiel-checkout", str(tmp_path), "--openspiel-python", python],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_a_peer_in_another_interpreter_is_timed_by_its_worker(tmp_path):
    out = bench(tmp_path, STAND_IN, sys.executable)
    row = next(line for line in out.splitlines() if line.startswith("canasta-openspiel random play"))
    assert row.split()[-2:] == ["2.0", "1.00x"]          # two decisions a hand; the reference of the ratios
    assert "target engine alone >= 4x canasta-openspiel actions/s" in out


def test_a_peer_whose_worker_fails_is_skipped_with_its_error(tmp_path):
    out = bench(tmp_path, "raise ImportError('no open_spiel here')\n", sys.executable)
    assert f"skipped canasta-openspiel under {sys.executable}: its worker stopped (exit 1): " \
           "ImportError: no open_spiel here" in out
    assert "vs openspiel" in out and "canasta-openspiel random play" not in out


def test_a_peer_interpreter_that_does_not_exist_is_skipped(tmp_path):
    out = bench(tmp_path, STAND_IN, str(tmp_path / "no-such-python"))
    assert "it cannot be started (No such file or directory)" in out
