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
  OpenSpiel): uniform random play over its own `legal_actions()`; needs the
  `open_spiel` package and a checkout (--openspiel-checkout, or the
  CANASTRA_OPENSPIEL_CHECKOUT variable the adapter reads);
- RLCard's gin-rummy (`pip install rlcard`): uniform random play over the
  environment's legal actions.
A peer that is not installed is skipped with a message saying how to get it.

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
import sys
import time
from pathlib import Path

from canastra_ref.engine.actions import apply
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for


class Subject:
    """One thing to time: run(hands) -> (hands played, decisions); cpu time is measured around it."""
    name = ""

    def run(self, hands: int) -> tuple[int, int]:
        raise NotImplementedError


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


class OpenSpielRandom(Subject):
    name = "canasta-openspiel random play"

    def __init__(self, checkout: Path, seed: int):
        sys.path.insert(0, str(checkout))
        from canasta.canasta_game import CanastaGame  # noqa: E402 (a peer's package, found at run time)
        self.game, self.rng = CanastaGame(), random.Random(seed)

    def run(self, hands: int) -> tuple[int, int]:
        played = decisions = 0
        rng = self.rng
        while played < hands:
            state = self.game.new_initial_state()
            number = state._hand_number
            while not state.is_terminal() and played < hands:
                if state.is_chance_node():
                    state.apply_action(rng.randrange(len(state.chance_outcomes())))
                    continue
                legal = state.legal_actions()     # may end the hand itself (an exhausted stock)
                if legal:
                    state.apply_action(rng.choice(legal))
                    decisions += 1
                if state._hand_number != number:
                    played, number = played + 1, state._hand_number
            if state.is_terminal():
                played += 1
        return played, decisions


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
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        skipped.append("canasta-openspiel: the open_spiel package is not installed (pip install open-spiel)")
    else:
        if not checkout or not (Path(checkout) / "canasta" / "canasta_game.py").is_file():
            skipped.append("canasta-openspiel: no checkout (clone github.com/jhtschultz/canasta-openspiel and "
                           "pass --openspiel-checkout DIR or set CANASTRA_OPENSPIEL_CHECKOUT)")
        else:
            found.append(OpenSpielRandom(Path(checkout), args.seed))
    try:
        found.append(RLCardGinRummy(args.seed))
    except ImportError:
        skipped.append("rlcard gin-rummy: the rlcard package is not installed (pip install rlcard)")
    return found, skipped


def measure(subjects: list[Subject], hands: int, rounds: int) -> dict[str, dict]:
    rates: dict[str, list[tuple[float, float, int, int]]] = {s.name: [] for s in subjects}
    for _ in range(rounds):
        for subject in subjects:
            start = time.process_time()
            played, decisions = subject.run(hands)
            cpu = time.process_time() - start
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
    args = parser.parse_args()
    subjects: list[Subject] = []
    for ruleset in args.rulesets:
        subjects += [OurSelfPlay(ruleset, args.seed), OurReplay(ruleset, args.seed, args.hands)]
    found, skipped = peers(args)
    subjects += found
    for message in skipped:
        print(f"skipped {message}")
    figures = measure(subjects, args.hands, args.rounds)
    reference = figures.get(OpenSpielRandom.name)
    print(f"CPU time, medians of {args.rounds} interleaved rounds of {args.hands} hands each")
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
