"""The `canastra` command line.

Each subcommand lives in a module with a `register(subparsers)` function
(COMMANDS below); a command returns an exit status. Errors in user input
(specs, fixtures, states, options) are CanastraErrors: printed, never raised
as tracebacks.
"""
from __future__ import annotations

import argparse
import sys

from canastra_ref import __version__
from canastra_ref.errors import CanastraError, ErrorList

from . import conformance, coverage, diff, fuzz, mutate, play, profile, reasons, report, serve, spec
from .common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE

# Modules registering subcommands, in the order --help lists them.
COMMANDS = (spec, play, reasons, serve, conformance, profile, report, fuzz, coverage, diff, mutate)


class Version(argparse.Action):
    """--version: the release, and whether the engine runs compiled or from its .py files. The engine's
    modules are imported only when asked, so that other commands start without them."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the release and the engine's build (compiled or pure Python), and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        from canastra_ref.compiled import build
        print(f"canastra-spec {__version__}\nengine: {build()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="canastra",
        description="canastra-spec: executable rulebooks of the card game Canastra, a reference "
                    "interpreter, and a conformance suite for any implementation.",
        epilog="Run 'canastra COMMAND --help' for a command's options. Rulesets: "
               "those of the installed specs (cbc, ituiutaba, treze, classica, uruguaya, casa and their variants).")
    parser.add_argument("--version", action=Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
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
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
