"""Differential fuzzing: random games played by the reference, each step sent
to an implementation through the protocol and its answer compared with the
reference's (canastra fuzz).

A campaign plays games with the reference (canastra_ref.engine.walk: seeded
deals, the legal agent's moves and near-legal actions between them) under
the ruleset and the readings the implementation follows (those it declares
at start, and those the user names). Each hand is sent as fixtures are
sent: a run message with a full state and the actions that follow it, at
most SEGMENT actions a message, through the runner's process handling
(timeouts, restarts, garbage). The implementation's result of each action is
compared with the reference's (fuzz_compare.py); at the first difference, the
finding is kept and the hand goes on from the reference's state after that
action, in a new message. An answer that skips or errors the whole message
is narrowed down, by sending shorter prefixes of it, to the first action it
cannot take: an action skipped is counted and stepped over, an action the
implementation errors on is a finding.

Steps the implementation cannot take by its own declaration (a verb or an
outcome needing a feature tag it does not list, STEP_FEATURES) are never
sent; the hand goes on past them.

Findings are grouped by (the reference's reason, the first article it
cites, the kind of difference), so that one defect gives one group with a
count; each group keeps its smallest finding (fewest actions), which
fuzz_shrink.py reduces to a minimal fixture.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from canastra_conformance.runner import Runner
from canastra_ref.cards import JOKER, is_black_three, rank_of
from canastra_ref.dsl.loader import load
from canastra_ref.dsl.strict import possible_values
from canastra_ref.engine.play import StuckError
from canastra_ref.engine.rules import engine_for
from canastra_ref.engine.walk import games
from canastra_ref.errors import CanastraError
from canastra_ref.protocol import action_result

from .fuzz_compare import ERRORED, compare
from .fuzz_defaults import NEAR_LEGAL

SEGMENT = 200            # actions a message at most (a hand is rarely longer)
GIVE_UP = 10             # hands after which a ruleset whose every table the implementation skips is left

# The feature tags (canastra_ref/features.py) a step needs, by its verb and by
# what the reference answered: an implementation that does not list one is not
# sent the step (the hand goes on past it).
VERB_FEATURES = {"take_pile": ("pile-take",), "redraw": ("first-card-redraw",), "ask_partner": ("ask-partner",),
                 "answer": ("ask-partner",), "challenge": ("short-opening-challenge",),
                 "replace_red_three": ("red-threes",), "lay_down_red_three": ("red-threes",),
                 "exact_cut": ("exact-cut",), "misdeal": ("misdeal",), "end_turn": ("stock-exhaustion",)}
REASON_FEATURES = {"going-out.": ("going-out",), "hand.ended.": ("stock-exhaustion",),
                   "opening.below-minimum": ("opening-minimum",), "opening.short-unchallenged":
                   ("short-opening-challenge",), "challenge.": ("short-opening-challenge",),
                   "red-three.": ("red-threes",)}
TABLE_FEATURES = {2: ("two-players",), 3: ("three-players",), 6: ("six-players",)}


def step_features(action: dict, result: dict, three_melds: str) -> tuple[str, ...]:
    """The feature tags a step needs: by its verb, by the cards it melds (a
    set of threes holding a black three needs `three_melds`, see
    three_melds_feature), and by the reference's answer."""
    verb = next(k for k in action if k != "player")
    tags = list(VERB_FEATURES.get(verb, ()))
    if any(_black_three_set(meld) for meld in _new_melds(verb, action[verb])):
        tags.append(three_melds)
    if verb == "take_pile" and action[verb].get("onto") is not None:
        tags.append("pile-onto-meld")
    additions = action[verb] if verb == "layoff" and isinstance(action[verb], list) else [action[verb]]
    if verb in ("layoff", "take_pile") and any("wild_end" in item for item in additions):
        tags.append("wild-end")
    if verb == "meld" and any(isinstance(item, dict) for item in action[verb]) or \
            verb == "take_pile" and "kind" in action[verb]:
        tags.append("meld-kind")
    for prefix, more in REASON_FEATURES.items():
        if result["reason"].startswith(prefix):
            tags += more
    if "score" in result:
        tags.append("scoring")
    return tuple(dict.fromkeys(tags))


