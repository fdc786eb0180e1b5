"""canastra mutate: the spec-mutation check of the fixtures."""
from __future__ import annotations

import sys

from canastra_ref.errors import CanastraError

from .common import EXIT_FAILED, EXIT_OK, add_format_option, print_json


def cmd_mutate(args) -> int:
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.mutation import equivalents, run_all
    from canastra_conformance.progress import Progress
    from canastra_ref.dsl.loader import available
    rulesets = [args.ruleset] if args.ruleset else available()
    for ruleset in rulesets:
        if ruleset not in available():
            raise CanastraError(f"unknown ruleset '{ruleset}'", expected="one of: " + ", ".join(available()))
    if args.jobs is not None and args.jobs < 1:
        raise CanastraError(f"--jobs {args.jobs}: the number of processes is at least 1")
    cases = load_all()
    known = equivalents()
    line = Progress(sys.stderr, 0, "mutants", label="mutate")

    def progress(done, total):
        if done == 1:
            line.group("mutate", total)
        line.update()
    reports = run_all(rulesets, cases, jobs=args.jobs, select=not args.exhaustive, progress=progress)
    line.finish()
    data = [r.to_json(known) for r in reports]
    if args.format == "json":
        print_json(data)
    else:
        for r, d in zip(reports, data):
            equivalent = sum(1 for s in d["survivors"] if s["equivalent"])
            rate = d["killed"] / (d["killed"] + d["survived"] - equivalent) if d["killed"] + d["survived"] - \
                equivalent else 1.0
            print(f"{r.ruleset}: {d['killed']}/{d['killed'] + d['survived']} mutants killed "
                  f"({100 * r.kill_rate:.1f}%), {equivalent} survivor(s) judged equivalent "
                  f"({100 * rate:.1f}% of the others), {d['stillborn']} stillborn")
            for s in d["survivors"]:
                note = f"  [equivalent: {s['equivalent']}]" if s["equivalent"] else ""
                print(f"  survived {s['id']}: {s['description']}{note}")
    unexplained = [s for d in data for s in d["survivors"] if not s["equivalent"]]
    return EXIT_FAILED if unexplained else EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("mutate", help="mutate each spec clause and check that the fixtures notice",
                       description="Apply single-clause mutations to a ruleset's spec (move a number, flip a "
                                   "comparison or a condition, swap and/or, drop a clause, swap a dispute's "
                                   "readings), run the ruleset's fixtures against the reference built from each "
                                   "mutant and report the kill rate with the surviving mutants. A mutant that fails "
                                   "'canastra check' is stillborn, and so is one that leaves a setting to a "
                                   "silent default when the spec passes 'canastra check --strict'. Exits 1 when a "
                                   "survivor is not listed as equivalent in conformance/mutants-equivalent.yaml.")
    p.add_argument("ruleset", nargs="?", help="one ruleset (default: all)")
    add_format_option(p, ("text", "json"))
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="processes judging mutants (default: one per core; 1 judges them in this process)")
    p.add_argument("--exhaustive", action="store_true",
                   help="run every case against every mutant, not only the cases whose recorded decisions read "
                        "a setting the mutant changes (slower; the kills are the same)")
    p.set_defaults(func=cmd_mutate)
