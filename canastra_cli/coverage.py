"""canastra coverage: which articles and dispute readings the fixtures cover."""
from __future__ import annotations

from canastra_ref.errors import CanastraError

from .common import EXIT_FAILED, EXIT_OK, add_format_option, print_json


def cmd_coverage(args) -> int:
    from canastra_conformance.coverage import coverage_all
    from canastra_conformance.fixtures import load_all
    from canastra_ref.dsl.loader import available
    if args.ruleset and args.ruleset not in available():
        raise CanastraError(f"unknown ruleset '{args.ruleset}'", expected="one of: " + ", ".join(available()))
    cases = load_all()
    results = coverage_all(cases, [args.ruleset] if args.ruleset else None)
    if args.format == "json":
        print_json({c.ruleset: c.to_json() for c in results})
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


def register(sub) -> None:
    p = sub.add_parser("coverage", help="which articles and dispute readings the fixtures cover",
                       description="Per ruleset: its normative articles, those covered by a fixture, the "
                                   "uncovered ones, the informative ones, and every dispute reading with its "
                                   "fixtures. Exits 1 when an article or a reading has no fixture.")
    p.add_argument("ruleset", nargs="?", help="one ruleset (default: all)")
    add_format_option(p, ("text", "json"))
    p.set_defaults(func=cmd_coverage)
