"""The `canastra` command line.

Each subcommand lives in a module with a `register(subparsers)` function
(COMMANDS below); a command returns an exit status. Errors in user input
(specs, fixtures, states, options) are CanastraErrors: printed, never raised
as tracebacks.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__
from .commands.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from .errors import CanastraError, ErrorList

# Modules registering subcommands, in the order --help lists them.
COMMANDS = (
    "canastra_ref.commands.spec",          # check, articles
    "canastra_ref.commands.play",          # play
    "canastra_ref.commands.reasons",       # reasons
    "canastra_ref.commands.serve",         # serve
    "canastra_conformance.conformance_command",  # conformance
    "canastra_conformance.coverage_command",   # coverage
    "canastra_tools.diff_command",         # diff, dispute
    "canastra_conformance.mutation_command",   # mutate
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="canastra",
        description="canastra-spec: executable rulebooks of the card game Canastra, a reference "
                    "interpreter, and a conformance suite for any implementation.",
        epilog="Run 'canastra COMMAND --help' for a command's options. Rulesets: "
               "the files of the spec/ directory (cbc, ituiutaba, treze, classica, uruguaya and their variants).")
    parser.add_argument("--version", action="version", version=f"canastra-spec {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
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
