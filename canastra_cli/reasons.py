"""canastra reasons: the reason-code vocabulary."""
from __future__ import annotations

from .common import EXIT_OK, add_format_option, print_json


def cmd_reasons(args) -> int:
    from canastra_ref.engine.reasons import REASONS
    if args.format == "json":
        print_json(REASONS)
    else:
        width = max(map(len, REASONS))
        for code, meaning in REASONS.items():
            print(f"{code:<{width}}  {meaning}")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("reasons", help="list the reason codes of verdicts",
                       description="The stable vocabulary of reason codes a verdict carries, with meanings.")
    add_format_option(p, ("text", "json"))
    p.set_defaults(func=cmd_reasons)
