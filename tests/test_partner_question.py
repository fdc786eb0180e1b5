"""The question to the partner (classica bater.3: before going out the player
may ask "Posso bater?", and must follow the answer): what the answer binds is
cited by the clause that let the question be asked, as it was decided then,
not as the same clause would judge a new question later in the turn (by then
the question has been asked, and classica asks once a turn)."""
from __future__ import annotations

import pytest
from positions import played

from canastra_ref.engine.rules import engine_for
from canastra_ref.engine.state import state_from_json
from canastra_ref.errors import InputError

CLASSICA = engine_for("classica")
EIGHTS = ["8h", "8h", "8d", "8d", "8c", "8c", "8s"]       # NS's canastra: going out is allowed (bater.2)


def play(hand, *actions):
    partial = {"turn": {"player": "N", "phase": "play"}, "hands": {"N": hand, "E": 11, "S": 11, "W": 11},
               "teams": {"NS": {"opened": True, "melds": [EIGHTS]}}}
    return played(CLASSICA, partial, *actions)


def question(verdict):
    return [d for d in verdict.trace.to_json() if d["setting"] == "going_out.ask_partner"]


ASK, YES, NO = {"player": "N", "ask_partner": True}, {"player": "S", "answer": "yes"}, {"player": "S", "answer": "no"}


def test_an_unkept_yes_cites_the_clause_the_question_was_asked_under():
    # bater.3: told yes, N discards Kc and keeps 9c 9d 9h, not going out. The count of the
    # unkept answer (dispute unkept-yes) rests on the clause that let him ask: it allowed the
    # question then, though it would refuse a second one now.
    _, verdicts = play(["9c", "9d", "9h", "Kc"], ASK, YES, {"player": "N", "discard": "Kc"})
    asked = question(verdicts[0])
    assert asked and asked[0]["value"] is True
    assert verdicts[2].reason == "going-out.answer-not-followed"
    assert question(verdicts[2]) == asked


def test_a_no_refuses_the_going_out_by_the_question_s_clause():
    # bater.3: told no, N may not go out, here by melding every card (bater.1)
    _, verdicts = play(["9c", "9d", "9h", "Kc", "Kd", "Ks"], ASK, NO,
                       {"player": "N", "meld": [["9c", "9d", "9h"], ["Kc", "Kd", "Ks"]]})
    assert verdicts[2].reason == "going-out.partner-said-no"
    assert question(verdicts[2]) == question(verdicts[0])
    assert question(verdicts[2])[0]["value"] is True


def test_a_no_refuses_a_meld_that_leaves_one_card_citing_the_answer():
    # bater.3 with a-jogada.4: told no, N may not meld down to Kc, whose discard would be the going
    # out the answer forbids; the refusal rests on the question (bater.3), not on going_out.allowed,
    # which the team's canastra meets (bater.2)
    _, verdicts = play(["9c", "9d", "9h", "Kc"], ASK, NO, {"player": "N", "meld": [["9c", "9d", "9h"]]})
    assert verdicts[2].verdict == "rejected"
    assert verdicts[2].reason == "turn.last-card-stranded"
    assert "bater.3" in verdicts[2].cites
    assert question(verdicts[2]) == question(verdicts[0])


def test_the_question_s_clause_is_part_of_the_state_json():
    state, _ = play(["9c", "9d", "9h", "Kc"], ASK, NO)
    data = state.to_json()
    assert data["turn"]["asked"] == "no"
    assert data["turn"]["asked_by"]["setting"] == "going_out.ask_partner"
    assert "bater.3" in data["turn"]["asked_by"]["cites"]
    again = state_from_json(data, CLASSICA.table, CLASSICA.deck)
    assert again.turn.asked_by == state.turn.asked_by


def test_a_question_without_its_clause_is_refused():
    # the answer binds by the clause as it was decided when asked (before or after the draw: turn.drew),
    # which the turn's later context cannot decide again; the engine writes it with every question
    for asked in ("asking", "no"):
        state, _ = play(["9c", "9d", "9h", "Kc"], ASK, *([NO] if asked == "no" else []))
        data = state.to_json()
        assert data["turn"]["asked"] == asked
        data["turn"]["asked_by"] = None
        with pytest.raises(InputError) as err:
            state_from_json(data, CLASSICA.table, CLASSICA.deck)
        assert "$.turn.asked_by" in str(err.value)


def test_a_question_s_clause_without_a_question_is_refused():
    state, _ = play(["9c", "9d", "9h", "Kc"], ASK, NO)
    data = state.to_json()
    data["turn"]["asked"] = None
    with pytest.raises(InputError) as err:
        state_from_json(data, CLASSICA.table, CLASSICA.deck)
    assert "turn.asked_by" in str(err.value)
