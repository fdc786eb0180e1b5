"""Article text by id, read from the user's own copy of a rulebook.

The project never copies the rulebooks; a referee who has them can ask for
the deciding articles verbatim. `extract(text, ids)` returns the text of each
article id found in a rulebook's .txt, under the id schemes of the specs
(docs/dsl.md, and the header of each spec file):

- numbered articles: "• 7 – ..." (7), "1.1 - ..." and "8,2 - ..." (1.1, 8.2),
  and a numbered heading that is itself a rule ("3 - Canastra é ...;": 3);
- named entries inside a section: "<section>.<term>", the slug of the term
  that opens the line ("Baralhos - ...": basico.baralhos; "DescarteÉ ...";
  a quoted "Real" under the entry "Canastra": definicoes.canastra-real);
- positions inside a section: "<section>.<n>", counting the units of the
  section in order: each bullet, each numbered step or "n)" entry, and each
  sentence of a paragraph (a sentence in parentheses after a full stop is a
  unit of its own; a short lead-in such as "Regras:" belongs to the sentence
  before it);
- a whole section by its id ("introducao", "contagem"); the text before the
  first heading is the section "introducao" (also "intro");
- in a markdown rulebook (a source whose name ends in .md), <section>.<n> is
  the n-th unit of the section its headings open (markdown_sections).

Sections are found from the ids asked for: a line is the heading of section
S when its slug is S or begins with S (INTRODUÇÃO DO JOGO: for introducao),
or when it opens with "S:" as a label (Curingas: ...). Nothing here knows a
ruleset by name: the structure of the text and the ids decide.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

_BULLET = re.compile(r"^•\s*")
_NUMBERED_ARTICLE = re.compile(r"^•?\s*(\d+)\s*[–-]\s*(?=\S)")          # • 7 – ...   (cbc)
_DOTTED = re.compile(r"^(\d+)[.,](\d+)\s*[–-]\s*")                     # 1.1 - ...   8,2 - ...
_NUMBERED_HEADING = re.compile(r"^(\d+)\s*[–-]\s*(.+)$")              # 3 - Canastra é ...;
_STEP = re.compile(r"^(\w{1,3})[.)]\s+")                               # 1. ...   1) ...   s1) ...
_TERM = re.compile(r"^(.+?)\s*(?:–|-|:|=)\s")
_GLUED = re.compile(r"^([A-ZÀ-Ú][\w/]*?[a-zà-ú])(?=[A-ZÀ-Ú])")
_QUOTED = re.compile(r'^["“]([\wÀ-ú]+)["”]?')
_LABEL = re.compile(r"^([A-ZÀ-Ú][\wÀ-ú ]*?):\s+(?=\S)")


def slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def _normal(raw: str) -> str:
    return re.sub(r"\s+", " ", raw.replace("\xa0", " ")).strip()


def _unspaced(line: str) -> str:
    """'R E C O M E N D A Ç Õ E S' -> 'RECOMENDAÇÕES'."""
    if re.fullmatch(r"(?:\S ){3,}\S:?", line):
        return line.replace(" ", "")
    return line


def _heading_shaped(line: str) -> bool:
    if _BULLET.match(line) or _STEP.match(line) or _DOTTED.match(line):
        return False
    words = line.split()
    if len(words) > 9:
        return False
    body = line[:-1] if line.endswith(":") else line
    return not re.search(r"[.;!?,]\s*$", body) and "." not in body.rstrip(".")


@dataclass
class Section:
    name: str
    heading: str = ""
    blocks: list[str] = field(default_factory=list)       # lines (paragraphs, bullets, steps)


def sentences(paragraph: str) -> list[str]:
    """A paragraph split into sentences; a lead-in of three words or fewer
    ending in a colon joins the sentence before it."""
    parts = re.split(r"(?:(?<=[.!?])|(?<=[.!?]\)))\s+(?=[\"“(]?[A-Za-zÀ-ú0-9(])"
                     r"|(?<=:)\s+(?=[\"“(]?[A-ZÀ-Ú0-9(])", paragraph)
    out: list[str] = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if out and part.endswith(":") and len(part.split()) <= 3:
            out[-1] += " " + part
        else:
            out.append(part)
    return out


def _units(section: Section) -> list[str]:
    units: list[str] = []
    for block in section.blocks:
        if _BULLET.match(block) or _STEP.match(block) or re.match(r"^\d+\s*-\s", block):
            units.append(block)
        else:
            units += sentences(block)
    return units


def _term(line: str) -> str | None:
    line = _BULLET.sub("", line)
    if re.fullmatch(r"[\wÀ-ú]+(?: [\wÀ-ú]+)?\s[–-]\s[\wÀ-ú]+(?: [\wÀ-ú]+)?", line):
        return line                      # "Cartas – Nomenclatura": the whole line names the entry
    match = _TERM.match(line)
    glued = _GLUED.match(line)
    if glued and (not match or len(glued.group(1)) < len(match.group(1))):
        return glued.group(1)
    if match and len(match.group(1).split()) <= 6:
        return match.group(1)
    return None


# ------------------------------------------------------------------ markdown

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_NUMBER = re.compile(r"^\d+\.(?:\d+\.?)*\s+(?=\S)")      # "5. ", "7.1 ": the heading's own number
_MD_BULLET = re.compile(r"^\s*[-*+]\s+")
_MD_STEP = re.compile(r"^\s*\d+[.)]\s+")
_MD_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_MD_TABLE_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$")


def markdown_plain(text: str) -> str:
    """Inline markdown removed: emphasis markers, code ticks, link targets."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("**", "").replace("`", "")
    return _normal(text)


def markdown_sections(text: str) -> dict[str, list[str]]:
    """The units of a markdown rulebook, by section, in order.

    Every heading below the title (## or deeper) opens a section named by the
    slug of its text without the heading's own number ("## 5. Pegar o lixo":
    pegar-o-lixo; "### 7.1 Sequência": sequencia); text between the title and
    the first such heading is the section "introducao". A unit is a paragraph,
    a bullet (an indented one too), a numbered step, a body row of a table (not
    its header or separator row) or a paragraph of a block quote, whatever the
    number of its sentences. Horizontal rules are not units."""
    sections: dict[str, list[str]] = {}
    current = "introducao"
    block: list[str] = []
    kind = None

    def close():
        nonlocal block, kind
        if block:
            sections.setdefault(current, []).append(markdown_plain(" ".join(block)))
        block, kind = [], None

    table_rows = 0
    for raw in text.splitlines():
        line = raw.rstrip()
        heading = _MD_HEADING.match(line)
        if heading:
            close()
            if len(heading.group(1)) > 1:
                current = slug(_MD_NUMBER.sub("", markdown_plain(heading.group(2))))
                if current in sections:
                    raise ValueError(f"two sections are named {current!r}")
            continue
        if not line.strip() or _MD_RULE.match(line):
            close()
            table_rows = 0
            continue
        if line.lstrip().startswith("|"):
            close()
            table_rows += 1
            if table_rows > 1 and not _MD_TABLE_SEPARATOR.match(line.strip()):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                sections.setdefault(current, []).append(markdown_plain(" | ".join(cells)))
            continue
        quoted = line.lstrip().startswith(">")
        body = re.sub(r"^\s*>\s?", "", line) if quoted else line
        if quoted and not body.strip():
            close()
            continue
        if _MD_BULLET.match(body) or _MD_STEP.match(body):
            close()
            block, kind = [_MD_STEP.sub(lambda m: m.group(0).strip() + " ", _MD_BULLET.sub("", body))], "item"
            continue
        this = "quote" if quoted else "text"
        if block and kind == "item" and raw[:1] in (" ", "\t") and not quoted:
            block.append(body.strip())            # an indented continuation of a bullet or step
            continue
        if kind not in (None, this) or (kind == "item"):
            close()
        block.append(body.strip())
        kind = this
    close()
    return {name: units for name, units in sections.items() if units}


class Rulebook:
    """One rulebook text, indexed for the ids of one spec."""

    def __init__(self, text: str, ids):
        self.ids = list(ids)
        wanted = {i.split(".")[0] for i in self.ids if "." in i and not i.split(".")[0].isdigit()}
        wanted |= {i for i in self.ids if "." not in i and not i.isdigit()}
        self.lines = [_normal(raw) for raw in text.splitlines()]
        self.sections: dict[str, list[Section]] = {}
        self.numbered: dict[str, str] = {}
        self.headings: dict[str, str] = {}
        self.preface = Section("introducao")
        self._read(wanted)

    def _section_for(self, line: str, wanted: set[str]) -> tuple[str, str] | None:
        """(section, rest of the line) when the line opens a wanted section."""
        label = _LABEL.match(line)
        if label and slug(label.group(1)) in wanted and not _heading_shaped(line):
            return slug(label.group(1)), line[label.end():]
        line = _unspaced(line)
        if not _heading_shaped(line):
            return None
        name = slug(line)
        if name in wanted:
            return name, ""
        for w in sorted(wanted, key=len, reverse=True):
            if name.startswith(w + "-"):
                return w, ""
        return None

    def _read(self, wanted: set[str]) -> None:
        current: Section | None = None
        started = False
        for i, line in enumerate(self.lines):
            if not line or i == 0:
                continue
            dotted = _DOTTED.match(line)
            article = _NUMBERED_ARTICLE.match(line) if line.startswith("•") else None
            if dotted:
                self.numbered[f"{int(dotted.group(1))}.{int(dotted.group(2))}"] = line
                started = True
            elif article:
                self.numbered.setdefault(article.group(1), line)
                started = True
            elif _NUMBERED_HEADING.match(line) and not _STEP.match(line):
                number = _NUMBERED_HEADING.match(line).group(1)
                self.headings.setdefault(str(int(number)), line)
            opened = self._section_for(line, wanted)
            if opened:
                name, rest = opened
                current = Section(name, line)
                self.sections.setdefault(name, []).append(current)
                started = True
                if rest:
                    current.blocks.append(rest)
                continue
            if current is not None:
                current.blocks.append(line)
            elif not started and not _heading_shaped(line) and not _NUMBERED_HEADING.match(line):
                self.preface.blocks.append(line)

    # --------------------------------------------------------------- lookup
    def section(self, name: str) -> Section | None:
        found = self.sections.get(name)
        if found:
            return found[-1]          # a heading met twice: the last one holds the entries
        if name in ("introducao", "intro") and self.preface.blocks:
            return self.preface
        return None

    def entries(self, section: Section) -> dict[str, str]:
        out: dict[str, str] = {}
        last = None
        for block in section.blocks:
            quoted = _QUOTED.match(block)
            if quoted and last:
                out.setdefault(f"{last}-{slug(quoted.group(1))}", block)
                continue
            if block[:1].islower() and last:
                out[last] += " " + block
                continue
            term = _term(block)
            if term:
                last = slug(term)
                out.setdefault(last, block)
        return out

    def get(self, article: str) -> str | None:
        if article in self.numbered:
            return self.numbered[article]
        if article in self.headings and "." not in article:
            return self.headings[article]
        section_name, _, rest = article.partition(".")
        if not rest:
            section = self.section(article)
            return " ".join(section.blocks) if section else None
        section = self.section(section_name)
        if section is not None:
            if rest.isdigit():
                units = _units(section)
                n = int(rest)
                return units[n - 1] if 0 < n <= len(units) else None
            found = self.entries(section).get(rest)
            if found:
                return found
        if rest.isdigit():
            return None
        for sections in self.sections.values():       # an entry named outside its section
            for s in sections:
                found = self.entries(s).get(rest)
                if found:
                    return found
        entries = self.entries(self.preface) if self.preface.blocks else {}
        if rest in entries:
            return entries[rest]
        return self._entry_anywhere(rest)

    def _entry_anywhere(self, term: str) -> str | None:
        for line in self.lines:
            found = _term(line) if line else None
            if found and slug(found) == term:
                return line
        return None


def extract(text: str, ids) -> dict[str, str | None]:
    """The text of each article id (None where the text has no such article)."""
    book = Rulebook(text, ids)
    return {i: book.get(i) for i in ids}


def quotes(directory, model, ids) -> tuple[dict[str, str | None], str | None]:
    """The text of the articles `ids` of a ruleset, from DIRECTORY/<its source>
    (and, for the ids of a section it declares in another text, from that
    text), and a note when a text cannot be read. The whole inventory of the
    ruleset is used to find the sections."""
    from pathlib import Path
    if not model.source:
        return {}, "the ruleset names no source text"
    parts = {part.prefix: part for part in model.source_sections}
    asked: dict = {}                      # the ids by the text they are read from (None: the source)
    for i in ids:
        asked.setdefault(parts.get(i.partition(".")[0]), []).append(i)
    found, note = _quotes_from_source(Path(directory), model, asked.pop(None, []))
    for part, wanted in asked.items():
        path = Path(directory) / part.file
        if not path.is_file():
            found.update(dict.fromkeys(wanted))
            note = note or f"{part.file} is not in {directory}"
            continue
        items = numbered_items(markdown_sections(path.read_text(encoding="utf-8", errors="replace"))
                               .get(part.section, []))
        found.update({i: items.get(i.partition(".")[2]) for i in wanted})
    return found, note


def _quotes_from_source(directory, model, ids) -> tuple[dict[str, str | None], str | None]:
    path = directory / model.source
    if not ids:
        return {}, None
    if not path.is_file():
        return {}, f"{model.source} is not in {directory}"
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".md":
        units = markdown_sections(text)
        found = {i: _unit(units, i) for i in ids}
        return found, (None if any(found.values()) else f"none of the articles is in {model.source}")
    book = Rulebook(text, model.articles)
    return {i: book.get(i) for i in ids}, None


def numbered_items(units: list[str]) -> dict[str, str]:
    """The units of a markdown section that open with a number ("2. ..."), by that number."""
    return {str(int(m.group(1))): unit for unit in units if (m := re.match(r"^(\d+)\.\s", unit))}


def _unit(units: dict[str, list[str]], article: str) -> str | None:
    """The text of a markdown rulebook's <section>.<position>."""
    section, _, position = article.rpartition(".")
    found = units.get(section, [])
    return found[int(position) - 1] if position.isdigit() and 0 < int(position) <= len(found) else None
