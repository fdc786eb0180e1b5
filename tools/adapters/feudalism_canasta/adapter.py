"""Conformance adapter for feudalism-dev/Canasta (classic Canasta and Hand and
Foot in TypeScript; the rules core is src/core/*.ts, driven here with Node).

    python tools/adapters/feudalism_canasta/adapter.py --checkout PATH

PATH is your own checkout after `npm install` (or set
CANASTRA_FEUDALISM_CHECKOUT); `node` must be on the PATH (or --node NODE).
The Python side translates and speaks the protocol; bridge.mjs loads the
checkout's TypeScript core in memory with the checkout's own esbuild and
answers function calls. See README.md beside this file.
"""
from __future__ import annotations

import json
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))      # tools/adapters: _common and this adapter's package

from _common import (  # noqa: E402
    JOKER,
    RANKS,
    Adapter,
    Errored,
    LineProcess,
    Partial,
    Reject,
    Skip,
    all_cards,
    as_pile_reason,
    card,
    cards,
    check_conservation,
    checkout_path,
    facts,
    hand_played,
    lacks,
    main,
    option,
    seating,
    sort_key,
    teams_of,
)
from feudalism_canasta import translate as tr  # noqa: E402

ENV_VAR = "CANASTRA_FEUDALISM_CHECKOUT"
# The readings the engine's rules (Docs/RULES.md, "Classic Canasta") and code
# settle; README.md cites the line for each.
READINGS = {
    "classica": {"minimum-table": "standard", "card-values": "standard", "scoring-summary": "standard",
                 "red-three-freezes": "yes", "opening-pile-cards": "top-card-only", "going-out-discard": "either"},
    "uruguaya": {"deck-size": "cards-108", "minimum-table": "standard", "opening-melds": "several",
                 "pile-start": "upcard", "threes-value": "five"},
    "cbc": {"three-points": "five"},
    "ituiutaba": {"going-out-canastra": "any"},
    "treze": {"going-out-canastra": "one"},
}
READINGS["classica-2p"] = READINGS["classica"]

UNSUPPORTED_VERBS = {
    "deal": "the engine deals from its own seeded shuffle",
    "replace_red_three": "red threes are laid and replaced automatically",
    "lay_down_red_three": "red threes are laid down automatically",
    "ask_partner": "classic Canasta in this engine has no asking the partner",
    "answer": "classic Canasta in this engine has no asking the partner",
    **lacks("exact_cut", "misdeal", "redraw", "challenge", "end_turn"),
}


class Bridge(LineProcess):
    def __init__(self, root, node):
        super().__init__([node, os.path.join(HERE, "bridge.mjs"), str(root)], "the engine's Node process",
                         f"the Node bridge did not start (is `npm install` done in {root}?)")

    def call(self, module, fn, *args):
        answer = self.request({"module": module, "fn": fn, "args": list(args)})
        if not answer["ok"]:
            raise Errored(f"engine raised: {answer['error'][:300]}")
        return answer["result"], answer["args"]


