"""What every command shares: exit codes, output, error records, --reading,
--impl and timeouts."""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from canastra_ref.errors import CanastraError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


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
