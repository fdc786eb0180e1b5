"""Conformance adapter for Gabrielcidral1/canastra (Brazilian Canastra with a
morto, Python, Streamlit interface; the engine is canastra.core.engine).

    python tools/adapters/gabriel_canastra/adapter.py --checkout PATH

PATH is your own checkout (or set CANASTRA_GABRIEL_CHECKOUT); the engine is
imported from PATH/src. See README.md beside this file.
"""
from __future__ import annotations

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
    Partial,
    Reject,
    Skip,
    card,
    cards,
    check_conservation,
    checkout_path,
    facts,
    hand_played,
    in_play,
    lacks,
    main,
    seating,
    sort_key,
    teams_of,
)
from gabriel_canastra import translate as tr  # noqa: E402

ENV_VAR = "CANASTRA_GABRIEL_CHECKOUT"
# The readings the engine's rules (src/canastra/core/rules.md) and code settle;
# README.md cites the line for each.
READINGS = {
    "cbc": {"aces-suit": "any-suit", "wilds-per-meld": "one"},
    "treze": {"wilds-per-meld": "one"},
    "uruguaya": {"deck-size": "cards-108"},
}

UNSUPPORTED_VERBS = {
    "deal": "the engine deals from an unseeded shuffle",
    "replace_red_three": "the engine has no red threes", "lay_down_red_three": "the engine has no red threes",
    **lacks("exact_cut", "misdeal", "redraw", "ask_partner", "answer", "challenge", "end_turn"),
}


