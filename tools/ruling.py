"""The dispute report (tools.dispute) as a ruling a referee could print:
Markdown, HTML or JSON.

The document shows the table as the situation states it (melds per team,
hands, the pile and its top card, the stock), what was done, a summary of the
rulings, then per ruleset the ruling with its reasons, the score effect, the
deciding articles (paraphrased, and quoted from the rulebook when --sources
was given) and the disputes that bear on the situation with what each other
reading would rule. Markdown and HTML are rendered from one list of blocks.
"""
from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

from canastra_ref import __version__
from canastra_ref.display import markdown_literal
from canastra_ref.dsl.loader import load
from canastra_ref.engine.reasons import REASONS

from . import cardtext
from .dispute import Report, Ruling

# Blocks: ("h1"|"h2"|"h3"|"p", text), ("table", header, rows), ("ol"|"ul", items),
# ("quote", text). Inline marks in text: **bold**, *emphasis*, `code`; text from
# the situation file or the rulebook texts goes in as markdown_literal, its
# punctuation backslash-escaped, so no mark (and no raw HTML) comes of it.


def _score(outcome) -> str:
    if outcome.kind == "query":
        return "—"
    if outcome.score is None:
        return "no score yet: the hand goes on"
    parts = []
    for team, s in outcome.score.items():
        terms = ", ".join(f"{n} {v:+d}" for n, v in s["terms"].items() if v)
        parts.append(f"{team} {s['total']:+d}" + (f" ({terms})" if terms else ""))
    return "; ".join(parts)


def _verdicts(outcome, short: bool = False) -> list[str]:
    if outcome.error:
        return [f"*no ruling*: {markdown_literal(outcome.error)}"]
    if outcome.kind == "query":
        return [f"`{json.dumps(outcome.result, ensure_ascii=False)}`"]
    out = []
    for s in outcome.steps:
        text = f"*{s.verdict}* — `{s.reason}`"
        if not short:
            text += f": {REASONS.get(s.reason, '')}"
            if s.message:
                text += f" ({s.message})"
            if s.cites:
                text += " — " + ", ".join(f"**{c}**" for c in s.cites)
        out.append(text)
    return out


def _table_blocks(data: dict) -> list:
    blocks = []
    if "query" in data:
        q = data["query"]
        blocks.append(("p", cardtext.query(q)))
        if "score" in q:
            blocks += _state_blocks(q["score"])
        return blocks
    return _state_blocks(data.get("state") or {})


def _state_blocks(state: dict) -> list:
    blocks = []
    turn = state.get("turn") or {}
    line = []
    if turn.get("player"):
        line.append(f"{turn['player']} to play" + (f" ({turn.get('phase', 'draw')} phase)"))
    if state.get("dealer"):
        line.append(f"dealer {state['dealer']}")
    if state.get("ended"):
        ended = state["ended"]
        line.append(f"the hand is over ({ended.get('reason')}" + (f", {ended['player']}" if ended.get("player") else "")
                    + ")")
    if line:
        blocks.append(("p", "*" + " · ".join(line) + "*"))
    teams = state.get("teams") or {}
    if teams:
        rows = []
        for name, team in teams.items():
            melds = " · ".join(cardtext.cards(cardtext.meld_cards(m)) for m in team.get("melds") or []) or "—"
            threes = cardtext.cards(team.get("red_threes") or []) or "—"
            rows.append([name, str(team.get("score", 0)), melds, threes])
        blocks.append(("table", ["team", "score", "melds on the table", "red threes"], rows))
    hands = state.get("hands") or {}
    if hands:
        items = [f"{seat}: " + (f"{h} cards" if isinstance(h, int) else (cardtext.cards(h) or "no cards"))
                 for seat, h in hands.items()]
        blocks.append(("p", "**Hands.** " + "; ".join(items) + "."))
    pile = state.get("pile")
    pile = pile.split() if isinstance(pile, str) else pile
    if pile:
        blocks.append(("p", f"**Discard pile.** {cardtext.card(pile[-1])} on top; {len(pile)} card(s): "
                            f"{cardtext.cards(pile)} (bottom to top)."))
    elif "pile" in state:
        blocks.append(("p", "**Discard pile.** empty."))
    stock = state.get("stock")
    stock = stock.split() if isinstance(stock, str) else stock
    if stock or "stock_size" in state:
        size = state.get("stock_size")
        text = (f"{cardtext.cards(stock)} on top" if stock else "") + \
            (f"{', ' if stock else ''}{size} card(s) in all" if size is not None else ", then the rest of the deck")
        blocks.append(("p", "**Stock.** " + text + "."))
    return blocks


def _articles(articles, quoted: bool) -> list:
    items = []
    for a in articles:
        text = f"**{a.id}** — {a.paraphrase}"
        if quoted:
            text += "\n" + (f"> {markdown_literal(a.quote)}" if a.quote else "> (not found in the text)")
        items.append(text)
    return items


