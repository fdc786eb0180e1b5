"""What every third-party adapter shares: the protocol loop, card spelling,
seating, and the few facts about our rulesets that the run message does not
carry (number of players, direction of play, meld kind names).

Standard library only: an adapter may run under the third-party engine's own
interpreter (a virtual environment with its dependencies), where canastra_ref
is not installed. Nothing here knows any third-party engine.

An adapter is a subclass of Adapter with:

    IMPLEMENTATION: dict            name, version, language, homepage
    CLAIMED: tuple                  the rulesets it accepts (default: those of PLAYERS players)
    READINGS: dict                  ruleset -> {dispute: reading} the engine's own documentation
                                    or code settles (declared in the start answer)
    UNSUPPORTED_VERBS: dict         verb -> why the engine cannot express it (the case is skipped);
                                    lacks(...) gives the entries of steps the engine has no notion of
    features() -> list[str]         the feature tags it can express
    run(message) -> dict            {"results": [...]} for a case with actions
    query(ruleset, query) -> object the result of a query case
    random_hand(seed) -> dict       one hand of its own random play (random_play_main)

and its script ends with `main(make)`, `make(argv)` building the adapter.

`query` may return Partial(result, unsupported) and `run` may add
"unsupported" to its answer: the paths of what the engine has no notion of
(PROTOCOL.md), left out rather than filled in by the adapter.
`run` raises Skip (cannot express the case) or Errored (the engine failed);
any other exception is caught by `serve` and reported as errored with a
one-line message (the traceback goes to stderr, never into a result).
"""
from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import traceback
from collections import Counter
from pathlib import Path

PROTOCOL_VERSION = 1

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("c", "d", "h", "s")
JOKER = "JK"


class Skip(Exception):
    """The case needs something the implementation cannot express."""


class Errored(Exception):
    """The implementation failed on the case (crash, broken invariant)."""


class Partial:
    """A query result without the parts the engine does not compute: `unsupported`
    holds their grading paths ("result.target"), sent as the answer's unsupported."""

    def __init__(self, result, unsupported):
        self.result, self.unsupported = result, list(unsupported)


class Reject(Exception):
    """An action the translation itself finds impossible in the engine's terms
    (a card that is not in the hand, a meld of no shape the engine has)."""

    def __init__(self, reason: str, message: str = ""):
        super().__init__(message or reason)
        self.reason = reason
        self.message = message or reason


class Adapter:
    """What an adapter's class has whatever its engine (the module docstring)."""
    IMPLEMENTATION: dict
    CLAIMED: tuple | None = None
    PLAYERS: tuple = (2, 4)
    READINGS: dict = {}
    UNSUPPORTED_VERBS: dict = {}

    def rulesets(self) -> list[str]:
        if self.CLAIMED is not None:
            return list(self.CLAIMED)
        return [r for r in ALL_RULESETS if facts(r)["players"] in self.PLAYERS]

    def readings(self) -> dict:
        return {r: dict(self.READINGS[r]) for r in self.rulesets() if r in self.READINGS}


# Our steps that some engines have no notion of, as "the engine has no ..." says them.
_STEPS = {"exact_cut": "cut", "misdeal": "misdeal", "redraw": "first-card redraw",
          "ask_partner": "asking the partner", "answer": "asking the partner",
          "challenge": "short-opening challenge", "end_turn": "final turn without discard"}


def lacks(*verbs: str) -> dict:
    """UNSUPPORTED_VERBS entries for our steps the engine has no notion of."""
    return {verb: f"the engine has no {_STEPS[verb]}" for verb in verbs}


# ------------------------------------------------------------------- cards

def card(text: str) -> str:
    """Canonical spelling of a compact card ('10h' -> 'Th'); ValueError if not a card."""
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    t = text.strip()
    if t.upper() == JOKER:
        return JOKER
    rank, suit = t[:-1], t[-1:].lower()
    rank = {"10": "T", "t": "T"}.get(rank, rank.upper())
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return rank + suit


def cards(value) -> list[str]:
    if isinstance(value, str):
        value = value.split()
    return [card(c) for c in value]


def rank_of(c: str) -> str | None:
    return None if c == JOKER else c[:-1]


def suit_of(c: str) -> str | None:
    return None if c == JOKER else c[-1]


def is_red_three(c: str) -> bool:
    return c != JOKER and c[0] == "3" and c[-1] in "dh"


def is_black_three(c: str) -> bool:
    return c != JOKER and c[0] == "3" and c[-1] in "cs"


