"""Hypothesis strategies for property tests of Canastra engines: cards, hands,
melds and tables, states of a ruleset at any phase, legal and near-legal
actions, and plays (a state with the actions that follow it). docs/strategies.md
shows them at work.

    from hypothesis import given
    from canastra_ref import strategies as cs

    @given(cs.plays("classica"))
    def test_my_engine_follows_the_reference(play):
        state, actions = play                 # a run message's state and actions
        ...

Every value is plain data in the protocol's JSON form (conformance/PROTOCOL.md):
a card is a string ("Th", "JK"), a state the full JSON form of
canastra_ref/engine/state.py, an action the form of
canastra_ref/engine/actions.py; so any engine, in any language behind an
adapter, can be fed them. Each strategy takes the ruleset id and optionally
the readings of its disputes ({dispute: reading}).

States are reached by play, never made up: a hand dealt from a drawn seed
(after team scores drawn from the ruleset's range of play), then the moves
of the reference's random legal agent with near-legal actions between them
(canastra_ref.engine.walk, the walk the differential fuzzer plays), for a
drawn number of steps. They shrink towards earlier states of simpler deals.
Actions are the reference's legal actions (canastra_ref.engine.legal, one per
equivalence class) and near-legal ones (canastra_ref.engine.near_legal:
illegal melds, refused pile takes, moves out of phase or out of turn, going
out without the right to), which the rules mostly refuse.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from hypothesis import assume
from hypothesis import strategies as st

from .cards import full_deck, sort_key
from .engine.actions import apply
from .engine.completion import complete
from .engine.deal import new_hand
from .engine.legal import legal_actions as _legal_actions
from .engine.legal import options
from .engine.loading import load_state
from .engine.near_legal import near_legal_action
from .engine.rules import Engine, engine_for
from .engine.walk import walk
from .protocol import meld as classify_meld

PHASES = ("deal", "draw", "play", "over")


@lru_cache(maxsize=64)
def _engine(ruleset: str, readings: tuple) -> Engine:
    return engine_for(ruleset, readings)


def engine(ruleset: str, readings: dict | None = None) -> Engine:
    """The reference's engine of a ruleset (CanastraError for an unknown one)."""
    return _engine(ruleset, tuple(sorted((readings or {}).items())))


# ------------------------------------------------------------------ cards and melds

def cards(ruleset: str, readings: dict | None = None) -> st.SearchStrategy[str]:
    """A card of the ruleset's deck (jokers only where it has them)."""
    return st.sampled_from(sorted(set(full_deck(*engine(ruleset, readings).deck)), key=sort_key))


def hands(ruleset: str, readings: dict | None = None, *, min_size: int = 0,
          max_size: int | None = None) -> st.SearchStrategy[list[str]]:
    """Cards one player could hold: drawn from one deck (never more copies of
    a card than it has), sorted; at most twice the cards dealt by default."""
    deck = sorted(full_deck(*engine(ruleset, readings).deck), key=sort_key)
    if max_size is None:
        max_size = max(min_size, 2 * engine(ruleset, readings).value("deal.cards"))
    return st.lists(st.integers(0, len(deck) - 1), min_size=min_size, max_size=max_size, unique=True).map(
        lambda positions: sorted((deck[i] for i in positions), key=sort_key))


def _holding(eng: Engine, hand: list[str]):
    """A dealt-looking state where the first player holds `hand` in the play phase."""
    player = eng.table.next(eng.table.order[-1])
    return load_state(eng, complete(eng.table, eng.deck, {"hands": {player: hand}, "turn": {"phase": "play"}}))


@st.composite
def melds(draw, ruleset: str, readings: dict | None = None) -> dict:
    """A valid meld of the ruleset, {"kind", "cards"} as laid out on the table:
    one of the reference's meld candidates for a drawn hand, its kind as the
    reference classifies it."""
    eng = engine(ruleset, readings)
    hand = draw(hands(ruleset, readings, min_size=12, max_size=30))
    candidates = [action.arg[0][1] for action in options(eng, _holding(eng, hand)).get("meld")]
    assume(candidates)
    found = classify_meld(eng, draw(st.sampled_from(candidates)))
    assume(found["meld"] is not None)
    return {"kind": found["meld"], "cards": found["cards"]}


@st.composite
def tables(draw, ruleset: str, readings: dict | None = None, *, max_melds: int = 4) -> dict:
    """The melds on the table, {team: [melds]}: up to `max_melds` a team, no
    card used more often than the deck holds it."""
    eng = engine(ruleset, readings)
    left = Counter(full_deck(*eng.deck))
    out: dict[str, list[dict]] = {}
    for team in eng.table.teams:
        out[team] = []
        for _ in range(draw(st.integers(0, max_melds))):
            meld = draw(melds(ruleset, readings))
            need = Counter(meld["cards"])
            if all(left[c] >= n for c, n in need.items()):
                left -= need
                out[team].append(meld)
    return out


