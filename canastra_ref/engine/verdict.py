"""Verdicts: what the engine answers to every action, and why.

A verdict is accepted, rejected (the state is untouched) or penalised (the
attempt has a consequence the rulebook legislates). It carries a stable reason
code (canastra_ref.engine.reasons), the articles of the clauses that decided
it, and a trace of every setting consulted, in the spirit of Catala's
explanations.
"""
from __future__ import annotations

from ..dsl.model import Decision
from .reasons import REASONS

ACCEPTED, REJECTED, PENALISED = "accepted", "rejected", "penalised"


class Trace(list):
    """The decisions consulted while judging one action, in order: a list of
    (decision, decisive?). Every action makes one: a list is made without a
    call to Python code, which an object's __init__ would cost."""
    __slots__ = ()

    def add(self, decision: Decision, decisive: bool = True) -> Decision:
        self.append((decision, decisive))
        return decision

    def cites(self) -> list[str]:
        seen: dict[str, None] = {}
        for decision, decisive in self:
            if decisive:
                for cite in decision.cites:
                    seen.setdefault(cite, None)
        return list(seen)

    def to_json(self) -> list[dict]:
        return [{"setting": d.setting, "value": _plain(d.value), "clause": d.clause, "cites": list(d.cites)}
                for d, _ in self]


def _plain(value):
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return str(value)


class Verdict:
    """The engine's answer to one action: accepted, rejected or penalised, its
    reason code, the articles that decided it (`cites`, gathered from the
    trace when first asked for), the trace, a message, and its events. Made by make_verdict."""
    __slots__ = ("verdict", "reason", "trace", "message", "events", "_cites")

    @property
    def cites(self) -> list[str]:
        if self._cites is None:
            self._cites = self.trace.cites()
        return self._cites

    def __repr__(self) -> str:
        return f"Verdict({self.verdict!r}, {self.reason!r})"

    def to_json(self, trace: bool = True) -> dict:
        out = {"verdict": self.verdict, "reason": self.reason, "cites": list(self.cites)}
        if self.message:
            out["message"] = self.message
        if self.events:
            out["events"] = list(self.events)
        if trace:
            out["trace"] = self.trace.to_json()
        return out


_new = object.__new__


def make_verdict(verdict: str, reason: str, trace: Trace, message: str = "",
                 events: list[str] | None = None) -> Verdict:
    """A Verdict, filled field by field: every action makes one, and a class's Python __init__
    costs more than a function call (Python 3.11 runs it in an interpreter loop of its own)."""
    assert reason in REASONS, reason
    made = _new(Verdict)
    made.verdict, made.reason = verdict, reason          # (four targets would build a tuple to unpack)
    made.trace, made.message = trace, message
    made.events = [] if events is None else events
    made._cites = None
    return made


class Rejection(Exception):
    """Raised inside an action to reject it; the caller returns the old state."""

    def __init__(self, reason: str, message: str, decisions: tuple[Decision, ...] = ()):
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.decisions = decisions
