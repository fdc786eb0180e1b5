"""turn.first_card_red_three: the turn records that its first card drawn was a
red three, laid down and replaced, so that draw.first_redraw can be judged on it
(dispute first-card-red-three of ituiutaba, cbc and treze). The record lives in
the state JSON like every other turn field, and bad input names its path."""
from __future__ import annotations

import pytest
from positions import position

from canastra_ref.engine.actions import apply
from canastra_ref.engine.rules import engine_for
from canastra_ref.engine.state import state_from_json
from canastra_ref.errors import InputError

HAND = "4c 5c 6c 7d 8d 9d Ts Js Qs Kh Kh Qd Jd 5s 5h".split()


def drawn(engine, stock):
    partial = {"dealer": "E", "started": False, "turn": {"player": "N", "phase": "draw", "first": True},
               "hands": {"N": HAND, "E": 15, "S": 15, "W": 15}, "pile": [], "stock": stock}
    state = position(engine, partial)
    state, verdict = apply(engine, state, {"player": "N", "draw": "stock"})
    assert verdict.verdict == "accepted"
    return state


@pytest.mark.parametrize("stock, red_three_first", [(["3h", "9c", "5d"], True), (["9c", "3h", "5d"], False)])
def test_only_a_red_three_drawn_first_is_recorded_and_the_record_round_trips(stock, red_three_first):
    engine = engine_for("ituiutaba")
    state = drawn(engine, stock)
    assert state.turn.first_card_red_three is red_three_first
    data = state.to_json()
    assert data["turn"]["first_card_red_three"] is red_three_first
    assert state_from_json(data, engine.table, engine.deck).turn.first_card_red_three is red_three_first


def test_the_record_is_refused_when_not_a_boolean():
    engine = engine_for("ituiutaba")
    data = drawn(engine, ["3h", "9c", "5d"]).to_json()
    data["turn"]["first_card_red_three"] = "yes"
    with pytest.raises(InputError) as err:
        state_from_json(data, engine.table, engine.deck)
    assert "$.turn.first_card_red_three" in str(err.value)


def test_the_red_three_on_the_second_draw_of_a_turn_is_not_the_first_card():
    # reading spent: 9c is the first card, turned down; the red three is drawn in its place and
    # replaced by 5d, which does not make the first card a red three
    engine = engine_for("ituiutaba", (("first-card-red-three", "spent"),))
    state = drawn(engine, ["9c", "3h", "5d"])
    state, verdict = apply(engine, state, {"player": "N", "redraw": True})
    assert verdict.verdict == "accepted"
    assert "5d" in state.players["N"].hand and "3h" in state.teams["NS"].red_threes
    assert state.turn.first_card_red_three is False
