"""The reference implementation's side of the conformance protocol
(conformance/PROTOCOL.md): one function per message, over plain JSON data.

`canastra serve` wraps `handle` in the newline-delimited JSON loop; the
in-process runner used by the tests calls `handle` with the very same
messages, so the reference gets no private path.
"""
from __future__ import annotations

from . import __version__
from .cards import RANKS, card_at, cards_at
from .display import shown
from .dsl.loader import available
from .engine.actions import apply
from .engine.loading import load_state
from .engine.melding import classify
from .engine.rules import engine_for
from .engine.scoring import game_over, score_hand
from .errors import CanastraError, ErrorList, InputError
from .limits import MAX_ACTIONS, MAX_INT, MAX_NAME

PROTOCOL_VERSION = 1

IMPLEMENTATION = {
    "name": "canastra-ref",
    "version": __version__,
    "language": "python",
    "homepage": "https://canastra-spec.invalid/",
    "documentation": "the reference interpreter of canastra-spec",
}


def handle(message, engine_factory=engine_for, state_loader=load_state) -> dict | None:
    """The answer to one protocol message (None for stop). `engine_factory(ruleset,
    readings)` builds the engine and `state_loader(engine, data, root)` reads the
    state; the mutation check passes its own, for mutated specs and for states it
    has already read."""
    if not isinstance(message, dict) or not isinstance(message.get("cmd"), str):
        return {"errored": True, "message": "a message is an object with a 'cmd' string"}
    cmd = message["cmd"]
    if cmd == "start":
        return start(message)
    if cmd == "run":
        return run(message, engine_factory, state_loader)
    if cmd == "stop":
        return None
    return {"errored": True, "message": f"unknown cmd {shown(cmd)}", "expected": "start, run or stop"}


def start(message: dict) -> dict:
    from .features import FEATURES
    version = message.get("protocol")
    if version != PROTOCOL_VERSION:
        return {"errored": True, "message": f"this implementation speaks protocol {PROTOCOL_VERSION}, "
                                           f"not {shown(version)}", "protocol": PROTOCOL_VERSION}
    return {"ready": True, "protocol": PROTOCOL_VERSION, "implementation": IMPLEMENTATION,
            "rulesets": available(), "features": sorted(FEATURES)}


def run(message: dict, engine_factory=engine_for, state_loader=load_state) -> dict:
    case_id = message.get("id")
    if not isinstance(case_id, str) or not 0 < len(case_id) <= MAX_NAME:
        return {"errored": True, "message": InputError(
            "the case id is missing" if case_id is None else f"the case id {shown(case_id)} is not a name",
            json_path="$.id", expected=f"a string of 1 to {MAX_NAME} characters").render()}
    try:
        ruleset, readings = _ruleset(message)
        try:
            engine = engine_factory(ruleset, readings)
        except InputError as exc:          # an unknown ruleset, dispute or reading: say where it was
            if exc.json_path is not None:
                raise
            where = "$.ruleset" if ruleset not in available() else "$.reading"
            raise InputError(exc.message, json_path=where, expected=exc.expected) from None
        if "query" in message:
            if "state" in message or "actions" in message:
                raise InputError("a run message has either state and actions, or a query", json_path="$",
                                 expected="state and actions, or query alone")
            return {"id": case_id, "result": query(engine, message["query"])}
        state = state_loader(engine, message.get("state"), root="$.state")
        actions = message.get("actions")
        if not isinstance(actions, list) or not 0 < len(actions) <= MAX_ACTIONS:
            raise InputError("actions is a list of actions", json_path="$.actions",
                             expected=f"a list of 1 to {MAX_ACTIONS:,} actions")
        results = []
        for i, action in enumerate(actions):
            state, verdict = apply(engine, state, action, path=f"$.actions[{i}]")
            results.append(action_result(engine, state, verdict))
        return {"id": case_id, "results": results}
    except (CanastraError, ErrorList) as exc:
        return {"id": case_id, "errored": True, "message": exc.render()}


def action_result(engine, state, verdict) -> dict:
    """The result of one action in a run answer: its verdict, the state after
    it, and the hand's score once the hand is over."""
    result = {"verdict": verdict.verdict, "reason": verdict.reason, "cites": verdict.cites,
              "state": state.to_json()}
    if verdict.message:
        result["message"] = verdict.message
    if state.ended is not None:
        result["score"] = {t: s.to_json() for t, s in score_hand(engine, state).items()}
    return result


