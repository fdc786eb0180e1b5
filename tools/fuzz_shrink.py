"""Shrinking a fuzzing finding (fuzz.py) to a minimal fixture.

A finding is a full state and the actions through the one where the
implementation differs from the reference. Shrinking reduces it, one
candidate at a time, to a case in the fixture format (a partial state,
completed by the suite's one rule, canastra_ref/engine/completion.py) that
still shows the same difference: each candidate is turned into its run
message exactly as a fixture is (conformance/grading.py `message_for`),
answered by the reference and sent to the implementation, and kept only when
the reference still gives the finding's reason and first article on its
last action, the implementation agrees on every action before it, and
differs on the last one in the same way (errored, verdict, reason, state or
score). The passes, repeated while one of them makes progress:

1. fewest actions: start from the reference's state before a later action,
   then leave single actions out;
2. the fields of the state at their empty form: the turn's and the teams'
   records (a team with melds stays opened), the players' flags, the
   pending opening, the dealer;
3. the hands of the seats that do not act given as a count of cards, then
   the smallest count;
4. the acting seats' hands, card by card (delta debugging), the turn
   player's keeping a card at least;
5. fewest melds on the table (the actions' meld indexes follow; a team
   left without melds has not opened), then fewer cards in each, fewer red
   threes laid down;
6. the pile (down to its top card, or none) and the cards set aside;
7. the stock: the fill order after the fewest stated cards.

Cards taken out of the state go back to the fill order of completion (the
end of the stock). The result is written as fixture-shaped YAML with the
reference's verdicts, reasons and articles as its expectation (fixture
below), to be checked against the article before it joins the suite.
"""
from __future__ import annotations

import copy
import dataclasses
import re
from dataclasses import dataclass, field

from canastra_conformance.fixtures import Case
from canastra_conformance.grading import ERRORED as GRADE_ERRORED
from canastra_conformance.grading import FAILED, PASSED, grade, message_for
from canastra_ref import protocol
from canastra_ref.engine.actions import apply
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.reasons import REASONS
from canastra_ref.engine.state import PlayerState, TeamState, Turn
from canastra_ref.errors import CanastraError, ErrorList

from . import cardtext
from .fuzz import TABLE_FEATURES, Finding, step_features, three_melds_feature
from .fuzz_compare import ERRORED, SCORE, STATE, compare
from .fuzz_defaults import MAX_CHECKS

# The fields of the state the second pass tries at their empty form: every
# record of the engine's state (so a record added there is shrunk too), less
# what the first pass shrinks (hands, melds, red threes) and whose turn it is.
TURN_RECORDS = tuple(f.name for f in dataclasses.fields(Turn) if f.name not in ("player", "phase"))
TEAM_RECORDS = tuple(f.name for f in dataclasses.fields(TeamState) if f.name not in ("melds", "red_threes"))
PLAYER_RECORDS = tuple(f.name for f in dataclasses.fields(PlayerState) if f.name != "hand")


class Ungradable(Exception):
    """A difference its fixture cannot show: graded as the suite grades, the
    implementation's answer to the shrunk case passes (what differs is not
    a field a fixture's expectation states)."""


@dataclass
class Shrunk:
    """A finding reduced: the partial state, the actions, the answers of both sides to its message."""
    state: dict
    actions: list[dict]
    reference: dict                   # the reference's answer
    answer: dict                      # the implementation's
    kind: str
    mismatches: list[str]
    checks: int                       # candidates judged
    complete: bool = True             # False when MAX_CHECKS stopped it
    steps: list[str] = field(default_factory=list)     # the passes that made progress


