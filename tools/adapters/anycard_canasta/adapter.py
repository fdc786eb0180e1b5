"""Conformance adapter for jphd3v/anycard's Canasta (a rules module of a
card-game framework in TypeScript: backend/src/rules/impl/canasta.ts, with
`validate` and `listLegalIntentsForPlayer`), driven with Node.

    python tools/adapters/anycard_canasta/adapter.py --checkout PATH

PATH is your own checkout after `npm install` at its root and in backend/ (or
set CANASTRA_ANYCARD_CHECKOUT); `node` must be on the PATH (or --node NODE,
CANASTRA_NODE). The Python side translates and speaks the protocol; bridge.mjs
loads the checkout's backend with the checkout's own tsx and answers function
calls. See README.md beside this file.
"""
from __future__ import annotations

import json
import os
import random
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
    hand_played,
    in_play,
    lacks,
    main,
    option,
    seating,
    sort_key,
)
from anycard_canasta import translate as tr  # noqa: E402

ENV_VAR = "CANASTRA_ANYCARD_CHECKOUT"
MODULE = "backend/src/rules/impl/canasta.ts"

CLAIMED = ("classica",)

# The reading of each dispute that the engine's own code or rules page settles
# (README.md cites the line for each); disputes it does not settle are left out.
READINGS = {
    "classica": {"minimum-table": "standard", "card-values": "standard", "scoring-summary": "standard",
                 "red-three-freezes": "yes", "opening-pile-cards": "top-card-only", "going-out-discard": "either"},
}

UNSUPPORTED_VERBS = {
    "deal": "the engine deals from its own seeded shuffle; a stated deck order has no counterpart",
    "replace_red_three": "the engine lays red threes down and replaces them by itself (moveRedThreesOut)",
    "lay_down_red_three": "the engine lays red threes down by itself (moveRedThreesOut)",
    "end_turn": "the engine ends a turn only with a discard (its end-hand-empty-stock is a draw-phase action)",
    **lacks("exact_cut", "misdeal", "redraw", "ask_partner", "answer", "challenge"),
}


# What the engine has no notion of, or does not compute apart (PROTOCOL.md
# "unsupported"): who of a team melded this hand, a concealed going out, a
# score's terms (it totals a hand in one step), rounding.
UNSUPPORTED_STATE = ["results[*].state.players", "results[*].state.ended.concealed",
                     "results[*].state.turn.final", "results[*].state.turn.touched",
                     "results[*].state.turn.melds_laid", "results[*].state.turn.had_melded",
                     "results[*].score.*.terms", "results[*].score.*.subtotal", "results[*].score.*.rounding"]
UNSUPPORTED_SCORE = ["result.*.terms", "result.*.subtotal", "result.*.rounding"]
UNSUPPORTED_SETUP = ["result.direction", "result.first_dealer", "result.next_dealer", "result.wild_cards",
                     "result.teams", "result.team_size", "result.target"]


class Bridge(LineProcess):
    def __init__(self, root: Path, node: str):
        super().__init__([node, str(HERE / "bridge.mjs"), str(root)], "the engine's Node process",
                         f"the Node bridge did not start (is `npm install` done in {root} and {root}/backend?)")

    def call(self, op: str, **args) -> dict:
        answer = self.request({"op": op, **args})
        if not answer.get("ok"):
            raise Errored(f"engine raised: {(answer.get('error') or answer.get('bad_input') or '')[:300]}")
        return answer


