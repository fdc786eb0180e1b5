"""Near-legal actions: moves a player could plausibly try that the rules may
well refuse, for fuzzers and property tests (the legal ones are in legal.py).

`near_legal_action(engine, state, rng)` builds one action in the JSON form
of the protocol from the cards and melds of `state`, of one of these
families, chosen at random among those that apply:

    illegal-meld      a meld candidate of the hand with one card swapped for
                      another, one card left out, or an extra wild card
    refused-take      a take of the pile with cards that do not fit its top
                      card, or its top card onto a meld it may not join
    out-of-phase      a discard or a meld before the draw, a draw after it
    going-out         every card of a small hand melded or laid off at once,
                      or the last card discarded
    wrong-player      the turn player's draw or discard made by someone else
    candidate         an unjudged candidate of `options` (legal.py), which
                      `apply` may refuse (a meld below the opening, a take of
                      a blocked pile, a discard that strands the hand)

Every action it returns parses (apply never raises InputError on it); many
are rejected, some accepted. `rng` is a random.Random, or anything with its
`random`, `randrange`, `choice` and `shuffle` (hypothesis's `st.randoms()`).
"""
from __future__ import annotations

from .legal import options
from .rules import Engine
from .state import State

FAMILIES = ("illegal-meld", "refused-take", "out-of-phase", "going-out", "wrong-player", "candidate")


def near_legal_action(engine: Engine, state: State, rng, families=FAMILIES) -> dict | None:
    """One near-legal action of `state` (see the module docstring), or None
    when none of the `families` applies (the hand is over, or not dealt)."""
    if state.ended is not None or state.turn.phase in ("deal", "over"):
        return None
    makers = [_MAKERS[name] for name in families]
    rng.shuffle(makers)
    for make in makers:
        action = make(engine, state, rng)
        if action is not None:
            return action
    return None


def _hand(state: State) -> list[str]:
    return list(state.players[state.turn.player].hand)


def _wilds(engine: Engine, hand: list[str]) -> list[str]:
    return [c for c in hand if c in engine.wild_set]


def _illegal_meld(engine: Engine, state: State, rng) -> dict | None:
    player, hand = state.turn.player, _hand(state)
    if len(hand) < 3:
        return None
    candidates = options(engine, state).get("meld") if state.turn.phase == "play" else []
    if candidates:
        meld = list(rng.choice(candidates).arg[0][1])
    else:
        meld = [hand[i] for i in _indexes(rng, len(hand), 3)]
    rest = list(hand)
    for card in meld:
        if card in rest:
            rest.remove(card)
    change = rng.randrange(3)
    if change == 0 and rest:                         # one card swapped for another of the hand
        meld[rng.randrange(len(meld))] = rng.choice(rest)
    elif change == 1 and len(meld) > 1:              # one card left out
        meld.pop(rng.randrange(len(meld)))
    else:                                            # one more wild card, or any card
        meld.append(rng.choice(_wilds(engine, rest) or rest or hand))
    return {"player": player, "meld": [meld]}


def _refused_take(engine: Engine, state: State, rng) -> dict | None:
    if not state.pile:
        return None
    player, hand = state.turn.player, _hand(state)
    melds = state.teams[state.team_of(player)].melds
    if melds and rng.random() < 0.4:
        return {"player": player, "take_pile": {"onto": rng.randrange(len(melds)), "with": []}}
    count = min(len(hand), rng.randrange(3))
    return {"player": player, "take_pile": {"with": [hand[i] for i in _indexes(rng, len(hand), count)]}}


def _out_of_phase(engine: Engine, state: State, rng) -> dict | None:
    player, hand = state.turn.player, _hand(state)
    if state.turn.phase == "draw":
        if not hand:
            return None
        if rng.random() < 0.6 or len(hand) < 3:
            return {"player": player, "discard": rng.choice(hand)}
        return {"player": player, "meld": [[hand[i] for i in _indexes(rng, len(hand), 3)]]}
    if state.pile and rng.random() < 0.5:
        return {"player": player, "take_pile": {"with": []}}
    return {"player": player, "draw": "stock"}


def _going_out(engine: Engine, state: State, rng) -> dict | None:
    player, hand = state.turn.player, _hand(state)
    if state.turn.phase != "play" or not hand or len(hand) > 5:
        return None
    if len(hand) == 1:
        return {"player": player, "discard": hand[0]}
    melds = state.teams[state.team_of(player)].melds
    if melds and rng.random() < 0.5:
        return {"player": player, "layoff": {"meld": rng.randrange(len(melds)), "cards": hand}}
    return {"player": player, "meld": [hand]}


def _wrong_player(engine: Engine, state: State, rng) -> dict | None:
    others = [seat for seat in state.table.seats if seat != state.turn.player]
    seat = rng.choice(others)
    hand = state.players[seat].hand
    if state.turn.phase == "play" and hand:
        return {"player": seat, "discard": rng.choice(hand)}
    return {"player": seat, "draw": "stock"}


def _candidate(engine: Engine, state: State, rng) -> dict | None:
    groups = options(engine, state).values()
    if not groups:
        return None
    return rng.choice(rng.choice(groups)).json


def _indexes(rng, size: int, count: int) -> list[int]:
    """`count` distinct positions below `size`, in random order."""
    positions = list(range(size))
    rng.shuffle(positions)
    return positions[:count]


_MAKERS = {"illegal-meld": _illegal_meld, "refused-take": _refused_take, "out-of-phase": _out_of_phase,
           "going-out": _going_out, "wrong-player": _wrong_player, "candidate": _candidate}
