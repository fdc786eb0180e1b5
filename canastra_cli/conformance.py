"""canastra conformance: run the suite against an implementation through the
protocol (the reference, `canastra serve`, by default), or compare two runs."""
from __future__ import annotations

import sys
from pathlib import Path

from canastra_ref.errors import CanastraError

from .common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_format_option,
    check_output,
    impl_argv,
    seconds,
    write_output,
)


def cmd_compare(args) -> int:
    import json

    from canastra_conformance.compare import compare, compare_text, load_report
    a, b = args.compare
    diff = compare(load_report(a), load_report(b))
    if args.format == "json":
        write_output(json.dumps(diff, indent=2, ensure_ascii=False) + "\n", args.output)
    elif args.format == "junit":
        raise CanastraError("--compare writes text or json, not junit")
    else:
        write_output(compare_text(diff, a, b), args.output)
    return EXIT_OK if diff["clean"] else EXIT_FAILED


def fixture_directory(args) -> Path:
    from canastra_conformance.paths import FIXTURES_DIR
    directory = Path(args.fixtures) if args.fixtures else FIXTURES_DIR
    if not directory.is_dir():
        raise CanastraError(f"no fixture directory at {directory}")
    return directory


def run_fixtures(args, *, every_reading: bool, **options):
    """Start the implementation (--impl, default the reference), load the
    fixtures meanwhile, run the cases the filters choose with a progress line:
    (RunResult, every case of the suite). `options` go to run_suite."""
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.grading import ERRORED, FAILED, PASSED, SKIPPED
    from canastra_conformance.progress import Progress
    from canastra_conformance.results import suite_info
    from canastra_conformance.runner import Runner, reference_command
    from canastra_conformance.suite import run_suite, select

    directory = fixture_directory(args)
    argv = impl_argv(args.impl) if args.impl is not None else reference_command()
    runner = Runner(argv, timeout=args.timeout, start_timeout=args.start_timeout,
                    judge_by_readings=not every_reading)
    runner.spawn()                  # the implementation starts up while the fixtures load
    progress = None
    try:
        cases = load_all(directory)
        chosen = select(cases, args.ruleset, getattr(args, "article", None), getattr(args, "id", None))
        if not chosen:
            raise CanastraError("no case matches the filters" if cases else f"no fixtures in {directory}")
        progress = Progress(sys.stderr, len(chosen), "cases", label="conformance",
                            counted=(PASSED, FAILED, ERRORED, SKIPPED))
        result = run_suite(runner, chosen, suite_info(directory, len(cases)), suite_ids=[c.id for c in cases],
                           on_outcome=lambda o: progress.update(o.case.id, o.status), **options)
    finally:
        runner.close()
        if progress:
            progress.finish()
    return result, cases


def cmd_conformance(args) -> int:
    if args.compare:
        return cmd_compare(args)
    from canastra_conformance import xfail
    from canastra_conformance.report import render, summary_line
    from canastra_conformance.runner import INTERRUPTED
    from canastra_conformance.suite import read_skip_file

    check_output(args.output, "--output")
    skip = read_skip_file(args.skip) if args.skip else []
    expected = xfail.read(args.xfail) if args.xfail else None
    if args.xfail_non_strict and not args.xfail:
        raise CanastraError("--xfail-non-strict needs --xfail FILE")
    result, _ = run_fixtures(args, every_reading=args.every_reading, skip=skip, skip_path=args.skip or "",
                             xfail=expected, xfail_path=args.xfail or "", strict=not args.xfail_non_strict)
    write_output(render(result, args.format, verbose=args.verbose), args.output)
    if args.output:
        print(summary_line(result))
    if result.stopped == INTERRUPTED:
        return EXIT_INTERRUPTED
    return EXIT_OK if result.ok else EXIT_FAILED


def add_run_options(p) -> None:
    """The options of a run: the implementation, timeouts, the fixtures."""
    from canastra_conformance.paths import FIXTURES_DIR
    from canastra_conformance.policy import DEFAULT_START_TIMEOUT, DEFAULT_TIMEOUT
    p.add_argument("--impl", metavar="COMMAND",
                   help="the command starting the implementation's adapter (split like a shell would; "
                        "default: the reference, 'canastra serve')")
    p.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="S",
                   help=f"seconds allowed for each answer (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--start-timeout", type=seconds, default=DEFAULT_START_TIMEOUT, metavar="S",
                   help=f"seconds allowed for the answer to start (default {DEFAULT_START_TIMEOUT:g})")
    p.add_argument("--fixtures", metavar="DIR",
                   help=f"the fixture directory, DIR/<ruleset>/*.yaml (default: {FIXTURES_DIR}, the suite "
                        "installed with canastra-spec, or $CANASTRA_FIXTURES_DIR)")


def register(sub) -> None:
    from canastra_conformance.paths import PROTOCOL
    p = sub.add_parser(
        "conformance", help="run the conformance suite against an implementation",
        epilog=f"The protocol an adapter speaks: {PROTOCOL}",
        description="Run the conformance fixtures against an implementation through the protocol of "
                    "PROTOCOL.md: by default the reference ('canastra serve'), or the adapter "
                    "given by --impl. Cases written under readings of a dispute other than those the "
                    "implementation declares are reported other-reading, never failed. Exits 0 only when "
                    "nothing failed or errored (and, with --xfail, no listed case passed).")
    add_run_options(p)
    p.add_argument("--ruleset", action="append", metavar="R", help="only cases of this ruleset (repeatable)")
    p.add_argument("--article", action="append", metavar="A",
                   help="only cases citing article A or an article below it, like A.1 (repeatable)")
    p.add_argument("--id", action="append", metavar="GLOB", help="only cases whose id matches (repeatable)")
    p.add_argument("--skip", metavar="FILE",
                   help="skip the cases listed in FILE: one fixture id or glob a line, # comments")
    p.add_argument("--xfail", metavar="FILE",
                   help="expected failures: a YAML mapping of fixture id (or glob) to the reason; a listed case "
                        "that fails is xfail, one that passes is xpass and fails the run")
    p.add_argument("--xfail-non-strict", action="store_true",
                   help="with --xfail: a listed case that passes (xpass) does not fail the run")
    p.add_argument("--every-reading", action="store_true",
                   help="send and grade every case, whatever readings the implementation declares "
                        "(the raw run 'canastra profile' works from)")
    add_format_option(p, ("text", "json", "junit"))
    p.add_argument("--verbose", action="store_true",
                   help="text: also the table by article (the summary by ruleset, the failures and the skipped "
                        "cases by feature are always shown)")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE (default: standard output)")
    p.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"),
                   help="instead of running, show what changed between two JSON reports")
    p.set_defaults(func=cmd_conformance)
