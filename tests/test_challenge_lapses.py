"""opening.challenge_lapses: what of the next player's turn ends his claim of an
opening left standing until challenged (cbc 19, dispute challenge-lapses).
The fixtures of conformance/fixtures/cbc/19-panca.yaml play the take of the
pile under both readings; these check what they cannot reach: the hand's end
in a turn that could still challenge, the legal actions, a question to the
partner (which cbc does not provide for, so a variant of cbc asks it), and the
lapse the turn keeps (turn.claim_lapsed) in the state's JSON."""
from __future__ import annotations

import json

import pytest
from positions import played, position

from canastra_conformance.messages import problem_with
from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import SPEC_DIR, files_for, load
from canastra_ref.dsl.parser import parse_text
from canastra_ref.engine.actions import apply
from canastra_ref.engine.legal import legal_actions
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.rules import Engine
from canastra_ref.errors import InputError

SHORT_OPENING = {"N": "Jh Qh Kh 8s 9s Ts Js 4d 5c", "E": 15, "S": 15}
EW_REAL = [{"kind": "sequence", "cards": "4c 5c 6c 7c 8c 9c Tc"}, {"kind": "aces", "cards": "Ac Ad Ah"}]


def _engine(lapses: str) -> Engine:
    return Engine(load("cbc", {"challenge-lapses": lapses, "aces-suit": "any-suit"}))


def _pending(engine: Engine, west: str):
    """N lays 70 against 75 and discards 4d: the opening stands until W claims it."""
    partial = {"turn": {"player": "N", "phase": "play"}, "teams": {"EW": {"melds": EW_REAL}},
               "hands": {**SHORT_OPENING, "W": west}}
    state = position(engine, partial)
    state, verdict = apply(engine, state, {"player": "N", "meld": [["Jh", "Qh", "Kh"], ["8s", "9s", "Ts", "Js"]]})
    assert verdict.verdict == "accepted", verdict.reason
    state, verdict = apply(engine, state, {"player": "N", "discard": "4d"})
    assert (verdict.verdict, verdict.reason) == ("accepted", "opening.pending-check")
    return state


def _settings(verdict) -> set[str]:
    """The settings whose decisions the verdict cites."""
    return {decision.setting for decision, decisive in verdict.trace if decisive}


def test_a_going_out_with_the_pile_ends_the_claim_it_left_open():
    # stock-draw: the take does not end the claim, but W takes 4d with his last two cards and goes
    # out (his team holds a real): the hand is over, and the opening stands in it
    engine = _engine("stock-draw")
    state = _pending(engine, "5d 6d")
    state, verdict = apply(engine, state, {"player": "W", "take_pile": {"with": ["5d", "6d"]}})
    assert (verdict.verdict, verdict.reason) == ("accepted", "going-out.direct")
    assert state.ended is not None and state.pending is None
    assert "opening.challenge_lapses" in _settings(verdict)
    assert state.teams["NS"].opened and state.teams["NS"].opening_failures == 0


def test_the_take_ends_the_claim_under_any_draw():
    engine = _engine("any-draw")
    state = _pending(engine, "5d 6d Kc Qc")
    state, verdict = apply(engine, state, {"player": "W", "take_pile": {"with": ["5d", "6d"]}})
    assert (verdict.verdict, verdict.reason) == ("accepted", "pile.taken")
    assert state.pending is None and "opening.challenge_lapses" in _settings(verdict)
    assert not any("challenge" in action for action in legal_actions(engine, state))


def test_the_challenge_is_a_legal_action_after_the_take_under_stock_draw():
    engine = _engine("stock-draw")
    state = _pending(engine, "5d 6d Kc Qc")
    state, verdict = apply(engine, state, {"player": "W", "take_pile": {"with": ["5d", "6d"]}})
    assert (verdict.verdict, verdict.reason) == ("accepted", "pile.taken")
    assert state.pending is not None and "opening.challenge_lapses" not in _settings(verdict)
    assert {"player": "W", "challenge": True} in legal_actions(engine, state)
    # his draw from the stock (no retry here: EW had opened) is refused and leaves the claim his
    refused, verdict = apply(engine, state, {"player": "W", "draw": "stock"})
    assert verdict.verdict == "rejected" and refused.pending is not None


def test_a_challenge_after_a_stock_draw_is_too_late_under_stock_draw():
    # a state given with the claim still open in the play phase of a turn that drew from the stock
    # (no play reaches it: that draw ended the claim) is refused by the setting
    engine = _engine("stock-draw")
    state = _pending(engine, "5d 6d Kc Qc")
    data = state.to_json()
    data["turn"]["phase"] = "play"
    state = load_state(engine, data)
    state, verdict = apply(engine, state, {"player": "W", "challenge": True})
    assert (verdict.verdict, verdict.reason) == ("rejected", "challenge.too-late")
    assert "opening.challenge_lapses" in _settings(verdict)


