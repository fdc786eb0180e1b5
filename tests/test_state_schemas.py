"""The message and fixture schemas accept every form of the state the engine
writes: a pile taken for an opening with a red three in it, laid down and
replaced, records the stock, the red threes and the replacements in
opening_undo (state.py), and the schemas once refused those keys, so the
fuzzer saved a fixture the suite could not load."""
from __future__ import annotations

import yaml
from positions import position

from canastra_conformance.fixtures import load_file
from canastra_conformance.messages import problem_with
from canastra_ref.engine.actions import apply
from canastra_ref.engine.rules import engine_for

URUGUAYA = engine_for("uruguaya")       # red_three.with_pile = replace


def _pile_taken_with_a_red_three() -> dict:
    partial = {"turn": {"player": "N", "phase": "draw"}, "pile": ["3h", "Kc"], "teams": {"NS": {"opened": False}},
               "hands": {"N": ["Kd", "Ks", "5c", "6c", "7c", "9h", "Jd"], "E": 11, "S": 11, "W": 11}}
    state = position(URUGUAYA, partial)
    taken, verdict = apply(URUGUAYA, state, {"player": "N", "take_pile": {"with": ["Kd", "Ks"]}})
    assert verdict.reason == "pile.taken"
    return taken.to_json()


def test_a_red_three_laid_from_a_pile_taken_for_the_opening_passes_both_schemas(tmp_path):
    state = _pile_taken_with_a_red_three()
    assert set(state["turn"]["opening_undo"]) == {"pile", "stock", "red_threes", "drawn"}
    action = {"player": "N", "discard": "Jd"}
    assert problem_with("run", {"cmd": "run", "id": "x", "ruleset": "uruguaya", "reading": {}, "state": state,
                                "actions": [action]}) is None
    case = {"id": "red-three-in-the-undo", "ruleset": "uruguaya", "articles": ["frente-inicial.1"],
            "requires": [], "description": "a discard after a pile taken for the opening", "state": state,
            "actions": [action], "expect": [{"verdict": "penalised"}]}
    (tmp_path / "case.yaml").write_text(yaml.safe_dump([case]), encoding="utf-8")
    assert [c.id for c in load_file(tmp_path / "case.yaml")] == ["red-three-in-the-undo"]


def test_the_undo_gives_its_red_threes_all_together():
    state = _pile_taken_with_a_red_three()
    del state["turn"]["opening_undo"]["drawn"]
    assert problem_with("run", {"cmd": "run", "id": "x", "ruleset": "uruguaya", "reading": {}, "state": state,
                                "actions": [{"player": "N", "discard": "Jd"}]}) is not None
