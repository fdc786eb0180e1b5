"""A digest of every engine call of self-play, to show that two builds play alike.

    python -m canastra_tools.engine_digest [--hands N] [--seed S] [RULESET ...]

Prints one line per ruleset (default: every installed one): the number of
`apply` calls that N hands of random self-play from seed S made, the agents'
rejected trials included, and a SHA-256 over each call's action, verdict (its
trace included) and the state after it, as JSON. Two installs (the compiled
wheel and the .py source, .ci/wheel-check) or two checkouts that print the
same lines made the same calls with the same results on those games.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys

from canastra_ref.dsl.loader import available
from canastra_ref.engine import actions
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for


def digest(ruleset: str, hands: int, seed: int) -> tuple[int, str]:
    """(engine calls, hex digest) of `hands` hands of self-play of `ruleset` from `seed`."""
    original = actions.apply
    sha, calls = hashlib.sha256(), 0

    def recording(engine, state, action, *args, **kw):
        nonlocal calls
        new, verdict = original(engine, state, action, *args, **kw)
        calls += 1
        act = action.json if isinstance(action, actions.Action) else action
        sha.update(json.dumps([act, verdict.to_json(), new.to_json()], sort_keys=True, default=str).encode())
        return new, verdict

    # every module that called the engine through its own name for apply (the agent, legal_actions)
    callers = [module for name, module in list(sys.modules.items())
               if name.startswith("canastra_ref.") and getattr(module, "apply", None) is original]
    for module in callers:
        module.apply = recording
    try:
        for _ in self_play(engine_for(ruleset), seed, hands):
            pass
    finally:
        for module in callers:
            module.apply = original
    return calls, sha.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", help="rulesets (default: every installed one)")
    parser.add_argument("--hands", type=int, default=3, help="hands per ruleset (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    unknown = [r for r in args.rulesets if r not in available()]
    if unknown:
        parser.error(f"unknown ruleset(s): {', '.join(unknown)} (installed: {', '.join(available())})")
    for ruleset in args.rulesets or available():
        calls, hexdigest = digest(ruleset, args.hands, args.seed)
        print(f"{ruleset} {calls} calls {hexdigest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