def _black_three_set(cards) -> bool:
    """Whether the cards are a set of threes, beside jokers and twos, holding a black three."""
    naturals = [c for c in cards if isinstance(c, str) and c != JOKER and rank_of(c) != "2"]
    return bool(naturals) and all(rank_of(c) == "3" for c in naturals) and any(map(is_black_three, naturals))


def _new_melds(verb: str, arg) -> list[list[str]]:
    """The cards of each meld a `meld` action lays. (A pile take holding a black
    three is refused for the pile's top card, a wild card or a three, before its
    meld is judged: it needs no feature of black threes melded.)"""
    if verb == "meld" and isinstance(arg, list):
        return [item.get("cards", []) if isinstance(item, dict) else item for item in arg]
    return []


def three_melds_feature(engine) -> str:
    """The feature tag a set of black threes exercises in the engine's
    ruleset: `black-three-sets` where some meld kind may hold one (classica's,
    going out), `black-threes` where none may (the meld is refused as
    meld.threes), as the fixtures tag them. Ranks the spec computes from the
    game may hold threes. (The ranks are a required setting: the None that
    possible_values adds where no clause is unconditional is no value.)"""
    for kind in engine.meld_kinds:
        ranks = possible_values(engine.ruleset, f"meld.{kind.name}.ranks")
        if (ranks is None or any(value is not None and "3" in value for value in ranks)) and \
                (kind.colors is None or "black" in kind.colors):
            return "black-three-sets"
    return "black-threes"


@dataclass
class Settings:
    ruleset: str
    readings: dict[str, str] = field(default_factory=dict)    # the user's --reading choices
    seed: int = 0
    seconds: float | None = None      # fuzz this long ...
    cases: int | None = None          # ... or this many hands
    near_legal: float = NEAR_LEGAL
    reasons: bool = False             # a different reason code is a difference too
    job: int = 0                      # this process's share of a --jobs run
    jobs: int = 1

    def rng(self) -> random.Random:
        """The campaign's random generator: one stream per (seed, ruleset, job)."""
        return random.Random(f"canastra-fuzz:{self.seed}:{self.ruleset}:{self.job}/{self.jobs}")


@dataclass
class Finding:
    """One difference, as found: the message that shows it (the state it
    started from and the actions through the differing one)."""
    key: tuple[str, str, str]         # (the reference's reason, its first article or "", kind)
    state: dict                       # the full state of the message
    actions: list[dict]               # the last one differs
    reference: dict                   # the reference's result of the last action
    answer: object                    # the implementation's (None when it errored)
    message: str                      # its errored or skipped message, if any
    mismatches: list[str]
    origin: dict                      # where the game came from: job, hand, seed, step

    def to_json(self) -> dict:
        return {"key": list(self.key), "state": self.state, "actions": self.actions, "reference": self.reference,
                "answer": self.answer, "message": self.message, "mismatches": self.mismatches,
                "origin": self.origin}


@dataclass
class Group:
    key: tuple[str, str, str]
    count: int
    finding: Finding                  # the smallest found (fewest actions)
    origins: list[dict] = field(default_factory=list)    # the first few findings' origins

    def add(self, other: "Group") -> None:
        self.count += other.count
        if len(other.finding.actions) < len(self.finding.actions):
            self.finding = other.finding
        self.origins = (self.origins + other.origins)[:5]


@dataclass
class Tally:
    """What a campaign did and found."""
    ruleset: str
    readings: dict[str, str]
    hands: int = 0
    steps: int = 0                    # actions compared
    messages: int = 0
    skipped: Counter = field(default_factory=Counter)       # the implementation's skip messages
    unsent: Counter = field(default_factory=Counter)        # feature tags it does not support
    faults: list = field(default_factory=list)    # the reference's own faults: {"fault", "job", "hand", "seed"}
    seconds: float = 0.0
    interrupted: bool = False
    abandoned: str | None = None      # why the campaign stopped early (every table skipped)
    groups: dict[tuple, Group] = field(default_factory=dict)

    @property
    def findings(self) -> int:
        return sum(g.count for g in self.groups.values())

    def snapshot(self) -> dict:
        """What a progress line shows: the counts so far (small, to pass between processes)."""
        return {"hands": self.hands, "steps": self.steps, "findings": self.findings, "groups": set(self.groups),
                "seconds": self.seconds}

    def merge(self, other: "Tally") -> None:
        self.hands += other.hands
        self.steps += other.steps
        self.messages += other.messages
        self.skipped.update(other.skipped)
        self.unsent.update(other.unsent)
        self.faults += other.faults
        self.seconds = max(self.seconds, other.seconds)
        self.interrupted = self.interrupted or other.interrupted
        self.abandoned = self.abandoned or other.abandoned
        for key, group in other.groups.items():
            if key in self.groups:
                self.groups[key].add(group)
            else:
                self.groups[key] = group


