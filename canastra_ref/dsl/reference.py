"""Renders the settings and facts reference of docs/dsl.md from the registry.

    python -m canastra_ref.dsl.reference            print the reference
    python -m canastra_ref.dsl.reference --write    rewrite it inside docs/dsl.md (from a checkout's root)

A test checks that docs/dsl.md holds exactly what this prints.
"""
from __future__ import annotations

import sys
from pathlib import Path

from . import facts, settings

BEGIN, END = "<!-- reference:begin -->", "<!-- reference:end -->"
DOC = Path("docs") / "dsl.md"      # in a checkout of the repository, relative to its root


def render() -> str:
    out = ["### Settings", "",
           "The engine reads a setting while playing a ruleset as the column *read* says: always "
           "(for every declared kind or wild card its pattern names), or only when another setting "
           "may take some value (where that setting is itself read: one never read takes no value the "
           "engine acts on). `canastra check --strict` demands that each setting read is stated, "
           "decided by a dispute or marked `unstated`.", "",
           "| setting | value | reads | when absent | read | meaning |", "|---|---|---|---|---|---|"]
    for s in settings.SETTINGS:
        out.append(f"| `{s.pattern}` | {s.type_text()} | {s.scope} | {s.default_text()} | {s.read_text()} "
                   f"| {s.doc} |")
    out += ["", "### Facts", "",
            "Scopes: `static` reads no fact; `card` reads card facts; `meld` reads meld facts; "
            "`team` reads team, opponents and hand facts; `action` reads those and the facts of the "
            "action being judged; `action-meld` reads those and the meld facts of the meld the action "
            "lays, as it would be laid.", "",
            "| fact | type | group | meaning |", "|---|---|---|---|"]
    for f in facts.FACTS.values():
        out.append(f"| `{f.name}` | {f.type} | {f.group} | {f.doc} |")
    return "\n".join(out) + "\n"


def splice(document: str) -> str:
    head, _, rest = document.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{render()}{END}{tail}"


def main(argv: list[str]) -> int:
    if "--write" in argv:
        if not DOC.is_file():
            print(f"no {DOC} in {Path.cwd()}: run this from the root of a canastra-spec checkout", file=sys.stderr)
            return 2
        DOC.write_text(splice(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
