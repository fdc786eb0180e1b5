"""A retry with a stock draw (opening.retry_with_stock_draw) is judged before
its draw, in the turn's context: ituiutaba grants 10.2's 'chance de comprar uma
carta no baralho' only while the stock holds one (not stock.empty), which under
stock-end = pile-only it may not. The clause that granted the retry is kept in
the state (turn.retried_by) and cited again where the retried turn fails: read
anew after the retry's own draw took the stock's last card, the same clause
would say no."""
from __future__ import annotations

import pytest
from positions import played

from canastra_conformance.messages import problem_with
from canastra_ref.engine.rules import engine_for
from canastra_ref.engine.state import state_from_json
from canastra_ref.errors import InputError

ITUIUTABA = engine_for("ituiutaba")
PILE_ONLY = engine_for("ituiutaba", (("stock-end", "pile-only"),))
SETTING = "opening.retry_with_stock_draw"


def _granted(verdict):
    return [d for d in verdict.trace.to_json() if d["setting"] == SETTING]


# NS at 0 (80 to open, 9.3) take the pile with Ad As on Ah (45) and give it back for the stock's last card
LAST_CARD = {"turn": {"player": "N", "phase": "draw"}, "teams": {"NS": {"score": 0}},
             "hands": {"N": ["Ad", "As", "4c", "5c", "6c", "8d", "5d"], "E": 15, "S": 15, "W": 15},
             "pile": ["Kc", "9d", "Ah"], "stock": ["7s"], "stock_size": 1}
TAKE, RETRY = {"player": "N", "take_pile": {"with": ["Ad", "As"]}}, {"player": "N", "draw": "stock"}


def test_the_retry_keeps_the_clause_that_granted_it():
    state, verdicts = played(ITUIUTABA, LAST_CARD, TAKE, RETRY)
    assert verdicts[1].reason == "draw.stock-instead-of-pile"
    assert state.stock == [] and state.turn.retried
    assert state.turn.retried_by["setting"] == SETTING and "10.2" in state.turn.retried_by["cites"]
    assert state.turn.retried_by.get("value", True) is True


def test_a_failed_retry_cites_the_clause_as_granted_before_its_draw_emptied_the_stock():
    # 10.3: N lays nothing after the retry and discards; the hand then ends on the spent stock (13.3)
    _, verdicts = played(ITUIUTABA, LAST_CARD, TAKE, RETRY, {"player": "N", "discard": "5d"})
    assert verdicts[2].reason == "opening.below-minimum"
    cited = _granted(verdicts[2])
    assert cited and all(d["value"] is True for d in cited)


def test_the_retry_is_refused_from_an_empty_stock():
    partial = {"turn": {"player": "W", "phase": "draw"}, "teams": {"NS": {"opened": True}, "EW": {"score": 0}},
               "hands": {"N": ["Kd"], "S": ["Qd"], "E": ["Kc", "4h"], "W": ["7c", "8c", "Qh", "Jh"]},
               "pile": ["9c"], "stock": [], "stock_size": 0}
    state, verdicts = played(PILE_ONLY, partial, {"player": "W", "take_pile": {"with": ["7c", "8c"]}},
                            {"player": "W", "draw": "stock"})
    assert verdicts[0].reason == "pile.taken"
    assert verdicts[1].verdict == "rejected" and verdicts[1].reason == "pile.no-retry"
    refused = _granted(verdicts[1])
    assert refused and all(d["value"] is False for d in refused) and "10.2" in verdicts[1].cites
    assert state.ended is None and not state.turn.retried and state.turn.retried_by is None


def test_the_clause_is_part_of_the_state_json():
    state, _ = played(ITUIUTABA, LAST_CARD, TAKE, RETRY)
    data = state.to_json()
    assert data["turn"]["retried_by"] == state.turn.retried_by
    assert state_from_json(data, ITUIUTABA.table, ITUIUTABA.deck).turn.retried_by == state.turn.retried_by
    assert problem_with("run", {"cmd": "run", "id": "x", "ruleset": "ituiutaba", "reading": {}, "state": data,
                                "actions": [{"player": "N", "discard": "5d"}]}) is None


@pytest.mark.parametrize("change, path", [
    (lambda turn: turn.update(retried=False), "turn.retried_by"),
    (lambda turn: turn.update(retried_by=None), "turn.retried_by"),
    (lambda turn: turn.update(retried_by=["opening.retry_with_stock_draw"]), "turn.retried_by"),
    (lambda turn: turn["retried_by"].pop("cites"), "turn.retried_by"),
    (lambda turn: turn["retried_by"].update(cites=[10.2]), "turn.retried_by.cites[0]"),
])
def test_a_bad_clause_is_refused_with_its_path(change, path):
    state, _ = played(ITUIUTABA, LAST_CARD, TAKE, RETRY)
    data = state.to_json()
    change(data["turn"])
    with pytest.raises(InputError) as err:
        state_from_json(data, ITUIUTABA.table, ITUIUTABA.deck)
    assert path in str(err.value)
