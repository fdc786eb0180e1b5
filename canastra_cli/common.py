"""What every command shares: exit codes, JSON output, error records, --reading."""
from __future__ import annotations

import json
import sys

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