def test_a_question_to_the_partner_leaves_the_claim_open(tmp_path):
    # any-draw ends the claim at a draw or a take of the pile, not at the question the variant allows
    # before them
    (tmp_path / "cbc.canastra").write_text((SPEC_DIR / "cbc.canastra").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    variant = parse_text('ruleset variant "cbc, variant" extends cbc\n'
                         "going_out.ask_partner = yes @definicoes.batida-direta\n", "variant.canastra")
    engine = Engine(build(files_for(variant, tmp_path), {"challenge-lapses": "any-draw"}))
    state = _pending(engine, "5d 6d Kc Qc")
    state, verdict = apply(engine, state, {"player": "W", "ask_partner": True})
    assert (verdict.verdict, verdict.reason) == ("accepted", "partner.asked")
    assert state.pending is not None
    state, verdict = apply(engine, state, {"player": "E", "answer": "no"})
    assert verdict.verdict == "accepted", verdict.reason
    state, verdict = apply(engine, state, {"player": "W", "challenge": True})
    assert (verdict.verdict, verdict.reason) == ("accepted", "challenge.upheld")
    assert not state.teams["NS"].opened and state.teams["NS"].opening_failures == 1



def test_a_state_after_the_take_of_the_offenders_discard_loads_and_the_challenge_gives_the_pile_back():
    # N takes the pile (3d, 5h, top Kh) for his opening with J Q of hearts: the 3d goes down and the
    # stock replaces it with Kd. He lays 8 9 10 of spades (60 < 75) and discards that Kd; under
    # stock-draw W takes the discard with J Q of diamonds and keeps his claim. The discard now lies in W's
    # meld, not on the pile: the state's round trip through its JSON must still load, and the
    # challenge gives back the pile's 5h and Kh (the 3d with them), the Kd staying where W put it
    engine = Engine(load("cbc", {"challenge-lapses": "stock-draw", "panca-shortfall": "any",
                                 "aces-suit": "any-suit"}))
    partial = {"turn": {"player": "N", "phase": "draw"}, "pile": ["3d", "5h", "Kh"], "stock": ["Kd", "9c"],
               "teams": {"EW": {"melds": EW_REAL}},
               "hands": {"N": "Jh Qh 8s 9s Ts 4c 6c 8c Tc Qc 4d 6d 8d Td Ad", "W": "Jd Qd 5s 9h",
                         "E": 15, "S": 15}}
    state, verdicts = played(engine, partial, {"player": "N", "take_pile": {"with": ["Jh", "Qh"]}},
                             {"player": "N", "meld": [["8s", "9s", "Ts"]]}, {"player": "N", "discard": "Kd"},
                             {"player": "W", "take_pile": {"with": ["Jd", "Qd"]}})
    assert [v.reason for v in verdicts] == ["pile.taken", "opening.pending", "opening.pending-check", "pile.taken"]
    assert state.pending["undo"]["drawn"] == ["Kd"] and state.pile == []
    state = load_state(engine, json.loads(json.dumps(state.to_json())))
    state, verdict = apply(engine, state, {"player": "W", "challenge": True})
    assert (verdict.verdict, verdict.reason) == ("accepted", "challenge.upheld")
    assert sorted(state.pile) == ["3d", "5h", "Kh"] and "Kd" in state.teams["EW"].melds[-1].cards
    assert sorted(state.hand("N")) == sorted("Jh Qh 8s 9s Ts 4c 6c 8c Tc Qc 4d 6d 8d Td Ad".split())


def test_the_turn_keeps_the_lapse_and_a_challenge_later_in_it_is_too_late():
    # any-draw: W's take of the pile ends his claim; the turn records it (turn.claim_lapsed), the record
    # goes through the state's JSON, and his challenge from the loaded state is too late, citing the
    # clause that ended the claim, as it is in play
    engine = _engine("any-draw")
    state = _pending(engine, "5d 6d Kc Qc")
    state, verdict = apply(engine, state, {"player": "W", "take_pile": {"with": ["5d", "6d"]}})
    assert state.pending is None and state.turn.claim_lapsed["by"]["setting"] == "opening.challenge_lapses"
    assert [record["setting"] for record in state.turn.claim_lapsed["stands"]] == \
        ["opening.short_stands_unchallenged"]
    data = json.loads(json.dumps(state.to_json()))
    assert problem_with("run", {"cmd": "run", "id": "x", "ruleset": "cbc", "reading": {}, "state": data,
                                "actions": [{"player": "W", "challenge": True}]}) is None
    loaded = load_state(engine, data)
    assert loaded.turn.claim_lapsed == state.turn.claim_lapsed
    _, verdict = apply(engine, loaded, {"player": "W", "challenge": True})
    assert (verdict.verdict, verdict.reason) == ("rejected", "challenge.too-late")
    assert {"opening.challenge_lapses", "opening.short_stands_unchallenged"} <= _settings(verdict)
    # the lapse is the turn's: the next turn starts without it, and the opening is an ordinary one
    state, verdict = apply(engine, state, {"player": "W", "discard": "Kc"})
    assert verdict.verdict == "accepted" and state.turn.claim_lapsed is None
    _, verdict = apply(engine, state, {"player": "W", "challenge": True})
    assert verdict.reason == "challenge.nothing-to-challenge"


@pytest.mark.parametrize("change, path", [
    (lambda turn: turn.update(claim_lapsed=[]), "turn.claim_lapsed"),
    (lambda turn: turn["claim_lapsed"].pop("by"), "turn.claim_lapsed"),
    (lambda turn: turn["claim_lapsed"].update(when="draw"), "turn.claim_lapsed.when"),
    (lambda turn: turn["claim_lapsed"]["by"].pop("setting"), "turn.claim_lapsed.by"),
    (lambda turn: turn["claim_lapsed"].update(stands=[19]), "turn.claim_lapsed.stands[0]"),
])
def test_a_bad_lapse_is_refused_with_its_path(change, path):
    engine = _engine("any-draw")
    state = _pending(engine, "5d 6d Kc Qc")
    state, _ = apply(engine, state, {"player": "W", "draw": "stock"})
    data = state.to_json()
    change(data["turn"])
    with pytest.raises(InputError) as err:
        load_state(engine, data)
    assert path in str(err.value)
