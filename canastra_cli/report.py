"""canastra report: a static site from conformance runs (canastra_tools.site)."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import EXIT_OK, check_output


def cmd_report(args) -> int:
    from canastra_tools.site.build import build
    from canastra_tools.site.screenshots import take

    check_output(args.out, "--out", directory=True)           # before the runs are read and the site built
    check_output(args.screenshots, "--screenshots", directory=True)
    fixtures = Path(args.fixtures) if args.fixtures else None
    written = build(args.runs, Path(args.out), sources=Path(args.sources) if args.sources else None,
                    situations=args.situation or [], warn=lambda m: print(f"warning: {m}", file=sys.stderr),
                    **({"fixtures": fixtures} if fixtures else {}))
    pages = sum(1 for p in written if p.endswith(".html"))
    print(f"{pages} pages and {len(written) - pages} badges written to {args.out}; open "
          f"{Path(args.out) / 'index.html'}")
    if args.screenshots:
        for path in take(Path(args.out), Path(args.screenshots), args.screenshot_ruleset):
            print(f"screenshot: {path}")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "report", help="build a static report site from conformance runs",
        description="Build a static site (no server: it opens from the file system or any static host) from "
                    "JSON conformance reports ('canastra conformance --format json') or saved implementation "
                    "runs (docs/implementations/*.json): an index of implementations x rulesets with pass rates "
                    "under each one's own readings; per ruleset, the article x implementation matrix (filterable "
                    "by feature and article; cells link to the cases, expected versus actual), the fixtures, "
                    "the literate rulebook (paraphrases, clauses, disputes, fixtures; with --sources the "
                    "original wording beside each article); a page per dispute (each engine's reading, rulings "
                    "under every reading); what changed between the runs of one implementation; provenance on "
                    "every page; shields.io endpoint badges.")
    p.add_argument("runs", nargs="+", metavar="RUN.json",
                   help="conformance reports or saved runs; a directory stands for the runs among its *.json files")
    p.add_argument("--out", required=True, metavar="DIR", help="the directory to write the site to")
    p.add_argument("--sources", metavar="DIR",
                   help="your own copy of the rulebook texts (cbc.txt, ...): each article's wording is shown "
                        "beside it (read at build time, never stored in the repository)")
    p.add_argument("--situation", action="append", metavar="FILE",
                   help="a 'canastra dispute' situation: its rulings go on the pages of the disputes that "
                        "bear on it (repeatable)")
    p.add_argument("--fixtures", metavar="DIR", help="the fixtures the runs ran (default: the installed suite)")
    p.add_argument("--screenshots", metavar="DIR",
                   help="also write index.png and matrix-RULESET.png of the built site (needs Playwright and "
                        "Chromium: see README)")
    p.add_argument("--screenshot-ruleset", default="classica", metavar="R",
                   help="the ruleset whose matrix --screenshots takes (default classica)")
    p.set_defaults(func=cmd_report)
