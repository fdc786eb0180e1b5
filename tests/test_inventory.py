"""Every article of every rulebook appears in its spec's inventory, and the
inventory has nothing the rulebook lacks."""
from __future__ import annotations

import pytest
from sources import CASA_RULEBOOK, casa_ids, cbc_ids, classica_sections, ituiutaba_ids, treze_ids, uruguaya_sections

from canastra_ref.dsl.loader import load

RULESETS = ["cbc", "ituiutaba", "ituiutaba-2p", "treze", "classica", "classica-2p", "classica-3p",
            "classica-6p", "uruguaya", "casa"]
VARIANTS = {"ituiutaba-2p": "ituiutaba", "classica-2p": "classica", "classica-3p": "classica",
            "classica-6p": "classica"}


def test_cbc_inventory_matches_the_source(sources):
    expected = cbc_ids((sources / "cbc.txt").read_text(encoding="utf-8"))
    inventory = set(load("cbc").articles)
    assert sorted(expected - inventory) == [], "articles of cbc.txt missing from spec/cbc.canastra"
    assert sorted(inventory - expected) == [], "inventory ids that cbc.txt does not have"
    numbered = {str(n) for n in range(1, 36)}
    assert numbered <= inventory


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_normative_article_is_cited(ruleset):
    """In a variant, an article may go uncited only where the variant replaced
    every base clause citing it (the 4-player deal under the 2-player rules)."""
    rules = load(ruleset)
    uncited = [a.id for a in rules.articles.values()
               if not a.informative and not rules.clauses_citing(a.id)]
    if ruleset in VARIANTS:
        base = load(VARIANTS[ruleset])
        overridden = {c.label for c in rules.all_clauses if c.modifier == "override"}
        uncited = [a for a in uncited
                   if not base.clauses_citing(a) or any(c.label not in overridden for c in base.clauses_citing(a))]
    assert uncited == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_informative_article_has_a_reason(ruleset):
    rules = load(ruleset)
    assert all(a.informative_reason.strip() for a in rules.articles.values() if a.informative)


def test_ituiutaba_inventory_matches_the_source(sources):
    expected = ituiutaba_ids((sources / "ituiutaba.txt").read_text(encoding="utf-8"))
    inventory = set(load("ituiutaba").articles)
    assert sorted(expected - inventory) == [], "articles of ituiutaba.txt missing from spec/ituiutaba.canastra"
    assert sorted(inventory - expected) == [], "inventory ids that ituiutaba.txt does not have"
    assert {"intro", "3", "8.2", "14.16"} <= inventory
    assert not any(i.startswith("6.") for i in inventory)          # the text has no section 6


def test_treze_inventory_matches_the_source(sources):
    expected = treze_ids((sources / "treze.txt").read_text(encoding="utf-8"))
    inventory = set(load("treze").articles)
    assert sorted(expected - inventory) == [], "articles of treze.txt missing from spec/treze.canastra"
    assert sorted(inventory - expected) == [], "inventory ids that treze.txt does not have"
    numbered = {f"regras.{n}" for n in range(1, 20)} | {f"valor.{n}" for n in range(1, 15)}
    assert numbered <= inventory                                   # "s1)" stands where regras.10 belongs
    assert {"cabecalho.baralho", "cabecalho.distribuicao"} <= inventory


@pytest.mark.parametrize("ruleset, file, reader", [("classica", "classica.txt", classica_sections),
                                                  ("uruguaya", "uruguaya.txt", uruguaya_sections)])
def test_sections_match_the_source(sources, ruleset, file, reader):
    sections = reader((sources / file).read_text(encoding="utf-8"))
    ids = list(load(ruleset).articles)
    covered = {i.split(".")[0] for i in ids}
    assert sorted(sections - covered) == [], f"sections of {file} with no entry in spec/{ruleset}.canastra"
    assert sorted(covered - sections) == [], f"inventory ids whose section {file} does not have"
    for section in sections:                       # positions run 1, 2, 3 ... with no gap
        positions = sorted(int(i.split(".")[1]) for i in ids if i.split(".")[0] == section)
        assert positions == list(range(1, len(positions) + 1)), section


def test_casa_inventory_matches_the_source(casa_source):
    rulebook = (casa_source / CASA_RULEBOOK).read_text(encoding="utf-8")
    notes = casa_source / "CLAUDE.md"
    expected = casa_ids(rulebook, notes.read_text(encoding="utf-8") if notes.is_file() else None)
    inventory = set(load("casa").articles)
    if not notes.is_file():                       # a copy of the rulebook alone: its clarifications are elsewhere
        inventory = {i for i in inventory if not i.startswith("clarifications.")}
    assert sorted(expected - inventory) == [], f"units of {CASA_RULEBOOK} missing from spec/casa.canastra"
    assert sorted(inventory - expected) == [], f"inventory ids that {CASA_RULEBOOK} does not have"
    sections = {i.rsplit(".", 1)[0] for i in inventory}
    assert {"requisitos", "abertura-pontuacao-minima", "3-vermelho-bonus-condicional",
            "dupla-que-nao-abriu"} <= sections
    assert {f"clarifications.{n}" for n in range(1, 9)} <= set(load("casa").articles)


@pytest.mark.parametrize("variant, base", sorted(VARIANTS.items()))
def test_variants_keep_the_base_inventory(variant, base):
    assert list(load(variant).articles) == list(load(base).articles)
    assert set(load(base).disputes) <= set(load(variant).disputes)

