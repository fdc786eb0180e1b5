"""Badges: shields.io endpoint JSON (https://shields.io/badges/endpoint-badge),
one per implementation and ruleset, and one per implementation for its
closest ruleset. The rate is the one of the index: cases passed of those
graded under the implementation's own reading profile.
"""
from __future__ import annotations

SCHEMA_VERSION = 1


def colour(percent: int | None) -> str:
    if percent is None:
        return "lightgrey"
    for floor, name in ((100, "brightgreen"), (90, "green"), (75, "yellowgreen"), (50, "yellow"), (25, "orange")):
        if percent >= floor:
            return name
    return "red"


def badge(label: str, rate: dict | None) -> dict:
    """`rate`: {passed, graded, percent} (matrix.rate), or None when nothing was graded."""
    message = f"{rate['passed']}/{rate['graded']} passed" if rate else "no graded case"
    return {"schemaVersion": SCHEMA_VERSION, "label": label, "message": message,
            "color": colour(rate["percent"] if rate else None)}
