"""Verdicts: what the engine answers to every action, and why.

A verdict is accepted, rejected (the state is untouched) or penalised (the
attempt has a consequence the rulebook legislates). It carries a stable reason
code (canastra_ref.engine.reasons), the articles of the clauses that decided
it, and a trace of every setting consulted, in the spirit of Catala's
explanations.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..dsl.model import Decision
from .reasons import REASONS

ACCEPTED, REJECTED, PENALISED = "accepted", "rejected", "penalised"


@dataclass
class Trace:
    """The decisions consulted while judging one action."""
    steps: list[tuple[Decision, bool]] = field(default_factory=list)   # (decision, decisive?)

    def add(self, decision: Decision, decisive: bool = True) -> Decision:
        self.steps.append((decision, decisive))
        return decision

    def cites(self) -> list[str]:
        seen: dict[str, None] = {}
        for decision, decisive in self.steps:
            if decisive:
                for cite in decision.cites:
                    seen.setdefault(cite, None)
        return list(seen)

    def to_json(self) -> list[dict]:
        return [{"setting": d.setting, "value": _plain(d.value), "clause": d.clause, "cites": list(d.cites)}
                for d, _ in self.steps]


def _plain(value):
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return str(value)


@dataclass
class Verdict:
    verdict: str
    reason: str
    cites: list[str]
    trace: Trace
    message: str = ""
    events: list[str] = field(default_factory=list)

    def __post_init__(self):
        assert self.reason in REASONS, self.reason

    def to_json(self, trace: bool = True) -> dict:
        out = {"verdict": self.verdict, "reason": self.reason, "cites": list(self.cites)}
        if self.message:
            out["message"] = self.message
        if self.events:
            out["events"] = list(self.events)
        if trace:
            out["trace"] = self.trace.to_json()
        return out


class Rejection(Exception):
    """Raised inside an action to reject it; the caller returns the old state."""

    def __init__(self, reason: str, message: str, decisions: tuple[Decision, ...] = ()):
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.decisions = decisions
