"""A going out refused because the turn's melds fail the opening cites the rule
that failed: the clean meld (turn.clean_meld) where that is what the melds
lack, the minimum (opening.minimum) where the count falls short, never the
minimum for a count that reached it. The conformance suite grades citations
as "at least these articles", so it cannot see an article cited too many:
these tests read the trace. cbc reaches the refused meld or layoff under
going-out-real = during-turn (a real laid in the opening and dirtied by an
eighth card, 28, lets the player go out, and leaves the opening without its
clean meld, 7); a refused last discard, and a play that leaves that discard,
need opening.short_last_discard = going-out, which cbc does not take: a
variant of cbc does."""
from __future__ import annotations

from positions import position

from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import SPEC_DIR, files_for
from canastra_ref.dsl.parser import parse_text
from canastra_ref.engine.actions import apply
from canastra_ref.engine.rules import Engine

READING = {"going-out-real": "during-turn", "real-eighth-card": "dirties"}
REAL = ["4c", "5c", "6c", "7c", "8c", "9c", "Tc"]


def _engine(tmp_path, last_discard: str | None = None) -> Engine:
    (tmp_path / "cbc.canastra").write_text((SPEC_DIR / "cbc.canastra").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    override = f"override opening.short_last_discard = {last_discard} @13\n" if last_discard else ""
    variant = parse_text(f'ruleset variant "cbc, variant" extends cbc\n{override}', "variant.canastra")
    return Engine(build(files_for(variant, tmp_path), READING))


def _play(engine: Engine, hand: str, actions: list[dict], score: int = 0):
    """NS, at `score`, have not opened; N plays `actions` in turn; the last verdict."""
    partial = {"turn": {"player": "N", "phase": "play"}, "teams": {"NS": {"opened": False, "score": score}},
               "hands": {"N": hand, "E": 15, "S": 15, "W": 15}}
    state = position(engine, partial)
    for action in actions[:-1]:
        state, verdict = apply(engine, state, {"player": "N", **action})
        assert verdict.verdict in ("accepted", "penalised"), verdict.reason
    return apply(engine, state, {"player": "N", **actions[-1]})[1]


def _cited(verdict) -> set[str]:
    return {decision.setting for decision, decisive in verdict.trace if decisive}


# the articles only cbc's opening.minimum clauses cite (7 and introducao are the clean meld's too)
MINIMUM_ONLY = {"valor.24", "valor.25", "valor.26"}


def test_a_going_out_refused_for_want_of_a_clean_meld_cites_the_clean_meld(tmp_path):
    engine = _engine(tmp_path)
    # the real, then the joker on it (the real lost this turn lets N go out), then the jack that empties
    # the hand: 80 points reach the 75, but no meld is clean
    verdict = _play(engine, " ".join([*REAL, "JK", "Jc"]),
                    [{"meld": [REAL]}, {"layoff": {"meld": 0, "cards": ["JK"]}},
                     {"layoff": {"meld": 0, "cards": ["Jc"]}}])
    assert (verdict.verdict, verdict.reason) == ("rejected", "opening.no-clean-meld")
    assert "turn.clean_meld" in _cited(verdict) and "opening.minimum" not in _cited(verdict)
    assert {"7", "32"} <= set(verdict.cites) and not MINIMUM_ONLY & set(verdict.cites)


def test_a_going_out_refused_for_a_short_count_cites_the_minimum(tmp_path):
    engine = _engine(tmp_path)
    # NS at 2,500 need 120: the dirtied real (70) and a clean 4 5 6 of diamonds (15) empty the hand
    verdict = _play(engine, " ".join([*REAL, "JK", "4d", "5d", "6d"]),
                    [{"meld": [REAL]}, {"layoff": {"meld": 0, "cards": ["JK"]}}, {"meld": [["4d", "5d", "6d"]]}],
                    score=2500)
    assert (verdict.verdict, verdict.reason) == ("rejected", "opening.below-minimum")
    assert "opening.minimum" in _cited(verdict) and "turn.clean_meld" not in _cited(verdict)
    assert "valor.26" in verdict.cites


def test_a_refused_last_discard_and_the_play_leaving_it_cite_the_clean_meld(tmp_path):
    engine = _engine(tmp_path, "going-out")
    # the joker and the jack on the real leave the 4d beside an opening of 80 points without its clean
    # meld: the discard of that card could not go out
    stranded = _play(engine, " ".join([*REAL, "JK", "Jc", "4d"]),
                     [{"meld": [REAL]}, {"layoff": {"meld": 0, "cards": ["JK", "Jc"]}}])
    assert (stranded.verdict, stranded.reason) == ("rejected", "turn.last-card-stranded")
    assert "turn.clean_meld" in _cited(stranded) and "opening.minimum" not in _cited(stranded)
    # the position that play would have made, given as a state: the discard of the 4d is refused
    partial = {"turn": {"player": "N", "phase": "play", "melds_laid": [0], "canastras_lost": ["real"],
                        "laid_lost": [{"meld": 0, "kind": "real"}]},
               "teams": {"NS": {"opened": False, "canastras_lost": ["real"],
                                "melds": [{"kind": "sequence", "cards": [*REAL, "Jc", "JK"], "canastra": "suja"}]}},
               "players": {"N": {"melded": True}},
               "hands": {"N": "4d", "E": 15, "S": 15, "W": 15}}
    state = position(engine, partial)
    last = apply(engine, state, {"player": "N", "discard": "4d"})[1]
    assert (last.verdict, last.reason) == ("rejected", "opening.no-clean-meld")
    assert "turn.clean_meld" in _cited(last) and "opening.minimum" not in _cited(last)
    assert not MINIMUM_ONLY & set(last.cites)
