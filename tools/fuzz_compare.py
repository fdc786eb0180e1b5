"""Comparing an implementation's result of one action with the reference's,
for the differential fuzzer (fuzz.py).

What is compared:

- the verdict (and, with `reasons`, the reason code);
- the state after the action, as far as the implementation reports it: the
  table as the players see it (TABLE below), each field compared only where
  the implementation's state has it (an engine that has no notion of a
  field leaves it out), never under a path the answer declares
  `unsupported`, and the player to move only while the hand is not over.
  Hands and the cards set aside are compared as multisets, melds in the
  order laid with the cards of an unordered kind (a set) as a
  multiset, the stock and the pile in order. The reference's working memory
  of the turn (which melds it laid, what the pile gave, the pending opening's
  undo) is not compared: engines keep other records, and what those records
  decide shows in the verdicts of the actions that follow;
- the score, once the hand is over: whether there is one, then per team the
  total and score after (and before), and each term the implementation
  lists (a term it does not list counts 0, as in grading).

Citations and messages are never compared. Cards are compared in canonical
spelling. A difference is a grading Mismatch (path, reference, implementation).
"""
from __future__ import annotations

from collections import Counter

from canastra_conformance.grading import Mismatch, covered
from canastra_ref.cards import parse_card
from canastra_ref.errors import InputError

ERRORED, VERDICT, REASON, STATE, SCORE = "errored", "verdict", "reason", "state", "score"
KINDS = (ERRORED, VERDICT, REASON, STATE, SCORE)

# The table as the players see it: the fields of the state compared (see above).
TABLE = ("dealer", "turn.player", "turn.phase", "hands", "stock", "pile", "aside", "teams.*.score",
         "teams.*.opened", "teams.*.melds", "teams.*.red_threes", "started", "ended")
_TEAM_FIELDS = ("score", "opened", "melds", "red_threes")
_SCORE_FIELDS = ("total", "score_before", "score_after", "subtotal", "rounding", "counts")


def compare(reference: dict, answer, where: str, unsupported=(), *, reasons: bool = False,
            unordered=frozenset()) -> tuple[str | None, list[Mismatch]]:
    """(kind of the first difference or None, every difference) between the
    reference's result of an action and the implementation's (`answer`, one
    element of its `results`). `where` is the grading path of the result
    (`results[3]`); `unordered` the meld kinds whose cards have no order."""
    if answer == reference:
        return None, []
    if not isinstance(answer, dict):
        return ERRORED, [Mismatch(where, "(a result)", answer)]
    out: list[Mismatch] = []
    kind = None
    if answer.get("verdict") != reference["verdict"]:
        out.append(Mismatch(f"{where}.verdict", reference["verdict"], answer.get("verdict")))
        kind = VERDICT
    if reasons and answer.get("reason") != reference["reason"] and not covered(f"{where}.reason", unsupported):
        out.append(Mismatch(f"{where}.reason", reference["reason"], answer.get("reason")))
        kind = kind or REASON
    if isinstance(answer.get("state"), dict):
        before = len(out)
        _state(reference["state"], answer["state"], f"{where}.state", out, unsupported, unordered)
        if len(out) > before:
            kind = kind or STATE
    before = len(out)
    _score(reference.get("score"), answer.get("score"), f"{where}.score", out, unsupported)
    if len(out) > before:
        kind = kind or SCORE
    return kind, out


