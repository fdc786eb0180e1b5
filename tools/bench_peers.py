#!/usr/bin/env python3
"""Benchmark: our random self-play and engine beside two peers, as ratios (figures only; no assertion).

    python tools/bench_peers.py [--hands N] [--rounds R] [--seed S] [--openspiel-checkout DIR] [RULESET ...]

Subjects, run interleaved (every subject once per round, R rounds) in this one
process, each timed in CPU time (time.process_time), so that the ratios hold on
a shared, loaded machine:

- ours, self-play: whole hands of each ruleset (default: classica) between the
  random agents (canastra_ref.engine.agent), which pick from the engine's
  legal actions;
- ours, engine alone: the same hands' actions applied again without agents;
- canasta-openspiel (github:jhtschultz/canasta-openspiel, classic canasta for
  OpenSpiel): uniform random play over its own `legal_actions()`
  (tools/bench_peer_worker.py); needs a checkout (--openspiel-checkout, or the
  CANASTRA_OPENSPIEL_CHECKOUT variable the adapter reads) and the `open_spiel`
  package, in this interpreter or in the one CANASTRA_OPENSPIEL_PYTHON names
  (--openspiel-python), where it then runs in a process of its own and is
  timed there, round by round like the others;
- RLCard's gin-rummy (`pip install rlcard`): uniform random play over the
  environment's legal actions.
A peer that is not installed is skipped with a message saying how to get it.
The first line says which build of our engine ran (canastra_ref.compiled): the
compiled one of an installed wheel, or its .py files.

A decision is one player action chosen from the legal set: deals and chance
outcomes are not counted (their time is). In canasta-openspiel a draw, a meld,
an addition to a meld, "skip meld", a discard, asking and answering are each a
decision; in ours a draw or a take of the pile (with its meld), one meld
action, one layoff, a discard, a red three exchanged, asking and answering.
canasta-openspiel's replay is not a fair "engine alone" (its legal_actions()
ends hands as a side effect), so its random play is the figure both of ours are
set against. Targets (issue 16): classica self-play >= 2x canasta-openspiel's
decisions/s; our engine alone >= 4x its actions/s.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_peer_worker import NAME as OPENSPIEL
from bench_peer_worker import OpenSpielRandom

from canastra_ref.compiled import build
from canastra_ref.engine.actions import apply
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for

WORKER = Path(__file__).resolve().parent / "bench_peer_worker.py"


class Subject:
    """One thing to time: run(hands) -> (hands played, decisions); cpu time is measured around it."""
    name = ""

    def run(self, hands: int) -> tuple[int, int]:
        raise NotImplementedError

    def timed(self, hands: int) -> tuple[int, int, float]:
        """(hands played, decisions, CPU seconds they took)."""
        start = time.process_time()
        played, decisions = self.run(hands)
        return played, decisions, time.process_time() - start

    def close(self) -> None:
        pass


class OurSelfPlay(Subject):
    def __init__(self, ruleset: str, seed: int):
        self.name, self.engine, self.seed = f"ours {ruleset} self-play", engine_for(ruleset), seed

    def run(self, hands: int) -> tuple[int, int]:
        played = decisions = 0
        while played < hands:
            for record in self_play(self.engine, self.seed + played, hands - played):
                if isinstance(record, dict):
                    break
                played += 1
                decisions += record.actions - 1          # the deal is chance, not a decision
            self.seed += 1
        return played, decisions


class OurReplay(Subject):
    """The engine alone: recorded hands (state before the deal, actions) applied again."""

    def __init__(self, ruleset: str, seed: int, hands: int):
        self.name, self.engine = f"ours {ruleset} engine alone", engine_for(ruleset)
        self.hands: list[tuple[object, list]] = []

        def observe(before, action, after, verdict):
            if action.verb == "deal":
                self.hands.append((before, []))
            self.hands[-1][1].append(action)

        played = 0
        while played < hands:
            for record in self_play(self.engine, seed + played, hands - played, observe):
                if isinstance(record, dict):
                    break
                played += 1
            seed += 1

    def run(self, hands: int) -> tuple[int, int]:
        decisions = 0
        for state, actions in self.hands[:hands]:
            for action in actions:
                state, _ = apply(self.engine, state, action)
            decisions += len(actions) - 1
        return min(hands, len(self.hands)), decisions


class OpenSpielHere(Subject):
    """canasta-openspiel's random play in this process."""
    name = OPENSPIEL

    def __init__(self, checkout: Path, seed: int):
        self.play = OpenSpielRandom(checkout, seed)

    def run(self, hands: int) -> tuple[int, int]:
        return self.play.run(hands)


class OpenSpielProcess(Subject):
    """canasta-openspiel's random play in the interpreter that has open_spiel
    (bench_peer_worker.py, which reports its own CPU time)."""
    name = OPENSPIEL

    def __init__(self, python: str, checkout: Path, seed: int):
        self.errors = tempfile.TemporaryFile(mode="w+")
        try:
            self.child = subprocess.Popen([python, str(WORKER), str(checkout), str(seed)], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=self.errors, text=True)
        except OSError as err:
            self.errors.close()
            raise PeerError(f"it cannot be started ({err.strerror})") from None

    def timed(self, hands: int) -> tuple[int, int, float]:
        self.child.stdin.write(f"{hands}\n")
        self.child.stdin.flush()
        line = self.child.stdout.readline()
        if not line:
            self.child.wait()
            self.errors.seek(0)
            last = (self.errors.read().strip().splitlines() or ["no message"])[-1]
            raise PeerError(f"its worker stopped (exit {self.child.returncode}): {last}")
        played, decisions, cpu = line.split()
        return int(played), int(decisions), float(cpu)

    def close(self) -> None:
        self.child.stdin.close()
        self.child.wait()
        self.errors.close()


