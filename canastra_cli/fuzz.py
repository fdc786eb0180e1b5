"""canastra fuzz: differential fuzzing of an implementation against the
reference (canastra_tools/fuzz.py), its differences shrunk to minimal
fixtures (fuzz_shrink.py) and reported (fuzz_report.py)."""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from canastra_ref.errors import CanastraError

from .common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_format_option,
    add_reading_option,
    check_output,
    impl_argv,
    parse_readings,
    seconds,
    write_output,
)

DEFAULT_CASES = 100


def _whole(minimum: int):
    """An argparse type: a whole number no smaller than `minimum`."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value
    return parse


_positive_int, _count = _whole(1), _whole(0)


def _chance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a chance is between 0 and 1, not {text}")
    return value


def cmd_fuzz(args) -> int:
    from canastra_conformance.progress import Progress
    from canastra_conformance.runner import Runner, reference_command
    from canastra_ref.dsl.loader import available
    from canastra_ref.engine.rules import engine_for
    from canastra_tools import fuzz_report
    from canastra_tools.fuzz import Settings, fuzz
    from canastra_tools.fuzz_shrink import Shrinker, Ungradable

    check_output(args.out, "--out", directory=True)
    given = parse_readings(args.reading)
    argv = impl_argv(args.impl) if args.impl is not None else reference_command()
    known = available()
    for ruleset in args.ruleset or []:
        if ruleset not in known:
            raise CanastraError(f"unknown ruleset {ruleset!r}", expected="one of: " + ", ".join(known))
    budget = {"seconds": args.seconds} if args.seconds else {"cases": args.cases or DEFAULT_CASES}
    out = Path(args.out) if args.out else None
    runner = Runner(argv, timeout=args.timeout, start_timeout=args.start_timeout)
    progress = Progress(sys.stderr, 0)
    interrupted = False
    header, reports = None, []
    try:
        if not runner.start():
            raise CanastraError(runner.start_error)
        info = runner.info
        claimed = info["rulesets"]
        for ruleset in args.ruleset or []:
            if ruleset not in claimed:
                raise CanastraError(f"{info['implementation'].get('name')} does not claim ruleset {ruleset!r}",
                                    expected="one of: " + ", ".join(claimed))
        rulesets = args.ruleset or [r for r in claimed if r in known]
        if not rulesets:
            raise CanastraError("the implementation claims none of the rulesets of the specs",
                                expected="one of: " + ", ".join(known))
        header = {"implementation": info["implementation"], "command": " ".join(argv), "seed": args.seed,
                  "jobs": args.jobs, "budget": budget, "near_legal": args.near_legal, "reasons": args.reasons}
        for ruleset in rulesets:
            settings = Settings(ruleset, given, seed=args.seed, seconds=budget.get("seconds"),
                                cases=budget.get("cases"), near_legal=args.near_legal, reasons=args.reasons)
            total, unit = (budget["seconds"], "seconds") if "seconds" in budget else (budget["cases"], "hands")
            progress.group(ruleset, math.ceil(total), unit)

            def show(snapshot, unit=unit):
                done = snapshot[unit]
                progress.at(done, f"{snapshot['steps']:,} steps, {len(snapshot['groups'])} differences")
            tally = fuzz(argv, settings, jobs=args.jobs, timeout=args.timeout, start_timeout=args.start_timeout,
                         on_progress=show, runner=runner)
            progress.finish()
            interrupted = interrupted or tally.interrupted
            engine = engine_for(ruleset, tuple(sorted(tally.readings.items())))
            shrinker = Shrinker(runner, engine, ruleset, tally.readings, reasons=args.reasons,
                                max_checks=args.max_checks)
            groups = []
            for group in sorted(tally.groups.values(), key=lambda g: -g.count):
                shrunk = None if interrupted or not args.max_checks else shrinker.shrink(group.finding)
                found = shrunk or shrinker.judge(group.finding.state, group.finding.actions, group.key)
                case = path = unwritten = None
                if found is not None:
                    ident = fuzz_report.fixture_id(info["implementation"].get("name", "impl"), ruleset, group.key)
                    try:
                        case = shrinker.fixture(found, group.key, ident=ident,
                                                implementation=info["implementation"].get("name", "the implementation"))
                    except Ungradable as exc:          # reported with the group, no fixture written
                        unwritten = str(exc)
                    if out is not None and case is not None:
                        path = str(fuzz_report.write_fixture(out, ruleset, case, group, header, shrunk))
                groups.append(fuzz_report.group_json(group, case, shrunk, path, unwritten))
            tally.faults += shrinker.faults
            reports.append(fuzz_report.ruleset_json(tally, groups))
            if interrupted:
                break
    except KeyboardInterrupt:          # the rulesets done so far are reported
        interrupted = True
        if header is None:
            return EXIT_INTERRUPTED
    finally:
        progress.finish()
        runner.close()
    report = fuzz_report.report_json(header, reports)
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)      # no difference found: no fixture made it
        except OSError as exc:
            raise CanastraError(f"--out {out}: cannot make the directory: {exc.strerror or exc}") from None
        write_output(json.dumps(report, indent=1, ensure_ascii=False) + "\n", str(out / "fuzz-report.json"))
    write_output(json.dumps(report, indent=2, ensure_ascii=False) + "\n" if args.format == "json"
                 else fuzz_report.render_text(report), None)
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_FAILED if report["summary"]["groups"] or report["summary"]["faults"] else EXIT_OK


def register(sub) -> None:
    from canastra_conformance.policy import DEFAULT_START_TIMEOUT, DEFAULT_TIMEOUT
    from canastra_tools.fuzz_defaults import MAX_CHECKS, NEAR_LEGAL
    p = sub.add_parser(
        "fuzz", help="differential fuzzing: random games against the reference, differences shrunk to fixtures",
        description="Play random games with the reference (seeded deals, legal moves and near-legal ones: "
                    "illegal melds, refused pile takes, moves out of phase, going out without the right to) "
                    "and send every step to an implementation through the protocol, as fixtures are sent. Its "
                    "verdict, the state it reports and the hand's score are compared with the reference's, "
                    "under the readings it declares (and those given with --reading); steps needing a "
                    "feature it does not declare are not sent. Each difference is shrunk to a minimal "
                    "fixture (fewest actions, smallest hands, fewest melds), grouped by the reference's "
                    "reason, the article it cites and the kind of difference, with a count. Exits 1 when a "
                    "difference (or a fault of the reference itself) was found, 0 when none.",
        epilog="The fixtures written carry the reference's answer as their expectation: check each against "
               "its article before adding it to the suite. A case is one dealt hand played to its end.")
    p.add_argument("--impl", metavar="COMMAND",
                   help="the command starting the implementation's adapter (default: the reference, "
                        "'canastra serve', which must find nothing)")
    p.add_argument("--ruleset", action="append", metavar="R",
                   help="fuzz this ruleset (repeatable; default: every ruleset the implementation claims)")
    add_reading_option(p)
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=seconds, metavar="N", help="fuzz each ruleset for N seconds")
    budget.add_argument("--cases", type=_positive_int, metavar="N",
                        help=f"fuzz each ruleset for N hands (default {DEFAULT_CASES})")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="the seed of the games (default 0): the same seed and jobs play the same games")
    p.add_argument("--jobs", "-j", type=_positive_int, default=1, metavar="N",
                   help="processes fuzzing at once, each with its own implementation process (default 1)")
    p.add_argument("--out", metavar="DIR",
                   help="write each difference's shrunk fixture to DIR/<ruleset>/<id>.yaml and the JSON report "
                        "to DIR/fuzz-report.json")
    add_format_option(p, ("text", "json"))
    p.add_argument("--near-legal", type=_chance, default=NEAR_LEGAL, metavar="P",
                   help=f"the chance of a near-legal action before each legal move (default {NEAR_LEGAL})")
    p.add_argument("--reasons", action="store_true",
                   help="count a different reason code as a difference too (by default: verdict, state, score)")
    p.add_argument("--max-checks", type=_count, default=MAX_CHECKS, metavar="N",
                   help=f"candidates judged while shrinking each difference (default {MAX_CHECKS}; 0: no shrinking)")
    p.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="S",
                   help=f"seconds allowed for each answer (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--start-timeout", type=seconds, default=DEFAULT_START_TIMEOUT, metavar="S",
                   help=f"seconds allowed for the answer to start (default {DEFAULT_START_TIMEOUT:g})")
    p.set_defaults(func=cmd_fuzz)
