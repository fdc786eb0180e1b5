"""The ruleset model: decisions, their citations, readings, exceptions and
run-time conflicts, on the small test spec and on spec/cbc.canastra."""
from __future__ import annotations

from pathlib import Path

import pytest

from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import load
from canastra_ref.dsl.parser import parse_text
from canastra_ref.errors import InputError, RuleError


class Facts:
    def __init__(self, **values):
        self.values = values

    def fact(self, name):
        return self.values[name]


def _minimal(text):
    return build([parse_text(text, "minimal.canastra")])


def test_positions_are_kept(minimal_text):
    spec = parse_text(minimal_text, "minimal.canastra")
    clause = next(c for c in spec.clauses if c.setting == "deal.cards")
    assert (clause.pos.file, clause.pos.line, clause.pos.column) == ("minimal.canastra", 25, 1)
    assert clause.citations[0].pos.column == 17


def test_texts_beside_the_source_are_inherited_and_redeclared(tmp_path, minimal_text):
    from canastra_ref.dsl.loader import files_for
    (tmp_path / "minimal.canastra").write_text(minimal_text.replace(
        'ruleset minimal "Minimal test ruleset"\n', 'ruleset minimal "Minimal test ruleset"\nsource "book.md"\n'
        'source "notes.md" section "rulings" as rulings\nsource "faq.md" section "faq" as faq\n'))
    variant = parse_text('ruleset variant "v" extends minimal\nsource "notes-2.md" section "rulings" as rulings\n',
                         "variant.canastra")
    ruleset = build(files_for(variant, tmp_path))
    assert ruleset.source == "book.md"
    assert {(p.prefix, p.file, p.section) for p in ruleset.source_sections} == {
        ("rulings", "notes-2.md", "rulings"), ("faq", "faq.md", "faq")}


def test_rank_ranges_in_setting_paths_expand(minimal_text):
    ruleset = _minimal(minimal_text)
    assert [ruleset.value(f"points.{r}") for r in ("4", "7", "8", "10", "K")] == [5, 5, 10, 10, 10]


def test_conditional_clauses_decide_by_condition(minimal_text):
    ruleset = _minimal(minimal_text)
    low = ruleset.decide("opening.minimum", Facts(**{"team.score": 2490}))
    high = ruleset.decide("opening.minimum", Facts(**{"team.score": 2500}))
    assert (low.value, high.value) == (75, 120)
    assert low.cites == ("6",)


def test_a_gap_between_conditions_is_a_rule_error(minimal_text):
    ruleset = _minimal(minimal_text)
    with pytest.raises(RuleError, match="no clause of 'opening.minimum' applies"):
        ruleset.decide("opening.minimum", Facts(**{"team.score": 2495}))


def test_readings_select_clauses(minimal_text):
    spec = parse_text(minimal_text, "minimal.canastra")
    assert build([spec]).value("meld.aces.suits") == "any"
    assert build([spec], {"aces": "same"}).value("meld.aces.suits") == "same"
    with pytest.raises(InputError, match="has no reading 'both'"):
        build([spec], {"aces": "both"})
    with pytest.raises(InputError, match="no dispute 'nothing'"):
        build([spec], {"nothing": "x"})


def test_an_exception_wins_when_its_condition_holds(minimal_text):
    text = minimal_text + "exception opening.minimum = 0 when batch.canastras >= 1 @6\n"
    ruleset = _minimal(text)
    facts = {"team.score": 0, "batch.canastras": 1}
    assert ruleset.value("opening.minimum", Facts(**facts)) == 0
    facts["batch.canastras"] = 0
    assert ruleset.value("opening.minimum", Facts(**facts)) == 75


def test_two_applicable_clauses_are_a_rule_error_at_run_time(minimal_text):
    # conditions on different facts cannot be told apart statically
    text = minimal_text.replace("pile.blocked = pile.top.black_three @7",
                                "pile.blocked = yes when pile.size * 2 > 4 @7\n"
                                "pile.blocked = no when pile.top.wild @7")
    ruleset = _minimal(text)
    assert ruleset.value("pile.blocked", Facts(**{"pile.size": 3, "pile.top.wild": False}))
    with pytest.raises(RuleError, match="two clauses of 'pile.blocked' apply at once"):
        ruleset.value("pile.blocked", Facts(**{"pile.size": 3, "pile.top.wild": True}))


