"""History: what changed between the runs of one implementation (the data
of `canastra conformance --compare`), run after run.

Runs are of one implementation when they declare the same name. They are
taken in the order of their dates where every one has a date, else in the
order given on the command line.
"""
from __future__ import annotations

from canastra_conformance.compare import KINDS, compare


def histories(runs: list) -> dict[str, dict]:
    """name -> {"key": the page's name, "steps": [{"a": run, "b": run, "diff": compare(...)}]}, for
    every implementation name with two runs or more."""
    by_name: dict[str, list] = {}
    for run in runs:
        by_name.setdefault(run.name, []).append(run)
    out = {}
    for name, group in by_name.items():
        if len(group) < 2:
            continue
        if all(r.date for r in group):
            group = sorted(group, key=lambda r: r.date)
        out[name] = {"key": group[0].key,
                     "steps": [{"a": a, "b": b, "diff": compare(a.comparable(), b.comparable())}
                               for a, b in zip(group, group[1:])]}
    return out


__all__ = ["KINDS", "histories"]