SORT_ORDER = {r: i for i, r in enumerate(RANKS)}


def sort_key(c: str):
    if c == JOKER:
        return (99, "")
    return (SORT_ORDER[c[:-1]], c[-1])


# ----------------------------------------------------- our rulesets' facts

# What the run message does not carry but a translation needs. These are
# facts of canastra-spec's own rulesets (spec/*.canastra setup), not of any
# engine, copied because an adapter may run where canastra_ref is not
# installed; tests/test_adapters.py pins them to the specs. Unknown rulesets
# fall back on the base name before "-".
RULESET_FACTS = {
    "cbc": {"players": 4, "direction": "counterclockwise", "deck": (2, 2), "dealt": 15,
            "kinds": {"sequence": "sequence", "A": "aces"}},
    "ituiutaba": {"players": 4, "direction": "counterclockwise", "deck": (2, 4), "dealt": 15,
                  "kinds": {"sequence": "sequence", "A": "aces", "4": "fours", "wilds": "wilds"}},
    "ituiutaba-2p": {"players": 2, "direction": "counterclockwise", "deck": (2, 4), "dealt": 15,
                     "kinds": {"sequence": "sequence", "A": "aces", "4": "fours", "wilds": "wilds"}},
    "treze": {"players": 4, "direction": "counterclockwise", "deck": (2, 4), "dealt": 13,
              "kinds": {"sequence": "sequence", "set": "set"}},
    "classica": {"players": 4, "direction": "clockwise", "deck": (2, 4), "dealt": 11,
                 "kinds": {"set": "set"}},
    "classica-2p": {"players": 2, "direction": "clockwise", "deck": (2, 4), "dealt": 15,
                    "kinds": {"set": "set"}},
    "classica-3p": {"players": 3, "direction": "clockwise", "deck": (2, 4), "dealt": 13,
                    "kinds": {"set": "set"}},
    "classica-6p": {"players": 6, "direction": "clockwise", "deck": (3, 6), "dealt": 13,
                    "kinds": {"set": "set"}},
    "uruguaya": {"players": 4, "direction": "clockwise", "deck": (2, 4), "dealt": 11,
                 "kinds": {"set": "set"}},
    "casa": {"players": 4, "direction": "counterclockwise", "deck": (2, 4), "dealt": 15,
             "kinds": {"sequence": "sequence", "A": "aces"}},
}

ALL_RULESETS = tuple(RULESET_FACTS)

_SEATS = {2: ("N", "S"), 3: ("N", "E", "W"), 4: ("N", "E", "S", "W"),
          6: ("N", "NE", "SE", "S", "SW", "NW")}
_TEAM_SIZE = {2: 1, 3: 1, 4: 2, 6: 3}          # players -> seats a team (table.team_size)


def facts(ruleset: str) -> dict:
    if ruleset in RULESET_FACTS:
        return RULESET_FACTS[ruleset]
    base = str(ruleset).split("-")[0]
    if base in RULESET_FACTS:
        return RULESET_FACTS[base]
    raise Skip(f"unknown ruleset {ruleset!r}")


def play_order(players: int, direction: str) -> tuple[str, ...]:
    """Seats in the order of play starting from N (the table of canastra_ref)."""
    seats = _SEATS[players]
    return seats if direction == "clockwise" else (seats[0],) + tuple(reversed(seats[1:]))


def teams_of(players: int) -> dict[str, tuple[str, ...]]:
    """Team id -> seats, partners alternating round the table (NS, EW; N, S)."""
    seats = _SEATS[players]
    count = players // _TEAM_SIZE[players]
    groups: dict[int, list[str]] = {}
    for i, seat in enumerate(seats):
        groups.setdefault(i % count, []).append(seat)
    return {"".join(g) if all(len(s) == 1 for s in g) else "+".join(g): tuple(g) for g in groups.values()}