class GabrielAdapter(Adapter):
    READINGS = READINGS
    UNSUPPORTED_VERBS = UNSUPPORTED_VERBS

    def __init__(self, root):
        sys.path.insert(0, str(root / "src"))
        from canastra.core import card as gcard
        from canastra.core import constants, engine, game
        self.engine_mod, self.card_mod, self.constants, self.game_mod = engine, gcard, constants, game
        self.IMPLEMENTATION = {"name": "gabrielcidral1-canastra", "version": "0.1.0", "language": "python",
                               "homepage": "https://github.com/Gabrielcidral1/canastra",
                               "documentation": "no morto in the states sent: every player counts as "
                                                "having taken it"}

    def features(self):
        return {"setup", "card-points", "sequences", "same-rank-sets", "wilds", "canastras", "pile-take",
                "going-out", "scoring", "stock-exhaustion", "two-players"}

    def mk(self, c):
        C = self.card_mod
        rank, suit = tr.to_pair(c)
        if rank == "Joker":
            return C.Card(C.Rank.JOKER)
        return C.Card(C.Rank(rank), C.Suit(suit))

    def nm(self, gc):
        return tr.from_pair(gc.rank.value, gc.suit.value)

    # ------------------------------------------------------------ state
    def load(self, state, ruleset):
        order, team_of = seating(state, ruleset)
        n = len(order)
        if n not in (2, 4):
            raise Skip("the engine plays with two or four players")
        turn = state.get("turn", {})
        phase = turn.get("phase", "draw")
        if phase not in ("draw", "play"):
            raise Skip(f"a state in phase {phase!r} has no counterpart")
        if state.get("ended") or state.get("pending") or turn.get("asked"):
            raise Skip("a finished hand, a pending challenge or a question to the partner has no counterpart")
        for team in state.get("teams", {}).values():
            if team.get("red_threes"):
                raise Skip("the engine has no red threes")
        eng = self.engine_mod.Engine(num_players=n)
        TP = self.constants.TurnPhase
        for seat in order:
            p = eng.players[tr.engine_index(order, seat)]
            p.hand = [self.mk(c) for c in cards(state["hands"].get(seat, []))]
            p.games = []
            p.has_dead_hand = True          # no morto in our states: counted as taken (README)
        for team in teams_of(n):
            h = eng.players[tr.engine_index(order, tr.holder(order, team_of, team))]
            for m in state.get("teams", {}).get(team, {}).get("melds", []):
                laid = cards(m["cards"] if isinstance(m, dict) else m)
                try:
                    kind, suit = tr.meld_shape(laid)
                except Reject as exc:
                    raise Skip(f"a meld on the table has no form in this engine: {exc.message}")
                G, GT, S = self.game_mod.Game, self.constants.GameType, self.card_mod.Suit
                h.games.append(G(GT.SEQUENCE if kind == "sequence" else GT.TRIPLE, [self.mk(c) for c in laid],
                                 S(suit.upper()) if suit else None, _skip_validate=True))
        eng.stock = [self.mk(c) for c in reversed(cards(state.get("stock", [])))]
        eng.discard_pile = [self.mk(c) for c in cards(state.get("pile", []))]
        eng.dead_hands = {t: [] for t in eng.dead_hands}
        eng.current_player_index = tr.engine_index(order, turn["player"])
        eng.turn_phase = TP.DRAW if phase == "draw" else TP.LAY_DOWN
        eng.game_over = False
        return eng, order, team_of

    def dump(self, eng, before, order, team_of, ruleset):
        out = dict(before)
        out.setdefault("ended", None)
        out["hands"] = {s: sorted((self.nm(c) for c in eng.players[tr.engine_index(order, s)].hand), key=sort_key)
                        for s in order}
        out["stock"] = [self.nm(c) for c in reversed(eng.stock)]
        out["pile"] = [self.nm(c) for c in eng.discard_pile]
        teams = {}
        GT = self.constants.GameType
        for team, seats in teams_of(len(order)).items():
            prev = dict(before.get("teams", {}).get(team, {}))
            melds = []
            for s in [tr.holder(order, team_of, team)] + [x for x in seats if x != tr.holder(order, team_of, team)]:
                for g in eng.players[tr.engine_index(order, s)].games:
                    kind = "sequence" if g.game_type == GT.SEQUENCE else "triple"
                    melds.append(tr.meld_json(ruleset, kind, [self.nm(c) for c in g.cards],
                                              g.suit.value.lower() if g.suit else None))
            prev["melds"] = melds
            prev["opened"] = bool(melds)
            teams[team] = prev
        out["teams"] = teams
        TP = self.constants.TurnPhase
        seat = next(s for s in order if tr.engine_index(order, s) == eng.current_player_index)
        turn = dict(before.get("turn", {}))
        if seat != turn.get("player"):
            turn = {"player": seat, "phase": "draw", "first": False, "took_pile": False, "pile_cards": [],
                    "drawn": [], "melds_laid": [], "touched": [], "redrawn": False, "asked": None,
                    "opening_undo": None, "had_melded": False, "final": False}
        turn["phase"] = "draw" if eng.turn_phase == TP.DRAW else "play"
        if eng.game_over:
            turn["phase"] = "over"
        out["turn"] = turn
        return out

    def check_conservation(self, eng, state):
        have = Counter(self.nm(c) for p in eng.players for c in p.hand)
        for p in eng.players:
            for g in p.games:
                have.update(self.nm(c) for c in g.cards)
        have.update(self.nm(c) for c in eng.stock + eng.discard_pile)
        for pile in eng.dead_hands.values():
            have.update(self.nm(c) for c in pile)
        check_conservation(in_play(state), have)

    # ------------------------------------------------------------ run
    def run(self, message):
        ruleset = message["ruleset"]
        state = message["state"]
        eng, order, team_of = self.load(state, ruleset)
        results, current = [], state
        for action in message["actions"]:
            saved = eng.copy()
            try:
                reason = self.apply(eng, order, team_of, action)
                verdict = "accepted"
            except Reject as exc:
                self.check_conservation(eng, current)     # a rejected action must leave the cards whole
                eng = saved
                verdict, reason = "rejected", exc.reason
            self.check_conservation(eng, current)
            seat_before = current["turn"]["player"]
            drawn_before = Counter(c for p in saved.players for c in map(self.nm, p.hand))
            current = self.dump(eng, current, order, team_of, ruleset)
            verb = next(k for k in action if k != "player")
            if verdict == "accepted" and verb == "draw" and current["turn"]["player"] == seat_before:
                gained = Counter(c for p in eng.players for c in map(self.nm, p.hand)) - drawn_before
                current["turn"]["drawn"] = sorted(gained.elements(), key=sort_key)
            result = {"verdict": verdict, "reason": reason, "state": current}
            if eng.game_over:
                went = next((s for s in order if not eng.players[tr.engine_index(order, s)].hand), None)
                current["ended"] = {"reason": "went-out" if went and reason.startswith("going-out")
                                    else "stock-exhausted", "player": went if reason.startswith("going-out")
                                    else None, "concealed": False}
                result["score"] = self.score(eng, current, order)
            results.append(result)
        return {"results": results}

    def score(self, eng, state, order):
        """Each team's points as the engine's _calculate_final_points gives them,
        with our term names from the engine's own primitives (Game.point_value,
        Card.point_value, GameRules) when they add up to that total."""
        R = self.constants.GameRules
        out = {}
        for team, seats in teams_of(len(order)).items():
            players = [eng.players[tr.engine_index(order, s)] for s in seats]
            total = players[0].points
            before = state.get("teams", {}).get(team, {}).get("score", 0)
            record = {"total": total, "score_before": before, "score_after": before + total}
            games = [g for p in players for g in p.games]
            table = sum(c.point_value for g in games for c in g.cards)
            terms = {"table": table, "canastras": sum(g.point_value for g in games) - table,
                     "going_out": R.FINAL_KNOCK_BONUS if any(not p.hand for p in players) else 0,
                     "hand": -sum(p.get_hand_value() for p in players)}
            if not any(p.has_dead_hand for p in players):
                terms["morto"] = -R.DEAD_HAND_PENALTY
            if sum(terms.values()) == total:
                record["terms"] = {k: {"value": v} for k, v in terms.items()}
            out[team] = record
        return out

    def apply(self, eng, order, team_of, action):
        player = action.get("player")
        verb = next(k for k in action if k != "player")
        arg = action[verb]
        me = next(s for s in order if tr.engine_index(order, s) == eng.current_player_index)
        if eng.game_over:
            raise Reject("turn.hand-over", "the hand is over")
        if player != me:
            raise Reject("turn.not-your-turn", f"it is {me}'s turn")
        TP = self.constants.TurnPhase
        def check(err):
            if err:
                raise Reject(tr.reason_for(err), err)
        if verb == "draw":
            if eng.turn_phase != TP.DRAW:
                raise Reject("turn.already-drew")
            check(eng.draw_from_stock())
            return "hand.ended.stock-exhausted" if eng.game_over else "draw.stock"
        if verb == "take_pile":
            top = self.nm(eng.discard_pile[-1]) if eng.discard_pile else None
            check(eng.draw_from_discard())
            withc = cards(arg.get("with", []))
            if arg.get("onto") is not None:
                self.layoff(eng, order, team_of, [(arg["onto"], withc + [top])])
            elif withc:
                self.new_meld(eng, withc + [top])
            return "pile.taken"
        if verb == "meld":
            if eng.turn_phase != TP.LAY_DOWN:
                raise Reject("turn.draw-first")
            for m in arg:
                self.new_meld(eng, cards(m))
                if eng.game_over:
                    return "going-out.direct"
            return "meld.laid"
        if verb == "layoff":
            if eng.turn_phase != TP.LAY_DOWN:
                raise Reject("turn.draw-first")
            items = arg if isinstance(arg, list) else [arg]
            self.layoff(eng, order, team_of, [(i["meld"], cards(i["cards"])) for i in items])
            return "going-out.direct" if eng.game_over else "meld.laid-off"
        if verb == "discard":
            if eng.turn_phase == TP.DRAW:
                raise Reject("turn.draw-first")
            eng.end_lay_down_phase()
            if eng.game_over:
                return "going-out.direct"
            check(eng.discard(self.mk(card(arg))))
            if not eng.game_over:
                return "discard.made"
            # the engine ends the game when the discard empties the hand (a going out), or
            # when the next player finds the stock empty (_next_turn)
            emptied = not eng.players[tr.engine_index(order, me)].hand
            return "going-out.with-discard" if emptied else "hand.ended.stock-exhausted"
        raise Skip(f"{verb}: not mapped")

    def cards_drawn(self) -> int:
        """How many cards the engine's draw from the stock takes (a dealt game, one draw)."""
        eng = self.engine_mod.Engine(num_players=4)
        eng.start_new_game()
        player = eng.get_current_player()
        before = len(player.hand)
        if eng.draw_from_stock():
            raise Errored("the engine refused the first draw of a new game")
        return len(player.hand) - before

    def new_meld(self, eng, given):
        kind, suit = tr.meld_shape(given)
        gcs = [self.mk(c) for c in given]
        if kind == "sequence":
            err = eng.lay_down_sequence(self.card_mod.Suit(suit.upper()), gcs)
        else:
            err = eng.lay_down_triple(gcs)
        if err:
            raise Reject(tr.reason_for(err), err)

    def layoff(self, eng, order, team_of, items):
        me = next(s for s in order if tr.engine_index(order, s) == eng.current_player_index)
        team = team_of[me]
        holders = [tr.holder(order, team_of, team)] + [s for s in order if team_of[s] == team
                                                       and s != tr.holder(order, team_of, team)]
        games = [(s, i) for s in holders for i in range(len(eng.players[tr.engine_index(order, s)].games))]
        for index, cs in items:
            if not 0 <= index < len(games):
                raise Reject("layoff.no-such-meld")
            seat, gi = games[index]
            target = eng.players[tr.engine_index(order, seat)]
            for c in cs:
                err = eng.add_to_game(gi, self.mk(c), target_player=target)
                if err:
                    raise Reject(tr.reason_for(err), err)

    # ------------------------------------------------------------ queries
    def query(self, ruleset, q):
        (kind, arg), = q.items()
        R, C = self.constants.GameRules, self.card_mod
        if kind == "setup":
            players = facts(ruleset)["players"] if facts(ruleset)["players"] in (2, 4) else R.NUM_PLAYERS
            deck = C.create_canastra_deck()
            jokers = sum(1 for c in deck if c.rank == C.Rank.JOKER)
            teams = teams_of(players)
            wild = [r for r in RANKS if self.game_mod.is_wildcard(self.mk(r + "c"))]
            wild += [JOKER] if self.game_mod.is_wildcard(self.mk(JOKER)) else []
            return Partial({"deck_size": len(deck), "decks": (len(deck) - jokers) // 52, "jokers": jokers,
                            "players": players, "team_size": 2 if players == 4 else 1,
                            "teams": {t: list(s) for t, s in teams.items()}, "cards_dealt": R.INITIAL_HAND_SIZE,
                            "draw": self.cards_drawn(), "wild_cards": wild},
                           # its own order of play, no dealer, and a game of one hand
                           ["result.direction", "result.first_dealer", "result.next_dealer", "result.target"])
        if kind == "points":
            return self.mk(card(arg)).point_value
        if kind == "meld":
            given = cards(arg)
            try:
                shape, suit = tr.meld_shape(given)
                GT = self.constants.GameType
                g = self.game_mod.Game(GT.SEQUENCE if shape == "sequence" else GT.TRIPLE,
                                       [self.mk(c) for c in given],
                                       self.card_mod.Suit(suit.upper()) if suit else None)
            except Reject as exc:
                return {"meld": None, "reason": exc.reason, "canastra": None, "value": None}
            except ValueError as exc:
                return {"meld": None, "reason": tr.reason_for(str(exc)), "canastra": None, "value": None}
            laid = tr.meld_json(ruleset, shape, given, suit)
            canastra = "limpa" if g.is_clean_canastra else ("suja" if g.is_dirty_canastra else None)
            bonus = (R.CLEAN_CANASTRA_POINTS if canastra == "limpa" else R.DIRTY_CANASTRA_POINTS) if canastra else None
            return {"meld": laid["kind"], "reason": None, "cards": laid["cards"], "canastra": canastra,
                    "value": bonus}
        raise Skip(f"query {kind!r}: the engine has no counterpart (no opening minimum; it scores only "
                   "hands it ends itself)")