class Shrinker:
    """Reduces findings of one campaign (one ruleset and readings) against one running implementation."""

    def __init__(self, runner, engine, ruleset: str, readings: dict, *, reasons: bool = False,
                 max_checks: int = MAX_CHECKS):
        self.runner, self.engine, self.ruleset, self.readings = runner, engine, ruleset, dict(readings)
        self.reasons, self.max_checks = reasons, max_checks
        self.unordered = frozenset(k.name for k in engine.meld_kinds if k.shape != "sequence")
        self.checks, self.key, self.best = 0, None, None
        self.faults: list[dict] = []       # the reference's own faults met on the way, as the campaign's

    # -------------------------------------------------------------- judging
    def case(self, state: dict, actions: list[dict], ident: str = "fuzz-candidate") -> Case:
        return Case(id=ident, ruleset=self.ruleset, articles=(), reading=dict(self.readings), requires=(),
                    description="", state=state, actions=actions, query=None, expect=None, file="(fuzzing)",
                    line=0)

    def judge(self, state: dict, actions: list[dict], key) -> Shrunk | None:
        """The candidate's answers when it still shows the finding `key`, else None."""
        self.checks += 1
        try:
            message = message_for(self.case(state, actions))
        except (CanastraError, ErrorList, TypeError, ValueError):
            return None
        try:
            reference = protocol.handle(message)
        except Exception as exc:     # a defect of the reference, reported: the campaign keeps what it found
            fault = {"fault": f"the reference raised {type(exc).__name__} ({exc}) on a table shrunk from the "
                              f"difference {key[0]} ({key[1] or 'no article cited'})", "job": None, "hand": None,
                     "seed": None}
            if fault not in self.faults:
                self.faults.append(fault)
            return None
        results = reference.get("results")
        if not results:
            return None
        last = results[-1]
        if (last["reason"], last["cites"][0] if last["cites"] else "") != key[:2]:
            return None
        answer, _ = self.runner.exchange(message)
        if answer.get("skipped"):
            return None
        if answer.get("errored") or len(answer.get("results") or ()) != len(results):
            if key[2] != ERRORED:
                return None
            if len(actions) > 1:          # the actions before the last must be answered alike
                earlier = self.judge_prefix(message, results[:-1])
                if not earlier:
                    return None
            return Shrunk(state, actions, reference, answer, ERRORED, [str(answer.get("message", ""))[:300]], 0)
        unsupported = answer.get("unsupported") or ()
        for k, (want, got) in enumerate(zip(results, answer["results"])):
            kind, mismatches = compare(want, got, f"results[{k}]", unsupported, reasons=self.reasons,
                                       unordered=self.unordered)
            if k < len(results) - 1:
                if kind is not None:
                    return None
            elif kind != key[2]:
                return None
            else:
                return Shrunk(state, actions, reference, answer, kind, [str(m) for m in mismatches], 0)
        return None

    def judge_prefix(self, message: dict, results: list) -> bool:
        """Whether the implementation answers the message without its last action as the reference does."""
        shorter = {**message, "actions": message["actions"][:-1], "id": message["id"] + "-prefix"}
        answer, _ = self.runner.exchange(shorter)
        if "results" not in answer or len(answer["results"]) != len(results):
            return False
        unsupported = answer.get("unsupported") or ()
        return all(compare(want, got, f"results[{k}]", unsupported, reasons=self.reasons,
                           unordered=self.unordered)[0] is None
                   for k, (want, got) in enumerate(zip(results, answer["results"])))

    # -------------------------------------------------------------- shrinking
    def shrink(self, finding: Finding) -> Shrunk | None:
        """The smallest case found that still shows the finding, or None when
        the finding itself no longer shows (the implementation is not deterministic)."""
        self.checks, self.key = 0, finding.key
        self.best = self.judge(finding.state, finding.actions, self.key)
        if self.best is None:
            return None
        self.attempt(_as_partial(finding.state), finding.actions)
        passes = [("actions", self._fewer_actions), ("records", self._empty_records),
                  ("other hands", self._other_hands), ("acting hands", self._acting_hands),
                  ("melds", self._fewer_melds), ("pile", self._pile), ("stock", self._stock)]
        progress: list[str] = []
        changed = True
        while changed and self.checks < self.max_checks:
            changed = False
            for name, pass_ in passes:
                before = (repr(self.best.state), repr(self.best.actions))
                pass_()
                if (repr(self.best.state), repr(self.best.actions)) != before:
                    changed = True
                    progress.append(name)
        self.attempt(_tidy(self.best.state), self.best.actions)
        best = self.best
        best.checks, best.complete = self.checks, self.checks < self.max_checks
        best.steps = list(dict.fromkeys(progress))
        return best

    def attempt(self, state: dict, actions: list[dict]) -> bool:
        """Judge a candidate; keep it as the best when it still shows the finding."""
        if self.checks >= self.max_checks:
            return False
        found = self.judge(state, actions, self.key)
        if found is not None:
            self.best = found
        return found is not None

    # Each pass reads the current best case (self.best) and tries candidates
    # with self.attempt, which keeps each one that still shows the finding.
    def _fewer_actions(self) -> None:
        actions = self.best.actions
        if len(actions) > 1:
            states = [r["state"] for r in self.best.reference["results"]]
            for start in range(len(actions) - 1, 0, -1):        # the latest start first: one action
                if self.attempt(_as_partial(states[start - 1]), actions[start:]):
                    break
        if len(self.best.actions) > 2:
            last = self.best.actions[-1]
            _ddmin(self.best.actions[:-1], lambda kept: self.attempt(self.best.state, kept + [last]))

    def _empty_records(self) -> None:
        def drop(*path) -> None:
            node = self.best.state
            for key in path[:-1]:
                node = node.get(key) if isinstance(node, dict) else None
            if isinstance(node, dict) and path[-1] in node:
                self.attempt(_without(self.best.state, path), self.best.actions)
        for key in ("pending", "dealer", "started", "ended", "aside"):
            drop(key)
        for key in TURN_RECORDS:
            drop("turn", key)
        for team, value in list(self.best.state.get("teams", {}).items()):
            for key in TEAM_RECORDS:
                # a team with melds on the table has opened: a table where it has not
                # (and the melds were not laid this turn) cannot come up in play
                if not (key == "opened" and value.get("opened") and value.get("melds")):
                    drop("teams", team, key)
        for seat in list(self.best.state.get("players", {})):
            for key in PLAYER_RECORDS:
                drop("players", seat, key)

    def _acting(self) -> list[str]:
        seats = {a["player"] for a in self.best.actions} | {self.best.state.get("turn", {}).get("player")}
        return [seat for seat in self.engine.table.seats if seat in seats]

    def _hand_is(self, seat: str, value) -> bool:
        return self.attempt(_with(self.best.state, ("hands", seat), value), self.best.actions)

    def _other_hands(self) -> None:
        acting = self._acting()
        for seat in self.engine.table.seats:
            hand = self.best.state.get("hands", {}).get(seat)
            if seat in acting or hand is None:
                continue
            if isinstance(hand, list) and not self._hand_is(seat, len(hand)):
                continue
            _smallest(self.best.state["hands"][seat], lambda n, seat=seat: self._hand_is(seat, n))

    def _acting_hands(self) -> None:
        named = _named_cards(self.best.actions)
        for seat in self._acting():
            hand = self.best.state.get("hands", {}).get(seat)
            if not isinstance(hand, list):
                continue
            needed = [c for c in hand if c in named]
            # the player whose turn it is holds a card at least: an empty hand has gone out
            least = 1 if seat == self.best.state.get("turn", {}).get("player") and hand and not needed else 0
            _ddmin([c for c in hand if c not in named],
                   lambda kept, seat=seat, needed=needed: self._hand_is(seat, needed + kept), keep=least)

    def _fewer_melds(self) -> None:
        for team in list(self.best.state.get("teams", {})):
            seats = self.engine.table.teams[team]
            for index in reversed(range(len(self.best.state["teams"][team].get("melds", [])))):
                melds = self.best.state["teams"][team]["melds"]
                actions = _remap_melds(self.best.actions, seats, index)
                if actions is not None:
                    fewer = _with(self.best.state, ("teams", team, "melds"), melds[:index] + melds[index + 1:])
                    if len(melds) == 1:
                        # play never takes an opened team's last meld away: without
                        # melds, the team has not opened
                        fewer = _without(fewer, ("teams", team, "opened"))
                    self.attempt(fewer, actions)
            for index in range(len(self.best.state["teams"][team].get("melds", []))):
                def meld_is(kept, index=index):
                    meld = {**self.best.state["teams"][team]["melds"][index], "cards": kept}
                    return self.attempt(_with(self.best.state, ("teams", team, "melds", index), meld),
                                        self.best.actions)
                _ddmin(list(self.best.state["teams"][team]["melds"][index]["cards"]), meld_is, keep=3)
            if self.best.state["teams"][team].get("red_threes"):
                _ddmin(list(self.best.state["teams"][team]["red_threes"]), lambda kept: self.attempt(
                    _with(self.best.state, ("teams", team, "red_threes"), kept), self.best.actions))

    def _pile(self) -> None:
        pile = self.best.state.get("pile", [])
        if pile and not self.attempt(_with(self.best.state, ("pile",), []), self.best.actions) and len(pile) > 1:
            _ddmin(pile[:-1], lambda kept: self.attempt(_with(self.best.state, ("pile",), kept + [pile[-1]]),
                                                        self.best.actions))
        if self.best.state.get("aside"):
            _ddmin(list(self.best.state["aside"]), lambda kept: self.attempt(
                _with(self.best.state, ("aside",), kept), self.best.actions))

    def _stock(self) -> None:
        stock = self.best.state.get("stock")
        if not stock or self.attempt(_without(self.best.state, ("stock",)), self.best.actions):
            return
        _smallest(len(stock), lambda n: self.attempt(_with(self.best.state, ("stock",), stock[:n]),
                                                     self.best.actions))

    # -------------------------------------------------------------- the fixture
    def fixture(self, shrunk: Shrunk, key, *, ident: str, implementation: str) -> dict:
        """The case of a shrunk finding in the fixture format, its expectation the
        reference's answer; checked to pass against the reference and to fail
        (or error) against the implementation's answer, as a fixture would be graded."""
        results = shrunk.reference["results"]
        expect = [{"verdict": r["verdict"], "reason": r["reason"]} for r in results]
        last = results[-1]
        if last["cites"]:
            expect[-1]["cites"] = list(last["cites"])
        if shrunk.kind in (STATE, SCORE):
            expected_state, expected_score = _expected_fields(last, shrunk.mismatches, len(results) - 1)
            if expected_state:
                expect[-1]["state"] = expected_state
            if expected_score:
                expect[-1]["score"] = expected_score
        articles = self.articles(shrunk)
        case = {"id": ident, "ruleset": self.ruleset}
        readings = {d: r for d, r in self.readings.items() if self.engine.ruleset.disputes[d].default != r}
        if readings:
            case["reading"] = readings
        case["articles"] = articles
        case["requires"] = self.requires(shrunk)
        case["description"] = self.description(shrunk, implementation, articles)
        case["state"] = shrunk.state
        case["actions"] = shrunk.actions
        case["expect"] = expect
        loaded = Case(id=ident, ruleset=self.ruleset, articles=tuple(articles), reading=dict(self.readings),
                      requires=(), description="", state=shrunk.state, actions=shrunk.actions, query=None,
                      expect=expect, file="(fuzzing)", line=0)
        if grade(loaded, shrunk.reference).status != PASSED:
            raise AssertionError(f"the shrunk case {ident} does not pass against the reference")
        if grade(loaded, shrunk.answer).status not in (FAILED, GRADE_ERRORED):
            raise Ungradable(f"graded as a fixture, the implementation's answer passes: what differs "
                             f"({_short('; '.join(shrunk.mismatches[:2]))}) is not in the fixture's expectation")
        return case

    def articles(self, shrunk: Shrunk) -> list[str]:
        """The articles the reference cites for the last action; without any,
        those of the settings its judgement consulted."""
        cites = list(shrunk.reference["results"][-1]["cites"])
        if not cites:
            state = load_state(self.engine, message_for(self.case(shrunk.state, shrunk.actions))["state"])
            for action in shrunk.actions:
                state, verdict = apply(self.engine, state, action)
            cites = [c for decision, _ in verdict.trace for c in decision.cites]
        model = self.engine.ruleset
        found = [c for c in dict.fromkeys(cites) if c in model.articles]
        return found or [next(a.id for a in model.articles.values() if not a.informative)]

    def requires(self, shrunk: Shrunk) -> list[str]:
        tags = list(TABLE_FEATURES.get(len(self.engine.table.seats), ()))
        three_melds = three_melds_feature(self.engine)
        for action, result in zip(shrunk.actions, shrunk.reference["results"]):
            tags += step_features(action, result, three_melds)
        return list(dict.fromkeys(tags))

    def description(self, shrunk: Shrunk, implementation: str, articles: list[str]) -> str:
        last = shrunk.reference["results"][-1]
        acts = " ".join(cardtext.action(a) for a in shrunk.actions)
        got = shrunk.answer
        if shrunk.kind == ERRORED:
            theirs = f"errored ({_short(str(got.get('message', '')))})"
        else:
            theirs_result = got["results"][-1]
            theirs = f"answered {theirs_result.get('verdict')} ({theirs_result.get('reason')})"
            if shrunk.kind != "verdict":
                theirs += "; " + "; ".join(_short(m, 160) for m in shrunk.mismatches[:3])
        return (f"Found by differential fuzzing, expectation from the reference: check it against "
                f"{', '.join(articles)} before it joins the suite. {acts} The reference: {last['verdict']}, "
                f"{last['reason']} ({REASONS.get(last['reason'], '')}). {implementation} {theirs}.")


