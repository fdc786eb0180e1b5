"""Article ids read mechanically from the rulebook texts, for the inventory tests.

The extraction follows the id scheme of each spec's header comment; it reads
structure only (bullets, numbers, entry terms, headings), never the wording.
"""
from __future__ import annotations

import re
import unicodedata


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