def _random_hand(self, seed):
    """One game dealt by the engine (random module seeded), played with the
    bot's own legal-action list (game_helpers._get_legal_actions) and random choices."""
    import random

    from canastra.core import game_helpers as gh
    random.seed(seed)
    rng = random.Random(seed)
    eng = self.engine_mod.Engine(num_players=4)
    eng.start_new_game()

    def count(e):
        n = sum(len(p.hand) for p in e.players) + len(e.stock) + len(e.discard_pile)
        n += sum(len(g.cards) for p in e.players for g in p.games)
        return n + sum(len(d) for d in e.dead_hands.values())
    total = count(eng)
    findings, steps, refused = [], 0, 0
    while not eng.game_over and steps < 1500:
        legal = gh._get_legal_actions(eng)
        if not legal:
            findings.append({"kind": "no legal action before the end of the hand", "step": steps,
                             "phase": eng.turn_phase.value})
            break
        a = rng.choice(legal)
        try:
            ok = gh._apply_action(eng, a)
        except Exception as exc:
            findings.append({"kind": "engine crash", "step": steps, "action": repr(a)[:200],
                             "message": f"{type(exc).__name__}: {exc}"})
            break
        if not ok:
            if not any(f["kind"] == "a listed legal action is refused" for f in findings):
                findings.append({"kind": "a listed legal action is refused", "step": steps,
                                 "action": repr(a)[:200]})
            refused += 1
            if count(eng) != total:
                findings.append({"kind": "cards lost or gained", "step": steps, "action": repr(a)[:200],
                                 "cards": count(eng)})
                break
            if refused > 50:
                findings.append({"kind": "only refused actions are listed", "step": steps})
                break
            continue                      # the refusal changed nothing: play on with another choice
        refused = 0
        steps += 1
        if count(eng) != total:
            findings.append({"kind": "cards lost or gained", "step": steps, "action": repr(a)[:200],
                             "cards": count(eng)})
            break
    return hand_played(steps, eng.game_over, findings, 1500)


GabrielAdapter.random_hand = _random_hand


def make(argv):
    return GabrielAdapter(checkout_path(argv, ENV_VAR, "src/canastra/core/engine.py"))


if __name__ == "__main__":
    main(make)
