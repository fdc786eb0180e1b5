"""canastra conformance: run the suite against an implementation through the
protocol (the reference, `canastra serve`, by default), or compare two runs."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

from canastra_ref.errors import CanastraError

from .common import EXIT_FAILED, EXIT_OK
from .serve import reference_command


def _write(text: str, output: str | None) -> None:
    data = text.encode("utf-8", errors="replace")
    if output:
        try:
            Path(output).write_bytes(data)
        except OSError as exc:
            raise CanastraError(f"cannot write {output}: {exc.strerror or exc}") from None
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


def cmd_compare(args) -> int:
    from canastra_conformance.compare import compare, compare_text, load_report
    import json
    a, b = args.compare
    diff = compare(load_report(a), load_report(b))
    if args.format == "json":
        _write(json.dumps(diff, indent=2, ensure_ascii=False) + "\n", args.output)
    elif args.format == "junit":
        raise CanastraError("--compare writes text or json, not junit")
    else:
        _write(compare_text(diff, a, b), args.output)
    return EXIT_OK if diff["clean"] else EXIT_FAILED


def _positive(text: str) -> float:
    import argparse
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a timeout must be more than 0 seconds, not {text}")
    return value


def _impl_argv(command: str) -> list[str]:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise CanastraError(f"--impl is not a valid command line: {exc}") from None
    if not argv:
        raise CanastraError("--impl is empty", expected="a command such as \"python my_adapter.py\"")
    return argv


def cmd_conformance(args) -> int:
    if args.compare:
        return cmd_compare(args)
    from canastra_conformance.paths import FIXTURES_DIR
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.progress import Progress
    from canastra_conformance.report import render, summary_line
    from canastra_conformance.results import suite_info
    from canastra_conformance.runner import Runner
    from canastra_conformance import xfail
    from canastra_conformance.suite import read_skip_file, run_suite, select

    directory = Path(args.fixtures) if args.fixtures else FIXTURES_DIR
    if not directory.is_dir():
        raise CanastraError(f"no fixture directory at {directory}")
    skip = read_skip_file(args.skip) if args.skip else []
    expected = xfail.read(args.xfail) if args.xfail else None
    if args.xfail_non_strict and not args.xfail:
        raise CanastraError("--xfail-non-strict needs --xfail FILE")
    argv = _impl_argv(args.impl) if args.impl is not None else reference_command()
    runner = Runner(argv, timeout=args.timeout, start_timeout=args.start_timeout,
                    judge_by_readings=not args.every_reading)
    runner.spawn()                  # the implementation starts up while the fixtures load
    progress = None
    try:
        cases = load_all(directory)
        chosen = select(cases, args.ruleset, args.article, args.id)
        if not chosen:
            raise CanastraError("no case matches the filters" if cases else f"no fixtures in {directory}")
        progress = Progress(sys.stderr, len(chosen))
        result = run_suite(runner, chosen, suite_info(directory, len(cases)), skip=skip,
                           skip_path=args.skip or "", xfail=expected, xfail_path=args.xfail or "",
                           strict=not args.xfail_non_strict, suite_ids=[c.id for c in cases],
                           on_outcome=lambda o: progress.update(o.case.id, o.status))
    finally:
        runner.close()
        if progress:
            progress.finish()
    _write(render(result, args.format), args.output)
    if args.output:
        print(summary_line(result))
    return EXIT_OK if result.ok else EXIT_FAILED


def register(sub) -> None:
    from canastra_conformance.policy import DEFAULT_START_TIMEOUT, DEFAULT_TIMEOUT
    p = sub.add_parser(
        "conformance", help="run the conformance suite against an implementation",
        description="Run the conformance fixtures against an implementation through the protocol of "
                    "conformance/PROTOCOL.md: by default the reference ('canastra serve'), or the adapter "
                    "given by --impl. Cases written under readings of a dispute other than those the "
                    "implementation declares are reported other-reading, never failed. Exits 0 only when "
                    "nothing failed or errored (and, with --xfail, no listed case passed).")
    p.add_argument("--impl", metavar="COMMAND",
                   help="the command starting the implementation's adapter (split like a shell would; "
                        "default: the reference, 'canastra serve')")
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
    p.add_argument("--format", choices=("text", "json", "junit"), default="text")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE (default: standard output)")
    p.add_argument("--timeout", type=_positive, default=DEFAULT_TIMEOUT, metavar="S",
                   help=f"seconds allowed for each answer (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--start-timeout", type=_positive, default=DEFAULT_START_TIMEOUT, metavar="S",
                   help=f"seconds allowed for the answer to start (default {DEFAULT_START_TIMEOUT:g})")
    p.add_argument("--fixtures", metavar="DIR",
                   help="the fixture directory (default: conformance/fixtures, or $CANASTRA_FIXTURES_DIR)")
    p.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"),
                   help="instead of running, show what changed between two JSON reports")
    p.set_defaults(func=cmd_conformance)
