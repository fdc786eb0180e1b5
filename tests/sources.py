"""Article ids read mechanically from the rulebook texts, for the inventory tests.

The extraction follows the id scheme of each spec's header comment; it reads
structure only (bullets, numbers, entry terms, headings), never the wording.
"""
from __future__ import annotations

import re
import unicodedata

from canastra_tools.sources import markdown_sections


def slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


_CBC_SECTIONS = {"BÁSICO:": "basico", "INTRODUÇÃO DO JOGO:": "introducao", "DEFINIÇÕES:": "definicoes",
                 "CONTAGEM DE PONTOS:": "contagem", "VALOR EM PONTOS:": "valor",
                 "R E C O M E N D A Ç Õ E S": "recomendacoes", "R E G U L A M E N T O:": "regulamento"}


def _cbc_term(line: str) -> str:
    """The term an entry line defines: text before its dash, colon, or glued capital."""
    line = line.strip().lstrip("•").strip()
    match = re.match(r"^(.+?)\s*(?:–|-|:)\s", line)
    glued = re.match(r"^([A-ZÁ-Ú][\w/]*?[a-zà-ú])(?=[A-ZÁ-Ú])", line)
    if glued and (not match or len(glued.group(1)) < len(match.group(1))):
        return glued.group(1)
    return match.group(1) if match else line


def cbc_ids(text: str) -> set[str]:
    ids: set[str] = set()
    section = None
    position = 0
    for raw in text.splitlines():
        line = re.sub(r"\s+", " ", raw.replace("\xa0", " ")).strip()
        if not line:
            continue
        if line in _CBC_SECTIONS:
            section, position = _CBC_SECTIONS[line], 0
            if section in ("introducao", "contagem"):
                ids.add(section)
            continue
        numbered = re.match(r"^•\s*(\d+)\s*[–-]", line)
        if numbered:
            ids.add(numbered.group(1))
            continue
        if section in (None, "introducao", "contagem"):
            continue
        if section == "definicoes":
            if line.startswith("a carta") or line.startswith("as demais") or line.startswith("Parágrafo"):
                continue
            if line.startswith(("\"", "“")):
                kind = re.match(r'^["“](\w+)', line).group(1)
                ids.add(f"definicoes.canastra-{slug(kind)}")
                continue
            if line.startswith("Cartas – Nomenclatura"):
                ids.add("definicoes.cartas-nomenclatura")
                continue
            ids.add(f"definicoes.{slug(_cbc_term(line))}")
        elif section == "basico":
            ids.add(f"basico.{slug(_cbc_term(line))}")
        elif section == "valor":
            position += 1
            ids.add(f"valor.{position}")
        elif section == "recomendacoes":
            number = re.match(r"^(\d+)\s*-", line)
            if number:
                ids.add(f"recomendacoes.{int(number.group(1))}")
        elif section == "regulamento":
            if line.startswith(("Boa Sorte", "“O silêncio", "Comissão")):
                continue
            ids.add(f"regulamento.{slug(_cbc_term(line))}")
    return ids


def _lines(text: str) -> list[str]:
    return [re.sub(r"\s+", " ", raw.replace("\xa0", " ")).strip() for raw in text.splitlines()]


# ------------------------------------------------------------------ ituiutaba

def ituiutaba_ids(text: str) -> set[str]:
    """The printed numbers "1.1" .. "14.16" ("8,2" is 8.2), the number of a
    heading whose title is itself a rule (it introduces its list with a
    sentence ending in ";" or ":"), and "intro" for the preface before the
    first numbered article."""
    ids: set[str] = set()
    preface = False
    for line in _lines(text):
        if not line:
            continue
        article = re.match(r"^(\d+)[.,](\d+)\s*-", line)
        heading = re.match(r"^(\d+)\s*-\s*(.+)$", line)
        if article:
            ids.add(f"{int(article.group(1))}.{int(article.group(2))}")
        elif heading:
            if heading.group(2).rstrip().endswith((";", ":")):
                ids.add(heading.group(1))
        elif not ids:
            preface = True
    if preface:
        ids.add("intro")
    return ids


# ---------------------------------------------------------------------- treze

def treze_ids(text: str) -> set[str]:
    """cabecalho.<term> for the "Term: ..." lines before the REGRAS heading;
    regras.N and valor.N for the "N)" entries under the REGRAS heading and the
    value heading. An entry whose marker is not a number ("s1)") takes the
    number of its position."""
    ids: set[str] = set()
    section, position = "cabecalho", 0
    for line in _lines(text):
        if not line:
            continue
        if line == "REGRAS":
            section, position = "regras", 0
            continue
        if line.startswith("Valor das Cartas"):
            section, position = "valor", 0
            continue
        if section == "cabecalho":
            term = re.match(r"^([A-ZÀ-Ú][\wÀ-ú]*):\s+\S", line)
            if term:
                ids.add(f"cabecalho.{slug(term.group(1))}")
            continue
        entry = re.match(r"^(\w+)\)", line)
        if entry:
            position += 1
            marker = entry.group(1)
            ids.add(f"{section}.{int(marker) if marker.isdigit() else position}")
    return ids


# ---------------------------------------------------- classica and uruguaya

def _is_plain_heading(line: str) -> bool:
    """A line that is not a bullet or a numbered step and has no closing punctuation."""
    return not line.startswith("•") and not re.match(r"^\d+\.\s", line) and \
        not line.endswith((".", ":", ";", "!", "?", ")"))


def classica_sections(text: str) -> set[str]:
    """Slugs of the section headings after the title line, plus "introducao"
    when text stands between the title and the first heading."""
    sections: set[str] = set()
    lines = [line for line in _lines(text) if line]
    current = None
    for line in lines[1:]:
        if _is_plain_heading(line):
            current = slug(line)
            sections.add(current)
        elif current is None:
            sections.add("introducao")
    return sections


def uruguaya_sections(text: str) -> set[str]:
    """Slugs of the sections: headings without closing punctuation, a heading
    line ending in a colon that a paragraph (not a list) follows, and the
    paragraphs that open with a short label and a colon ("Curingas: ...")."""
    sections: set[str] = set()
    lines = [line for line in _lines(text) if line]
    current = None
    for i, line in enumerate(lines[1:], start=1):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        label = re.match(r"^([A-ZÀ-Ú][\wÀ-ú ]*?):\s+\S", line)
        if _is_plain_heading(line) or (line.endswith(":") and len(line.split()) <= 8
                                       and "." not in line and not following.startswith("•")):
            current = slug(line)
            sections.add(current)
        elif label and len(label.group(1).split()) <= 4:
            current = slug(label.group(1))
            sections.add(current)
        elif current is None:
            sections.add("introducao")
    return sections


# ----------------------------------------------------------------------- casa

CASA_RULEBOOK = "canastra-regras-da-casa.md"
CASA_CLARIFICATIONS = "rules-clarifications-resolved-ambiguities"


def casa_ids(rulebook: str, notes: str | None) -> set[str]:
    """<section>.<position> for every unit of the markdown rulebook (the reader
    the quoting tool uses), and clarifications.<n> for the numbered items of
    the clarifications section of the repository's CLAUDE.md (`notes`)."""
    ids = {f"{section}.{i}" for section, units in markdown_sections(rulebook).items()
           for i in range(1, len(units) + 1)}
    if notes is not None:
        for unit in markdown_sections(notes).get(CASA_CLARIFICATIONS, []):
            number = re.match(r"^(\d+)\.\s", unit)
            if number:
                ids.add(f"clarifications.{int(number.group(1))}")
    return ids
