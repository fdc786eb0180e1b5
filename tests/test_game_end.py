"""The game_end query, game.past_target and game.tie: who wins when a hand ends with these totals."""
from __future__ import annotations

import pytest

from canastra_ref.engine.rules import engine_for
from canastra_ref.engine.scoring import game_over
from canastra_ref.protocol import handle


def _ask(ruleset: str, scores) -> dict:
    return handle({"cmd": "run", "id": "g", "ruleset": ruleset, "query": {"game_end": scores}})


def test_the_target_ends_the_game_and_the_higher_total_wins():
    assert _ask("cbc", {"NS": 5000, "EW": 4990}) == {"id": "g", "result": {"over": True, "winners": ["NS"]}}
    assert _ask("cbc", {"NS": 4995, "EW": 3000})["result"] == {"over": False, "winners": []}
    assert _ask("cbc", {"NS": 5120, "EW": 5340})["result"] == {"over": True, "winners": ["EW"]}


@pytest.mark.parametrize("tie, expected", [("shared", (True, ["NS", "EW"])), ("play-on", (False, []))])
def test_a_level_finish_follows_game_tie(tie, expected, monkeypatch):
    engine = engine_for("cbc")
    real = engine.value
    monkeypatch.setattr(engine, "value", lambda path, ctx=None: tie if path == "game.tie" else real(path, ctx))
    assert game_over(engine, {"NS": 5150, "EW": 5150}) == expected


@pytest.mark.parametrize("past, expected", [("higher-total", (True, ["EW"])), ("shared", (True, ["NS", "EW"]))])
def test_teams_past_the_target_in_one_hand_follow_game_past_target(past, expected, monkeypatch):
    engine = engine_for("cbc")
    real = engine.value
    monkeypatch.setattr(engine, "value", lambda path, ctx=None: past if path == "game.past_target" else real(path, ctx))
    assert game_over(engine, {"NS": 5120, "EW": 5340}) == expected
    # one team alone past the target wins whatever the setting
    assert game_over(engine, {"NS": 4990, "EW": 5340}) == (True, ["EW"])


@pytest.mark.parametrize("scores", [{"NS": 5000}, {"NS": 5000, "EW": "5000"}, {"NS": 1, "EW": 2, "XX": 3},
                                    [5000, 5000], {"NS": True, "EW": 5000}])
def test_a_malformed_game_end_query_is_an_error_naming_its_path(scores):
    answer = _ask("cbc", scores)
    assert answer["errored"] is True and "$.query.game_end" in answer["message"]
    assert '"NS": <integer>' in answer["message"]
