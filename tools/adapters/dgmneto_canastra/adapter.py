"""Conformance adapter for dgmneto/canastra (Brazilian 15-card house rules; a
Rust rules engine, engine/crates/canastra-engine, with validate / apply /
enumerate on a serde GameState).

    python tools/adapters/dgmneto_canastra/adapter.py --checkout PATH --build [--registry DIR]
    python tools/adapters/dgmneto_canastra/adapter.py --checkout PATH

PATH is your own checkout (or set CANASTRA_DGMNETO_CHECKOUT). `--build`
compiles our small driver (driver/, a line-oriented JSON bridge to the
engine crate) against PATH's engine crate in a build directory (--build-dir,
CANASTRA_DGMNETO_BUILD, default ~/.cache/canastra-spec/dgmneto-driver);
`--registry DIR` builds offline against a directory registry such as the one
Debian's librust-*-dev packages install. Without --build the adapter speaks
the protocol on stdin/stdout with the driver built before. See README.md.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))      # tools/adapters: _common and this adapter's package

from _common import (  # noqa: E402
    Adapter,
    Errored,
    LineProcess,
    Partial,
    Reject,
    Skip,
    card,
    cards,
    check_conservation,
    checkout_commit,
    checkout_path,
    facts,
    hand_played,
    in_play,
    lacks,
    main,
    option,
    play_order,
    seating,
    sort_key,
    teams_of,
)
from dgmneto_canastra import translate as tr  # noqa: E402

ENV_VAR = "CANASTRA_DGMNETO_CHECKOUT"
BUILD_VAR = "CANASTRA_DGMNETO_BUILD"
ENGINE_CRATE = "engine/crates/canastra-engine"
BINARY = "dgmneto-driver"

# The rulesets claimed: the engine's own house rules (casa) and the two of our
# other rulebooks closest to them.
CLAIMED = ("casa", "cbc", "ituiutaba")

# The reading of each dispute that the engine's own code or rulebook settles
# (README.md cites the line for each); disputes it does not settle are left out.
READINGS = {
    "cbc": {"three-points": "zero", "opening-points": "all-melds", "aces-suit": "any-suit",
            "wilds-per-meld": "one", "limpa-eighth-card": "stays-limpa", "pile-block": "next-player",
            "score-between-bands": "below"},
    "ituiutaba": {"going-out-canastra": "limpa", "set-growth": "grow", "first-card-ban": "ordinary"},
    "casa": {"aces-with-two": "suja", "ace-melds": "several", "ace-meld-size": "three",
             "pile-cards-discard": "allowed"},
}

UNSUPPORTED_VERBS = {
    "deal": "the engine deals from its own seeded shuffle (deal.rs); a stated deck order has no counterpart",
    "replace_red_three": "the engine lays red threes down and replaces them by itself when they are drawn (deal.rs)",
    "lay_down_red_three": "the engine lays red threes down by itself when they are drawn (deal.rs)",
    "challenge": "the engine has no short-opening challenge (a short opening cannot end a turn there)",
    **lacks("exact_cut", "misdeal", "ask_partner", "answer"),
}


# The moves the engine's match drivers keep when they retry a restarted turn
# (training-rs/src/pool.rs `menu`, safe mode).
SAFE_MOVES = ("Draw", "KeepDrawnCard", "RefuseDrawnCard", "Discard", "EndTurnWithoutDiscard")


# What the engine has no notion of (PROTOCOL.md "unsupported"): who of a team
# melded, a concealed going out, which melds a turn laid or
# touched, a last turn without discard, rounding.
UNSUPPORTED_STATE = ["results[*].state.players", "results[*].state.ended.concealed",
                     "results[*].state.turn.final", "results[*].state.turn.touched",
                     "results[*].state.turn.melds_laid", "results[*].state.turn.had_melded",
                     "results[*].score.*.subtotal", "results[*].score.*.rounding"]
UNSUPPORTED_SCORE = ["result.*.subtotal", "result.*.rounding"]


class Refused(Exception):
    """The engine refused an action: its RuleViolation and message."""

    def __init__(self, violation: dict, message: str):
        super().__init__(message)
        self.violation = violation
        self.message = message


# ------------------------------------------------------------------ the driver

def default_build_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "canastra-spec" / "dgmneto-driver"


def build(root: Path, build_dir: Path, registry: str | None) -> Path:
    """Copy our driver into `build_dir`, point it at the checkout's engine crate
    (a [patch] in the build directory's .cargo/config.toml), build it with
    cargo, and return the binary. Nothing is written into the checkout."""
    cargo = shutil.which("cargo")
    if not cargo:
        raise SystemExit("cargo is not on the PATH: the driver is a Rust program (see README.md)")
    build_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy2(HERE / "driver" / "Cargo.toml", build_dir / "Cargo.toml")
    shutil.copytree(HERE / "driver" / "src", build_dir / "src", dirs_exist_ok=True)
    config = ["[patch.crates-io]", f"canastra-engine = {{ path = {json.dumps(str(root / ENGINE_CRATE))} }}"]
    if registry:
        config += ["", "[source.crates-io]", 'replace-with = "local-registry"', "",
                   "[source.local-registry]", f"directory = {json.dumps(str(Path(registry).resolve()))}", "",
                   "[net]", "offline = true"]
    (build_dir / ".cargo").mkdir(exist_ok=True)
    (build_dir / ".cargo" / "config.toml").write_text("\n".join(config) + "\n")
    proc = subprocess.run([cargo, "build", "--release"], cwd=build_dir)
    if proc.returncode != 0:
        raise SystemExit(f"cargo build failed in {build_dir} (see above; README.md lists the setup steps)")
    (build_dir / "checkout.txt").write_text(str(root) + "\n")
    return build_dir / "target" / "release" / BINARY


class Driver(LineProcess):
    """Our driver process: one JSON request a line, one answer a line."""

    def __init__(self, binary: Path):
        super().__init__([str(binary)], "the engine's driver process", f"the driver {binary} did not start")

    def call(self, op: str, **args) -> dict:
        """The driver's answer; Errored when the engine panicked or refused to
        decode what the adapter built (`decode` answers for themselves)."""
        answer = self.decode(op, **args)
        if "bad_input" in answer:
            raise Errored(f"the engine refused the adapter's input: {answer['bad_input'][:300]}")
        return answer

    def decode(self, op: str, **args) -> dict:
        """The driver's answer, a `bad_input` refusal included."""
        answer = self.request({"op": op, **args})
        if "panic" in answer:
            raise Errored(f"the engine panicked: {answer['panic'][:300]}")
        return answer


# ------------------------------------------------------------------ the adapter

class DgmnetoAdapter(Adapter):
    CLAIMED = CLAIMED
    READINGS = READINGS
    UNSUPPORTED_VERBS = UNSUPPORTED_VERBS

    def __init__(self, root: Path, binary: Path):
        self.driver = Driver(binary)
        self.facts = self.driver.call("facts")
        self.points = self.facts["points"]
        version = _crate_version(root)
        commit = checkout_commit(root)
        self.IMPLEMENTATION = {"name": "dgmneto-canastra", "version": version + (f" ({commit})" if commit else ""),
                               "language": "rust", "homepage": "https://github.com/dgmneto/canastra",
                               "documentation": "engine/crates/canastra-engine driven through canastra-spec's driver; "
                                                "rules: canastra-regras-da-casa.md"}

    def features(self):
        # what the engine's actions and state can express; a rule the engine
        # does not have (a clean meld to open, rounding, ré, ...) is graded, not skipped
        return {"setup", "card-points", "sequences", "same-rank-sets", "wilds", "wild-positions", "wild-sets",
                "black-three-sets", "canastras", "opening-minimum", "opening-ladder", "clean-meld", "pile-take",
                "pile-onto-meld", "blocked-pile", "frozen-pile", "pile-cards-usable", "red-threes", "black-threes",
                "first-card-redraw", "going-out", "concealed-going-out", "scoring", "rounding", "re",
                "stock-exhaustion", "game-end"}

    # ------------------------------------------------------------ engine calls
    def step(self, gs: dict, seat: int, action: dict) -> dict:
        answer = self.driver.call("apply", state=gs, seat=seat, action=action)
        if not answer["ok"]:
            raise Refused(answer["violation"], answer["message"])
        return answer["state"]

    def load(self, state: dict, order, team_of) -> dict:
        """Our state as the engine's, checked by the engine's own invariant check.
        DeckNotConserved is expected (cbc's 106 cards, cards set aside) and
        ignored; any other broken invariant means the table is not one the
        engine can be in, and the case is skipped."""
        gs = tr.to_engine(state, order, team_of, self.points)
        answer = self.driver.decode("check", state=gs)
        if "bad_input" in answer:     # the engine's own decoding refuses a meld of the table
            raise Skip(f"the engine cannot hold this table: {answer['bad_input'][:300]}")
        problem = answer.get("invariant", {}).get("problem")
        if not answer["ok"] and problem != "DeckNotConserved":
            raise Skip(f"the engine's invariant check refuses this table: {answer['message']}")
        return gs

    def canastras(self, gs: dict, ruleset: str) -> list[list[str | None]]:
        out = []
        for table in gs["tables"]:
            kinds = []
            for meld in table["melds"]:
                answer = self.driver.call("meld", cards=[tr.to_card(c) for c in tr.meld_cards(meld)])
                kinds.append(tr.canastra_name(ruleset, answer["canastra"]) if answer["ok"] else None)
            out.append(kinds)
        return out

    # ------------------------------------------------------------ run
    def run(self, message: dict) -> dict:
        ruleset = message["ruleset"]
        state = message["state"]
        order, team_of = seating(state, ruleset)
        gs = self.load(state, order, team_of)
        want = in_play(state)
        results, current = [], state
        for action in message["actions"]:
            verb = next(k for k in action if k != "player")
            try:
                new, reason = self.apply(gs, order, action)
                verdict, note = "accepted", None
            except Reject as exc:
                new, verdict, reason, note = gs, "rejected", exc.reason, exc.message
            check_conservation(want, tr.cards_in(new))
            seat_before = current["turn"]["player"]
            hand_before = Counter(current["hands"].get(seat_before, []))
            current = tr.from_engine(new, current, order, team_of, self.canastras(new, ruleset))
            if verdict == "accepted" and verb in ("draw", "redraw"):
                current["started"] = True
                if current["turn"]["player"] == seat_before:
                    came = Counter(current["hands"][seat_before]) - hand_before
                    current["turn"]["drawn"] = sorted(came.elements(), key=sort_key)
                    current["turn"]["redrawn"] = verb == "redraw" or bool(current["turn"].get("redrawn"))
            result = {"verdict": verdict, "reason": reason, "state": current}
            if note:
                result["message"] = note
            if new["phase"] in ("HandOver", "MatchOver") and verdict == "accepted":
                result["score"] = self.score(new, state, order, team_of)
            results.append(result)
            gs = new
        return {"results": results, "unsupported": UNSUPPORTED_STATE}

    def apply(self, gs: dict, order, action: dict) -> tuple[dict, str]:
        """(the engine's new state, our reason code) of one of our actions, or
        Reject with the engine's refusal mapped to our reason code."""
        verb = next(k for k in action if k != "player")
        arg = action[verb]
        if action.get("player") not in order:
            raise Reject("action.malformed", f"unknown player {action.get('player')!r}")
        seat = order.index(action["player"])
        try:
            if gs["phase"] == "AwaitingRefusalChoice":
                if verb == "redraw":
                    return self.step(gs, seat, {"type": "RefuseDrawnCard"}), "draw.redraw"
                # playing on keeps the card on offer (§3)
                gs = self.step(gs, seat, {"type": "KeepDrawnCard"})
            new = self.apply_verb(gs, seat, verb, arg)
        except Refused as exc:
            raise Reject(tr.reason_for(exc.violation, verb, tr.named_cards(verb, arg)), exc.message)
        team = seat % 2
        if new["phase"] in ("HandOver", "MatchOver"):
            if new.get("went_out") is not None:
                return new, "going-out.with-discard" if verb == "discard" else "going-out.direct"
            return new, "hand.ended.turn-ended" if verb == "end_turn" else "discard.made"
        if verb in ("draw", "redraw"):
            return new, "draw.stock" if verb == "draw" else "draw.redraw"
        if verb == "take_pile":
            return new, "pile.taken"
        if verb in ("meld", "layoff"):
            if not new["tables"][team]["opened"]:
                return new, "opening.pending"
            return new, "meld.laid" if verb == "meld" else "meld.laid-off"
        if verb == "discard" and not gs["tables"][team]["opened"] and new["tables"][team]["opened"]:
            return new, "opening.made"
        return new, "discard.made"

    def apply_verb(self, gs: dict, seat: int, verb: str, arg) -> dict:
        if verb == "draw":
            return self.step(gs, seat, {"type": "Draw"})
        if verb == "redraw":
            return self.step(gs, seat, {"type": "RefuseDrawnCard"})
        if verb == "discard":
            return self.step(gs, seat, {"type": "Discard", "card": tr.to_card(card(arg))})
        if verb == "end_turn":
            return self.step(gs, seat, {"type": "EndTurnWithoutDiscard"})
        if verb == "meld":
            for meld in arg:
                gs = self.step(gs, seat, {"type": "LayMeld", "cards": [tr.to_card(c) for c in cards(meld)]})
            return gs
        if verb == "layoff":
            for item in (arg if isinstance(arg, list) else [arg]):
                gs = self.lay_off(gs, seat, item["meld"], cards(item["cards"]))
            return gs
        if verb == "take_pile":
            return self.take_pile(gs, seat, arg)
        raise Skip(f"{verb}: not mapped")

    def lay_off(self, gs: dict, seat: int, meld: int, given: list[str]) -> dict:
        first = None
        for order in tr.layoff_orders(given):
            try:
                return self.step(gs, seat, {"type": "AddToMeld", "meld": meld,
                                            "cards": [tr.to_card(c) for c in order]})
            except Refused as exc:
                first = first or exc
        raise first

    def take_pile(self, gs: dict, seat: int, arg: dict) -> dict:
        """The first way of splitting our named cards into the engine's core of
        two plus cards laid off on the same meld that the engine accepts; else
        the refusal of the way that got furthest."""
        target = {"kind": "NewMeld"} if arg.get("onto") is None else {"kind": "Existing", "meld": arg["onto"]}
        best = None
        for core, rest in tr.take_pile_plans(arg):
            try:
                new = self.step(gs, seat, {"type": "TakeDiscardPile", "core": [tr.to_card(c) for c in core],
                                           "target": target})
            except Refused as exc:
                best = best or (0, exc)
                continue
            if not rest:
                return new
            try:
                return self.lay_off(new, seat, new["turn_context"]["pile_core_meld"], rest)
            except Refused as exc:
                if best is None or best[0] < 1:
                    best = (1, exc)
        raise best[1]

    def score(self, gs: dict, state: dict, order, team_of) -> dict:
        """The engine's score_hand per team, its terms under our names where
        they mean the same."""
        answer = self.driver.decode("score", state=gs)
        if "bad_input" in answer:     # the engine's own decoding refuses a meld of the table
            raise Skip(f"the engine cannot hold this table: {answer['bad_input'][:300]}")
        out = {}
        for t, hs in enumerate(answer["teams"]):
            team = team_of[order[t]]
            before = state.get("teams", {}).get(team, {}).get("score", 0)
            terms = {"canastras": hs["canastra_bonus"], "going_out": hs["going_out_bonus"],
                     "red_threes": hs["red_three_bonus"], "table": hs["table_cards"], "hand": -hs["hand_cards"],
                     "unopened": hs["unopened_penalty"]}
            out[team] = {"terms": {k: {"value": v} for k, v in terms.items()}, "total": hs["total"],
                         "score_before": before, "score_after": before + hs["total"]}
        return out

    # ------------------------------------------------------------ queries
    def query(self, ruleset, q):
        (kind, arg), = q.items()
        if kind == "setup":
            return self.setup(ruleset)
        if kind == "points":
            return self.points[tr.to_card(card(arg))]
        if kind == "opening_minimum":
            answer = self.driver.call("opening_minimum", score=int(arg.get("score", 0)),
                                      penalized=bool(arg.get("failures", 0)))
            return answer["minimum"]
        if kind == "meld":
            given = cards(arg)
            answer = self.driver.call("meld", cards=[tr.to_card(c) for c in given])
            if not answer["ok"]:
                reason = tr.reason_for({"error": "InvalidMeld", "reason": answer["meld_error"]}, "meld", given)
                return {"meld": None, "reason": reason, "canastra": None, "value": None}
            laid = tr.meld_from_engine(answer["meld"])
            canastra = tr.canastra_name(ruleset, answer["canastra"])
            return {"meld": laid["kind"], "reason": None, "cards": laid["cards"], "canastra": canastra,
                    "value": answer["bonus"] if canastra else None}
        if kind == "game_end":
            return self.game_end(arg, ruleset)
        if kind == "score":
            order, team_of = seating(arg, ruleset)
            ended = arg.get("ended") or {}
            body = {**arg, "ended": None, "turn": {**arg.get("turn", {}), "phase": "play"}}
            gs = tr.to_engine(body, order, team_of, self.points)
            gs["phase"] = "HandOver"
            went = ended.get("player") if ended.get("reason") == "went-out" else None
            gs["went_out"] = order.index(went) if went else None
            return Partial(self.score(gs, arg, order, team_of), UNSUPPORTED_SCORE)
        raise Skip(f"query {kind!r} is not mapped")

    def game_end(self, totals: dict, ruleset: str) -> dict:
        """The engine's settle_hand on a finished hand that scores nothing
        (both partnerships opened, nothing on the table or in hand) banked on
        the totals given: over when it leads to MatchOver, won by its winner."""
        order, team_of = seating({}, ruleset)
        engine_team = [team_of[order[i]] for i in range(2)]      # engine team i holds seats i, i + 2
        if sorted(totals) != sorted(engine_team):
            raise Skip("the engine seats two partnerships")
        gs = self.driver.call("new_game", seed=0)["state"]
        gs.update(phase="HandOver", went_out=None, hands=[[] for _ in gs["hands"]],
                  scores=[int(totals[t]) for t in engine_team])
        for table in gs["tables"]:
            table.update(opened=True, melds=[], red_threes=[])
        answer = self.driver.call("settle", state=gs)
        if not answer["ok"]:
            raise Errored(f"the engine's settle_hand refused the finished hand: {answer['message']}")
        over = answer["phase"] == "MatchOver"
        winner = answer["winner"]
        return {"over": over, "winners": [engine_team[winner]] if over and winner is not None else []}

    def setup(self, ruleset: str) -> Partial:
        """The table as the engine's crate publishes it (card::deck, HAND_SIZE,
        TARGET_SCORE, Seat::team, the deal settle_hand passes on, a draw's
        effect on the hand). The direction of play and the first dealer are
        not computed by the engine (seats are numbers; seat 0 always deals the
        first hand), so they are not answered."""
        f = self.facts
        deck = f["deck"]
        players = f["seats"]
        order = play_order(players, facts(ruleset)["direction"])
        groups: dict[int, list[str]] = {}
        for seat, team in enumerate(f["team_of_seat"]):
            groups.setdefault(team, []).append(order[seat])
        named = teams_of(players)
        teams = {name: list(seats) for name, seats in named.items()
                 if sorted(seats) in [sorted(g) for g in groups.values()]}
        out = {"deck_size": len(deck), "decks": deck.count("AC"), "jokers": deck.count("JOKER"),
               "players": players, "team_size": len(next(iter(groups.values()))), "cards_dealt": f["hand_size"],
               "wild_cards": sorted({"JK" if c == "JOKER" else c[0] for c in f["wild"]}), "target": f["target_score"],
               "draw": self.cards_per_draw()}
        missing = ["result.direction", "result.first_dealer"]
        if len(teams) == len(groups):
            out["teams"] = teams
        else:
            missing.append("result.teams")
        if f["next_dealer"] == f["first_player"]:
            out["next_dealer"] = "first-player"
        else:
            missing.append("result.next_dealer")
        return Partial(out, missing)

    def cards_per_draw(self) -> int:
        gs = self.driver.call("new_game", seed=0)["state"]
        seat = gs["turn"]
        before = len(gs["hands"][seat])
        gs = self.step(gs, seat, {"type": "Draw"})
        if gs["phase"] == "AwaitingRefusalChoice":
            gs = self.step(gs, seat, {"type": "KeepDrawnCard"})
        return len(gs["hands"][seat]) - before

    # ------------------------------------------------------------ random play
    def random_hand(self, seed: int) -> dict:
        """A hand dealt by the engine's new_game(seed), played with its own
        enumerate and random choices, the way its own match drivers play
        (harness/src/driver.ts, training-rs/src/pool.rs): a turn with no legal
        action left is restarted from its start (§6.1 penalty included) and
        retried with only drawing and discarding. After every move, the
        engine's own invariant check (108 cards, red threes never in a hand, ...)."""
        rng = random.Random(seed)
        gs = self.driver.call("new_game", seed=seed)["state"]
        turn_start, safe = gs, False
        findings, steps, restarts = [], 0, 0
        while gs["phase"] not in ("HandOver", "MatchOver") and steps < 3000:
            seat = gs["turn"]
            moves = self.driver.call("enumerate", state=gs, seat=seat)["actions"]
            if safe:
                moves = [m for m in moves if m["type"] in SAFE_MOVES]
            if not moves and not safe and gs["phase"] == "Melding":
                gs = self.driver.call("restart_turn", turn_start=turn_start, current=gs, seat=seat)["state"]
                turn_start, safe, restarts = gs, True, restarts + 1
                continue
            if not moves:
                findings.append({"kind": "no legal action before the end of the hand" + (
                                     " (even after restarting the turn)" if safe else ""),
                                 "step": steps, "phase": gs["phase"], "seat": seat, "hand": gs["hands"][seat],
                                 "stock": len(gs["stock"]), "pile_top": gs["discard"][-1] if gs["discard"] else None,
                                 "opened": gs["tables"][seat % 2]["opened"]})
                break
            move = rng.choice(moves)
            try:
                gs = self.step(gs, seat, move)
            except Refused as exc:
                findings.append({"kind": "a listed legal action is refused", "step": steps, "move": move,
                                 "message": exc.message})
                break
            steps += 1
            check = self.driver.call("check", state=gs)
            if not check["ok"]:
                findings.append({"kind": "an invariant broken by a legal action", "step": steps, "move": move,
                                 "message": check["message"]})
                break
            if gs["turn"] != seat:
                turn_start, safe = gs, False
        return hand_played(steps, gs["phase"] in ("HandOver", "MatchOver"), findings, 3000, restarts=restarts)



def _crate_version(root: Path) -> str:
    """The engine crate's own version (its Cargo.toml)."""
    import tomllib
    try:
        return tomllib.loads((root / ENGINE_CRATE / "Cargo.toml").read_text())["package"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def make(argv):
    root = checkout_path(argv, ENV_VAR, ENGINE_CRATE + "/src/apply.rs")
    build_dir = Path(option(argv, "--build-dir", os.environ.get(BUILD_VAR)) or default_build_dir()).expanduser()
    binary = build_dir / "target" / "release" / BINARY
    if "--build" in argv:
        binary = build(root, build_dir, option(argv, "--registry"))
        print(f"built {binary}", file=sys.stderr)
        raise SystemExit(0)
    if not binary.exists():
        raise SystemExit(f"no driver at {binary}: build it first with --build (README.md)")
    stamp = build_dir / "checkout.txt"
    if stamp.exists() and stamp.read_text().strip() != str(root):
        raise SystemExit(f"the driver in {build_dir} was built against {stamp.read_text().strip()}, "
                         f"not {root}: rebuild with --build")
    return DgmnetoAdapter(root, binary)


if __name__ == "__main__":
    main(make)
