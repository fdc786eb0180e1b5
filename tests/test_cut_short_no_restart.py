"""A failed opening that starts the turn over (opening.failure_restarts_turn)
does not once the hand has ended: a turn the stock's end cut short
(opening.judge_cut_short) is judged as the last turn of the hand, and there is
no turn left to play again. No spec combines the two today; a variant of cbc
that restarts the turn shows it, on the hand of cbc's fixture
cbc-4-14-short-pile-opening-cut-short-by-the-last-red-three."""
from __future__ import annotations

from positions import position

from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import SPEC_DIR, files_for
from canastra_ref.dsl.parser import parse_text
from canastra_ref.engine.actions import apply
from canastra_ref.engine.rules import Engine


def test_a_turn_cut_short_by_the_hand_end_is_not_started_over(tmp_path):
    (tmp_path / "cbc.canastra").write_text((SPEC_DIR / "cbc.canastra").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    variant = parse_text('ruleset variant "cbc, variant" extends cbc\n'
                         "override opening.failure_restarts_turn = yes @13\n", "variant.canastra")
    engine = Engine(build(files_for(variant, tmp_path)))
    partial = {"turn": {"player": "N", "phase": "draw"}, "pile": ["Jd", "3h", "6h"], "stock": ["3d"], "stock_size": 1,
               "hands": {"N": "4h 5h 9d 4c".split(), "E": 15, "S": 15, "W": 15}}
    state = position(engine, partial)
    # 4h 5h 6h, 15 points, do not open (7: 75); the pile's 3h is replaced by the stock's last card
    after, verdict = apply(engine, state, {"player": "N", "take_pile": {"with": ["4h", "5h"]}})
    assert (verdict.verdict, verdict.reason) == ("penalised", "opening.below-minimum")
    assert after.ended["reason"] == "red-three-last"
    assert after.turn.phase == "over" and "opening.turn-restarted" not in verdict.events
    assert after.pile == ["Jd", "3h", "6h"] and sorted(after.players["N"].hand) == sorted("4h 5h 9d 4c".split())
    _, verdict = apply(engine, after, {"player": "N", "draw": "stock"})
    assert (verdict.verdict, verdict.reason) == ("rejected", "turn.hand-over")