def test_absent_optional_settings_take_their_documented_default(minimal_text):
    ruleset = _minimal(minimal_text)
    assert ruleset.decide("draw.first_redraw").value is False
    assert ruleset.decide("draw.first_redraw").clause is None
    assert ruleset.value("score.nothing") == 0


def test_cbc_opening_bands_and_waiver():
    cbc = load("cbc")
    def minimum(score, reals=0):
        return cbc.decide("opening.minimum", Facts(**{"team.score": score, "batch.canastras.real": reals}))
    assert minimum(0).value == 75
    assert minimum(2490).value == 75
    assert minimum(2500).value == 120
    waived = minimum(3000, reals=1)
    assert waived.value == 0 and "7" in waived.cites


def test_cbc_canastra_kinds_follow_the_articles():
    cbc = load("cbc")
    assert cbc.canastra_kinds == ("real", "limpa", "suja")
    def kind(**meld):
        facts = {"meld.jokers": 0, "meld.twos": 0, "meld.kind": "sequence", **meld}
        facts["meld.wilds"] = facts["meld.jokers"] + facts["meld.twos"]
        for name in cbc.canastra_kinds:
            if cbc.value(f"canastra.{name}.match", Facts(**facts)):
                return name, cbc.value(f"canastra.{name}.value", Facts(**facts))
        return None
    assert kind(**{"meld.size": 7}) == ("real", 500)                            # 25
    assert kind(**{"meld.size": 7, "meld.kind": "aces"}) == ("real", 1000)      # valor.18
    assert kind(**{"meld.size": 8}) == ("suja", 300)                            # 28
    assert kind(**{"meld.size": 7, "meld.jokers": 1}) == ("limpa", 500)         # definicoes.canastra-limpa
    assert kind(**{"meld.size": 8, "meld.jokers": 1}) == ("suja", 300)          # dispute limpa-eighth-card
    assert kind(**{"meld.size": 7, "meld.twos": 1}) == ("suja", 300)            # definicoes.canastra-suja
    assert kind(**{"meld.size": 6}) is None


def test_cbc_red_threes_sign_depends_on_a_real_canastra():
    cbc = load("cbc")
    def red(threes, reals):
        return cbc.decide("score.red_threes", Facts(**{"team.red_threes": threes, "team.canastras.real": reals}))
    assert red(2, 1).value == 200
    assert red(4, 1).value == 800
    assert red(3, 0).value == -300
    assert red(4, 0).value == -800
    assert set(red(4, 0).cites) >= {"23", "valor.7"}


def test_docs_reference_is_current():
    from canastra_ref.dsl import reference
    text = (Path(__file__).resolve().parents[1] / reference.DOC).read_text(encoding="utf-8")
    assert reference.splice(text) == text, "run: python -m canastra_ref.dsl.reference --write"


def test_a_ladder_after_any_number_of_failures():
    """Ladder.after looped once per failure (10^12 failures never answered); it is
    now bounded, and agrees with the failure-by-failure definition."""
    from canastra_ref.dsl.ast import Ladder
    from canastra_ref.errors import SourcePosition

    def stepwise(ladder, value, failures):
        for _ in range(failures):
            higher = [s for s in ladder.steps if s > value]
            value = higher[0] if higher else value + (ladder.then or 0)
        return value
    where = SourcePosition("x", 1, 1)
    for ladder in (Ladder(where, (75, 120, 150, 180, 210), 30), Ladder(where, (80, 100), None),
                   Ladder(where, (50,), 0), Ladder(where, (), 25)):
        for start in (0, 75, 100, 130, 300):
            for failures in range(9):
                assert ladder.after(start, failures) == stepwise(ladder, start, failures)
    assert Ladder(where, (75, 120, 150, 180, 210), 30).after(75, 10 ** 12) == 210 + 30 * (10 ** 12 - 4)