def _ruleset(message: dict) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The ruleset id and the readings of a run message, checked as strings
    of bounded length (they name files and cache entries)."""
    ruleset = message.get("ruleset")
    if not isinstance(ruleset, str) or not 0 < len(ruleset) <= MAX_NAME:
        raise InputError("the ruleset is missing" if ruleset is None else f"unknown ruleset {shown(ruleset)}",
                         json_path="$.ruleset", expected=f"a ruleset id: one of {', '.join(available())}")
    readings = message.get("reading", {})
    if not isinstance(readings, dict):
        raise InputError("reading is an object of dispute -> reading", json_path="$.reading",
                         expected='an object such as {"aces-suit": "same-suit"}, or {}')
    for dispute, reading in readings.items():
        if len(dispute) > MAX_NAME or not isinstance(reading, str) or len(reading) > MAX_NAME:
            raise InputError(f"not a reading: {shown(reading)}", json_path=f"$.reading.{dispute[:40]}",
                             expected=f"the name of a reading (at most {MAX_NAME} characters)")
    return ruleset, tuple(sorted(readings.items()))


# --------------------------------------------------------------------- queries

QUERIES = ("setup", "points", "meld", "opening_minimum", "score", "game_end")


def query(engine, q) -> object:
    if not isinstance(q, dict) or len(q) != 1:
        raise InputError("a query is an object with exactly one key", json_path="$.query",
                         expected="one of: " + ", ".join(QUERIES))
    (kind, arg), = q.items()
    where = f"$.query.{kind[:40]}"
    if kind == "setup":
        if arg is not True:
            raise InputError("the setup query takes true", json_path=where, expected="true")
        return setup(engine)
    if kind == "points":
        return engine.card_points(card_at(arg, where))
    if kind == "meld":
        return meld(engine, cards_at(arg, where), where)
    if kind == "opening_minimum":
        return opening_minimum(engine, arg, where)
    if kind == "score":
        state = load_state(engine, arg, root=where)
        if state.ended is None:
            raise InputError("the score query needs a finished hand ('ended' set)", json_path=where)
        return {t: s.to_json() for t, s in score_hand(engine, state).items()}
    if kind == "game_end":
        return game_end(engine, arg, where)
    raise InputError(f"unknown query {shown(kind, 40)}", json_path=where, expected="one of: " + ", ".join(QUERIES))


def game_end(engine, scores, where: str) -> dict:
    """Whether the game is over when a hand ends with these scores, and who won."""
    teams = list(engine.table.teams)
    if not isinstance(scores, dict) or sorted(scores) != sorted(teams) or \
            not all(_integer(v) for v in scores.values()):
        raise InputError("game_end takes the score of every team at the end of a hand", json_path=where,
                         expected="{" + ", ".join(f'"{t}": <integer>' for t in teams) + "}")
    over, winners = game_over(engine, scores)
    return {"over": over, "winners": winners}


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


def meld(engine, cards: list[str], where: str = "$.query.meld") -> dict:
    from .engine.act import Act
    from .engine.verdict import Rejection
    if len(cards) > engine.deck_size:
        raise InputError(f"{len(cards)} cards, more than the deck holds", json_path=where,
                         expected=f"at most {engine.deck_size} cards")
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


def opening_minimum(engine, arg, where: str = "$.query.opening_minimum") -> int:
    from .engine.act import Act
    from .engine.opening import minimum
    form = '{"score": <integer>, "failures": <count>}'
    if not isinstance(arg, dict):
        raise InputError("opening_minimum takes an object", json_path=where, expected=form)
    for key in arg:
        if key not in ("score", "failures"):
            raise InputError(f"unknown field {shown(key, 40)}", json_path=f"{where}.{key[:40]}", expected=form)
    score, failures = arg.get("score"), arg.get("failures", 0)
    if not _integer(score):
        raise InputError("the team's score is an integer", json_path=f"{where}.score",
                         expected=f"an integer between -{MAX_INT:,} and {MAX_INT:,}")
    if not _integer(failures) or failures < 0:
        raise InputError("failures is the number of failed openings", json_path=f"{where}.failures",
                         expected=f"an integer between 0 and {MAX_INT:,}")
    state = _neutral(engine)
    team = state.team_w(state.team_of(state.turn.player))
    team.score, team.opening_failures = score, failures
    act = Act(engine, state, state.turn.player)
    return minimum(act, act.context(batch=[("", [RANKS[2] + "c"])]))


def _integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_INT
