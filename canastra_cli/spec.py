"""canastra check / canastra articles: validating specs and listing inventories."""
from __future__ import annotations

import sys
from pathlib import Path

from canastra_ref.errors import CanastraError
from canastra_ref.paths import SPEC_DIR, SPEC_SUFFIX
from .common import EXIT_FAILED, EXIT_OK, add_reading_option, error_record, parse_readings, print_json


def cmd_check(args) -> int:
    from canastra_ref.dsl.loader import check_file
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
        checked, errors = check_file(path)
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
    ruleset = load(args.ruleset, parse_readings(args.reading))
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
    if args.format == "json":
        print_json(rows)
        return EXIT_OK
    normative = sum(1 for r in rows if r["status"] == "normative")
    print(f"{ruleset.id}: {ruleset.title}")
    print(f"{len(rows)} articles: {normative} normative, {len(rows) - normative} informative, "
          f"{len(ruleset.disputes)} disputes\n")
    width = max(len(r["id"]) for r in rows)
    for r in rows:
        mark = "N" if r["status"] == "normative" else "i"
        print(f"{r['id']:<{width}}  {mark}  {r['paraphrase']}")
        if r["status"] == "informative":
            print(f"{'':<{width}}     informative: {r['reason']}")
        settings = sorted({c["setting"] for c in r["clauses"]})
        if settings:
            print(f"{'':<{width}}     clauses: {', '.join(settings)}")
        if r["disputes"]:
            print(f"{'':<{width}}     disputes: {', '.join(r['disputes'])}")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("check", help="validate spec files (syntax, semantics, every dispute reading)",
                       description="Parse and validate rules DSL files. Each file is checked under its "
                                   "default readings and under every other reading of every dispute. "
                                   "Exits 1 when any file has errors.")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help=f"spec files or directories (default: {SPEC_DIR})")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("articles", help="list a ruleset's article inventory",
                       description="Every article of the rulebook: id, paraphrase, normative or "
                                   "informative, the clauses citing it and the disputes touching it.")
    p.add_argument("ruleset", help="ruleset id, such as cbc")
    add_reading_option(p)
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_articles)
