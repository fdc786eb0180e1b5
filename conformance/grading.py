"""Building the message an implementation receives for a case (expectations
are never sent) and grading its answer.

Grading has two tiers: behaviour (verdict, reason, state fields, score
fields, query result) and citations (every expected article cited). A case
passes when its behaviour matches; citation mismatches are reported apart.

An answer may say which parts of it the implementation does not compute
(`unsupported`: grading paths, `*` for any key or index): expectations there
are not graded; a case that passes on the rest but expects something there
is skipped, not passed.

Matching rules: an expected object matches when each of its keys matches
(other keys are ignored); lists must be equal, except the cards of a hand and
of a meld that is not a sequence (a set or a meld of wild cards), compared as
multisets; cards are compared in canonical spelling. A score term expected
to be 0 matches a term the answer does not list (an implementation need not
keep a term for what scored nothing).
"""
from __future__ import annotations

import re
import reprlib
from collections import Counter
from dataclasses import dataclass, field

from canastra_ref.cards import full_deck, parse_card
from canastra_ref.dsl.loader import load
from canastra_ref.engine.completion import complete, fill_key
from canastra_ref.errors import InputError
from canastra_ref.seating import make_table

from . import canonical
from .fixtures import Case
from .policy import KEPT_VALUE, MESSAGE_LIMIT
from .rulesets import ruleset_for

PASSED, FAILED, ERRORED, SKIPPED = "passed", "failed", "errored", "skipped"
# A case written under another reading than the implementation declares (readings.py): never sent.
OTHER_READING = "other-reading"
# A case listed in an expected-failures file (xfail.py) that failed or errored, or that passed.
XFAIL, XPASS = "xfail", "xpass"


def message_for(case: Case) -> dict:
    """The run message of a case: the completed state and the actions, or the
    query, all in canonical form (canonical.py)."""
    message = {"cmd": "run", "id": case.id, "ruleset": case.ruleset, "reading": dict(case.reading)}
    if case.query is not None:
        query = canonical.query(case.query)
        if "score" in query:
            query["score"] = _complete(case, query["score"])
        message["query"] = query
    else:
        message["state"] = _complete(case, case.state)
        message["actions"] = [_full_deck_order(case, canonical.action(a)) for a in case.actions]
    return message


def _full_deck_order(case: Case, action: dict) -> dict:
    """A deal from a stated order gets the whole deck: the stated top cards,
    then the rest in the completion rule's fill order."""
    deal = action.get("deal")
    if not isinstance(deal, dict) or "deck" not in deal:
        return action
    ruleset = ruleset_for(case.ruleset, case.reading)
    rest = Counter(full_deck(ruleset.value("deck.decks"), ruleset.value("deck.jokers")))
    rest.subtract(Counter(deal["deck"]))
    order = list(deal["deck"]) + sorted((c for c, n in rest.items() for _ in range(max(n, 0))), key=fill_key)
    return {**action, "deal": {"deck": order}}


def _unordered_kinds(case: Case) -> frozenset:
    ruleset = load(case.ruleset, case.reading)
    return frozenset(k for k in ruleset.meld_kinds if ruleset.value(f"meld.{k}.shape") != "sequence")


def _complete(case: Case, partial: dict) -> dict:
    ruleset = ruleset_for(case.ruleset, case.reading)
    table = make_table(ruleset.value("table.players"), ruleset.value("table.team_size"),
                       ruleset.value("play.direction"))
    return canonical.state(complete(table, (ruleset.value("deck.decks"), ruleset.value("deck.jokers")), partial))


@dataclass
class Mismatch:
    """Where an answer differs from the expectation. What the answer had there
    is kept only up to KEPT_VALUE characters of JSON (a preview beyond), so a
    run keeps what grading found, never whole answers."""
    path: str
    expected: object
    actual: object

    def __post_init__(self):
        self.actual = kept(self.actual)

    def __str__(self) -> str:
        return f"{self.path}: expected {self.expected!r}, got {self.actual!r}"


