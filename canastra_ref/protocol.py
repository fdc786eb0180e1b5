"""The reference implementation's side of the conformance protocol
(conformance/PROTOCOL.md): one function per message, over plain JSON data.

`canastra serve` wraps `handle` in the newline-delimited JSON loop; the
in-process runner used by the tests calls `handle` with the very same
messages, so the reference gets no private path.
"""
from __future__ import annotations

from . import __version__
from .cards import RANKS, parse_card
from .dsl.loader import available
from .engine.actions import apply
from .engine.loading import load_state
from .engine.melding import classify
from .engine.rules import engine_for
from .engine.scoring import score_hand
from .errors import CanastraError, ErrorList, InputError

PROTOCOL_VERSION = 1

IMPLEMENTATION = {
    "name": "canastra-ref",
    "version": __version__,
    "language": "python",
    "homepage": "https://canastra-spec.invalid/",
    "documentation": "the reference interpreter of canastra-spec",
}


def handle(message, engine_factory=engine_for) -> dict | None:
    """The answer to one protocol message (None for stop). `engine_factory(ruleset,
    readings)` builds the engine; the mutation check passes one for mutated specs."""
    if not isinstance(message, dict) or not isinstance(message.get("cmd"), str):
        return {"errored": True, "message": "a message is an object with a 'cmd' string"}
    cmd = message["cmd"]
    if cmd == "start":
        return start(message)
    if cmd == "run":
        return run(message, engine_factory)
    if cmd == "stop":
        return None
    return {"errored": True, "message": f"unknown cmd {cmd!r}"}


def start(message: dict) -> dict:
    from .features import FEATURES
    version = message.get("protocol")
    if version != PROTOCOL_VERSION:
        return {"errored": True, "message": f"this implementation speaks protocol {PROTOCOL_VERSION}, "
                                           f"not {version!r}", "protocol": PROTOCOL_VERSION}
    return {"ready": True, "protocol": PROTOCOL_VERSION, "implementation": IMPLEMENTATION,
            "rulesets": available(), "features": sorted(FEATURES)}


def run(message: dict, engine_factory=engine_for) -> dict:
    case_id = message.get("id")
    try:
        readings = message.get("reading") or {}
        if not isinstance(readings, dict):
            raise InputError("reading is an object of dispute -> reading", json_path="$.reading")
        engine = engine_factory(str(message.get("ruleset")), tuple(sorted(readings.items())))
        if "query" in message:
            return {"id": case_id, "result": query(engine, message["query"])}
        state = load_state(engine, message.get("state"), root="$.state")
        actions = message.get("actions")
        if not isinstance(actions, list) or not actions:
            raise InputError("actions is a non-empty list", json_path="$.actions")
        results = []
        for i, action in enumerate(actions):
            state, verdict = apply(engine, state, action, path=f"$.actions[{i}]")
            result = {"verdict": verdict.verdict, "reason": verdict.reason, "cites": verdict.cites,
                      "state": state.to_json()}
            if verdict.message:
                result["message"] = verdict.message
            if state.ended is not None:
                result["score"] = {t: s.to_json() for t, s in score_hand(engine, state).items()}
            results.append(result)
        return {"id": case_id, "results": results}
    except (CanastraError, ErrorList) as exc:
        return {"id": case_id, "errored": True, "message": exc.render()}


# --------------------------------------------------------------------- queries

def query(engine, q) -> object:
    if not isinstance(q, dict) or len(q) != 1:
        raise InputError("a query is an object with exactly one key", json_path="$.query")
    (kind, arg), = q.items()
    if kind == "setup":
        return setup(engine)
    if kind == "points":
        return engine.card_points(parse_card(arg))
    if kind == "meld":
        return meld(engine, arg)
    if kind == "opening_minimum":
        return opening_minimum(engine, arg)
    if kind == "score":
        state = load_state(engine, arg, root="$.query.score")
        if state.ended is None:
            raise InputError("the score query needs a finished hand ('ended' set)", json_path="$.query.score")
        return {t: s.to_json() for t, s in score_hand(engine, state).items()}
    raise InputError(f"unknown query {kind!r}", json_path=f"$.query.{kind}",
                     expected="one of: setup, points, meld, opening_minimum, score")


def setup(engine) -> dict:
    v = engine.value
    return {"deck_size": engine.deck_size, "decks": engine.deck[0], "jokers": engine.deck[1],
            "players": v("table.players"), "team_size": v("table.team_size"),
            "teams": {t: list(s) for t, s in engine.table.teams.items()},
            "cards_dealt": v("deal.cards"), "draw": v("draw.cards"), "direction": v("play.direction"),
            "first_dealer": v("deal.first_dealer"), "next_dealer": v("deal.next_dealer"),
            "wild_cards": sorted({"JK" if c == "JK" else c[0] for c in engine.wild_set}),
            "target": v("game.target")}


def _neutral(engine):
    """A dealt-looking state where nothing has happened yet, for queries."""
    from .engine.completion import complete
    seats = engine.table.seats
    return load_state(engine, complete(engine.table, engine.deck,
                                       {"hands": {s: 0 for s in seats}, "turn": {"phase": "play"}}))


def meld(engine, cards) -> dict:
    from .engine.act import Act
    from .engine.verdict import Rejection
    cards = [parse_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
    state = _neutral(engine)
    act = Act(engine, state, state.turn.player)
    try:
        kind, laid = classify(act, cards, [("", cards)])
    except Rejection as rejection:
        return {"meld": None, "reason": rejection.reason, "canastra": None, "value": None}
    from .engine.state import Meld
    canastra = engine.canastra_kind(kind.name, laid)
    value = engine.canastra_value(Meld(kind.name, laid, canastra)).value if canastra else None
    return {"meld": kind.name, "reason": None, "cards": laid, "canastra": canastra, "value": value}


def opening_minimum(engine, arg) -> int:
    from .engine.act import Act
    from .engine.opening import minimum
    if not isinstance(arg, dict) or not isinstance(arg.get("score"), int):
        raise InputError("opening_minimum takes {score, failures}", json_path="$.query.opening_minimum")
    state = _neutral(engine)
    team = state.team_w(state.team_of(state.turn.player))
    team.score, team.opening_failures = arg["score"], int(arg.get("failures", 0))
    act = Act(engine, state, state.turn.player)
    return minimum(act, act.context(batch=[("", [RANKS[2] + "c"])]))
