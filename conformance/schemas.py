"""Where a JSON Schema error is, as the JSON path every message of the
project uses ($.cases.x.mismatches[0].path), for protocol messages
(messages.py), fixture files (fixtures.py) and reports (compare.py)."""
from __future__ import annotations

import jsonschema


def error_path(error: jsonschema.ValidationError) -> str:
    out = "$"
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out
