"""State.copy, turn_w, player_w and team_w fill their copies field by field
(they run for every action): the copy must equal the original in every
field, own what actions change in place once they ask for it (player_w,
team_w, pile_w, turn_w), and share what is replaced, never changed (the turn's lists); and
`apply` must leave the state it is given exactly as it was, the agents'
rejected trials included, and the engine's own trials must leave an
action's working state owning what it owned."""
from __future__ import annotations

import dataclasses

import pytest

import canastra_ref.engine.agent as agent
import canastra_ref.engine.legal as legal
from canastra_ref.dsl.loader import available
from canastra_ref.engine.act import Act
from canastra_ref.engine.actions import _discard_by_trial
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for
from canastra_ref.engine.state import State, Turn


def _states(ruleset: str, hands: int = 2):
    """The states before every action of a few hands of self-play."""
    seen = []
    for record in self_play(engine_for(ruleset), 3, hands, lambda before, *_: seen.append(before)):
        if isinstance(record, dict):
            break
    return seen


@pytest.mark.parametrize("ruleset", available())
def test_copy_equals_the_original_and_owns_what_actions_change(ruleset):
    for state in _states(ruleset):
        copy = state.copy()
        assert copy.turn is state.turn
        turn = copy.turn_w()
        for cls, original, copied in ((State, state, copy), (Turn, state.turn, turn)):
            for field in dataclasses.fields(cls):
                if field.compare:
                    assert getattr(copied, field.name) == getattr(original, field.name), field.name
        assert copy == state
        assert turn is not state.turn and copy.turn_w() is turn
        assert copy.players is not state.players and copy.teams is not state.teams
        seat = state.turn.player
        team = state.table.team_of[seat]
        for mine, original in ((copy.player_w(seat), state.players[seat]),
                               (copy.team_w(team), state.teams[team])):
            assert mine is not original and mine == original    # every field read (a missing one raises)
        copy.player_w(seat).hand.append("JK")
        copy.team_w(team).red_threes.append("3h")
        copy.pile_w().append("JK")
        turn.phase = "changed"
        assert copy != state and state == state.copy() and state.turn.phase != "changed"


def test_apply_never_changes_the_state_it_is_given(monkeypatch):
    applied = []

    def checking(original):
        def checked(engine, state, action, *args):
            before = state.to_json()
            result = original(engine, state, action, *args)
            assert state.to_json() == before, action
            applied.append(result[1].verdict)
            return result
        return checked
    for module in (agent, legal):           # every engine call of self-play goes through one of them
        if hasattr(module, "apply"):
            monkeypatch.setattr(module, "apply", checking(module.apply))
    for ruleset in available():
        for record in self_play(engine_for(ruleset), 5, 2):
            if isinstance(record, dict):
                break
    assert "rejected" in applied and "accepted" in applied


@pytest.mark.parametrize("ruleset", available())
def test_trying_discards_on_a_working_state_keeps_the_hand_the_action_holds(ruleset):
    """_discard_by_trial applies discards to an action's working state (end_turn
    and the frozen-hand rule ask mid-action); copying it must not leave the hand
    the action already holds (Act.hand) replaced by the next player_w, or the
    action's later changes to that hand would be lost."""
    engine = engine_for(ruleset)
    tried = 0
    for state in _states(ruleset):
        if state.ended is not None or state.turn.phase != "play":
            continue
        act = Act(engine, state.copy(), state.turn.player)
        hand = act.hand
        _discard_by_trial(engine, act.state, act.player)
        assert act.state.player_w(act.player).hand is hand
        tried += 1
    assert tried
