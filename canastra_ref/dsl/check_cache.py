"""Spec checks remembered: `canastra check` of a spec file that passed before
answers from the on-disk cache (canastra_ref.cache), without parsing or
building anything, when nothing it depends on has changed: the code of
canastra_ref, the lark release, the grammar, the `strict` flag, the file's text
and the text of every spec file of its directory (where its ancestors are
found). A check that found errors is never stored: they are found again, with
their positions and source lines. This module imports the loader only when it
must check."""
from __future__ import annotations

import hashlib
from pathlib import Path

from ..cache import cached, installed
from ..paths import GRAMMAR, SPEC_SUFFIX


def check_file(path: Path, strict: bool = False) -> tuple[list[str], list]:
    """canastra_ref.dsl.loader.check_file(path, strict=strict), from the cache when it passed before."""
    path = Path(path)

    def check():
        from .loader import check_file as check_now
        return check_now(path, strict=strict)
    try:
        inputs = (installed("lark"), GRAMMAR.read_text(encoding="utf-8"), f"strict={strict}", str(path),
                  path.read_text(encoding="utf-8"), _specs(str(path.parent)))
    except (OSError, UnicodeDecodeError):
        return check()             # the checker reports an unreadable file as it does
    return cached("check", ("canastra_ref",), inputs, check, encode=_passed, decode=lambda checked: (checked, []))


def _specs(directory: str) -> str:
    """A digest of the names and texts of the spec files of a directory (read
    at every check: a file edited since the last check of the process counts)."""
    digest = hashlib.sha256()
    for spec in sorted(Path(directory).glob("*" + SPEC_SUFFIX)):
        digest.update(spec.name.encode("utf-8", "surrogateescape") + b"\0" + spec.read_bytes() + b"\0")
    return digest.hexdigest()


def _passed(result: tuple[list[str], list]) -> list[str]:
    """What is stored of a check: the readings it checked, when it found no error."""
    checked, errors = result
    if errors:
        raise ValueError("a failed check is not stored")      # cached() then returns it unstored
    return checked
