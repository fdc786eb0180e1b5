"""Every article of every rulebook appears in its spec's inventory, and the
inventory has nothing the rulebook lacks."""
from __future__ import annotations

import pytest

from canastra_ref.dsl.loader import load
from sources import cbc_ids


def test_cbc_inventory_matches_the_source(sources):
    expected = cbc_ids((sources / "cbc.txt").read_text(encoding="utf-8"))
    inventory = set(load("cbc").articles)
    assert sorted(expected - inventory) == [], "articles of cbc.txt missing from spec/cbc.canastra"
    assert sorted(inventory - expected) == [], "inventory ids that cbc.txt does not have"
    numbered = {str(n) for n in range(1, 36)}
    assert numbered <= inventory


@pytest.mark.parametrize("ruleset", ["cbc"])
def test_every_normative_article_is_cited(ruleset):
    rules = load(ruleset)
    uncited = [a.id for a in rules.articles.values()
               if not a.informative and not rules.clauses_citing(a.id)]
    assert uncited == []


@pytest.mark.parametrize("ruleset", ["cbc"])
def test_every_informative_article_has_a_reason(ruleset):
    rules = load(ruleset)
    assert all(a.informative_reason.strip() for a in rules.articles.values() if a.informative)
