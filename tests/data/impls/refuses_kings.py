"""A defective implementation for the fuzzer's tests: the reference, except
that it refuses, when made by the player whose turn it is, every discard of
a King in the play phase (by default), or with the argument `layoff` every
lay-off of a King, or with `draw` every draw from the stock, or with
`opened-draw` every draw from the stock by a player whose team has opened
(the table stays as it was, the turn does not pass). Every other action is the
reference's, applied to its own state, so that the actions after a refused
one see the table it left."""
from __future__ import annotations

import sys

from _ref import serve

from canastra_ref import protocol
from canastra_ref.engine.actions import apply
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.rules import engine_for

REFUSED = sys.argv[1] if len(sys.argv) > 1 else "discard"


def refused(action: dict, state, engine) -> bool:
    if action["player"] != state.turn.player:
        return False
    if REFUSED == "opened-draw":
        team = next(t for t, seats in engine.table.teams.items() if action["player"] in seats)
        return action.get("draw") == "stock" and state.teams[team].opened
    if REFUSED == "layoff":
        return any(card[0] == "K" for card in action.get("layoff", {}).get("cards", []))
    if REFUSED == "draw":
        return action.get("draw") == "stock"
    card = action.get("discard")
    return bool(card) and card[0] == "K" and state.turn.phase == "play"


def hook(message):
    if message.get("cmd") == "start":
        answer = protocol.handle(message)
        answer["implementation"] = {"name": "refuses-kings", "version": "1", "language": "python"}
        return answer
    if message.get("cmd") != "run" or "actions" not in message:
        return None
    engine = engine_for(message["ruleset"], tuple(sorted(message.get("reading", {}).items())))
    state = load_state(engine, message["state"])
    results = []
    for action in message["actions"]:
        if refused(action, state, engine):
            results.append({"verdict": "rejected", "reason": "card.not-in-hand", "state": state.to_json()})
            continue
        state, verdict = apply(engine, state, action)
        results.append(protocol.action_result(engine, state, verdict))
    return {"id": message["id"], "results": results}


serve(hook)