class Elided:
    """A value of an answer too large to keep: its kind, size and a preview."""

    def __init__(self, value):
        kind = {dict: "an object", list: "a list", str: "a string"}.get(type(value), type(value).__name__)
        unit = "character" if isinstance(value, str) else "item"
        count = f" of {len(value):,} {unit}{'s' if len(value) != 1 else ''}" if isinstance(value, (dict, list, str)) \
            else ""
        self.text = f"<{kind}{count}, more than {KEPT_VALUE:,} characters of JSON, not kept: {_PREVIEW.repr(value)}>"

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


_PREVIEW = reprlib.Repr()
_PREVIEW.maxlevel, _PREVIEW.maxdict, _PREVIEW.maxlist, _PREVIEW.maxstring, _PREVIEW.maxlong = 3, 4, 6, 60, 40


def kept(value):
    """The value when it is small, else an Elided preview of it."""
    budget = KEPT_VALUE
    stack = [value]
    while stack:                       # the size of its JSON, measured until the budget runs out
        item = stack.pop()
        if isinstance(item, dict):
            budget -= 2 + 4 * len(item)
            for key, inner in item.items():
                budget -= len(str(key))
                stack.append(inner)
                if budget < 0:
                    break
        elif isinstance(item, list):
            budget -= 2 + len(item)
            stack.extend(item[:max(budget, 0) + 1])
        else:
            budget -= len(item) + 2 if isinstance(item, str) else 8
        if budget < 0:
            return Elided(value)
    return value


@dataclass
class Grade:
    status: str                       # passed | failed | errored | skipped | other-reading
    behaviour: list[Mismatch] = field(default_factory=list)
    citations: list[Mismatch] = field(default_factory=list)
    message: str = ""
    conflicts: list = field(default_factory=list)     # readings.Conflict, for other-reading

    def __post_init__(self):
        if len(self.message) > MESSAGE_LIMIT:          # an implementation's message, of any length
            self.message = f"{self.message[:MESSAGE_LIMIT]}... [{len(self.message) - MESSAGE_LIMIT:,} more characters]"

    @property
    def cites_ok(self) -> bool:
        return not self.citations


def _canon(value):
    if isinstance(value, str):
        try:
            return parse_card(value)
        except InputError:
            return value
    return value