def readings_for(runner: Runner, ruleset: str, given: dict[str, str]) -> dict[str, str]:
    """The readings a campaign plays under: those the implementation declares
    for the ruleset, then the user's (which win); checked against the spec."""
    declared = dict((runner.info or {}).get("readings", {}).get(ruleset, {}))
    chosen = {**declared, **given}
    load(ruleset, chosen)            # CanastraError for a dispute or reading the ruleset does not have
    return chosen


def start(runner: Runner, ruleset: str) -> None:
    """Start the implementation (unless it runs) and check that it takes the ruleset; CanastraError otherwise."""
    if runner.process is None and not runner.start():
        raise CanastraError(runner.start_error)
    engine = engine_for(ruleset)
    why = runner.unsupported_for(ruleset, TABLE_FEATURES.get(len(engine.table.seats), ()))
    if why:
        raise CanastraError(f"cannot fuzz {ruleset}: {why}")


class Campaign:
    """One ruleset fuzzed against one running implementation (a Runner
    already started). `on_progress(tally)` is called after each hand."""

    def __init__(self, runner: Runner, settings: Settings, on_progress=None):
        self.runner, self.settings, self.on_progress = runner, settings, on_progress
        start(runner, settings.ruleset)
        self.readings = readings_for(runner, settings.ruleset, settings.readings)
        self.engine = engine_for(settings.ruleset, tuple(sorted(self.readings.items())))
        self.unordered = frozenset(k.name for k in self.engine.meld_kinds if k.shape != "sequence")
        self.three_melds = three_melds_feature(self.engine)
        self.tally = Tally(settings.ruleset, self.readings)
        self._began = 0.0
        self._unsupported: dict[tuple, str | None] = {}     # why the steps needing these features are not sent

    # ------------------------------------------------------------ the loop
    def run(self) -> Tally:
        s = self.settings
        self._began = time.monotonic()
        rng = s.rng()
        hands = games(self.engine, rng, near_legal=s.near_legal)
        try:
            while not self._done():
                try:
                    hand = next(hands)
                except StuckError as exc:      # a bug of the reference: its agent found no legal move
                    self.tally.faults.append({"fault": str(exc), "job": s.job, "hand": self.tally.hands + 1,
                                              "seed": None})
                    hands = games(self.engine, rng, near_legal=s.near_legal)
                    continue
                self._check_reference(hand)
                self._hand(hand)
                self.tally.hands += 1
                if self.tally.hands >= GIVE_UP and not self.tally.steps and self.tally.skipped:
                    self.tally.abandoned = f"the implementation skipped every table of the first {GIVE_UP} hands " \
                                           f"({self.tally.skipped.most_common(1)[0][0]})"
                    break
                self.tally.seconds = time.monotonic() - self._began
                if self.on_progress:
                    self.on_progress(self.tally.snapshot())
        except KeyboardInterrupt:          # what was found so far is kept
            self.tally.interrupted = True
        self.tally.seconds = time.monotonic() - self._began
        return self.tally

    def _done(self) -> bool:
        s = self.settings
        if s.cases is not None and self.tally.hands >= s.cases:
            return True
        return s.seconds is not None and time.monotonic() - self._began >= s.seconds

    def _check_reference(self, hand) -> None:
        """The reference's own invariant, checked on the hand's last state: every card of the deck once."""
        last = hand.steps[-1].state if hand.steps else hand.start
        count = sum(last.all_cards().values())
        if count != self.engine.deck_size:
            self.tally.faults.append({"fault": f"the reference's hand ended with {count} cards, not "
                                               f"{self.engine.deck_size}", "job": self.settings.job,
                                      "hand": hand.number, "seed": hand.seed})

    # ------------------------------------------------------------ one hand
    def _hand(self, hand) -> None:
        steps = hand.steps
        results: list[dict | None] = [None] * len(steps)

        def result(i: int) -> dict:
            if results[i] is None:
                step = steps[i]
                results[i] = action_result(self.engine, step.state, step.verdict)
            return results[i]

        def state_at(i: int) -> dict:
            return hand.start.to_json() if i == 0 else result(i - 1)["state"]

        unsent: dict[int, str | None] = {}

        def sendable(i: int) -> bool:
            if i not in unsent:
                needs = step_features(steps[i].action, result(i), self.three_melds)
                if needs not in self._unsupported:
                    self._unsupported[needs] = self.runner.unsupported_for(self.settings.ruleset, needs)
                unsent[i] = self._unsupported[needs]
                if unsent[i]:
                    self.tally.unsent[unsent[i]] += 1
            return unsent[i] is None

        origin = {"job": self.settings.job, "hand": hand.number, "seed": hand.seed}
        i, streak = 0, 0
        while i < len(steps):
            if not sendable(i):
                i += 1
                continue
            j = i + 1
            while j < len(steps) and j - i < SEGMENT and sendable(j):
                j += 1
            after, refused = self._segment(steps, i, j, state_at, result, origin)
            if refused is None:
                streak, i = 0, after
            else:
                # The implementation skipped the message at its first action: the table
                # itself may be what it cannot take, and the tables after it too. The next
                # tries start 1, 2, 4, ... actions further on, until one is answered.
                streak += 1
                i = min(i + 2 ** (streak - 1), len(steps))
                for k in range(after, i):
                    if sendable(k):
                        self.tally.unsent[f"after the implementation skipped the table before: {refused}"] += 1
            if self._done():
                return

    def _ask(self, steps, i: int, j: int, state_at, origin) -> dict:
        message = {"cmd": "run", "id": f"fuzz-{origin['job']}-{origin['hand']}-{i}-{j}",
                   "ruleset": self.settings.ruleset, "reading": self.readings, "state": state_at(i),
                   "actions": [steps[k].action for k in range(i, j)]}
        self.tally.messages += 1
        answer, _ = self.runner.exchange(message)
        if "results" in answer and (not isinstance(answer["results"], list) or len(answer["results"]) != j - i):
            count = len(answer["results"]) if isinstance(answer["results"], list) else "no list"
            return {**answer, "errored": True, "message": f"{j - i} actions but {count} results"}
        return answer

    def _segment(self, steps, i: int, j: int, state_at, result, origin) -> tuple[int, str | None]:
        """Send actions i..j-1; returns where the hand goes on, and the skip
        message when the implementation skipped the message's first action."""
        answer = self._ask(steps, i, j, state_at, origin)
        if not answer.get("skipped") and not answer.get("errored"):
            return self._compare(steps, i, answer, state_at, result, origin, j), None
        # Narrow down to the first action it cannot take. Invariant: the actions
        # i..low-1 are answered, i..high-1 are not. The first action alone is tried
        # first (a table the implementation cannot hold fails at once).
        low, high, failed, answered = i, j, answer, None
        probe = i + 1
        while high - low > 1:
            attempt = self._ask(steps, i, probe, state_at, origin)
            if attempt.get("skipped") or attempt.get("errored"):
                high, failed = probe, attempt
            else:
                low, answered = probe, attempt
            probe = (low + high) // 2
        if answered is not None:           # the actions before the culprit: compared as usual
            end = self._compare(steps, i, answered, state_at, result, origin, low)
            if end < low:
                return end, None
        message = str(failed.get("message", ""))
        if failed.get("skipped"):
            self.tally.skipped[_first_line(message)] += 1
            return low + 1, _first_line(message) if low == i else None
        self._found(ERRORED, steps, i, low, state_at, result, origin, None, [_first_line(message)], message)
        return low + 1, None

    def _compare(self, steps, i: int, answer: dict, state_at, result, origin, j: int) -> int:
        unsupported = answer.get("unsupported") or ()
        for k, got in enumerate(answer["results"]):
            kind, mismatches = compare(result(i + k), got, f"results[{k}]", unsupported,
                                       reasons=self.settings.reasons, unordered=self.unordered)
            if kind is not None:
                self.tally.steps += k + 1
                self._found(kind, steps, i, i + k, state_at, result, origin, got, [str(m) for m in mismatches], "")
                return i + k + 1
        self.tally.steps += j - i
        return j

    def _found(self, kind, steps, i, at, state_at, result, origin, got, mismatches, message) -> None:
        ref = result(at)
        key = (ref["reason"], ref["cites"][0] if ref["cites"] else "", kind)
        finding = Finding(key, state_at(i), [steps[k].action for k in range(i, at + 1)], ref, got, message,
                          mismatches, {**origin, "step": at})
        group = self.tally.groups.get(key)
        if group is None:
            self.tally.groups[key] = Group(key, 1, finding, [finding.origin])
        else:
            group.add(Group(key, 1, finding, [finding.origin]))