class PeerError(Exception):
    """A peer that could not be run."""


class RLCardGinRummy(Subject):
    name = "rlcard gin-rummy random play"

    def __init__(self, seed: int):
        import rlcard
        self.env, self.rng = rlcard.make("gin-rummy", config={"seed": seed}), random.Random(seed)

    def run(self, hands: int) -> tuple[int, int]:
        decisions = 0
        for _ in range(hands):
            state, _ = self.env.reset()
            while not self.env.is_over():
                state, _ = self.env.step(self.rng.choice(list(state["legal_actions"])))
                decisions += 1
        return hands, decisions


def peers(args) -> tuple[list[Subject], list[str]]:
    found, skipped = [], []
    checkout = args.openspiel_checkout or os.environ.get("CANASTRA_OPENSPIEL_CHECKOUT")
    python = args.openspiel_python or os.environ.get("CANASTRA_OPENSPIEL_PYTHON")
    try:
        import pyspiel  # noqa: F401
        here = True
    except ImportError:
        here = False
    if not checkout or not (Path(checkout) / "canasta" / "canasta_game.py").is_file():
        skipped.append("canasta-openspiel: no checkout (clone github.com/jhtschultz/canasta-openspiel and "
                       "pass --openspiel-checkout DIR or set CANASTRA_OPENSPIEL_CHECKOUT)")
    elif here:
        try:
            found.append(OpenSpielHere(Path(checkout), args.seed))
        except Exception as err:             # the peer's own code, whatever it raises
            skipped.append(f"canasta-openspiel: {checkout} cannot be loaded ({type(err).__name__}: {err})")
    elif python:
        try:
            peer = OpenSpielProcess(python, Path(checkout), args.seed)
            peer.timed(0)                    # it starts and imports open_spiel, or says why not
            found.append(peer)
        except PeerError as err:
            skipped.append(f"canasta-openspiel under {python}: {err}")
    else:
        skipped.append("canasta-openspiel: the open_spiel package is not installed here (pip install open-spiel), "
                       "and no interpreter that has it is named (--openspiel-python or CANASTRA_OPENSPIEL_PYTHON)")
    try:
        found.append(RLCardGinRummy(args.seed))
    except ImportError:
        skipped.append("rlcard gin-rummy: the rlcard package is not installed (pip install rlcard)")
    return found, skipped


def measure(subjects: list[Subject], hands: int, rounds: int) -> dict[str, dict]:
    rates: dict[str, list[tuple[float, float, int, int]]] = {s.name: [] for s in subjects}
    for _ in range(rounds):
        for subject in subjects:
            played, decisions, cpu = subject.timed(hands)
            rates[subject.name].append((played / cpu, decisions / cpu, played, decisions))
    out = {}
    for name, rows in rates.items():
        out[name] = {"hands_per_s": statistics.median(r[0] for r in rows),
                     "decisions_per_s": statistics.median(r[1] for r in rows),
                     "decisions_per_hand": sum(r[3] for r in rows) / max(1, sum(r[2] for r in rows))}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=["classica"], help="our rulesets to time (default: classica)")
    parser.add_argument("--hands", type=int, default=30, help="hands per subject per round (default 30)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are printed (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--openspiel-checkout", help="a checkout of jhtschultz/canasta-openspiel")
    parser.add_argument("--openspiel-python", help="an interpreter that has the open_spiel package, where this "
                        "one does not (default: CANASTRA_OPENSPIEL_PYTHON)")
    args = parser.parse_args()
    subjects: list[Subject] = []
    for ruleset in args.rulesets:
        subjects += [OurSelfPlay(ruleset, args.seed), OurReplay(ruleset, args.seed, args.hands)]
    found, skipped = peers(args)
    subjects += found
    for message in skipped:
        print(f"skipped {message}")
    try:
        figures = measure(subjects, args.hands, args.rounds)
    except PeerError as err:
        print(f"canasta-openspiel: {err}", file=sys.stderr)
        return 1
    finally:
        for subject in subjects:
            subject.close()
    reference = figures.get(OPENSPIEL)
    print(f"CPU time, medians of {args.rounds} interleaved rounds of {args.hands} hands each; "
          f"our engine: {build()}")
    print(f"{'subject':<34}{'hands/s':>9}{'decisions/s':>13}{'per hand':>10}{'vs openspiel':>14}")
    for name, f in figures.items():
        ratio = f"{f['decisions_per_s'] / reference['decisions_per_s']:.2f}x" if reference else "-"
        print(f"{name:<34}{f['hands_per_s']:>9.1f}{f['decisions_per_s']:>13.0f}{f['decisions_per_hand']:>10.1f}"
              f"{ratio:>14}")
    if reference and "classica" in args.rulesets:
        play = figures["ours classica self-play"]["decisions_per_s"] / reference["decisions_per_s"]
        alone = figures["ours classica engine alone"]["decisions_per_s"] / reference["decisions_per_s"]
        print(f"target classica self-play >= 2x canasta-openspiel decisions/s: {play:.2f}x "
              f"({'met' if play >= 2 else 'not met'})")
        print(f"target engine alone >= 4x canasta-openspiel actions/s: {alone:.2f}x "
              f"({'met' if alone >= 4 else 'not met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
