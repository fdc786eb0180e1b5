#!/usr/bin/env python3
"""canasta-openspiel's uniform random play, timed for tools/bench_peers.py.

bench_peers runs it in its own process when the `open_spiel` package is
importable there; otherwise it starts this file under the interpreter that
has it (CANASTRA_OPENSPIEL_PYTHON), which imports nothing of canastra-spec:

    CANASTRA_OPENSPIEL_PYTHON tools/bench_peer_worker.py CHECKOUT SEED

Each line read on stdin is a number of hands; the answer, one line, is the
hands played, the decisions made and the CPU time (time.process_time) they
took in this process. An empty line or the end of input stops it.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

NAME = "canasta-openspiel random play"


class OpenSpielRandom:
    """Uniform random play over the game's own `legal_actions()`."""

    def __init__(self, checkout: Path, seed: int):
        sys.path.insert(0, str(checkout))
        from canasta.canasta_game import CanastaGame  # noqa: E402 (a peer's package, found at run time)
        self.game, self.rng = CanastaGame(), random.Random(seed)

    def run(self, hands: int) -> tuple[int, int]:
        """(hands played, decisions): chance outcomes are not decisions."""
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


def main() -> int:
    checkout, seed = Path(sys.argv[1]), int(sys.argv[2])
    subject = OpenSpielRandom(checkout, seed)
    for line in sys.stdin:
        if not line.strip():
            break
        start = time.process_time()
        played, decisions = subject.run(int(line))
        print(played, decisions, time.process_time() - start, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