# ------------------------------------------------------------------ states and actions

def _played(ruleset: str, readings: dict | None, seed: int, steps: int, scores: dict, phase: str | None,
            near_legal: float):
    """(State, the steps walked to it): a hand dealt from `seed` with the teams'
    `scores`, walked `steps` steps (fewer if it ends first); with `phase`, the
    first state of that phase from there on, or the last before."""
    eng = engine(ruleset, readings)
    state = new_hand(eng, scores=scores)
    if phase == "deal":
        return state, []
    state, _ = apply(eng, state, {"player": state.dealer, "deal": {"seed": seed}})
    found = state if _of_phase(state, phase) else None
    walked = []
    if not (steps == 0 and found is not None):
        for step in walk(eng, state, random.Random(seed), near_legal=near_legal):
            walked.append(step)
            if _of_phase(step.state, phase):
                found = step.state
                if len(walked) >= steps:
                    break
    assume(found is not None)
    return found, walked


def _of_phase(state, phase: str | None) -> bool:
    if phase == "over":
        return state.ended is not None
    return phase is None or state.ended is None and state.turn.phase == phase


def _scores(ruleset: str, readings: dict | None):
    eng = engine(ruleset, readings)
    target = eng.value("game.target") or 5000
    return st.fixed_dictionaries({team: st.integers(-100, target // 5 - 1).map(lambda n: 5 * n)
                                  for team in eng.table.teams})


@st.composite
def states(draw, ruleset: str, readings: dict | None = None, *, phase: str | None = None, max_steps: int = 150,
           near_legal: float = 0.2) -> dict:
    """A state of the ruleset reached by play (see the module docstring), as
    its full JSON form; with `phase` ("deal", "draw", "play" or "over"), a
    state of that phase ("over": a finished hand)."""
    if phase is not None and phase not in PHASES:
        raise ValueError(f"phase is one of {', '.join(PHASES)}, not {phase!r}")
    seed = draw(st.integers(0, 2 ** 31 - 1))
    steps = draw(st.integers(0, max_steps))
    scores = draw(_scores(ruleset, readings))
    state, _ = _played(ruleset, readings, seed, steps, scores, phase, near_legal)
    return state.to_json()


@st.composite
def plays(draw, ruleset: str, readings: dict | None = None, *, max_actions: int = 20,
          near_legal: float = 0.2) -> tuple[dict, list[dict]]:
    """(state, actions): a state reached by play and the actions played from
    it (legal moves and near-legal ones), up to `max_actions` (at least one):
    the `state` and `actions` of a run message."""
    seed = draw(st.integers(0, 2 ** 31 - 1))
    steps = draw(st.integers(0, 150))
    count = draw(st.integers(1, max_actions))
    scores = draw(_scores(ruleset, readings))
    start, _ = _played(ruleset, readings, seed, steps, scores, None, near_legal)
    assume(start.ended is None and start.turn.phase != "deal")
    eng = engine(ruleset, readings)
    actions = [step.action for _, step in zip(range(count), walk(eng, start, random.Random(seed + 1),
                                                                    near_legal=near_legal))]
    return start.to_json(), actions


def _loaded(ruleset: str, readings: dict | None, state):
    return load_state(engine(ruleset, readings), state) if isinstance(state, dict) else state


def legal_actions(ruleset: str, state, readings: dict | None = None) -> st.SearchStrategy[dict]:
    """A legal action of `state` (its JSON form, or a State), one per
    equivalence class of canastra_ref.engine.legal; nothing for a finished hand."""
    listed = _legal_actions(engine(ruleset, readings), _loaded(ruleset, readings, state))
    return st.sampled_from(listed) if listed else st.nothing()


@st.composite
def near_legal_actions(draw, ruleset: str, state, readings: dict | None = None) -> dict:
    """A near-legal action of `state` (its JSON form, or a State): see
    canastra_ref.engine.near_legal; the rules refuse most of them."""
    loaded = _loaded(ruleset, readings, state)
    action = near_legal_action(engine(ruleset, readings), loaded, draw(st.randoms(use_true_random=False)))
    assume(action is not None)
    return action


def actions(ruleset: str, state, readings: dict | None = None) -> st.SearchStrategy[dict]:
    """A legal or a near-legal action of `state`."""
    return st.one_of(legal_actions(ruleset, state, readings), near_legal_actions(ruleset, state, readings))
