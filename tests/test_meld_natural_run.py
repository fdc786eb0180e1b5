"""The meld fact meld.natural_run: the natural cards of a meld that stand
together with no wild card among them (a sequence's longest run, laid out in
rank order with each wild card at its place; a set's natural cards). cbc reads
it to tell a meld laid whole that holds a real and more cards (28, dispute
real-laid-whole) from one whose wild card stands between its natural cards."""
from __future__ import annotations

import pytest

from canastra_ref.dsl.facts import FACTS
from canastra_ref.engine.melds import fit_new
from canastra_ref.engine.rules import engine_for


def _run(ruleset: str, kind: str, cards: list[str]) -> int:
    engine = engine_for(ruleset)
    meld_kind = engine.meld_kind(kind)
    laid = fit_new(engine, meld_kind, cards, engine.value(f"meld.{kind}.ranks"))
    return engine.describe(kind, laid).natural_run


def test_the_fact_is_a_meld_fact():
    assert FACTS["meld.natural_run"].group == "meld" and FACTS["meld.natural_run"].type == "int"


@pytest.mark.parametrize("cards, run", [
    ("4h 5h 6h 7h 8h 9h Th Jh", 8),          # no wild card: every card
    ("4h 5h 6h 7h 8h 9h Th 2h", 7),          # the two above the ten
    ("JK 4h 5h 6h 7h 8h 9h Th", 7),          # the joker given first goes above the ten all the same
    ("5h 6h 7h 8h 9h Th Jh JK", 7),
    ("4d 5d 6d 7d 8d 9d 2d Jd", 6),          # the two as the ten: six, then one
    ("4s 5s 6s JK 8s 9s Ts Js", 4),          # the joker as the seven
    ("4h 5h 2h", 2),
])
def test_a_sequence_counts_its_longest_run_as_laid_out(cards, run):
    assert _run("cbc", "sequence", cards.split()) == run


def test_a_set_counts_its_natural_cards():
    assert _run("cbc", "aces", "Ac Ac Ad Ad Ah Ah As 2s".split()) == 7
    assert _run("cbc", "aces", "Ac 2s Ad".split()) == 2


def test_a_meld_of_wild_cards_only_has_no_natural_run():
    assert _run("ituiutaba", "wilds", "2c 2d 2h".split()) == 0


def test_cbc_reads_it_for_a_meld_laid_whole():
    # under as-eighth-card and going-out-only, a real with a wild card beside it may not be laid
    # outside going out; one whose wild card stands between the natural cards may
    engine = engine_for("cbc", (("real-eighth-card", "going-out-only"), ("real-laid-whole", "as-eighth-card")))
    rules = engine.ruleset.settings["meld.sequence.allowed"]
    assert any("meld.natural_run" in str(clause) for clause in rules.clauses)