def seating(state: dict, ruleset: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """(seats in order of play, seat -> team) for a state of `ruleset`.

    Engines number players 0..n-1 and pass the turn to index + 1, so seat i of
    the order of play becomes player i: the engine's "next player" is then the
    ruleset's next player whatever its direction."""
    players = len(state.get("hands", {})) or facts(ruleset)["players"]
    if players not in _SEATS:
        raise Skip(f"no seating for {players} players")
    order = play_order(players, facts(ruleset)["direction"])
    team_of = {s: t for t, group in teams_of(players).items() for s in group}
    return order, team_of


def kind_name(ruleset: str, shape: str, rank: str | None) -> str:
    """Our ruleset's name for a meld of this shape (and rank, for sets)."""
    kinds = facts(ruleset)["kinds"]
    if shape == "sequence":
        return kinds.get("sequence", "sequence")
    if rank in kinds:
        return kinds[rank]
    return kinds.get("set", "set")


def deck_of(state: dict) -> tuple[int, int]:
    """(standard decks, jokers) of a complete state, by counting its cards."""
    total = 0
    jokers = 0
    for c in all_cards(state):
        total += 1
        jokers += c == JOKER
    return (total - jokers) // 52, jokers


def in_play(state: dict) -> Counter:
    """The cards of a complete state that are in play (all but those set aside)."""
    return Counter(all_cards(state)) - Counter(cards(state.get("aside", [])))


def check_conservation(want: Counter, have: Counter, name=str) -> None:
    """Errored when the engine's cards (`have`) are not the cards in play
    (`want`): the engine lost or invented some. `name` spells a card key."""
    if +have != +want:
        lost, gained = want - have, have - want
        raise Errored("card conservation broken by the engine: "
                      + ", ".join([f"lost {name(c)} x{n}" for c, n in lost.items()]
                                  + [f"gained {name(c)} x{n}" for c, n in gained.items()]))


def all_cards(state: dict) -> list[str]:
    out: list[str] = []
    for hand in state.get("hands", {}).values():
        out += cards(hand)
    out += cards(state.get("stock", [])) + cards(state.get("pile", [])) + cards(state.get("aside", []))
    for team in state.get("teams", {}).values():
        out += cards(team.get("red_threes", []))
        for meld in team.get("melds", []):
            out += cards(meld["cards"] if isinstance(meld, dict) else meld)
    return out


# ------------------------------------------------------------ checkout

def checkout_path(argv: list[str], env_var: str, marker: str) -> Path:
    """The engine checkout: --checkout PATH, else the environment variable.
    `marker` is a file that must exist in it (relative path)."""
    path = None
    if "--checkout" in argv:
        i = argv.index("--checkout")
        if i + 1 < len(argv):
            path = argv[i + 1]
    path = path or os.environ.get(env_var)
    if not path:
        raise SystemExit(f"no checkout: pass --checkout PATH or set {env_var}")
    root = Path(path).expanduser().resolve()
    if not (root / marker).exists():
        raise SystemExit(f"{root} does not look like the expected checkout (no {marker})")
    return root


def checkout_commit(root: Path) -> str | None:
    """The short commit id of a git checkout, or None (not a git checkout, no git)."""
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None


def option(argv: list[str], name: str, default: str | None = None) -> str | None:
    if name in argv:
        i = argv.index(name)
        if i + 1 < len(argv):
            return argv[i + 1]
    return default


# ------------------------------------------------------------ helper process

class LineProcess:
    """A process of the adapter's own that drives the engine (a Node bridge, a
    compiled driver): one JSON request a line, one JSON answer a line, and
    {"ready": true} first. `name` says it in errors; `not_started` is the
    message when it does not say ready (how to set the engine up)."""

    def __init__(self, argv: list[str], name: str, not_started: str):
        self.name = name
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        first = self.proc.stdout.readline()
        try:
            ready = bool(first) and json.loads(first).get("ready")
        except (ValueError, AttributeError):
            ready = False
        if not ready:
            self.close()
            raise SystemExit(not_started)
        atexit.register(self.close)

    def close(self) -> None:
        """End it (stdin closed, killed if it lingers) and reap it: no engine process
        outlives its adapter, and its CPU time counts among the adapter's."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def request(self, message: dict) -> dict:
        """Its answer to one message; Errored when it has died."""
        try:
            self.proc.stdin.write(json.dumps(message) + "\n")
            self.proc.stdin.flush()
        except OSError:
            raise Errored(f"{self.name} died") from None
        line = self.proc.stdout.readline()
        if not line:
            raise Errored(f"{self.name} died")
        return json.loads(line)


# ------------------------------------------------------------ protocol loop

def answer(adapter, message) -> dict | None:
    if not isinstance(message, dict) or not isinstance(message.get("cmd"), str):
        return {"errored": True, "message": "a message is an object with a 'cmd' string"}
    cmd = message["cmd"]
    if cmd == "stop":
        return None
    if cmd == "start":
        if message.get("protocol") != PROTOCOL_VERSION:
            return {"errored": True, "message": f"this adapter speaks protocol {PROTOCOL_VERSION}",
                    "protocol": PROTOCOL_VERSION}
        started = {"ready": True, "protocol": PROTOCOL_VERSION, "implementation": adapter.IMPLEMENTATION,
                   "rulesets": list(adapter.rulesets()), "features": sorted(adapter.features())}
        readings = adapter.readings() if hasattr(adapter, "readings") else {}
        if readings:
            started["readings"] = readings
        return started
    if cmd != "run":
        return {"errored": True, "message": f"unknown cmd {cmd!r}"}
    case_id = message.get("id")
    try:
        if message.get("ruleset") not in adapter.rulesets():
            raise Skip(f"ruleset {message.get('ruleset')!r} is not one this adapter maps")
        if message.get("query") is not None:
            result = adapter.query(message["ruleset"], message["query"])
            if isinstance(result, Partial):
                return {"id": case_id, "result": result.result, "unsupported": result.unsupported}
            return {"id": case_id, "result": result}
        for action in message.get("actions") or []:
            verb = next((k for k in action if k != "player"), None)
            if verb in adapter.UNSUPPORTED_VERBS:
                raise Skip(f"{verb}: {adapter.UNSUPPORTED_VERBS[verb]}")
        return {"id": case_id, **adapter.run(message)}
    except Skip as exc:
        return {"id": case_id, "skipped": True, "message": str(exc)}
    except Errored as exc:
        return {"id": case_id, "errored": True, "message": str(exc)}
    except Exception as exc:  # the engine crashed: report it, keep serving
        traceback.print_exc(file=sys.stderr)
        return {"id": case_id, "errored": True,
                "message": f"engine raised {type(exc).__name__}: {exc}".splitlines()[0][:400]}


def serve(adapter, stdin=None, stdout=None) -> None:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as exc:
            out = {"errored": True, "message": f"not JSON: {exc}"}
        else:
            out = answer(adapter, message)
            if out is None:
                return
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()


# ------------------------------------------------------------- random play

def random_play_main(adapter, argv: list[str]) -> bool:
    """`--random-play N [--seed S]`: play N hands with the engine's own
    legal-move generator and random choices, print a JSON summary of what
    broke (states with no legal action before the end of the hand, legal
    actions the engine then refuses or crashes on, cards lost or gained,
    hands that never end), and the turns restarted where an engine's own
    drivers restart a dead-ended turn (a hand's `restarts`). Returns False
    when the option is absent."""
    if "--random-play" not in argv:
        return False
    hands = int(option(argv, "--random-play", "100"))
    seed = int(option(argv, "--seed", "0"))
    findings: dict[str, list] = {}
    ended = 0
    steps = 0
    restarts = 0
    for s in range(seed, seed + hands):
        out = adapter.random_hand(s)
        steps += out.get("steps", 0)
        ended += bool(out.get("ended"))
        restarts += out.get("restarts", 0)
        for f in out.get("findings", []):
            findings.setdefault(f["kind"], []).append({"seed": s, **f})
    summary = {"implementation": adapter.IMPLEMENTATION["name"], "hands": hands, "first_seed": seed,
               "hands_ended": ended, "actions": steps,
               **({"turn_restarts": restarts} if restarts else {}),
               "findings": {k: {"count": len(v), "examples": v[:3]} for k, v in findings.items()}}
    print(json.dumps(summary, indent=2, default=str))
    return True


def hand_played(steps: int, ended: bool, findings: list, limit: int, **more) -> dict:
    """What random_hand returns for a hand played `steps` actions of at most
    `limit`: a hand not ended with nothing else found is a finding itself."""
    if not ended and not findings:
        findings.append({"kind": f"hand did not end within {limit} actions", "step": steps})
    return {"steps": steps, "ended": ended, "findings": findings, **more}


# Meld reasons as they read when the meld is the one made with the pile's top card.
PILE_MELD_REASONS = {"meld.too-few-naturals": "pile.too-few-naturals", "meld.only-wilds": "pile.too-few-naturals",
                     "meld.too-many-wilds": "pile.too-many-wilds", "meld.too-few-cards": "pile.too-few-hand-cards"}


def as_pile_reason(reason: str) -> str:
    return PILE_MELD_REASONS.get(reason, reason)


def main(make, argv=None) -> None:
    """An adapter's entry point: build it with make(argv), then random-play
    (--random-play N) or serve the protocol on stdin/stdout."""
    argv = list(sys.argv[1:] if argv is None else argv)
    adapter = make(argv)
    if not random_play_main(adapter, argv):
        serve(adapter)
