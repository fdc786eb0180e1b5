"""Running a fixture-shaped situation under one engine, and what came of it.

A situation is what a fixture case holds without its expectations: a partial
`state` and `actions`, or a `query`. It is completed for the engine's own
table and deck by the documented rule (canastra_ref.engine.completion), so
the same situation can be put to any ruleset whose table it fits.

`run(engine, situation)` returns an Outcome: per action the verdict, reason,
citations and the settings consulted (the engine's trace); the score of the
hand when it ended; a digest of the resulting table; or the query result.
`Outcome.behaviour()` is what two rulesets are compared on (citations apart:
two rulebooks never share article ids).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from canastra_ref import protocol
from canastra_ref.engine.actions import apply
from canastra_ref.engine.completion import complete
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.scoring import score_hand
from canastra_ref.errors import CanastraError, ErrorList, InputError, RuleError


@dataclass
class Step:
    verdict: str
    reason: str
    cites: list[str]
    message: str = ""
    consulted: dict = field(default_factory=dict)      # setting -> value (last decision)

    def to_json(self) -> dict:
        out = {"verdict": self.verdict, "reason": self.reason, "cites": list(self.cites)}
        if self.message:
            out["message"] = self.message
        return out


@dataclass
class Outcome:
    kind: str                            # "query" | "actions"
    fits: bool = True                    # the situation fits this table and deck
    error: str = ""                      # why it does not fit, or the run-time rule error
    result: object = None                # the query result
    steps: list[Step] = field(default_factory=list)
    score: dict | None = None            # team -> {"total", "terms": {name: value}, "cites"}
    table: dict | None = None            # digest of the resulting state
    state: object = None                 # the resulting State (actions)
    start: object = None                 # the completed starting State (actions)

    def components(self) -> dict:
        """What rulings are compared on, part by part: each action's verdict and
        reason, the score, each part of the table afterwards, or the query
        result; never citations."""
        if not self.fits:
            return {"fits": False}
        if self.error:
            return {"error": self.error}
        if self.kind == "query" and self.score is None:
            return {"result": _freeze(self.result)}
        out = {f"action {i + 1}": (s.verdict, s.reason) for i, s in enumerate(self.steps)}
        for team, s in (self.score or {}).items():
            for term, value in s["terms"].items():
                if value:
                    out[f"score {team} {term}"] = value
            out[f"score {team} rounding"] = s["total"] - sum(s["terms"].values())
        for key, value in (self.table or {}).items():
            out["table " + key] = _freeze(value)
        return out

    def behaviour(self):
        return _freeze(self.components())

    def consulted(self) -> dict:
        out: dict = {}
        for step in self.steps:
            out.update(step.consulted)
        return out

    def to_json(self) -> dict:
        if not self.fits:
            return {"fits": False, "error": self.error}
        if self.error:
            return {"fits": True, "error": self.error}
        if self.kind == "query":
            return {"result": self.result}
        out = {"results": [s.to_json() for s in self.steps]}
        if self.score is not None:
            out["score"] = self.score
        return out


def _freeze(value):
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def resolve(table, situation: dict) -> dict:
    """The situation with seat placeholders replaced for this table: `@next`
    is the seat after N in the order of play (an opponent of N at every
    table), and a team key written as a seat (`@N`, `@next`) is that seat's
    team. So one situation fits tables of different sizes."""
    import copy
    out = copy.deepcopy(situation)

    def seat(token: str, where: str) -> str:
        name = token[1:] if token.startswith("@") else token
        if name == "next":
            name = table.next("N") if "N" in table.seats else table.order[1]
        if name not in table.seats:
            raise InputError(f"no seat {name} at this table", json_path=where)
        return name

    states = [out.get("state")]
    if isinstance(out.get("query"), dict) and isinstance(out["query"].get("score"), dict):
        states.append(out["query"]["score"])
    for state in states:
        if not isinstance(state, dict):
            continue
        for key in ("hands", "players"):
            if isinstance(state.get(key), dict):
                state[key] = {seat(k, f"$.state.{key}.{k}") if k.startswith("@") else k: v
                              for k, v in state[key].items()}
        if isinstance(state.get("teams"), dict):
            state["teams"] = {table.team_of[seat(k, f"$.state.teams.{k}")] if k.startswith("@") else k: v
                              for k, v in state["teams"].items()}
        ended = state.get("ended")
        if isinstance(ended, dict) and isinstance(ended.get("player"), str) and ended["player"].startswith("@"):
            ended["player"] = seat(ended["player"], "$.state.ended.player")
    for action in out.get("actions") or []:
        if isinstance(action, dict) and isinstance(action.get("player"), str) and action["player"].startswith("@"):
            action["player"] = seat(action["player"], "$.actions.player")
    return out


def completed(engine, partial: dict, root: str = "$.state") -> dict:
    return complete(engine.table, engine.deck, partial, root=root)


def run(engine, situation: dict) -> Outcome:
    try:
        situation = resolve(engine.table, situation)
    except CanastraError as exc:
        return Outcome("query" if "query" in situation else "actions", fits=False, error=_message(exc))
    if "query" in situation:
        return _query(engine, situation["query"])
    outcome = Outcome("actions")
    try:
        state = load_state(engine, completed(engine, situation.get("state") or {}), root="$.state")
    except (CanastraError, ErrorList) as exc:
        return Outcome("actions", fits=False, error=_message(exc))
    outcome.start = state
    for i, action in enumerate(situation.get("actions") or []):
        try:
            state, verdict = apply(engine, state, action, path=f"$.actions[{i}]")
        except RuleError as exc:
            outcome.error = _message(exc)
            break
        except CanastraError as exc:
            return Outcome("actions", fits=False, error=_message(exc))
        consulted = {d.setting: _plain(d.value) for d, _ in verdict.trace}
        outcome.steps.append(Step(verdict.verdict, verdict.reason, list(verdict.cites), verdict.message, consulted))
    outcome.state = state
    outcome.table = digest(state)
    if state.ended is not None and not outcome.error:
        try:
            outcome.score = {t: {"total": s.total, "terms": {n: v["value"] for n, v in s.terms.items()},
                                 "cites": sorted({c for v in s.terms.values() for c in v["cites"]}
                                                 | set(s.counts_cites) | set(s.rounding_cites))}
                             for t, s in score_hand(engine, state).items()}
        except RuleError as exc:
            outcome.error = _message(exc)
    return outcome


def _query(engine, q: dict) -> Outcome:
    q = dict(q)
    try:
        if "score" in q:
            q["score"] = completed(engine, q["score"], root="$.query.score")
        result = protocol.query(engine, q)
        outcome = Outcome("query", result=result)
        if "score" in q:            # a score breakdown: compared term by term, citations apart
            outcome.score = {t: {"total": s["total"], "terms": {n: v["value"] for n, v in s["terms"].items()},
                                 "cites": sorted({c for v in s["terms"].values() for c in v["cites"]}
                                                 | set(s.get("counts_cites", [])) | set(s.get("rounding_cites", [])))}
                             for t, s in result.items()}
        return outcome
    except RuleError as exc:
        return Outcome("query", error=_message(exc))
    except (CanastraError, ErrorList) as exc:
        return Outcome("query", fits=False, error=_message(exc))


def digest(state) -> dict:
    """The parts of a table that a ruling changes, in a comparable form."""
    return {
        "hands": {s: len(p.hand) for s, p in state.players.items()},
        "teams": {t: {"opened": v.opened, "melds": sorted(" ".join(sorted(m.cards)) for m in v.melds),
                      "red_threes": len(v.red_threes), "failures": v.opening_failures + v.carried_failures}
                  for t, v in state.teams.items()},
        "pile": len(state.pile), "stock": len(state.stock),
        "turn": [state.turn.player, state.turn.phase],
        "ended": (state.ended or {}).get("reason"),
    }


def _plain(value):
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return str(value)


def _message(exc) -> str:
    if isinstance(exc, ErrorList):
        return "; ".join(e.message for e in exc.errors)
    text = exc.message
    if exc.json_path:
        text = f"{exc.json_path}: {text}"
    return text
