"""tools.sources: article text by id from the rulebook texts (../shared/sources)."""
from __future__ import annotations

from collections import Counter

import pytest

from canastra_ref.dsl.loader import load
from canastra_tools.sources import Rulebook, _units, extract, markdown_sections, quotes, sentences

BASES = ["cbc", "ituiutaba", "treze", "classica", "uruguaya"]


def _book(sources, ruleset):
    model = load(ruleset)
    return model, Rulebook((sources / model.source).read_text(encoding="utf-8"), model.articles)


@pytest.mark.parametrize("ruleset", BASES)
def test_every_article_of_the_inventory_is_found(sources, ruleset):
    model, book = _book(sources, ruleset)
    missing = [i for i in model.articles if not book.get(i)]
    assert missing == []


@pytest.mark.parametrize("ruleset", ["classica", "uruguaya"])
def test_positions_count_the_units_of_each_section(sources, ruleset):
    """Every section holds exactly as many units as the inventory numbers."""
    model, book = _book(sources, ruleset)
    per_section = Counter(i.rsplit(".", 1)[0] for i in model.articles)
    for section, count in per_section.items():
        assert len(_units(book.section(section))) == count, section


@pytest.mark.parametrize("ruleset, article, start", [
    ("cbc", "27", "• 27-Pode trincar somente os ases"),
    ("cbc", "basico.baralhos", "• Baralhos - dois de 52 cartas"),
    ("cbc", "definicoes.canastra-real", '"Real" = Composta de sete cartas'),
    ("cbc", "definicoes.descarte", "DescarteÉ a autoridade máxima"),
    ("cbc", "valor.13", "• Ases = 15 pontos cada."),
    ("cbc", "recomendacoes.3", "03 - Para os jogadores apressados"),
    ("cbc", "regulamento.erros", "Erros - Quando se tratar de erros"),
    ("cbc", "contagem", "Ao término da rodada"),
    ("ituiutaba", "8.2", "8,2 - Quatro 3 vermelhos valem 500"),
    ("ituiutaba", "3", "3 - Canastra é o jogo completo"),
    ("ituiutaba", "intro", "O jogo de Canastra surgiu"),
    ("treze", "regras.10", "s1) Os jogadores não poderão"),
    ("treze", "cabecalho.distribuicao", "Distribuição: 13 cartas"),
    ("treze", "valor.14", "14) Abertura: 150 pontos"),
    ("classica", "jogos-e-canastras.2", "O naipe não importa. Regras:"),
    ("classica", "pegar-o-lixo.8", "O lixo fica congelado:"),
    ("classica", "pegar-o-lixo.10", "• para todos, quando há um coringa"),
    ("classica", "distribuicao.4", "4. Vire a carta de cima do monte"),
    ("uruguaya", "jogando-canastra-classica.2", "(O jogo se move no sentido horário)."),
    ("uruguaya", "sacando-da-lixeira.2", "para tal, o jogador deve utilizar"),
    ("uruguaya", "curingas.1", "Os 2 e Curingas podem ser combinados"),
    ("uruguaya", "pontuacao.14", "• Três Vermelho: +100 pontos cada"),
])
def test_known_articles(sources, ruleset, article, start):
    _, book = _book(sources, ruleset)
    assert book.get(article).startswith(start)


def test_sentences_keep_lead_ins_with_what_they_follow():
    assert sentences("O naipe não importa. Regras:") == ["O naipe não importa. Regras:"]
    assert sentences("Fazer isso. O lixo fica congelado:") == ["Fazer isso.", "O lixo fica congelado:"]
    assert sentences("Um. (Dois.) Três.") == ["Um.", "(Dois.)", "Três."]


def test_unknown_ids_and_missing_texts(sources, tmp_path):
    text = (sources / "cbc.txt").read_text(encoding="utf-8")
    assert extract(text, ["basico.baralhos", "99", "valor.99", "nosuch.entry"]) == {
        "basico.baralhos": "• Baralhos - dois de 52 cartas mais dois curingões, total de 106 cartas.",
        "99": None, "valor.99": None, "nosuch.entry": None}
    found, note = quotes(tmp_path, load("cbc"), ["7"])
    assert found == {} and "cbc.txt is not in" in note


MARKDOWN = """# Title

> A claim about the rules.

## 1. First section

One paragraph. Two sentences.

- a bullet
  continued
- another

| Item | Value |
|---|---|
| cards | 108 |

### 1.1 Sub part

1. a step
2. another step

---

## 2. Empty heading

### 3 vermelho — bônus

> **Exemplo.** A quote.
"""


def test_markdown_units_follow_the_structure():
    units = markdown_sections(MARKDOWN)
    assert units == {
        "introducao": ["A claim about the rules."],
        "first-section": ["One paragraph. Two sentences.", "a bullet continued", "another", "cards | 108"],
        "sub-part": ["1. a step", "2. another step"],
        "3-vermelho-bonus": ["Exemplo. A quote."],
    }


def test_casa_articles_are_quoted_from_the_markdown(casa_source):
    model = load("casa")
    found, note = quotes(casa_source, model, ["abertura-pontuacao-minima.8", "cartas.9", "clarifications.2"])
    assert note is None
    assert found["abertura-pontuacao-minima.8"].startswith("Abertura mal-sucedida sobe o mínimo (§6.1).")
    assert found["cartas.9"].startswith("Exemplo: canastra limpa")
    # the clarifications are the numbered items of a section of CLAUDE.md, which the spec declares
    assert found["clarifications.2"].startswith("2. Exact tie at 5000+")
    units = markdown_sections((casa_source / model.source).read_text(encoding="utf-8"))
    assert len(units["requisitos"]) == 4 and len(units["ficha-de-pontuacao"]) == 7


def test_a_text_beside_the_source_that_is_missing_gives_a_note(casa_source, tmp_path):
    model = load("casa")
    (tmp_path / model.source).write_text((casa_source / model.source).read_text(encoding="utf-8"), encoding="utf-8")
    found, note = quotes(tmp_path, model, ["cartas.9", "clarifications.2"])
    assert found["cartas.9"].startswith("Exemplo: canastra limpa") and found["clarifications.2"] is None
    assert note == f"CLAUDE.md is not in {tmp_path}"
