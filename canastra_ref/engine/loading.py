"""A State from its JSON form, checked against an engine's ruleset: the
table, the deck, and each table meld against the meld and canastra kinds."""
from __future__ import annotations

from itertools import product

from ..display import shown
from ..errors import InputError
from .context import ActionContext
from .melds import MeldError, fit_new
from .rules import Engine
from .state import Meld, State, state_from_json


def load_state(engine: Engine, data, root: str = "$") -> State:
    """A State from its JSON form, validated against the engine's table and
    deck; table melds are checked against the meld kinds (a meld given as
    cards alone gets the first kind it fits)."""
    state = state_from_json(data, engine.table, engine.deck, root=root)
    for team, team_state in state.teams.items():
        for i, meld in enumerate(team_state.melds):
            path = f"{root}.teams.{team}.melds[{i}]"
            kind, cards = _table_meld(engine, state, team, meld.kind, meld.cards, path)
            team_state.melds[i] = Meld(kind, cards, _canastra(engine, kind, cards, meld.canastra, path))
    return state


def _canastra(engine: Engine, kind: str, cards: list[str], stated: str | None, path: str) -> str | None:
    """The canastra kind of a meld on the table. A kind may depend on the
    meld's history (meld.previous_kind, the kind before its last cards came),
    which a state does not record: a stated kind stands when the cards make it
    after some kind before (none, or any canastra kind); without one, the
    kind is that of the cards laid at once."""
    laid_at_once = engine.canastra_kind(kind, cards)
    if stated is None or stated == laid_at_once:
        return laid_at_once
    if any(engine.canastra_kind(kind, cards, before) == stated for before in engine.canastra_kinds):
        return stated
    raise InputError(f"this meld is a {laid_at_once or 'meld that is no canastra'}, not a {shown(stated)}",
                     json_path=f"{path}.canastra",
                     expected="the canastra kind its cards make (after any kind before), or null")


def _table_meld(engine: Engine, state, team: str, kind: str, cards: list[str], path: str) -> tuple[str, list[str]]:
    """The kind and laid-out cards of a meld stated as on the table, or InputError.
    A sequence keeps the order given when it is a valid layout."""
    kinds = engine.meld_kinds if not kind else [k for k in engine.meld_kinds if k.name == kind]
    if not kinds:
        raise InputError(f"unknown meld kind {shown(kind)}", json_path=f"{path}.kind",
                         expected="one of: " + ", ".join(k.name for k in engine.meld_kinds))
    problem = None
    for candidate in kinds:
        for ranks in _ranks_it_may_have_been_laid_with(engine, state, team, candidate.name):
            try:
                laid = fit_new(engine, candidate, list(cards), ranks)
            except MeldError as err:
                problem = problem or err
                continue
            return candidate.name, laid
    raise InputError(f"not a meld of this ruleset: {problem.message}", json_path=path,
                     expected=f"cards forming a {' or '.join(k.name for k in kinds)}")


# How a meld was laid, as the flags of the action that laid it (facts turn.<flag>).
LAYING = ("going_out", "discarding", "last_card", "taking_pile")


def _ranks_it_may_have_been_laid_with(engine: Engine, state: State, team: str, kind: str) -> list:
    """The ranks a meld of `kind` now on the table may have been laid with. They
    may depend on how it was laid (by which player of the team; with the pile's
    top card as the pile was taken, going out, ...), which a state does not
    record: each way counts; other facts are read from the state as it is."""
    path = f"meld.{kind}.ranks"
    rules = engine.ruleset.settings.get(path)
    read = {fact for clause in (rules.clauses if rules else ())
            for compiled in (*clause.conditions, clause.value) if compiled is not None for fact in compiled.facts}
    flags = [flag for flag in LAYING if f"turn.{flag}" in read]
    choices = []
    for player in state.table.teams[team]:
        for values in product((False, True), repeat=len(flags)):
            ranks = engine.value(path, ActionContext(engine, state, player, **dict(zip(flags, values))))
            if ranks not in choices:
                choices.append(ranks)
    return choices
