"""canastra check / canastra articles: validating specs and listing inventories."""
from __future__ import annotations

import sys
from pathlib import Path

from canastra_ref.errors import CanastraError
from canastra_ref.paths import SPEC_DIR, SPEC_SUFFIX

from .common import (
    EXIT_FAILED,
    EXIT_OK,
    add_format_option,
    add_reading_option,
    error_record,
    parse_readings,
    print_json,
)


def cmd_check(args) -> int:
    from canastra_ref.dsl.check_cache import check_file
    paths: list[Path] = []
    for given in args.paths or [str(SPEC_DIR)]:
        path = Path(given)
        if path.is_dir():
            paths += sorted(path.glob("*" + SPEC_SUFFIX))
        elif path.is_file():
            paths.append(path)
        else:
            raise CanastraError(f"no such file or directory: {given}")
    if not paths:
        raise CanastraError(f"no {SPEC_SUFFIX} files found in {', '.join(args.paths or [str(SPEC_DIR)])}")
    results = []
    for path in paths:
        checked, errors = check_file(path, strict=args.strict)
        results.append((path, checked, errors))
    failed = sum(1 for _, _, errors in results if errors)
    if args.format == "json":
        print_json([{"file": str(p), "ok": not e, "readings": c, "errors": [error_record(x) for x in e]}
                     for p, c, e in results])
    else:
        for path, checked, errors in results:
            if errors:
                for error in errors:
                    print(error.render(), end="\n\n", file=sys.stderr)
                print(f"FAIL {path}: {len(errors)} error(s)")
            else:
                readings = len(checked)
                print(f"ok   {path} ({readings} reading{'s' if readings != 1 else ''} checked)")
        print(f"{len(results) - failed} of {len(results)} spec file(s) valid")
    return EXIT_FAILED if failed else EXIT_OK


def cmd_articles(args) -> int:
    from canastra_ref.dsl.loader import load
    record = articles_record(load(args.ruleset, parse_readings(args.reading)))
    if args.format == "json":
        print_json(record)
    else:
        print(articles_text(record), end="")
    return EXIT_OK


def articles_record(ruleset) -> dict:
    """The inventory of a composed ruleset: its articles (status, paraphrase,
    citing clauses, disputes) and its settings listed unstated."""
    rows = []
    for article in ruleset.articles.values():
        clauses = ruleset.clauses_citing(article.id)
        rows.append({
            "id": article.id,
            "status": "informative" if article.informative else "normative",
            "paraphrase": article.paraphrase,
            "reason": article.informative_reason,
            "clauses": [{"setting": c.setting, "label": c.label, "line": c.pos.line,
                         "file": c.pos.file, "readings": [f"{d}.{r}" for d, r in c.readings]}
                        for c in clauses],
            "disputes": [d.name for d in ruleset.disputes_on(article.id)],
        })
    unstated = [{"setting": path, "default": _default_text(path), "reason": entry.reason,
                 "file": entry.pos.file, "line": entry.pos.line}
                for path, entry in ruleset.unstated.items()]
    return {"ruleset": ruleset.id, "title": ruleset.title, "readings": ruleset.readings,
            "disputes": len(ruleset.disputes), "articles": rows, "unstated": unstated}


def articles_text(record: dict) -> str:
    rows, unstated = record["articles"], record["unstated"]
    normative = sum(1 for r in rows if r["status"] == "normative")
    out = [f"{record['ruleset']}: {record['title']}",
           f"{len(rows)} articles: {normative} normative, {len(rows) - normative} informative, "
           f"{record['disputes']} disputes, {len(unstated)} unstated settings", ""]
    width = max(len(r["id"]) for r in rows)
    for r in rows:
        mark = "N" if r["status"] == "normative" else "i"
        out.append(f"{r['id']:<{width}}  {mark}  {r['paraphrase']}")
        if r["status"] == "informative":
            out.append(f"{'':<{width}}     informative: {r['reason']}")
        settings = sorted({c["setting"] for c in r["clauses"]})
        if settings:
            out.append(f"{'':<{width}}     clauses: {', '.join(settings)}")
        if r["disputes"]:
            out.append(f"{'':<{width}}     disputes: {', '.join(r['disputes'])}")
    if unstated:
        out += ["", "unstated (the text is silent and leaves no real choice; the setting keeps its default):"]
        width = max(len(u["setting"]) for u in unstated)
        for u in unstated:
            out.append(f"{u['setting']:<{width}}  = {u['default']}  {u['reason']}")
    return "\n".join(out) + "\n"


def _default_text(path: str) -> str:
    from canastra_ref.dsl.settings import find
    return find(path).default_text()


def register(sub) -> None:
    p = sub.add_parser("check", help="validate spec files (syntax, semantics, every dispute reading)",
                       description="Parse and validate rules DSL files. Each file is checked under its "
                                   "default readings and under every other reading of every dispute. "
                                   "Exits 1 when any file has errors.")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help=f"spec files or directories (default: {SPEC_DIR})")
    p.add_argument("--strict", action="store_true",
                   help="also demand that every setting the engine reads while playing the ruleset is "
                        "stated by a clause, decided by a dispute, or listed 'unstated SETTING because "
                        "\"...\"'; a setting left to its built-in default is an error, as is an "
                        "'unstated' entry for a setting never read (see docs/dsl.md)")
    add_format_option(p, ("text", "json"))
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("articles", help="list a ruleset's article inventory",
                       description="Every article of the rulebook: id, paraphrase, normative or "
                                   "informative, the clauses citing it and the disputes touching it; "
                                   "then the settings listed 'unstated' (the text is silent and the "
                                   "setting keeps its default), with their reasons. The JSON form is an "
                                   "object: ruleset, title, readings, disputes (a count), articles, "
                                   "unstated.")
    p.add_argument("ruleset", help="ruleset id, such as cbc")
    add_reading_option(p)
    add_format_option(p, ("text", "json"))
    p.set_defaults(func=cmd_articles)
