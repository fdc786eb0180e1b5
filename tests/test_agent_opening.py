"""The random agent's opening plans (canastra_ref.engine.agent) and the
engine's opening.turn_shortfall they read: a team that has not opened does
not begin a plan whose hand cannot reach the minimum, except with
hopeless_chance; with it, such plans are tried (and played out to their
penalty with penalty_chance)."""
from __future__ import annotations

import random

import pytest

from canastra_ref.engine.actions import apply
from canastra_ref.engine.agent import RandomAgent
from canastra_ref.engine.deal import new_hand
from canastra_ref.engine.legal import legal
from canastra_ref.engine.opening import FAILURES, turn_falls_short, turn_shortfall
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for


def first_play_state(engine, seed: int):
    """The first player's play phase after the deal from `seed` and a draw from the stock."""
    state, _ = apply(engine, new_hand(engine), {"player": new_hand(engine).dealer, "deal": {"seed": seed}})
    while state.turn.phase != "play":
        state, verdict = apply(engine, state, {"player": state.turn.player, "draw": "stock"})
        assert verdict.verdict == "accepted", verdict
    return state


def test_shortfall_is_the_minimum_before_any_meld_and_falls_by_the_melds_points():
    engine = engine_for("classica")
    # classica: 50 points for a team with 0 to 1499 points (o-primeiro-jogo-da-dupla.1, .2)
    state = first_play_state(engine, 3)
    assert turn_shortfall(engine, state) == 50
    meld = next(a for a in legal(engine, state) if a.verb == "meld")
    after, verdict = apply(engine, state, meld)
    assert verdict.verdict == "accepted"
    # every meld counts its cards' points towards the minimum (opening.counts = all-melds)
    assert turn_shortfall(engine, after) == max(0, 50 - engine.hand_points(meld.arg[0][1]))
    opened = state.copy()
    opened.team_w(state.team_of(state.turn.player)).opened = True
    assert turn_shortfall(engine, opened) == 0


def hopeless_states(engine, count: int):
    """Play phases of teams that have not opened, none of whose melds laid yet,
    where the whole hand's points are below what the turn lacks."""
    found = []

    def observe(before, action, after, verdict):
        turn = after.turn
        if turn.phase == "play" and not turn.melds_laid and after.ended is None \
                and not after.teams[after.team_of(turn.player)].opened \
                and turn_shortfall(engine, after) > engine.hand_points(after.players[turn.player].hand):
            found.append(after)
    seed = 0
    while len(found) < count and seed < 20:
        seed += 1
        for _ in self_play(engine, seed, 3, observe):
            pass
    return found[:count]


def melds_planned(engine, states, hopeless_chance: float) -> int:
    laid = 0
    for i, state in enumerate(states):
        agent = RandomAgent(engine, random.Random(i), meld_chance=1, penalty_chance=1,
                            hopeless_chance=hopeless_chance)
        laid += sum(1 for action, _, _ in agent.step(state) if action.verb in ("meld", "layoff"))
    return laid


def test_a_hopeless_opening_is_not_begun_except_by_chance():
    engine = engine_for("ituiutaba-2p")          # 80 points or more to open (9.2, 10.1)
    states = hopeless_states(engine, 30)
    assert len(states) >= 10
    assert melds_planned(engine, states, hopeless_chance=0) == 0
    assert melds_planned(engine, states, hopeless_chance=1) > 0


def unopened_turns_with_melds(engine, seeds: int):
    """Play phases of self-play where a team that has not opened has melded this turn."""
    found = []

    def observe(before, action, after, verdict):
        turn = after.turn
        if turn.phase == "play" and turn.melds_laid and after.ended is None and not turn.final \
                and not after.teams[after.team_of(turn.player)].opened:
            found.append(after)
    for seed in range(1, seeds + 1):
        for _ in self_play(engine, seed, 2, observe):
            pass
    return found


@pytest.mark.parametrize("ruleset, readings", [("classica", ()), ("ituiutaba-2p", ()), ("cbc", ()),
                                               ("cbc", (("panca-shortfall", "five-short"),))])
def test_turn_falls_short_is_what_the_discard_judges(ruleset, readings):
    """opening.turn_falls_short, which the agent asks before a plan's discard,
    says whether a discard that does not go out fails the opening; an opening
    that the spec lets stand until challenged (cbc 19) does not fall short."""
    engine = engine_for(ruleset, readings)
    judged = standing = 0
    for state in unopened_turns_with_melds(engine, 6):
        player = state.turn.player
        if len(state.players[player].hand) < 2:
            continue
        for card in sorted(set(state.players[player].hand)):
            after, verdict = apply(engine, state, {"player": player, "discard": card})
            if verdict.verdict == "rejected" or after.ended is not None:
                continue
            assert turn_falls_short(engine, state) == (verdict.reason in FAILURES), (card, verdict.reason)
            judged += 1
            standing += verdict.reason == "opening.pending-check"
            break
    assert judged >= 10
    if ruleset == "cbc":
        assert standing >= 1
