"""canastra profile: the reading card of an implementation, inferred from
its behaviour (canastra_conformance/profile.py): per dispute, the reading it
follows; per ruleset, the best reading set and the pass rate under it; the
closest ruleset. From a run (--impl, every case sent whatever it declares)
or from a saved report of one (--report)."""
from __future__ import annotations

import json
import sys

from canastra_ref.errors import CanastraError

from .common import EXIT_OK, add_format_option, check_output, write_output
from .conformance import add_run_options, fixture_directory, run_fixtures


def cmd_profile(args) -> int:
    from canastra_conformance.compare import load_report
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.profile import profile
    from canastra_conformance.profile_report import render
    from canastra_conformance.results import suite_info

    check_output(args.output, "--output")
    check_output(args.save_report, "--save-report")
    if args.report:
        if args.impl is not None or args.save_report:
            raise CanastraError("--report reads a saved run: it takes neither --impl nor --save-report")
        report = load_report(args.report)
        directory = fixture_directory(args)
        cases = load_all(directory)
        _warn_about(report, suite_info(directory, len(cases)), args.report)
    else:
        result, cases = run_fixtures(args, every_reading=True)
        report = result.to_json()
        if args.save_report:
            write_output(json.dumps(report, indent=2, ensure_ascii=False) + "\n", args.save_report)
        if result.start_error:
            raise CanastraError(result.start_error)
    write_output(render(profile(report, cases, args.ruleset), args.format), args.output)
    return EXIT_OK


def _warn_about(report: dict, suite: dict, path: str) -> None:
    if (report.get("suite") or {}).get("digest") != suite["digest"]:
        print(f"warning: {path} ran other fixtures (digest {(report.get('suite') or {}).get('digest')}, these are "
              f"{suite['digest']}): cases changed since are read as they are now", file=sys.stderr)
    others = [i for i, r in report["cases"].items() if r["status"] == "other-reading"]
    if others:
        print(f"warning: {path} was judged by the declared readings: its {len(others)} other-reading cases were "
              "never sent and say nothing (run with --every-reading)", file=sys.stderr)


def register(sub) -> None:
    from canastra_conformance.profile_report import FORMATS
    p = sub.add_parser(
        "profile", help="the reading card of an implementation: which reading of each dispute it follows",
        description="Run every case of the suite against an implementation (whatever readings it declares) "
                    "and infer from its behaviour, per dispute of every ruleset, which reading it follows "
                    "(follows R, mixed, neither, untested, with the cases for and against), the best "
                    "reading set of each ruleset and the pass rate under it, and the closest ruleset. An "
                    "answer is read at the values the readings dispute only: the case's expected value there "
                    "counts for the case's reading, the value another reading gives for that one "
                    "(conformance/README.md, 'Reading profiles').")
    add_run_options(p)
    p.add_argument("--ruleset", action="append", metavar="R",
                   help="only the disputes and cases of this ruleset (repeatable)")
    p.add_argument("--report", metavar="FILE",
                   help="instead of running, read a saved JSON report (canastra conformance --every-reading "
                        "--format json, or --save-report)")
    p.add_argument("--save-report", metavar="FILE", help="also write the run's JSON report to FILE")
    add_format_option(p, FORMATS)
    p.add_argument("--output", metavar="FILE", help="write the card to FILE (default: standard output)")
    p.set_defaults(func=cmd_profile)