def blocks(report: Report) -> list:
    sit = report.situation
    quoted = report.sources is not None
    out = [("h1", f"Ruling: {markdown_literal(sit.title)}")]
    if sit.description:
        out.append(("p", markdown_literal(sit.description)))
    out.append(("h2", "The table"))
    out += _table_blocks(sit.data)
    if sit.data.get("actions"):
        out.append(("h2", "What was done"))
        out.append(("ol", [cardtext.action(a) for a in sit.data["actions"]]))
    out.append(("h2", "Rulings at a glance"))
    rows = []
    for r in report.rulings:
        disputes = ", ".join(d.name for d in r.disputes) or "none"
        rows.append([f"**{r.ruleset}**", "; ".join(_verdicts(r.ruling.outcome, short=True)),
                     _score(r.ruling.outcome), disputes])
    out.append(("table", ["ruleset", "ruling", "score", "disputes that bear on it"], rows))
    for r in report.rulings:
        out.append(("h2", f"{r.ruleset} — {r.title}"))
        if r.ruling.readings:
            out.append(("p", "Readings taken: " + ", ".join(f"`{d}={v}`" for d, v in r.ruling.readings.items())))
        out.append(("p", "**Ruling.**"))
        out.append(("ol", _verdicts(r.ruling.outcome)))
        out.append(("p", f"**Score.** {_score(r.ruling.outcome)}."))
        if r.ruling.articles:
            out.append(("p", "**Deciding articles.**"))
            out.append(("ul", _articles(r.ruling.articles, quoted)))
        if quoted and r.ruleset in report.source_notes:
            out.append(("p", f"*No quotations: {report.source_notes[r.ruleset]}.*"))
        if r.disputes:
            out.append(("p", "**Disputes that bear on it.**"))
            items = []
            for d in r.disputes:
                text = (f"**{d.name}** — {d.question} (on {', '.join(d.on)}). "
                        f"In force: `{d.chosen}`, because {d.default_reason}.")
                for name, description, alt in d.readings:
                    text += (f"\n- under `{name}` ({description}): " + "; ".join(_verdicts(alt.outcome, short=True))
                             + (f"; score {_score(alt.outcome)}" if alt.outcome.score else "")
                             + (" — citing " + ", ".join(f"**{c}**" for c in alt.cites) if alt.cites else ""))
                items.append(text)
            out.append(("ul", items))
        else:
            out.append(("p", "No dispute of this rulebook changes this ruling."))
    if report.not_fitting:
        out.append(("h2", "Rulesets whose table this situation does not fit"))
        out.append(("ul", [f"**{r}**: {markdown_literal(why)}" for r, why in report.not_fitting]))
    out.append(("h2", "Provenance"))
    out.append(("ul", _provenance(report)))
    return out


def _provenance(report: Report) -> list[str]:
    """What the ruling was made with: the tool, the spec files (with a digest of
    their text), the situation file, the rulebook texts quoted."""
    files = sorted({f for r in report.rulings for f in load(r.ruleset).files})
    digest = hashlib.sha256(b"".join(Path(f).read_bytes() + b"\0" for f in files)).hexdigest()[:16]
    items = [f"Ruled by canastra-spec {__version__} (the reference interpreter) from the specs "
             + ", ".join(f"`{Path(f).name}`" for f in files) + f" (digest `{digest}`).",
             f"Situation: {markdown_literal(report.situation.file)}."]
    if report.sources is not None:
        items.append(f"Quotations from the rulebook texts in {markdown_literal(report.sources)}, the reader's copy.")
    return items


# ------------------------------------------------------------------ markdown

def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(report: Report) -> str:
    lines: list[str] = []
    for block in blocks(report):
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            lines += ["#" * int(kind[1]) + " " + block[1], ""]
        elif kind == "p":
            lines += [block[1], ""]
        elif kind == "table":
            _, header, rows = block
            lines.append("| " + " | ".join(header) + " |")
            lines.append("|" + "---|" * len(header))
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
            lines.append("")
        elif kind in ("ol", "ul"):
            for i, item in enumerate(block[1], start=1):
                head, *rest = item.split("\n")
                mark = f"{i}." if kind == "ol" else "-"
                lines.append(f"{mark} {head}")
                lines += ["  " + r for r in rest]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------------- html

_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")     # a backslash-escaped ASCII punctuation character
_HELD = re.compile("\x00([0-9]+)\x00")


def _inline(text: str) -> str:
    held: list[str] = []                          # escaped characters, kept out of the marks

    def hold(match: re.Match) -> str:
        held.append(match.group(1))
        return f"\x00{len(held) - 1}\x00"
    out = html.escape(_ESCAPED.sub(hold, text), quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"\*([^*]+)\*", r"<em>\1</em>", out)
    return _HELD.sub(lambda m: html.escape(held[int(m.group(1))], quote=False), out)


def _html_item(item: str) -> str:
    head, *rest = item.split("\n")
    inner = _inline(head)
    quotes = [r[2:] for r in rest if r.startswith("> ")]
    subs = [r[2:] for r in rest if r.startswith("- ")]
    inner += "".join(f"<blockquote>{_inline(q)}</blockquote>" for q in quotes)
    if subs:
        inner += "<ul>" + "".join(f"<li>{_inline(s)}</li>" for s in subs) + "</ul>"
    return f"<li>{inner}</li>"


def as_html(report: Report) -> str:
    body = []
    for block in blocks(report):
        kind = block[0]
        if kind in ("h1", "h2", "h3", "p"):
            body.append(f"<{kind}>{_inline(block[1])}</{kind}>")
        elif kind == "table":
            _, header, rows = block
            head = "".join(f"<th>{_inline(h)}</th>" for h in header)
            cells = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table>")
        elif kind in ("ol", "ul"):
            body.append(f"<{kind}>" + "".join(_html_item(i) for i in block[1]) + f"</{kind}>")
    title = html.escape(report.situation.title)
    style = ("body{font-family:serif;max-width:50em;margin:2em auto;line-height:1.4}"
             "table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2em .5em;text-align:left}"
             "blockquote{margin:.3em 0 .3em 1em;font-style:italic;color:#333}")
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ruling: {title}</title>"
            f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def as_json(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"md": markdown, "html": as_html, "json": as_json}

__all__ = ["RENDERERS", "Ruling"]