def _first_line(text: str, limit: int = 200) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[:limit] + "..."


# ------------------------------------------------------------------ several processes

def fuzz(argv: list[str], settings: Settings, *, jobs: int = 1, timeout: float | None = None,
         start_timeout: float | None = None, on_progress=None, runner: Runner | None = None) -> Tally:
    """One ruleset fuzzed by `jobs` processes, each with its own implementation
    process and its own stream of games, their tallies merged. `on_progress`
    gets the counts so far (Tally.snapshot, all jobs together) as the work goes.
    With one job, `runner` (a Runner of `argv` the caller keeps) may serve."""
    options = {k: v for k, v in (("timeout", timeout), ("start_timeout", start_timeout)) if v is not None}
    if jobs <= 1:
        if runner is not None:
            return Campaign(runner, settings, on_progress).run()
        runner = Runner(argv, **options)
        try:
            return Campaign(runner, settings, on_progress).run()
        finally:
            runner.close()
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, wait
    from dataclasses import replace
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    shares = [None if settings.cases is None else settings.cases // jobs + (j < settings.cases % jobs)
              for j in range(jobs)]
    latest: dict[int, dict] = {}
    interrupted = False
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_set_queue, initargs=(queue,)) as pool:
        futures = [pool.submit(_job, argv, replace(settings, job=j, jobs=jobs, cases=shares[j]), options)
                   for j in range(jobs)]
        pending = set(futures)
        while pending:
            try:
                done, pending = wait(pending, timeout=0.5)
                while not queue.empty():
                    job, snapshot = queue.get_nowait()
                    latest[job] = snapshot
                if on_progress and latest:
                    on_progress(_snapshots(latest.values()))
            except KeyboardInterrupt:      # the jobs stop too (same process group) and return what they found
                interrupted = True
        tallies = [f.result() for f in futures]
    merged = _merged(settings, tallies)
    merged.interrupted = merged.interrupted or interrupted
    return merged


def _merged(settings: Settings, tallies) -> Tally:
    tallies = list(tallies)
    out = Tally(settings.ruleset, dict(tallies[0].readings) if tallies else dict(settings.readings))
    for tally in tallies:
        out.merge(tally)
    return out


def _snapshots(snapshots) -> dict:
    out = {"hands": 0, "steps": 0, "findings": 0, "groups": set(), "seconds": 0.0}
    for snap in snapshots:
        for key in ("hands", "steps", "findings"):
            out[key] += snap[key]
        out["groups"] |= snap["groups"]
        out["seconds"] = max(out["seconds"], snap["seconds"])
    return out


_QUEUE = None          # in a job's process: where its progress goes


def _set_queue(queue) -> None:
    global _QUEUE
    _QUEUE = queue


def _job(argv, settings: Settings, options: dict) -> Tally:
    """One process of a --jobs run (spawned: it imports what it needs)."""
    last = [0.0]

    def report(snapshot: dict) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.5:
            last[0] = now
            _QUEUE.put((settings.job, snapshot))
    runner = Runner(argv, **options)
    try:
        tally = Campaign(runner, settings, report).run()
    finally:
        runner.close()
    return tally
