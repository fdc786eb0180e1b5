"""docs/rulesets.md: the six base rulebooks side by side and compared in pairs.

    python -m canastra_tools.matrix            print the document
    python -m canastra_tools.matrix --write    rewrite docs/rulesets.md (from a checkout's root)
    python -m canastra_tools.matrix --check    exit 1 when docs/rulesets.md is stale
    canastra diff --matrix [--write]           the same from the command line

Everything is computed from the specs (tools.diff, and the reference
engine's setup, points and opening-minimum queries); a test regenerates the
document and fails when the file differs.
"""
from __future__ import annotations

import sys
from itertools import combinations
from pathlib import Path

from canastra_ref import protocol

from .concepts import CONCEPTS
from .diff import DIFFERS, SAME, compare
from .diff_render import short
from .sides import make_side

BASE = ("cbc", "ituiutaba", "treze", "classica", "uruguaya", "casa")
DOC = Path("docs") / "rulesets.md"     # in a checkout of the repository, relative to its root


def _glance_rows(sides) -> list[tuple[str, list[str]]]:
    rows: dict[str, list[str]] = {}
    for side in sides:
        from .hybrid import engine
        e = engine(side.model)
        setup = protocol.setup(e)
        m = side.model

        def add(label, value):
            rows.setdefault(label, []).append(str(value))
        add("cards", f"{setup['deck_size']} ({setup['decks']} decks + {setup['jokers']} jokers)")
        add("players", f"{setup['players']}, teams of {setup['team_size']}")
        add("cards dealt / drawn", f"{setup['cards_dealt']} / {setup['draw']}")
        add("direction", setup["direction"])
        add("wild cards", ", ".join(setup["wild_cards"]))
        add("card points (JK, 2, A, K, 7, black 3)",
            ", ".join(str(e.card_points(c)) for c in ("JK", "2c", "Ac", "Kc", "7c", "3s")))
        add("meld kinds", ", ".join(f"{k} ({m.value(f'meld.{k}.shape')})" for k in m.meld_kinds))
        add("canastra kinds", ", ".join(m.canastra_kinds))
        add("opening minimum at 0 / 3,000 points",
            f"{protocol.opening_minimum(e, {'score': 0})} / {protocol.opening_minimum(e, {'score': 3000})}")
        add("pile when the stock is empty", m.value("stock.exhausted"))
        add("game target", setup["target"])
        add("disputes", len(m.disputes))
    return list(rows.items())


def _cell(diff, concept: str) -> str:
    settings = diff.of_concept(concept)
    n = sum(1 for s in settings if s.status == DIFFERS)
    if n:
        return str(n)
    return "=" if all(s.status == SAME for s in settings) else "≈"


def _pair_lines(diff) -> list[str]:
    out = []
    for concept in CONCEPTS:
        differing = [s for s in diff.of_concept(concept.id) if s.status == DIFFERS]
        if not differing:
            continue
        items = []
        for s in differing:
            a, b = _brief(s, "a"), _brief(s, "b")
            items.append(f"`{s.path}` ({a} \\| {b})" if a and b else f"`{s.path}`")
        out.append(f"- **{concept.title}**: " + "; ".join(items))
    return out


def _brief(s, side: str) -> str | None:
    v = getattr(s, side)
    if v.absent:
        return v.absent.strip("()")
    text = short(s, side)
    if " = " not in text:
        return None
    value = text.split(" = ", 1)[1]
    return value if len(value) <= 40 else None


def render() -> str:
    sides = [make_side(r) for r in BASE]
    out = ["# The six rulebooks compared", "",
           "Generated from the specs by `canastra diff --matrix` (or `python -m canastra_tools.matrix "
           "--write`); `tests/test_rulesets_doc.py` fails when this file is stale. Every ruleset is taken "
           "under its default readings; `canastra diff A B` gives any comparison in full (with clauses, "
           "citations and disputes), `canastra diff A B --behaviour` the situations that tell them apart.", "",
           "## At a glance", "",
           "| | " + " | ".join(f"`{r}`" for r in BASE) + " |", "|---|" + "---|" * len(BASE)]
    for label, values in _glance_rows(sides):
        out.append(f"| {label} | " + " | ".join(v.replace("|", "\\|") for v in values) + " |")
    diffs = {(a.ruleset, b.ruleset): compare(a, b) for a, b in combinations(sides, 2)}
    out += ["", "## Pairwise, concept by concept", "",
            "Settings that differ in each concept (`=`: the same rules; `≈`: the same in effect, the text "
            "differing only where it cannot apply or in citations).", "",
            "| pair | " + " | ".join(c.title for c in CONCEPTS) + " |", "|---|" + "---|" * len(CONCEPTS)]
    for (a, b), diff in diffs.items():
        out.append(f"| {a} / {b} | " + " | ".join(_cell(diff, c.id) for c in CONCEPTS) + " |")
    for (a, b), diff in diffs.items():
        out += ["", f"### {a} / {b}", "",
                f"{sum(1 for s in diff.settings if s.status == DIFFERS)} settings differ "
                f"(values shown as {a} \\| {b} where short).", ""]
        out += _pair_lines(diff)
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if ("--write" in argv or "--check" in argv) and not DOC.is_file():
        print(f"no {DOC} in {Path.cwd()}: run this from the root of a canastra-spec checkout", file=sys.stderr)
        return 2
    if "--write" in argv:
        DOC.write_text(text, encoding="utf-8")
    elif "--check" in argv:
        if DOC.read_text(encoding="utf-8") != text:
            print(f"{DOC} is stale: run python -m canastra_tools.matrix --write", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
