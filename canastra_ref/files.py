"""Reading a text file a person wrote (a spec, a fixture file, a situation):
a regular file (not a directory, a FIFO or a device, which could block a
read forever), of at most MAX_FILE_BYTES, in UTF-8. Anything else is a
CanastraError naming the file, and the line and column of a byte that is
not UTF-8."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import CanastraError, SourcePosition
from .limits import MAX_FILE_BYTES


def read_text(path: Path | str, what: str = "", error=CanastraError) -> str:
    """The file's text; `error` (a CanastraError class) for every problem,
    naming the file as `what` says (such as "the skip file")."""
    path = Path(path)
    name = f"{what} {path}" if what else str(path)
    try:
        with open(path, "rb", opener=_opener) as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise error(f"cannot read {name}: not a regular file", expected="a text file")
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise error(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise error(f"cannot read {name}: larger than {MAX_FILE_BYTES // 1024} KiB",
                    expected=f"a file of at most {MAX_FILE_BYTES:,} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise error(f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot start or continue a character",
                    position=SourcePosition(str(path), line, column), expected="a file encoded in UTF-8") from None


def _opener(path: str, flags: int) -> int:
    """Open without blocking (a FIFO with no writer would block the open itself)."""
    return os.open(path, flags | os.O_NONBLOCK)
