"""The ruleset a case runs under, built once per distinct choice of readings:
naming a dispute's default reading gives the default ruleset, so it is not
built again under another cache key (half the builds of the suite)."""
from __future__ import annotations

from canastra_ref.dsl.loader import load
from canastra_ref.dsl.model import Ruleset


def ruleset_for(ruleset: str, readings: dict | None = None) -> Ruleset:
    """load(ruleset, readings), sharing the default ruleset; the same errors."""
    if readings:
        disputes = load(ruleset).disputes
        readings = {d: r for d, r in readings.items() if d not in disputes or disputes[d].default != r}
    return load(ruleset, readings)
