"""A small on-disk cache of work that depends only on file contents and code:
parsed specs, validated fixture files and passed spec checks. It holds data,
never pickles: each entry is JSON, its value rebuilt by the caller's decoder.

An entry's key is a digest of the package version, of the source of the
packages that produce the value (any change to their code gives new keys), and
of every input (file path and text, grammar or schema, library versions). An
entry is used only when it verifies: a regular file of bounded size whose
header names that very key and the SHA-256 of its payload, and whose payload
decodes. Anything else (a corrupted, truncated, swapped or foreign entry, a
FIFO or a device in its place, an unreadable or unwritable directory) is
ignored without a word: the value is computed again.

Location: $CANASTRA_CACHE_DIR, else $XDG_CACHE_HOME/canastra-spec, else
~/.cache/canastra-spec (created private to the user). CANASTRA_CACHE=0 turns
the cache off. Both are read at each use.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import stat
import tempfile
from functools import lru_cache
from pathlib import Path

from . import __version__
from .paths import package_dir

FORMAT = "canastra-cache 1"
MAX_ENTRY = 64 * 1024 * 1024       # bytes; a larger file is not an entry of ours


def directory() -> Path:
    explicit = os.environ.get("CANASTRA_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "canastra-spec"


def cached(kind: str, code: tuple[str, ...], inputs: tuple[str, ...], compute, encode=None, decode=None):
    """compute(), or the value stored for the same kind, code and inputs.

    `code`: the packages whose source produces the value; `inputs`: everything
    else it depends on. `encode` turns the value into JSON data and `decode`
    back (both default to the identity); a value that does not encode is
    returned without being stored."""
    if os.environ.get("CANASTRA_CACHE", "1") == "0":
        return compute()
    key = hashlib.sha256("\0".join((FORMAT, kind, __version__, code_digest(code)) + inputs)
                         .encode("utf-8", "surrogatepass")).hexdigest()
    path = directory() / kind / f"{key}.json"
    payload = _read(path, key)
    if payload is not None:
        try:
            return (decode or _same)(json.loads(payload))
        except Exception:           # whatever the decoder meets, an entry that does not decode is no entry
            pass
    value = compute()
    try:
        payload = json.dumps((encode or _same)(value), ensure_ascii=False, separators=(",", ":"),
                             allow_nan=False).encode("utf-8")
    except (TypeError, ValueError):
        return value
    _write(path, key, payload)
    return value


@lru_cache(maxsize=None)
def code_digest(packages: tuple[str, ...]) -> str:
    """A digest of the Python source of these packages (by name)."""
    digest = hashlib.sha256()
    for package in packages:
        root = package_dir(package)
        for source in sorted(root.rglob("*.py")):
            digest.update(f"{package}/{source.relative_to(root).as_posix()}\0".encode())
            digest.update(source.read_bytes() + b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=None)
def installed(package: str) -> str:
    """A third-party package's release, for cache keys: the text of its
    __init__.py (which states its version), read without importing it."""
    found = importlib.util.find_spec(package)
    if found is None or found.origin is None:
        importlib.import_module(package)      # a missing dependency is reported as such
        raise ImportError(f"{package} is installed without its package source")
    return Path(found.origin).read_text(encoding="utf-8")


def _same(value):
    return value


def _header(key: str, payload: bytes) -> bytes:
    return json.dumps({"format": FORMAT, "key": key, "sha256": hashlib.sha256(payload).hexdigest()},
                      separators=(",", ":")).encode("ascii") + b"\n"


def _read(path: Path, key: str) -> bytes | None:
    """The verified payload of the entry at `path`, or None."""
    try:
        # O_NONBLOCK: opening a FIFO put in an entry's place must not wait for a writer
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY:
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_ENTRY + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    header, newline, payload = data.partition(b"\n")
    if not newline or header + newline != _header(key, payload):
        return None
    return payload


def _write(path: Path, key: str, payload: bytes) -> None:
    """Store an entry atomically (a reader sees the old file or the new one)."""
    try:
        directory().mkdir(mode=0o700, parents=True, exist_ok=True)
        path.parent.mkdir(mode=0o700, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(_header(key, payload) + payload)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
