"""One side of a comparison: a ruleset under a choice of dispute readings.

Written on the command line as RULESET or RULESET:DISPUTE=READING[,DISPUTE=READING...],
for instance `cbc:aces-suit=same-suit`. Readings may also come from options
(--reading for both sides, --reading-a / --reading-b for one); a reading named
for both sides applies to each side whose ruleset has that dispute.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from canastra_ref.dsl.loader import available, load
from canastra_ref.dsl.model import Ruleset
from canastra_ref.errors import InputError


@dataclass(frozen=True)
class Side:
    ruleset: str
    readings: tuple[tuple[str, str], ...] = ()       # non-default choices, sorted
    model: Ruleset = field(default=None, compare=False, repr=False)

    @property
    def reading_map(self) -> dict[str, str]:
        return dict(self.readings)

    @property
    def label(self) -> str:
        if not self.readings:
            return self.ruleset
        return self.ruleset + ":" + ",".join(f"{d}={r}" for d, r in self.readings)


def _pairs(text: str, what: str) -> dict[str, str]:
    out = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        dispute, sep, reading = item.partition("=")
        if not sep or not dispute or not reading:
            raise InputError(f"{what} takes DISPUTE=READING, not {item!r}",
                             expected="for instance aces-suit=same-suit")
        out[dispute] = reading
    return out


def parse_side(text: str, readings: dict[str, str] | None = None) -> Side:
    """A Side from RULESET[:D=R,...] plus readings given apart (InputError if unknown)."""
    ruleset, _, rest = text.partition(":")
    if ruleset not in available():
        raise InputError(f"unknown ruleset '{ruleset}'", expected="one of: " + ", ".join(available()))
    chosen = _pairs(rest, f"'{text}'")
    chosen.update(readings or {})
    return make_side(ruleset, chosen)


def make_side(ruleset: str, readings: dict[str, str] | None = None) -> Side:
    model = load(ruleset, readings or {})
    changed = tuple(sorted((d, r) for d, r in model.readings.items() if r != model.disputes[d].default))
    return Side(ruleset, changed, model)


def parse_sides(a: str, b: str, both=None, only_a=None, only_b=None) -> tuple[Side, Side]:
    """The two sides of a diff. `both` readings go to each side that has the
    dispute; naming one neither side has is an error."""
    both = both or {}
    base_a, base_b = parse_side(a), parse_side(b)
    for dispute in both:
        if dispute not in base_a.model.disputes and dispute not in base_b.model.disputes:
            known = sorted(set(base_a.model.disputes) | set(base_b.model.disputes))
            raise InputError(f"neither {base_a.ruleset} nor {base_b.ruleset} has a dispute '{dispute}'",
                             expected=("one of: " + ", ".join(known)) if known else "no --reading")
    side_a = parse_side(a, {d: r for d, r in both.items() if d in base_a.model.disputes} | (only_a or {}))
    side_b = parse_side(b, {d: r for d, r in both.items() if d in base_b.model.disputes} | (only_b or {}))
    return side_a, side_b
