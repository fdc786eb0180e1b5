"""The `canastra` command line.

Each subcommand is a function taking parsed arguments and returning an exit
status. Errors in user input (specs, fixtures, states, options) are
CanastraErrors: they are printed, never raised as tracebacks.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import __version__
from .errors import CanastraError, ErrorList
from .paths import SPEC_DIR, SPEC_SUFFIX

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _print_json(data) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _error_record(error: CanastraError) -> dict:
    record = {"message": error.message}
    if error.position is not None:
        record.update(file=error.position.file, line=error.position.line, column=error.position.column)
    if error.json_path is not None:
        record["path"] = error.json_path
    if error.expected:
        record["expected"] = error.expected
    return record


def parse_readings(items: list[str] | None) -> dict[str, str]:
    """--reading DISPUTE=READING, repeatable."""
    readings = {}
    for item in items or []:
        dispute, sep, reading = item.partition("=")
        if not sep or not dispute or not reading:
            raise CanastraError(f"--reading takes DISPUTE=READING, not {item!r}")
        readings[dispute] = reading
    return readings


# ---------------------------------------------------------------------- check

def cmd_check(args) -> int:
    from .dsl.loader import check_file
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
        _print_json([{"file": str(p), "ok": not e, "readings": c, "errors": [_error_record(x) for x in e]}
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


# ------------------------------------------------------------------- articles

def cmd_articles(args) -> int:
    from .dsl.loader import load
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
        _print_json(rows)
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


# ----------------------------------------------------------------------- play

def cmd_play(args) -> int:
    from .engine.play import self_play
    from .engine.rules import engine_for
    if args.hands < 1:
        raise CanastraError("--hands must be at least 1")
    engine = engine_for(args.ruleset, tuple(sorted(parse_readings(args.reading).items())))
    records = []
    for record in self_play(engine, args.seed, args.hands):
        if isinstance(record, dict):
            result = record
            continue
        records.append(record)
        if args.format == "text":
            _print_hand(record)
    if args.format == "json":
        _print_json({"ruleset": engine.ruleset.id, "readings": engine.ruleset.readings, "seed": args.seed,
                     "hands": [r.to_json() for r in records], "result": result})
    else:
        scores = ", ".join(f"{t} {s}" for t, s in result["scores"].items())
        status = f"game over, won by {' and '.join(result['winners'])}" if result["game_over"] else "game goes on"
        print(f"after {len(records)} hand(s): {scores} ({status})")
    return EXIT_OK


def _print_hand(record) -> None:
    end = record.end
    how = end["reason"] + (f" by {end['player']}" if end.get("player") else "")
    print(f"hand {record.number}: dealer {record.dealer}, {record.actions} actions, ended: {how}")
    for team, score in record.scores.items():
        terms = ", ".join(f"{name} {term['value']:+d}" for name, term in score["terms"].items() if term["value"])
        extra = "" if score["counts"] else " (not counted)"
        rounding = f", rounding {score['rounding']:+d}" if score["rounding"] else ""
        print(f"  {team:<3} {score['total']:+6d} = [{terms or 'nothing'}{rounding}]{extra}"
              f"  -> {score['score_after']}")


# -------------------------------------------------------------------- reasons

def cmd_reasons(args) -> int:
    from .engine.reasons import REASONS
    if args.format == "json":
        _print_json(REASONS)
    else:
        width = max(map(len, REASONS))
        for code, meaning in REASONS.items():
            print(f"{code:<{width}}  {meaning}")
    return EXIT_OK


# ------------------------------------------------------------------- coverage

def cmd_coverage(args) -> int:
    from canastra_conformance.coverage import coverage_all
    from canastra_conformance.fixtures import load_all
    from .dsl.loader import available
    if args.ruleset and args.ruleset not in available():
        raise CanastraError(f"unknown ruleset '{args.ruleset}'", expected="one of: " + ", ".join(available()))
    cases = load_all()
    results = coverage_all(cases, [args.ruleset] if args.ruleset else None)
    if args.format == "json":
        _print_json({c.ruleset: c.to_json() for c in results})
    else:
        for c in results:
            mark = "ok  " if c.complete else "GAPS"
            print(f"{mark} {c.ruleset}: {len(c.covered)}/{len(c.normative)} normative articles covered, "
                  f"{len(c.informative)} informative, {c.cases} cases")
            if c.uncovered:
                print(f"     uncovered: {', '.join(c.uncovered)}")
            for dispute, readings in c.readings.items():
                parts = [f"{r} ({len(ids)})" for r, ids in readings.items()]
                print(f"     dispute {dispute}: {', '.join(parts)}")
            if c.uncovered_readings:
                print(f"     readings without a fixture: {', '.join(c.uncovered_readings)}")
    return EXIT_OK if all(c.complete for c in results) else EXIT_FAILED


# ----------------------------------------------------------------- the parser

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="canastra",
        description="canastra-spec: executable rulebooks of the card game Canastra, a reference "
                    "interpreter, and a conformance suite for any implementation.",
        epilog="Run 'canastra COMMAND --help' for a command's options. Rulesets: "
               "the files of the spec/ directory (cbc, ituiutaba, treze, classica, uruguaya and their variants).")
    parser.add_argument("--version", action="version", version=f"canastra-spec {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

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
    p.add_argument("--reading", action="append", metavar="DISPUTE=READING",
                   help="take a non-default reading of a dispute (repeatable)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_articles)

    p = sub.add_parser("play", help="self-play whole hands between random legal agents",
                       description="Play hands of a ruleset between random legal agents and print each "
                                   "hand's end and score breakdown. The same seed gives the same output.")
    p.add_argument("--ruleset", required=True, help="ruleset id, such as cbc")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--hands", type=int, default=1, help="hands to play, fewer if the game ends (default 1)")
    p.add_argument("--reading", action="append", metavar="DISPUTE=READING",
                   help="take a non-default reading of a dispute (repeatable)")
    p.add_argument("--json", dest="format", action="store_const", const="json", default="text",
                   help="print one JSON document instead of text")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("reasons", help="list the reason codes of verdicts",
                       description="The stable vocabulary of reason codes a verdict carries, with meanings.")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_reasons)

    p = sub.add_parser("coverage", help="which articles and dispute readings the fixtures cover",
                       description="Per ruleset: its normative articles, those covered by a fixture, the "
                                   "uncovered ones, the informative ones, and every dispute reading with its "
                                   "fixtures. Exits 1 when an article or a reading has no fixture.")
    p.add_argument("ruleset", nargs="?", help="one ruleset (default: all)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_coverage)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.func(args)
    except ErrorList as exc:
        print(exc.render(), file=sys.stderr)
        return EXIT_FAILED
    except CanastraError as exc:
        print(exc.render(), file=sys.stderr)
        return EXIT_USAGE if exc.position is None and exc.json_path is None else EXIT_FAILED
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
