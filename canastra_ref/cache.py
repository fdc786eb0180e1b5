"""A small on-disk cache for work that depends only on file contents: parsed
specs and validated fixture files. An entry's key is a hash of everything the
result depends on, so a stale entry is never used, only left behind.

Location: $CANASTRA_CACHE_DIR, else ~/.cache/canastra-spec. CANASTRA_CACHE=0
turns it off. A cache that cannot be read or written is silently skipped.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from . import __version__

_DIR = Path(os.environ.get("CANASTRA_CACHE_DIR", Path.home() / ".cache" / "canastra-spec"))
_ENABLED = os.environ.get("CANASTRA_CACHE", "1") != "0"


def cached(kind: str, parts: tuple[str, ...], compute):
    """compute(), or its stored result for the same kind and inputs."""
    if not _ENABLED:
        return compute()
    digest = hashlib.sha256("\0".join((kind, __version__) + parts).encode("utf-8")).hexdigest()
    path = _DIR / kind / f"{digest}.pickle"
    try:
        with path.open("rb") as handle:
            return pickle.load(handle)
    except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError, ValueError):
        pass
    result = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        with temporary.open("wb") as handle:
            pickle.dump(result, handle, protocol=pickle.HIGHEST_PROTOCOL)
        temporary.replace(path)
    except (OSError, pickle.PickleError, TypeError):
        pass
    return result
