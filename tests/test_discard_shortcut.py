"""The engine's test of "some card may be discarded now" (actions._can_discard,
read by the frozen-hand rule after every play of a turn in which the pile was
taken, and by end_turn) answers first from a sufficient condition, with no
trial (_surely_discardable), and tries every card only when that says nothing.
The shortcut must never say yes where trying each card says no. This compares
the two under every reading of every ruleset, in the states of self-play
right after a take of the pile or a meld of such a turn, and in variants of
them that test each condition of the shortcut: a hand of the pile's cards
only, a red three in the hand, a single card, a question to the partner
pending, and a hand of the pile's cards and of stock cards drawn for red
threes that came with it (which a failed opening gives back)."""
from __future__ import annotations

import pytest

from canastra_ref.dsl.loader import available, load
from canastra_ref.engine.actions import _discard_by_trial, _surely_discardable
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for

READINGS = [(ruleset, ()) for ruleset in available()] + [
    (ruleset, ((name, reading.name),))
    for ruleset in available() for name, dispute in load(ruleset).disputes.items()
    for reading in dispute.readings if reading.name != dispute.default]


def variants(state):
    """The state, and copies changed where each condition of the shortcut matters."""
    yield state
    player, turn = state.turn.player, state.turn
    hand = state.players[player].hand

    def changed(cards=None, **turn_fields):
        new = state.copy()
        if cards is not None:
            new.player_w(player).hand[:] = cards
        for name, value in turn_fields.items():
            setattr(new.turn_w(), name, value)
        return new
    if turn.pile_cards:
        yield changed(list(turn.pile_cards))
    yield changed(hand + ["3h"])
    yield changed(hand[:1])
    # a question pending, given with its clause as play gives it (a state without one is refused)
    yield changed(asked="asking", asked_by={"setting": "going_out.ask_partner", "clause": None, "cites": []})
    if turn.opening_undo is not None and turn.pile_cards and hand:
        drawn = hand[0]
        team = state.teams[state.team_of(player)]
        yield changed(list(turn.pile_cards) + [drawn],
                      opening_undo={**turn.opening_undo, "stock": list(state.stock),
                                    "red_threes": list(team.red_threes), "drawn": [drawn]})


@pytest.mark.parametrize("ruleset,readings", READINGS, ids=[f"{r}-{'-'.join(v for _, v in x) or 'default'}"
                                                             for r, x in READINGS])
def test_the_shortcut_never_allows_a_discard_that_every_trial_refuses(ruleset, readings):
    engine = engine_for(ruleset, readings)
    taken = []

    def observe(before, action, after, verdict):
        if after.ended is None and after.turn.took_pile and after.turn.phase == "play":
            taken.append(after)

    for _ in self_play(engine, 1, 3, observe):
        pass
    said_yes = 0
    for state in taken:
        for variant in variants(state):
            player = variant.turn.player
            if _surely_discardable(variant, player):
                said_yes += 1
                assert _discard_by_trial(engine, variant, player), variant.to_json()
    assert said_yes, "no state of these hands exercised the shortcut"
