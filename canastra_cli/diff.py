"""canastra diff / canastra dispute: comparing rulesets and settling disputes.

    canastra diff A B [--format text|md|json] [--reading D=R] [--reading-a D=R] [--reading-b D=R]
    canastra diff A B --behaviour [--out DIR] [--budget N]
    canastra diff --matrix [--write]
    canastra dispute SITUATION.yaml [--format md|html|json] [--sources DIR] [--ruleset R ...]

A side may carry its readings: `canastra diff cbc cbc:aces-suit=same-suit`.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from canastra_ref.errors import CanastraError

from .common import EXIT_OK, add_format_option, check_output, parse_readings


def cmd_diff(args) -> int:
    if args.matrix:
        return _matrix(args)
    if not args.a or not args.b:
        raise CanastraError("diff takes two rulesets, such as: canastra diff cbc ituiutaba",
                            expected="RULESET[:DISPUTE=READING,...] RULESET[:DISPUTE=READING,...], or --matrix")
    from canastra_tools.sides import parse_sides
    a, b = parse_sides(args.a, args.b, parse_readings(args.reading), parse_readings(args.reading_a),
                       parse_readings(args.reading_b))
    if args.behaviour:
        return _behaviour(args, a, b)
    if args.out:
        raise CanastraError("--out goes with --behaviour (it is where witnesses are written)")
    from canastra_tools.diff import compare
    from canastra_tools.diff_render import RENDERERS
    sys.stdout.write(RENDERERS[args.format](compare(a, b)))
    return EXIT_OK


def _behaviour(args, a, b) -> int:
    from hypothesis.configuration import set_hypothesis_home_dir

    from canastra_conformance.progress import Progress
    from canastra_ref.cache import directory
    from canastra_tools.behaviour import behaviour, write_witnesses
    from canastra_tools.behaviour_render import RENDERERS
    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        # Hypothesis keeps files of its own (.hypothesis/ in the current directory by default)
        set_hypothesis_home_dir(directory() / "hypothesis")
    if args.budget < 1:
        raise CanastraError("--budget must be at least 1")
    check_output(args.out, "--out", directory=True)         # before the search, not after it
    line = Progress(sys.stderr, 0, "settings searched")

    def progress(path: str, done: int, total: int, strict: bool) -> None:
        if done == 1:
            line.group(f"witnesses ({'strict' if strict else 'lenient'})", total)
        line.update(path)
    try:
        report = behaviour(a, b, budget=args.budget, progress=progress)
    finally:
        line.finish()
    unwritten = None
    if args.out:
        try:
            write_witnesses(report, Path(args.out))
        except OSError as exc:                  # the search is not lost: its report is printed all the same
            unwritten = CanastraError(f"--out {args.out}: the witnesses could not be written: {exc.strerror or exc}")
    sys.stdout.write(RENDERERS[args.format](report))
    if unwritten:
        raise unwritten
    return EXIT_OK


def _matrix(args) -> int:
    from canastra_tools import matrix
    if args.a or args.b:
        raise CanastraError("--matrix compares the six base rulebooks; give no ruleset")
    if args.write:
        if not matrix.DOC.is_file():
            raise CanastraError(f"no {matrix.DOC} in {Path.cwd()}: --write rewrites a checkout's "
                                f"{matrix.DOC}; run it from the checkout's root")
        matrix.DOC.write_text(matrix.render(), encoding="utf-8")
        print(f"wrote {matrix.DOC}")
    else:
        sys.stdout.write(matrix.render())
    return EXIT_OK


def cmd_dispute(args) -> int:
    from canastra_tools.dispute import evaluate, load_situation
    from canastra_tools.ruling import RENDERERS
    situation = load_situation(Path(args.situation))
    sources = None
    if args.sources:
        sources = Path(args.sources)
        if not sources.is_dir():
            raise CanastraError(f"--sources: no such directory: {args.sources}")
    report = evaluate(situation, rulesets=args.ruleset or None, sources=sources)
    sys.stdout.write(RENDERERS[args.format](report))
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "diff", help="compare two rulesets concept by concept, or find situations they rule differently",
        description="Compare two rulesets concept by concept (deck, seating and deal, card values, melds, "
                    "wilds, canastras, opening, discard pile, threes, going out, end of hand, scoring, game "
                    "end): each side's clauses and the articles they cite, the disputes that guard them. "
                    "A side is RULESET or RULESET:DISPUTE=READING[,...]. With --behaviour, find table "
                    "situations the two rule differently: a witness per difference, or why none exists.")
    p.add_argument("a", nargs="?", metavar="A", help="ruleset id, optionally with readings (cbc:aces-suit=same-suit)")
    p.add_argument("b", nargs="?", metavar="B", help="the other ruleset")
    add_format_option(p, ("text", "md", "json"))
    p.add_argument("--reading", action="append", metavar="DISPUTE=READING",
                   help="a reading for both sides (each side that has the dispute); repeatable")
    p.add_argument("--reading-a", action="append", metavar="DISPUTE=READING", help="a reading for side A only")
    p.add_argument("--reading-b", action="append", metavar="DISPUTE=READING", help="a reading for side B only")
    p.add_argument("--behaviour", "--behavior", action="store_true",
                   help="find situations the two rulesets rule differently (fixtures and a Hypothesis search)")
    p.add_argument("--out", metavar="DIR", help="with --behaviour: write each witness as fixture-shaped YAML here")
    p.add_argument("--budget", type=int, default=150,
                   help="with --behaviour: situations tried per family and difference (default 150)")
    p.add_argument("--matrix", action="store_true",
                   help="the pairwise comparison of the six base rulebooks (the text of docs/rulesets.md)")
    p.add_argument("--write", action="store_true", help="with --matrix: rewrite docs/rulesets.md")
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser(
        "dispute", help="rule on a table situation under every ruleset and every reading that bears on it",
        description="Take a fixture-shaped situation (state and actions, or a query; no expectations) and "
                    "give the verdict and score effect under every ruleset whose table it fits (or the one "
                    "it names), and under every reading of every dispute that changes the ruling, with the "
                    "deciding articles. With --sources, quote them from the rulebook texts.")
    p.add_argument("situation", metavar="SITUATION.yaml")
    add_format_option(p, ("md", "html", "json"))
    p.add_argument("--sources", metavar="DIR", help="directory of the rulebook texts (cbc.txt, ...) to quote")
    p.add_argument("--ruleset", action="append", metavar="RULESET",
                   help="rule under this ruleset only (repeatable; default: the situation's, or every one)")
    p.set_defaults(func=cmd_dispute)