def _state(ref: dict, got: dict, path: str, out: list, unsupported, unordered) -> None:
    def field(key: str, compare) -> None:
        if key in got and not covered(f"{path}.{key}", unsupported):
            compare(ref.get(key), got[key], f"{path}.{key}", out)
    field("dealer", _equal)
    field("started", _equal)
    field("stock", _cards)
    field("pile", _cards)
    field("aside", _multiset)
    if "ended" in got and not covered(f"{path}.ended", unsupported):
        want, have = ref.get("ended"), got["ended"]
        if want is None or not isinstance(have, dict):
            _equal(want, have, f"{path}.ended", out)
        else:
            for key in ("reason", "player", "concealed"):
                if key in have and not covered(f"{path}.ended.{key}", unsupported):
                    _equal(want.get(key), have[key], f"{path}.ended.{key}", out)
    if isinstance(got.get("turn"), dict):
        # Once the hand is over nobody is to move: which player the turn still
        # names is bookkeeping (the reference passes it on, engines often keep it).
        keys = ("phase",) if ref["turn"].get("phase") == "over" else ("player", "phase")
        for key in keys:
            if key in got["turn"] and not covered(f"{path}.turn.{key}", unsupported):
                _equal(ref["turn"].get(key), got["turn"][key], f"{path}.turn.{key}", out)
    if isinstance(got.get("hands"), dict) and not covered(f"{path}.hands", unsupported):
        for seat, cards in got["hands"].items():
            if not covered(f"{path}.hands.{seat}", unsupported):
                _multiset(ref["hands"].get(seat), cards, f"{path}.hands.{seat}", out)
    if isinstance(got.get("teams"), dict):
        for team, value in got["teams"].items():
            if not isinstance(value, dict) or team not in ref["teams"]:
                continue
            want = ref["teams"][team]
            for key in _TEAM_FIELDS:
                where = f"{path}.teams.{team}.{key}"
                if key not in value or covered(where, unsupported):
                    continue
                if key == "melds":
                    _melds(want["melds"], value["melds"], where, out, unsupported, unordered)
                elif key == "red_threes":
                    _multiset(want[key], value[key], where, out)
                else:
                    _equal(want.get(key), value[key], where, out)


def _equal(ref, got, path: str, out: list) -> None:
    if ref != got:
        out.append(Mismatch(path, ref, got))


def _cards(ref, got, path: str, out: list) -> None:
    if ref != got and (not isinstance(got, list) or ref != _canonical(got)):
        out.append(Mismatch(path, ref, got))


def _multiset(ref, got, path: str, out: list) -> None:
    if not isinstance(got, list) or not all(isinstance(c, str) for c in got) or \
            Counter(ref or []) != Counter(got) and Counter(ref or []) != Counter(_canonical(got)):
        out.append(Mismatch(path, ref, got))


def _canonical(cards: list) -> list:
    """Cards in canonical spelling ('10h' -> 'Th'); what is not a card is kept as it is."""
    out = []
    for card in cards:
        try:
            out.append(parse_card(card))
        except InputError:
            out.append(card)
    return out


def _melds(ref: list, got, path: str, out: list, unsupported, unordered) -> None:
    if not isinstance(got, list) or len(got) != len(ref):
        out.append(Mismatch(path, ref, got))
        return
    for i, (want, have) in enumerate(zip(ref, got)):
        where = f"{path}[{i}]"
        if not isinstance(have, dict):
            out.append(Mismatch(where, want, have))
            continue
        if "kind" in have and not covered(f"{where}.kind", unsupported):
            _equal(want["kind"], have["kind"], f"{where}.kind", out)
        if not covered(f"{where}.cards", unsupported):
            (_multiset if want["kind"] in unordered else _cards)(want["cards"], have.get("cards"),
                                                                 f"{where}.cards", out)
        if "canastra" in have and not covered(f"{where}.canastra", unsupported):
            _equal(want.get("canastra"), have["canastra"], f"{where}.canastra", out)


def _score(ref, got, path: str, out: list, unsupported) -> None:
    if covered(path, unsupported):
        return
    if ref is None or got is None:
        if (ref is None) != (got is None):
            out.append(Mismatch(path, "(no score: the hand goes on)" if ref is None else "(the hand's score)",
                                "(none)" if got is None else "(a score: the hand is over)"))
        return
    if not isinstance(got, dict):
        out.append(Mismatch(path, ref, got))
        return
    for team, want in ref.items():
        have = got.get(team)
        where = f"{path}.{team}"
        if not isinstance(have, dict):
            if not covered(where, unsupported):
                out.append(Mismatch(where, {"total": want["total"]}, have))
            continue
        for key in _SCORE_FIELDS:
            if key in have and not covered(f"{where}.{key}", unsupported):
                _equal(want.get(key), have[key], f"{where}.{key}", out)
        terms = have.get("terms")
        if isinstance(terms, dict) and not covered(f"{where}.terms", unsupported):
            for name in dict.fromkeys([*want["terms"], *terms]):
                if covered(f"{where}.terms.{name}", unsupported):
                    continue
                mine = want["terms"].get(name, {}).get("value", 0)
                theirs = terms.get(name)
                theirs = theirs.get("value", 0) if isinstance(theirs, dict) else 0 if theirs is None else theirs
                if mine != theirs:
                    out.append(Mismatch(f"{where}.terms.{name}", mine, theirs))