class FeudalismAdapter(Adapter):
    READINGS = READINGS
    UNSUPPORTED_VERBS = UNSUPPORTED_VERBS

    def __init__(self, root, node="node"):
        self.bridge = Bridge(root, node)
        version = "1.0.0"
        try:
            version = json.loads((root / "package.json").read_text()).get("version", version)
        except Exception:
            pass
        self.IMPLEMENTATION = {"name": "feudalism-canasta", "version": version, "language": "typescript",
                               "homepage": "https://github.com/feudalism-dev/Canasta",
                               "documentation": "the 'canasta' variant (classic Canasta)"}

    def features(self):
        return {"setup", "card-points", "same-rank-sets", "wilds", "wild-sets", "canastras", "opening-minimum",
                "pile-take", "pile-onto-meld", "blocked-pile", "frozen-pile", "red-threes", "black-threes",
                "black-three-sets", "going-out", "concealed-going-out", "scoring", "stock-exhaustion",
                "two-players", "game-end"}

    def config(self, players):
        result, _ = self.bridge.call("variants", "variantConfig", "canasta", players)
        return result

    # ------------------------------------------------------------ run
    def run(self, message):
        ruleset = message["ruleset"]
        state = message["state"]
        order, team_of = seating(state, ruleset)
        match = tr.to_engine(state, order, team_of, self.config(len(order)))
        want = Counter(all_cards(state)) - Counter(cards(state.get("aside", [])))
        results, current = [], state
        opened_at_start = [t["hasInitialMeld"] for t in match["teams"]]
        turn_player = match["currentPlayer"]
        for action in message["actions"]:
            if match["currentPlayer"] != turn_player:
                turn_player = match["currentPlayer"]
                opened_at_start = [t["hasInitialMeld"] for t in match["teams"]]
            try:
                new, reason = self.apply(match, order, action, opened_at_start)
                verdict = "accepted"
                before_hand = Counter(map(tr.from_card, match["players"][match["currentPlayer"]]["hand"]))
                previous = match
                match = new
            except Reject as exc:
                verdict, reason, previous = "rejected", exc.reason, None
            self.check_conservation(match, want)
            seat_before = current["turn"]["player"]
            current = tr.from_engine(match, current, order, team_of, ruleset)
            verb = next(k for k in action if k != "player")
            if previous is not None and verb == "draw" and current["turn"]["player"] == seat_before:
                gained = Counter(map(tr.from_card, match["players"][previous["currentPlayer"]]["hand"])) - before_hand
                current["turn"]["drawn"] = sorted(gained.elements(), key=sort_key)
            result = {"verdict": verdict, "reason": reason, "state": current}
            if match["phase"] in ("roundEnd", "matchEnd"):
                result["score"] = self.score(match, state, order, team_of)
            results.append(result)
        return {"results": results}

    def check_conservation(self, match, want):
        have = Counter()
        for p in match["players"]:
            have.update(map(tr.from_card, p["hand"] + p["foot"]))
        for t in match["teams"]:
            have.update(map(tr.from_card, t["redThrees"]))
            for m in t["melds"]:
                have.update(map(tr.from_card, m["cards"]))
        have.update(map(tr.from_card, match["stock"] + match["discard"]))
        check_conservation(want, have)

    def score(self, match, state, order, team_of):
        """The engine adds each team's scoreTeamHand total to its score when the hand ends."""
        out = {}
        for t, team in enumerate((team_of[order[0]], team_of[order[1]])):
            before = state.get("teams", {}).get(team, {}).get("score", 0)
            total = match["teams"][t]["score"] - before
            record = {"total": total, "score_before": before, "score_after": before + total}
            went = match["wentOutPlayer"]
            breakdown, _ = self.bridge.call("score", "scoreTeamHand", match, t,
                                            match["players"][went]["team"] if went >= 0 else -1)
            if breakdown["total"] == total:
                record["terms"] = {"table": {"value": breakdown["cardPoints"]},
                                   "canastras": {"value": breakdown["canastaBonus"]},
                                   "red_threes": {"value": breakdown["redThreeScore"]},
                                   "going_out": {"value": breakdown["goingOut"]},
                                   "hand": {"value": -breakdown["handPenalty"]}}
            out[team] = record
        return out

    def apply(self, match, order, action, opened_at_start):
        player = action.get("player")
        verb = next(k for k in action if k != "player")
        arg = action[verb]
        if match["phase"] in ("roundEnd", "matchEnd"):
            raise Reject("turn.hand-over", "the hand is over")
        me = order[match["currentPlayer"]]
        if player != me:
            raise Reject("turn.not-your-turn", f"it is {me}'s turn")
        who = match["currentPlayer"]
        hand = match["players"][who]["hand"]
        team = who % 2
        rest = None
        if verb == "draw":
            move = {"kind": "drawStock"}
        elif verb == "take_pile":
            move = {"kind": "takePile", "cardIds": tr.pick(hand, arg.get("with", []))}
            if not match["discard"]:
                raise Reject("pile.empty")
            self.check_onto(match, team, arg.get("onto"))
        elif verb == "meld":
            groups = [tr.pick(hand, m) for m in arg]
            flat = [i for g in groups for i in g]
            if len(set(flat)) != len(flat):
                raise Reject("card.not-in-hand", "a card is named twice")
            move = {"kind": "meld", "cardIds": flat, "groups": groups}
            rest = len(hand) - len(flat)
        elif verb == "layoff":
            items = arg if isinstance(arg, list) else [arg]
            if len(items) != 1:
                raise Skip("the engine adds to one meld per move")
            move = {"kind": "addToMeld", "meldIndex": items[0]["meld"], "cardIds": tr.pick(hand, items[0]["cards"])}
            rest = len(hand) - len(move["cardIds"])
        elif verb == "discard":
            move = {"kind": "discard", "cardId": tr.pick(hand, [arg])[0]}
        else:
            raise Skip(f"{verb}: not mapped")
        ok, args = self.bridge.call("rules", "tryApply", match, move, who)
        if not ok["ok"]:
            reason = tr.reason_for(ok["error"], rest)
            if verb == "take_pile":
                reason = as_pile_reason(reason)
                top = tr.from_card(match["discard"][-1]) if match["discard"] else None
                offered = cards(arg.get("with", []))
                if reason == "pile.too-few-hand-cards" and top and not any(
                        c[:-1] == top[:-1] and not tr.is_wild(c) for c in offered):
                    reason = "pile.too-few-naturals"     # "Need 8s to take the pile" with no eight offered
            raise Reject(reason, ok["error"])
        new = args[0]
        ended = new["phase"] in ("roundEnd", "matchEnd")
        if verb == "draw":
            return new, ("hand.ended.stock-exhausted" if ended else "draw.stock")
        if verb == "take_pile":
            kept = {c["id"] for c in new["players"][who]["hand"]} & set(move["cardIds"])
            if kept:        # its takePile claims cards and gives back those it does not need (rules.ts)
                raise Skip("the engine lays only some of the hand cards offered with the top card, and gives "
                           "the others back: a take with every one of them has no counterpart")
            return new, "pile.taken"
        if verb in ("meld", "layoff"):
            if ended:
                return new, "going-out.direct"
            if not opened_at_start[team]:
                return new, "opening.pending"
            return new, "meld.laid" if verb == "meld" else "meld.laid-off"
        if ended:
            return new, "going-out.with-discard"
        if not opened_at_start[team] and new["teams"][team]["hasInitialMeld"]:
            return new, "opening.made"
        return new, "discard.made"

    @staticmethod
    def check_onto(match, team, onto):
        """The engine's takePile has no target meld: it lays the top card (with the
        hand cards given) on the team's meld of that rank if it has one
        (rules.ts existingOpenMeld), else makes a new meld. A take onto meld
        `onto` is that very action only when `onto` is that meld."""
        if onto is None:
            return
        top = match["discard"][-1]
        if tr.is_wild(tr.from_card(top)) or top["rank"] == "3":
            return                                  # the engine refuses the take itself
        target = next((i for i, m in enumerate(match["teams"][team]["melds"]) if m["rank"] == top["rank"]), None)
        if target != onto:
            raise Skip(f"the engine lays the top card on the team's meld of its rank ({target}), not on meld "
                       f"{onto}: a take onto another meld has no counterpart")

    # ------------------------------------------------------------ queries
    def query(self, ruleset, q):
        (kind, arg), = q.items()
        players = facts(ruleset)["players"]
        cfg = self.config(players)
        if kind == "setup":
            teams = teams_of(players)
            deck, _ = self.bridge.call("cards", "buildDeck", cfg["deckCount"])
            jokers = sum(1 for c in deck if c["rank"] == "JOKER")
            wild = []
            for rank in RANKS + (JOKER,):
                is_wild, _ = self.bridge.call("cards", "isWild", tr.to_card(rank if rank == JOKER else rank + "c", "q"))
                if is_wild:
                    wild.append(rank)
            return Partial({"deck_size": len(deck), "decks": cfg["deckCount"], "jokers": jokers,
                            "players": players, "team_size": 2 if players == 4 else 1,
                            "teams": {t: list(s) for t, s in teams.items()}, "cards_dealt": cfg["handSize"],
                            "draw": cfg["stockDraw"], "wild_cards": wild, "target": cfg["playTo"]},
                           # seats are numbered, play passes to index + 1 (rules.ts endTurn); the dealer is
                           # drawn at random (Docs/RULES.md: "left of a random dealer")
                           ["result.direction", "result.first_dealer", "result.next_dealer"])
        if kind == "points":
            result, _ = self.bridge.call("cards", "cardPoints", tr.to_card(card(arg), "q"))
            return result
        if kind == "opening_minimum":
            result, _ = self.bridge.call("variants", "initialMeldMinimum", cfg, arg.get("score", 0), 1)
            return result
        if kind == "meld":
            given = cards(arg)
            objs = tr.Ids().make(given)
            rank, _ = self.bridge.call("melds", "inferMeldRank", objs)
            if rank is None:
                return {"meld": None, "reason": "meld.mixed-ranks", "canastra": None, "value": None}
            err, _ = self.bridge.call("melds", "validateMeldCards", objs, rank, cfg)
            if err:
                return {"meld": None, "reason": tr.reason_for(err), "canastra": None, "value": None}
            meld = {"rank": rank, "cards": objs, "closed": False}
            kind_, _ = self.bridge.call("melds", "canastaKind", meld, cfg["canastaSize"])
            canastra = {"natural": "limpa", "mixed": "suja", "wild": "curingas"}.get(kind_)
            value = {"natural": 500, "mixed": 300, "wild": 1500}.get(kind_)
            naturals = [c for c in given if not tr.is_wild(c)]
            from _common import kind_name, rank_of
            return {"meld": kind_name(ruleset, "set", rank_of(naturals[0]) if naturals else None), "reason": None,
                    "cards": naturals + [c for c in given if tr.is_wild(c)], "canastra": canastra,
                    "value": value if canastra else None}
        if kind == "score":
            order, team_of = seating(arg, ruleset)
            ended = arg.get("ended") or {}
            body = dict(arg)
            body["ended"] = None
            body["turn"] = {**arg.get("turn", {}), "phase": "play"}
            match = tr.to_engine(body, order, team_of, cfg)
            went = order.index(ended["player"]) if ended.get("reason") == "went-out" and ended.get("player") else -1
            match["wentOutPlayer"] = went
            if went >= 0:
                match["players"][went]["concealedEligible"] = bool(ended.get("concealed"))
            out = {}
            for t, team in enumerate((team_of[order[0]], team_of[order[1]])):
                b, _ = self.bridge.call("score", "scoreTeamHand", match, t,
                                        match["players"][went]["team"] if went >= 0 else -1)
                before = arg.get("teams", {}).get(team, {}).get("score", 0)
                out[team] = {"total": b["total"], "score_before": before, "score_after": before + b["total"],
                             "terms": {"table": {"value": b["cardPoints"]}, "canastras": {"value": b["canastaBonus"]},
                                       "red_threes": {"value": b["redThreeScore"]},
                                       "going_out": {"value": b["goingOut"]}, "hand": {"value": -b["handPenalty"]}}}
            return out
        raise Skip(f"query {kind!r} is not mapped")

    # ------------------------------------------------------------ random play
    def random_hand(self, seed):
        """A hand dealt by the engine's createMatch (seeded), played with its own
        getLegalMoves and random choices."""
        import random
        rng = random.Random(seed)
        match, _ = self.bridge.call("state", "createMatch", {"variant": "canasta", "names": ["N", "E", "S", "W"],
                                                             "humans": [False] * 4, "seed": seed})
        def count(m):
            n = len(m["stock"]) + len(m["discard"])
            n += sum(len(p["hand"]) + len(p["foot"]) for p in m["players"])
            return n + sum(len(t["redThrees"]) + sum(len(x["cards"]) for x in t["melds"]) for t in m["teams"])
        total = count(match)
        findings, steps = [], 0
        while match["phase"] in ("awaitingDraw", "awaitingPlay", "awaitingGoOutConsent") and steps < 3000:
            who = match["currentPlayer"]
            if match["phase"] == "awaitingGoOutConsent" and match.get("pendingGoOut"):
                who = (match["pendingGoOut"]["playerIndex"] + 2) % 4
            moves, _ = self.bridge.call("rules", "getLegalMoves", match, who)
            if not moves:
                findings.append({"kind": "no legal action before the end of the hand", "step": steps,
                                 "phase": match["phase"], "player": who,
                                 "hand": [tr.from_card(c) for c in match["players"][who]["hand"]],
                                 "opened": match["teams"][who % 2]["hasInitialMeld"],
                                 "pile_top": tr.from_card(match["discard"][-1]) if match["discard"] else None})
                break
            move = rng.choice(moves)
            ok, args = self.bridge.call("rules", "tryApply", match, move, who)
            if not ok["ok"]:
                findings.append({"kind": "a listed legal action is refused", "step": steps, "move": move,
                                 "message": ok["error"]})
                break
            match = args[0]
            steps += 1
            if count(match) != total:
                findings.append({"kind": "cards lost or gained", "step": steps, "move": move})
                break
        return hand_played(steps, match["phase"] in ("roundEnd", "matchEnd"), findings, 3000)


def make(argv):
    root = checkout_path(argv, ENV_VAR, "src/core/rules.ts")
    return FeudalismAdapter(root, option(argv, "--node", os.environ.get("CANASTRA_NODE", "node")))


if __name__ == "__main__":
    main(make)