class AnycardAdapter(Adapter):
    CLAIMED = CLAIMED
    READINGS = READINGS
    UNSUPPORTED_VERBS = UNSUPPORTED_VERBS

    def __init__(self, root: Path, node: str):
        self.bridge = Bridge(root, node)
        self.template = self.bridge.call("template")["state"]
        commit = checkout_commit(root)
        self.IMPLEMENTATION = {"name": "anycard-canasta", "version": commit or "unknown", "language": "typescript",
                               "homepage": "https://github.com/jphd3v/anycard",
                               "documentation": "backend/src/rules/impl/canasta.ts through its validateMove; "
                                                "rules: rules/canasta/canasta.rules.md (classic Canasta, Pagat)"}

    def features(self):
        # what the engine's intents and state can express; a rule it lacks is graded, not skipped
        return {"setup", "same-rank-sets", "wilds", "wild-sets", "canastras", "opening-minimum", "pile-take",
                "pile-onto-meld", "blocked-pile", "frozen-pile", "pile-cards-usable", "red-threes", "black-threes",
                "black-three-sets", "going-out", "concealed-going-out", "scoring", "stock-exhaustion", "game-end"}

    # ------------------------------------------------------------ engine calls
    def intent(self, gs: dict, intent: dict) -> tuple[dict, dict | None]:
        """(the engine's new state, the table before it gathered the cards when
        the hand ended, else None); Reject with the engine's refusal."""
        answer = self.bridge.call("intent", state=gs, intent={"gameId": gs["gameId"], **intent})
        if not answer["valid"]:
            raise Reject(tr.reason_for(answer["reason"]), answer["reason"])
        return answer["state"], answer["table"]

    # ------------------------------------------------------------ run
    def run(self, message: dict) -> dict:
        ruleset = message["ruleset"]
        state = message["state"]
        order, team_of = seating(state, ruleset)
        gs = tr.to_engine(state, order, team_of, self.template)
        who = tr.players_of(order)
        meld_order = {}
        for seat in order:
            team = tr.TEAM_OF_PLAYER[who[seat]]
            laid = [cards(m["cards"] if isinstance(m, dict) else m)
                    for m in state.get("teams", {}).get(team_of[seat], {}).get("melds", [])]
            meld_order[team] = [tr.meld_rank(m) for m in laid]
        want = in_play(state)
        results, current, over = [], state, False
        for action in message["actions"]:
            verb = next(k for k in action if k != "player")
            note = None
            try:
                new, table, reason = self.apply(gs, order, action, current, meld_order)
                verdict = "accepted"
            except Reject as exc:
                new, table, verdict, reason, note = gs, None, "rejected", exc.reason, exc.message
            shown = table or new
            if not over:
                check_conservation(want, tr.cards_in(shown))
                seat_before = current["turn"]["player"]
                hand_before = Counter(current["hands"].get(seat_before, []))
                current = tr.from_engine(shown, current, order, team_of, meld_order)
                if verdict == "accepted" and verb == "draw" and current["turn"].get("player") == seat_before:
                    came = Counter(current["hands"][seat_before]) - hand_before
                    current["turn"]["drawn"] = sorted(came.elements(), key=sort_key)
            result = {"verdict": verdict, "reason": reason, "state": current}
            if note:
                result["message"] = note
            if table is not None:
                over = True
                current["ended"] = ({"reason": "stock-exhausted", "player": None}
                                    if reason == "hand.ended.stock-exhausted"
                                    else {"reason": "went-out", "player": action["player"]})
                current["turn"] = {**current["turn"], "phase": "over"}
                result["score"] = self.score(new, state, order, team_of)
            results.append(result)
            gs = new
        return {"results": results, "unsupported": UNSUPPORTED_STATE}

    def apply(self, gs: dict, order, action: dict, current: dict, meld_order: dict):
        """(new state, table at the end of the hand or None, our reason) of one
        of our actions; Reject with the engine's refusal."""
        verb = next(k for k in action if k != "player")
        arg = action[verb]
        who = tr.players_of(order)
        if action.get("player") not in who:
            raise Reject("action.malformed", f"unknown player {action.get('player')!r}")
        player = who[action["player"]]
        team = tr.TEAM_OF_PLAYER[player]
        hand_pile = f"{player}-hand"
        base = {"playerId": player}
        had_meld = bool(gs["rulesState"].get("turnStartTeamHadMeld", {}).get(team))
        if verb == "draw":
            deck = gs["piles"]["deck"]["cardIds"]
            if not deck and gs["rulesState"].get("turnPhase") == "must-draw":
                # the stock is out: the engine's action for a player who cannot draw
                new, table = self.intent(gs, {**base, "type": "action", "action": "end-hand-empty-stock"})
                return new, table, "hand.ended.stock-exhausted"
            move = {**base, "type": "move", "fromPileId": "deck", "toPileId": hand_pile,
                    "cardId": deck[-1] if deck else -1}
            new, table = self.intent(gs, move)
            return new, table, "draw.stock"
        if verb == "discard":
            c = card(arg)
            held = next((i for i in gs["piles"][hand_pile]["cardIds"] if tr.name(gs, i) == c), None)
            if held is None:
                raise Reject("card.not-in-hand", f"{c} is not in the hand")
            new, table = self.intent(gs, {**base, "type": "move", "fromPileId": hand_pile, "toPileId": "discard",
                                          "cardId": held})
            if table is not None:
                return new, table, "going-out.with-discard"
            opened_now = any(new["piles"][f"{team}-meld-{r}"]["cardIds"] for r in tr.MELD_RANKS)
            return new, table, "opening.made" if not had_meld and opened_now else "discard.made"
        if verb == "take_pile":
            return self.take_pile(gs, player, arg, current, meld_order)
        if verb in ("meld", "layoff"):
            if verb == "meld":
                moves = [(self.meld_pile(team, cards(m)), cards(m)) for m in arg]
            else:
                items = arg if isinstance(arg, list) else [arg]
                moves = [(self.layoff_pile(team, meld_order, item["meld"]), cards(item["cards"])) for item in items]
            new, table = gs, None
            for target, given in moves:
                new, table = self.lay(new, player, target, given)
            if table is None and not new["piles"][hand_pile]["cardIds"]:
                # an empty hand goes out with the engine's own "go out (no discard)"
                new, table = self.intent(new, {**base, "type": "action", "action": "go-out"})
            if table is not None:
                return new, table, "going-out.direct"
            if not had_meld:
                return new, None, "opening.pending"
            return new, None, "meld.laid" if verb == "meld" else "meld.laid-off"
        raise Skip(f"{verb}: not mapped")

    def meld_pile(self, team: str, given: list[str]) -> str:
        """The pile our new meld goes to: black threes to the going-out pile,
        a set to the pile of its naturals' rank (the first natural's, when
        they differ: the engine then judges the mixed ranks)."""
        if given and all(tr.is_black_three(c) for c in given):
            return f"{team}-black3-out"
        naturals = [c for c in given if not tr.is_wild(c)]
        if not naturals:
            raise Reject("meld.only-wilds", "the engine's melds are piles of one natural rank (meldPileId); "
                                            "its rules: 'a meld cannot be made entirely of wilds'")
        return f"{team}-meld-{tr.engine_rank(naturals[0])}"     # a pile it does not have, the engine refuses

    def layoff_pile(self, team: str, meld_order: dict, index) -> str:
        ranks = meld_order.get(team, [])
        if not isinstance(index, int) or not 0 <= index < len(ranks):
            raise Reject("layoff.no-such-meld", f"the team has no meld {index}")
        return f"{team}-meld-{ranks[index]}"

    def lay(self, gs: dict, player: str, target: str, given: list[str]):
        hand = gs["piles"][f"{player}-hand"]["cardIds"]
        ids = []
        for c in given:
            match = next((i for i in hand if tr.name(gs, i) == c and i not in ids), None)
            if match is None:
                raise Reject("card.not-in-hand", f"{c} is not in the hand")
            ids.append(match)
        base = {"playerId": player, "type": "move", "fromPileId": f"{player}-hand", "toPileId": target}
        if target.endswith("-black3-out"):      # the engine takes black threes one at a time
            table = None
            for i in ids:
                gs, table = self.intent(gs, {**base, "cardId": i})
            return gs, table
        return self.intent(gs, {**base, "cardIds": ids} if len(ids) > 1 else {**base, "cardId": ids[0]})

    def take_pile(self, gs: dict, player: str, arg: dict, current: dict, meld_order: dict):
        """The engine's take: the top card dragged to a meld pile; the engine
        itself picks the hand cards that go with it (canasta.ts: the first two
        naturals of the hand, or a natural and a wild). The named cards are
        put first in the hand so that its pick is ours where the rules allow;
        a pick that still differs cannot express our action (skipped); named
        cards beyond the pick are laid on the same pile."""
        team = tr.TEAM_OF_PLAYER[player]
        discard = gs["piles"]["discard"]["cardIds"]
        named = cards(arg.get("with", []))
        hand_pile = f"{player}-hand"
        if not discard:
            raise Reject("pile.empty", "there is no discard pile to take")
        top = tr.name(gs, discard[-1])
        if arg.get("onto") is not None:
            target = self.layoff_pile(team, meld_order, arg["onto"])
        else:
            target = f"{team}-meld-{tr.engine_rank(top)}"
        gs = json.loads(json.dumps(gs))
        tr.put_first(gs, hand_pile, named)
        before = Counter(tr.pile(gs, target))
        new, table = self.intent(gs, {"playerId": player, "type": "move", "fromPileId": "discard",
                                      "toPileId": target, "cardId": discard[-1]})
        picked = Counter(tr.pile(new, target)) - before - Counter([top])
        rest = Counter(named) - picked
        if picked - Counter(named):
            chosen = " ".join(sorted(picked.elements()))
            raise Skip(f"the engine takes the pile with cards of its own choosing ({chosen}), "
                       f"not the ones named ({' '.join(named) or 'none'})")
        if rest:
            new, table = self.lay(new, player, target, sorted(rest.elements(), key=named.index))
        return new, table, "pile.taken"

    def score(self, new: dict, state: dict, order, team_of) -> dict:
        """The engine's own hand score (rulesState.lastHandScore) and game score."""
        rs = new["rulesState"]
        who = tr.players_of(order)
        out = {}
        for team in ("A", "B"):
            ours = team_of[next(s for s in order if tr.TEAM_OF_PLAYER[who[s]] == team)]
            before = state.get("teams", {}).get(ours, {}).get("score", 0)
            out[ours] = {"total": rs["lastHandScore"][team], "score_before": before,
                         "score_after": rs["gameScore"][team]}
        return out

    # ------------------------------------------------------------ queries
    def query(self, ruleset, q):
        (kind, arg), = q.items()
        if kind == "setup":
            out = self.setup()
            return Partial(out, [p for p in UNSUPPORTED_SETUP if p.split(".")[1] not in out])
        if kind == "score":
            return Partial(self.score_query(ruleset, arg), UNSUPPORTED_SCORE)
        raise Skip(f"query {kind!r}: the engine exposes no function for it (its helpers are private to canasta.ts)")

    def setup(self) -> dict:
        """The table the engine builds: its card registry, its players, the
        hands its own start-game deals and one draw. Direction, dealer, wild
        cards and the target are inside its code, not computed apart: not answered."""
        registry = [tr.from_entry(c) for c in self.template["cards"].values()]
        started, _ = self.intent(self.template, {"playerId": tr.PLAYERS[0], "type": "action", "action": "start-game"})
        sizes = {len(started["piles"][f"{p}-hand"]["cardIds"]) for p in tr.PLAYERS}
        out = {"deck_size": len(registry), "decks": registry.count("Ac"), "jokers": registry.count("JK"),
               "players": len(self.template["players"])}
        if len(sizes) == 1:
            out["cards_dealt"] = sizes.pop()
        player = started["currentPlayer"]
        hand = len(started["piles"][f"{player}-hand"]["cardIds"])
        deck = started["piles"]["deck"]["cardIds"]
        drawn, _ = self.intent(started, {"playerId": player, "type": "move", "fromPileId": "deck",
                                         "toPileId": f"{player}-hand", "cardId": deck[-1]})
        out["draw"] = len(drawn["piles"][f"{player}-hand"]["cardIds"]) - hand
        return out

    def score_query(self, ruleset: str, arg: dict) -> dict:
        """The engine scores a hand only when it ends one: replay the end on the
        table (going out: the player's empty hand and the engine's go-out, the
        team's melds before the turn set from `concealed`; stock exhausted:
        its end-hand-empty-stock)."""
        ended = arg.get("ended") or {}
        order, team_of = seating(arg, ruleset)
        who = tr.players_of(order)
        went = ended.get("player") if ended.get("reason") == "went-out" else None
        body = {**arg, "ended": None}
        if went:
            body["turn"] = {**arg.get("turn", {}), "player": went, "phase": "play"}
            if arg["hands"].get(went):
                raise Skip("the player who went out still holds cards")
        else:
            body["turn"] = {**arg.get("turn", {}), "phase": "draw"}
            body["stock"] = []
        gs = tr.to_engine(body, order, team_of, self.template)
        if went:
            team = tr.TEAM_OF_PLAYER[who[went]]
            gs["rulesState"]["turnStartTeamHadMeld"][team] = not ended.get("concealed")
            action = "go-out"
        else:
            action = "end-hand-empty-stock"
        player = gs["currentPlayer"]
        try:
            new, _ = self.intent(gs, {"playerId": player, "type": "action", "action": action})
        except Reject as exc:
            raise Skip(f"the engine will not end this hand ({exc.message})")
        return self.score(new, arg, order, team_of)

    # ------------------------------------------------------------ random play
    def random_hand(self, seed: int) -> dict:
        """A hand dealt by the engine's own start-game (seed given to its
        config loader), played with its own listLegalIntentsForPlayer and random
        choices; checks that the 108 cards stay whole."""
        rng = random.Random(seed)
        gs = self.bridge.call("template", seed=f"canastra-spec-{seed}")["state"]
        gs, _ = self.intent(gs, {"playerId": tr.PLAYERS[0], "type": "action", "action": "start-game"})
        total = sum(len(p["cardIds"]) for p in gs["piles"].values())
        findings, steps = [], 0
        while gs["rulesState"].get("phase") == "playing" and steps < 3000:
            player = gs["currentPlayer"]
            intents = self.bridge.call("legal", state=gs, player=player)["intents"]
            if not intents:
                findings.append({"kind": "no legal action before the end of the hand", "step": steps,
                                 "player": player, "phase": gs["rulesState"].get("turnPhase"),
                                 "hand": tr.pile(gs, f"{player}-hand"),
                                 "pile_top": tr.pile(gs, "discard")[-1:] or None})
                break
            move = rng.choice(intents)
            try:
                gs, _ = self.intent(gs, move)
            except Reject as exc:
                findings.append({"kind": "a listed legal action is refused", "step": steps, "move": move,
                                 "message": exc.message})
                break
            steps += 1
            if sum(len(p["cardIds"]) for p in gs["piles"].values()) != total:
                findings.append({"kind": "cards lost or gained", "step": steps, "move": move})
                break
        return hand_played(steps, gs["rulesState"].get("phase") != "playing", findings, 3000)



def make(argv):
    root = checkout_path(argv, ENV_VAR, MODULE)
    return AnycardAdapter(root, option(argv, "--node", os.environ.get("CANASTRA_NODE", "node")))


if __name__ == "__main__":
    main(make)