def match(expected, actual, path: str, out: list[Mismatch], multiset: bool = False,
          unordered: frozenset = frozenset()) -> None:
    """Append to `out` every way `actual` fails to match `expected` (see the module docstring).
    `multiset`: lists at this level are compared regardless of order; `unordered`:
    the meld kinds whose cards have no order."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            out.append(Mismatch(path, expected, actual))
            return
        for key, value in expected.items():
            if key not in actual:
                if path.endswith(".terms") and value == {"value": 0}:
                    continue            # a score term not listed counts nothing
                out.append(Mismatch(f"{path}.{key}", value, "(missing)"))
            elif key == "hands" and isinstance(value, dict) and isinstance(actual[key], dict):
                for seat, cards in value.items():
                    match(cards, actual[key].get(seat), f"{path}.hands.{seat}", out, multiset=True)
            else:
                loose = key == "cards" and actual.get("kind") in unordered
                match(value, actual[key], f"{path}.{key}", out, multiset=loose, unordered=unordered)
        return
    if isinstance(expected, list) or multiset and isinstance(expected, str):
        items = expected.split() if isinstance(expected, str) else expected
        if not isinstance(actual, list) or len(items) != len(actual):
            out.append(Mismatch(path, expected, actual))
            return
        left, right = [_canon(e) for e in items], [_canon(a) for a in actual]
        if multiset:
            left, right = sorted(map(str, left)), sorted(map(str, right))
        for i, (e, a) in enumerate(zip(left, right)):
            match(e, a, f"{path}[{i}]", out, unordered=unordered)
        return
    if _canon(expected) != _canon(actual):
        out.append(Mismatch(path, expected, actual))


_TOKEN = re.compile(r"\[(?:\d+|\*)\]|[^.\[\]]+")


def covered(path: str, patterns) -> bool:
    """Whether a grading path lies on or below one of the unsupported paths."""
    tokens = _TOKEN.findall(path)
    for pattern in patterns:
        want = _TOKEN.findall(pattern)
        if len(want) <= len(tokens) and all(w == t or w == "*" and not t.startswith("[") or
                                            w == "[*]" and t.startswith("[") for w, t in zip(want, tokens)):
            return True
    return False


def expected_paths(case: Case) -> list[str]:
    """The grading paths of every expected value of a case (lists and scalars are leaves)."""
    out: list[str] = []

    def walk(value, path: str) -> None:
        if isinstance(value, dict) and value:
            for key, item in value.items():
                walk(item, f"{path}.{key}")
        else:
            out.append(path)
    if case.query is not None:
        walk(case.expect["result"], "result")
    else:
        for i, want in enumerate(case.expect):
            for key in ("verdict", "reason", "state", "score"):
                if key in want:
                    walk(want[key], f"results[{i}].{key}")
    return out


def grade(case: Case, answer: dict) -> Grade:
    """Grade an implementation's answer to the case's message."""
    if answer.get("skipped"):
        return Grade(SKIPPED, message=str(answer.get("message", "")))
    if answer.get("errored"):
        return Grade(ERRORED, message=str(answer.get("message", "")))
    behaviour: list[Mismatch] = []
    citations: list[Mismatch] = []
    unordered = _unordered_kinds(case)
    if case.query is not None:
        if "result" not in answer:
            return Grade(ERRORED, message="the answer to a query has no 'result'")
        match(case.expect["result"], answer["result"], "result", behaviour)
    else:
        results = answer.get("results")
        if not isinstance(results, list) or len(results) != len(case.actions):
            return Grade(ERRORED, message=f"expected {len(case.actions)} results, got "
                                          f"{len(results) if isinstance(results, list) else 'none'}")
        for i, (want, got) in enumerate(zip(case.expect, results)):
            where = f"results[{i}]"
            if not isinstance(got, dict):
                return Grade(ERRORED, message=f"{where} is not an object")
            for key in ("verdict", "reason"):
                if key in want and want[key] != got.get(key):
                    behaviour.append(Mismatch(f"{where}.{key}", want[key], got.get(key)))
            if "state" in want:
                if "state" not in got:
                    behaviour.append(Mismatch(f"{where}.state", "(a state)", "(none returned)"))
                else:
                    match(want["state"], got["state"], f"{where}.state", behaviour, unordered=unordered)
            if "score" in want:
                match(want["score"], got.get("score"), f"{where}.score", behaviour)
            if "cites" in want:
                cited = set(map(str, got.get("cites") or []))
                missing = [c for c in want["cites"] if c not in cited]
                if missing:
                    citations.append(Mismatch(f"{where}.cites", want["cites"], sorted(cited)))
    unsupported = answer.get("unsupported") or []
    if not unsupported:
        return Grade(FAILED if behaviour else PASSED, behaviour, citations)
    behaviour = [m for m in behaviour if not covered(m.path, unsupported)]
    untested = [p for p in expected_paths(case) if covered(p, unsupported)]
    if not untested:
        return Grade(FAILED if behaviour else PASSED, behaviour, citations)
    note = f"expects {_listed(untested)}, which the implementation does not compute (unsupported)"
    if not behaviour:
        return Grade(SKIPPED, message=note)
    return Grade(FAILED, behaviour, citations, message=f"graded without {_listed(untested)} (unsupported)")


def _listed(paths: list[str], limit: int = 3) -> str:
    return ", ".join(paths[:limit]) + (f" and {len(paths) - limit} more" if len(paths) > limit else "")
