"""A ruleset's rulebook rendered literately: each article of its inventory
with the project's paraphrase, the DSL clauses that cite it (their source,
highlighted by the `.canastra` lexer), the disputes on it and the fixtures
citing it; with a directory of rulebook texts, the article's own wording
beside it (read from the user's copy, never stored in the repository).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from markupsafe import Markup
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter

from ..lexer import CanastraLexer

CSS_CLASS = "dsl"


@lru_cache(maxsize=None)
def _lines(path: str) -> tuple[str, ...]:
    return tuple(Path(path).read_text(encoding="utf-8").splitlines())


def statement_text(path: str, line: int) -> str:
    """The statement starting at `line` of a spec file: that line and the
    indented lines continuing it (grammar/canastra.lark), comments inside kept."""
    lines = _lines(path)
    out = [lines[line - 1]]
    following = []
    for text in lines[line:]:
        if not text.strip() or text[0] not in " \t":
            break
        following.append(text)
        if not text.strip().startswith("#"):
            out += following
            following = []
    return "\n".join(out)


def highlight(source: str) -> Markup:
    """DSL source as highlighted HTML (Pygments escapes it)."""
    return Markup(pygments_highlight(source, CanastraLexer(), HtmlFormatter(cssclass=CSS_CLASS)))


def stylesheet() -> str:
    return HtmlFormatter(style="friendly").get_style_defs(f".{CSS_CLASS}")


def clause_view(clause) -> dict:
    pos = clause.pos
    return {"label": clause.label, "setting": clause.setting, "file": Path(pos.file).name, "line": pos.line,
            "html": highlight(statement_text(pos.file, pos.line)),
            "under": [f"{g.dispute}.{g.reading}" for g in clause.guards if g.kind == "under"]}


def entries(model, cases: list, quotes: dict) -> list[dict]:
    """The rulebook's articles in order, each with what the site shows of it."""
    out = []
    for article in model.articles.values():
        out.append({
            "id": article.id, "paraphrase": article.paraphrase, "informative": article.informative_reason,
            "clauses": [clause_view(c) for c in model.clauses_citing(article.id)],
            "disputes": [d.name for d in model.disputes_on(article.id)],
            "fixtures": [c for c in cases if article.id in c.articles],
            "quote": quotes.get(article.id),
        })
    return out


def unstated(model) -> list[dict]:
    return [{"setting": path, "reason": entry.reason, "file": Path(entry.pos.file).name, "line": entry.pos.line}
            for path, entry in model.unstated.items()]


def source_quotes(directory: Path | None, model) -> tuple[dict, str | None]:
    """Every article's wording from DIRECTORY/<the ruleset's source>, and a note when there is none."""
    if directory is None:
        return {}, None
    from ..sources import quotes
    return quotes(directory, model, list(model.articles))
