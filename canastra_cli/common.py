"""What every command shares: exit codes, output, error records, --reading,
--impl and timeouts."""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from pathlib import Path

from canastra_ref.errors import CanastraError

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def print_json(data) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def error_record(error: CanastraError) -> dict:
    record = {"message": error.message}
    if error.position is not None:
        record.update(file=error.position.file, line=error.position.line, column=error.position.column)
    if error.json_path is not None:
        record["path"] = error.json_path
    if error.expected:
        record["expected"] = error.expected
    return record


def parse_readings(items: list[str] | None) -> dict[str, str]:
    """--reading DISPUTE=READING, repeatable."""
    readings = {}
    for item in items or []:
        dispute, sep, reading = item.partition("=")
        if not sep or not dispute or not reading:
            raise CanastraError(f"--reading takes DISPUTE=READING, not {item!r}")
        readings[dispute] = reading
    return readings


def add_reading_option(parser) -> None:
    parser.add_argument("--reading", action="append", metavar="DISPUTE=READING",
                        help="take a non-default reading of a dispute (repeatable)")


def check_output(path: str | None, option: str, directory: bool = False) -> None:
    """Refuse, before any long work, an output that could not be written: a
    file where a directory is wanted or the other way round, a missing parent
    directory, one not writable."""
    if not path:
        return
    target = Path(path)
    if target.exists() and target.is_dir() != directory:
        raise CanastraError(f"{option} {path}: {'not a directory' if directory else 'is a directory'}",
                            expected="a directory to write into" if directory else "a file to write")
    while not target.exists():                  # the nearest directory that exists must take the output
        if not directory and target != Path(path):
            raise CanastraError(f"{option} {path}: no directory {target}", expected="an existing directory")
        target = target.parent
    if not target.is_dir() and target != Path(path):
        raise CanastraError(f"{option} {path}: {target} is not a directory")
    if not os.access(target, os.W_OK | (os.X_OK if target.is_dir() else 0)):
        raise CanastraError(f"{option} {path}: {target} cannot be written", expected="a path you may write to")


def add_format_option(parser, formats, default: str | None = None) -> None:
    """--format FORMAT, and --json as another way to say --format json (where json is one of them)."""
    default = default or formats[0]
    parser.add_argument("--format", choices=formats, default=default,
                        help=f"the output's form (default {default})")
    if "json" in formats:
        parser.add_argument("--json", dest="format", action="store_const", const="json",
                            help="the same as --format json")


def write_output(text: str, output: str | None) -> None:
    """Text to the file --output names, else to standard output."""
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


def seconds(text: str) -> float:
    """An argparse type: a timeout, a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a timeout must be more than 0 seconds, not {text}")
    return value


def impl_argv(command: str) -> list[str]:
    """--impl COMMAND split like a shell would."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise CanastraError(f"--impl is not a valid command line: {exc}") from None
    if not argv:
        raise CanastraError("--impl is empty", expected="a command such as \"python my_adapter.py\"")
    return argv