# ------------------------------------------------------------------ helpers

def _as_partial(full: dict) -> dict:
    """A full state as a partial one: what completion would give anyway left out."""
    state = copy.deepcopy(full)
    turn = state.get("turn", {})
    for key in list(turn):
        if key not in ("player", "phase") and turn[key] in (False, None, [], 0):
            del turn[key]
    for team in state.get("teams", {}).values():
        for key in list(team):
            if team[key] in (False, None, [], 0) and key != "opened":
                del team[key]
        for meld in team.get("melds", []):
            if meld.get("canastra") is None:
                meld.pop("canastra", None)
    for key in ("players",):
        players = state.get(key, {})
        for seat in list(players):
            players[seat] = {k: v for k, v in players[seat].items() if v}
            if not players[seat]:
                del players[seat]
        if not players:
            state.pop(key, None)
    for key in ("pending", "ended"):
        if state.get(key) is None:
            state.pop(key, None)
    if not state.get("aside"):
        state.pop("aside", None)
    if state.get("started") is True:
        state.pop("started")
    return state


def _tidy(state: dict) -> dict:
    """The state without the fields it gives at their empty form (an empty
    pile, a team without melds, a player without flags): the same table."""
    state = copy.deepcopy(state)
    for key in ("pile", "aside", "stock"):
        if state.get(key) == []:
            del state[key]
    for group, fields in (("teams", ("melds", "red_threes")), ("players", ())):
        entries = state.get(group, {})
        for name in list(entries):
            for key in fields:
                if entries[name].get(key) == []:
                    del entries[name][key]
            if not entries[name]:
                del entries[name]
        if group in state and not entries:
            del state[group]
    return state


def _with(state: dict, path: tuple, value) -> dict:
    out = copy.deepcopy(state)
    node = out
    for key in path[:-1]:
        node = node.setdefault(key, {}) if isinstance(node, dict) else node[key]
    node[path[-1]] = value
    return out


def _without(state: dict, path: tuple) -> dict:
    out = copy.deepcopy(state)
    node = out
    for key in path[:-1]:
        node = node.get(key, {})
    if isinstance(node, dict):
        node.pop(path[-1], None)
    return out


def _named_cards(actions) -> set[str]:
    named = set()
    for action in actions:
        for verb, arg in action.items():
            if verb == "player":
                continue
            if isinstance(arg, str):
                named.add(arg)
            elif verb == "meld":
                named.update(c for meld in arg for c in (meld["cards"] if isinstance(meld, dict) else meld))
            elif verb == "take_pile":
                named.update(arg.get("with", []))
            elif verb == "layoff":
                for item in (arg if isinstance(arg, list) else [arg]):
                    named.update(item["cards"])
    return named


def _remap_melds(actions, seats, removed: int):
    """The actions after team meld `removed` is taken off the table (indexes of
    the seats' team above it move down), or None when an action names it."""
    out = []
    for action in actions:
        action = copy.deepcopy(action)
        if action["player"] in seats:
            if "layoff" in action:
                items = action["layoff"] if isinstance(action["layoff"], list) else [action["layoff"]]
                for item in items:
                    if item["meld"] == removed:
                        return None
                    if item["meld"] > removed:
                        item["meld"] -= 1
            if "take_pile" in action and action["take_pile"].get("onto") is not None:
                if action["take_pile"]["onto"] == removed:
                    return None
                if action["take_pile"]["onto"] > removed:
                    action["take_pile"]["onto"] -= 1
        out.append(action)
    return out


def _ddmin(items: list, holds, keep: int = 0) -> list:
    """Delta debugging (the complement variant): a subset of `items`, at least
    `keep` long, from which no chunk the search tries can be left out while
    `holds(subset)` stays true; `holds` keeps each success as the new best."""
    if len(items) > keep and keep == 0 and holds([]):
        return []
    parts = 2
    while len(items) > max(keep, 1):
        size = -(-len(items) // parts)
        for start in range(0, len(items), size):
            rest = items[:start] + items[start + size:]
            if len(rest) >= keep and holds(rest):
                items, parts = rest, max(parts - 1, 2)
                break
        else:
            if size == 1:
                break
            parts = min(len(items), parts * 2)
    return items


def _smallest(size: int, holds) -> int:
    """The smallest n in 0..size for which holds(n), searching by halves from
    0 (holds(size) is known true; holds is assumed to hold above its smallest n)."""
    low, high = -1, size            # holds(high); not known for low
    if holds(0):
        return 0
    low = 0
    while high - low > 1:
        mid = (low + high) // 2
        if holds(mid):
            high = mid
        else:
            low = mid
    return high


_PATH = re.compile(r"^results\[(\d+)\]\.(state|score)\.?(.*?): expected")
# A state path naming a meld's canastra kind: the team and the meld's index.
_CANASTRA = re.compile(r"^teams\.([^.\[]+)\.melds\[(\d+)\]\.canastra$")


def _expected_fields(result: dict, mismatches: list[str], index: int) -> tuple[dict, dict]:
    """The fields of the reference's state and score that the implementation
    got wrong, as expectations (a list whole, since lists are matched whole;
    a team's melds by kind and cards, and by canastra kind those whose kind differs)."""
    state: dict = {}
    score: dict = {}
    differing = [(m.group(2), m.group(3)) for m in map(_PATH.match, mismatches) if m and int(m.group(1)) == index]
    kinds = {(m.group(1), int(m.group(2))) for part, path in differing if part == "state"
             for m in [_CANASTRA.match(path)] if m}
    for part, path in differing:
        rest = [p for p in re.split(r"\.|\[", path) if p]
        if part == "state":
            _take(state, result["state"], _state_path(rest), kinds)
        elif result.get("score") is None:
            state["ended"] = result["state"].get("ended")
        elif not rest:
            score.update({t: {"total": s["total"]} for t, s in result["score"].items()})
        else:
            _take(score, result["score"], rest[:3] if rest[1:2] == ["terms"] else rest[:2])
    return state, score


def _state_path(parts: list[str]) -> list[str]:
    """How much of a differing state path an expectation names: a hand, a
    team's field (its melds whole), the turn's field, or a top-level field."""
    if parts[:1] in (["hands"], ["turn"], ["players"]):
        return parts[:2]
    if parts[:1] == ["teams"]:
        return parts[:3]
    return parts[:1]


def _take(out: dict, source: dict, path: list[str], kinds: frozenset | set = frozenset()) -> None:
    """Copy `source`'s value at `path` into `out`; a team's melds as kind and
    cards, with the canastra kind of those `kinds` names (team, index)."""
    value = source
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return
        value = value[key]
    node = out
    for key in path[:-1]:
        node = node.setdefault(key, {})
    if path[-1:] == ["melds"]:
        value = [{"kind": m["kind"], "cards": m["cards"],
                  **({"canastra": m.get("canastra")} if (path[-2], i) in kinds else {})}
                 for i, m in enumerate(value)]
    node[path[-1]] = copy.deepcopy(value)


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."
