"""Conformance adapter for jhtschultz/canasta-openspiel (classic four-player
Canasta as an OpenSpiel Python game).

    PYTHON tools/adapters/canasta_openspiel/adapter.py --checkout PATH

PYTHON is an interpreter that has the open_spiel wheel (pip install
open_spiel); PATH is your own checkout (or set CANASTRA_OPENSPIEL_CHECKOUT).
The game is imported from PATH; nothing of it lives in canastra-spec.
See README.md beside this file.
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
    Partial,
    Reject,
    Skip,
    as_pile_reason,
    card,
    cards,
    check_conservation,
    checkout_path,
    in_play,
    lacks,
    main,
    rank_of,
    seating,
    sort_key,
    teams_of,
)
from canasta_openspiel import translate as tr  # noqa: E402

ENV_VAR = "CANASTRA_OPENSPIEL_CHECKOUT"
# The readings the game's README ("Full Pagat Classic rules") and code settle;
# README.md beside this file cites the line for each.
READINGS = {
    "classica": {"minimum-table": "standard", "card-values": "standard", "scoring-summary": "standard",
                 "red-three-freezes": "wilds-only", "going-out-discard": "either"},
    "uruguaya": {"deck-size": "cards-108", "minimum-table": "standard", "opening-melds": "several",
                 "pile-start": "upcard", "threes-value": "five"},
    "cbc": {"three-points": "five"},
    "ituiutaba": {"going-out-canastra": "any"},
    "treze": {"going-out-canastra": "one"},
}

UNSUPPORTED_VERBS = {
    "deal": "the engine deals through chance nodes of its own; our seeded deal has no counterpart",
    "replace_red_three": "red threes are replaced automatically",
    "lay_down_red_three": "red threes are laid down automatically",
    **lacks("exact_cut", "misdeal", "redraw", "challenge", "end_turn"),
}


class OpenSpielAdapter(Adapter):
    PLAYERS = (4,)
    READINGS = READINGS
    UNSUPPORTED_VERBS = UNSUPPORTED_VERBS

    def __init__(self, root):
        sys.path.insert(0, str(root))
        try:
            import pyspiel  # noqa: F401  (the game module needs it)
        except ImportError:
            raise SystemExit("this adapter needs the open_spiel wheel in the interpreter that runs it "
                             "(pip install open_spiel)")
        from canasta import canasta_game, melds, scoring
        from canasta import cards as ocards
        self.game_mod, self.melds, self.cards, self.scoring = canasta_game, melds, ocards, scoring
        self.game = canasta_game.CanastaGame()
        self.IMPLEMENTATION = {"name": "canasta-openspiel", "version": "0.1.0", "language": "python",
                               "homepage": "https://github.com/jhtschultz/canasta-openspiel"}

    def features(self):
        return {"setup", "card-points", "same-rank-sets", "wilds", "canastras", "opening-minimum",
                "pile-take", "pile-onto-meld", "blocked-pile", "frozen-pile", "red-threes", "black-threes",
                "going-out", "concealed-going-out", "ask-partner", "scoring", "stock-exhaustion", "game-end"}

    # ------------------------------------------------------------ run
    def run(self, message):
        ruleset = message["ruleset"]
        state = message["state"]
        order, team_of = seating(state, ruleset)
        if state.get("ended"):
            raise Skip("a finished hand has no playable counterpart")
        data = tr.to_engine(state, order, team_of)
        st = self.game.new_initial_state()
        st.deserialize(json.dumps(data))
        results = []
        current = state
        self.turn_player = st._current_player
        self.opened_at_start = list(st._initial_meld_made)
        for action in message["actions"]:
            if st._current_player != self.turn_player and not st._go_out_query_pending:
                self.turn_player = st._current_player
                self.opened_at_start = list(st._initial_meld_made)
            snapshot = st.serialize()
            self.drawn = None
            try:
                reason, ended = self.apply(st, order, action)
                verdict = "accepted"
            except Reject as exc:
                st = self.game.new_initial_state()
                st.deserialize(snapshot)
                verdict, reason, ended = "rejected", exc.reason, None
            if ended is None:
                self.check_conservation(json.loads(st.serialize()), current)
                current = tr.from_engine(json.loads(st.serialize()), current, order, team_of, ruleset)
                if self.drawn is not None and verdict == "accepted":
                    current["turn"]["drawn"] = list(current["turn"].get("drawn", [])) + self.drawn
                results.append({"verdict": verdict, "reason": reason, "state": current})
            else:
                final, scores = ended
                current = tr.from_engine(final, current, order, team_of, ruleset)
                current["turn"]["phase"] = "over"
                current["ended"] = {"reason": "went-out" if scores["went"] is not None else "stock-exhausted",
                                    "player": scores["went"], "concealed": False}
                results.append({"verdict": verdict, "reason": reason, "state": current,
                                "score": scores["teams"]})
                break_after = True
                if break_after and len(results) < len(message["actions"]):
                    # the engine dealt the next hand: nothing more can be played in this one
                    for _ in message["actions"][len(results):]:
                        results.append({"verdict": "rejected", "reason": "turn.hand-over", "state": current})
                    break
        return {"results": results}

    def check_conservation(self, data, state):
        have = Counter(tr.name(c) for c in data["hands"][0] + data["hands"][1] + data["hands"][2] +
                       data["hands"][3] + data["stock"] + data["discard_pile"] + data["red_threes"][0] +
                       data["red_threes"][1])
        for team in data["melds"]:
            for m in team:
                have.update(tr.name(c) for c in m["natural_cards"] + m["wild_cards"])
        check_conservation(in_play(state), have)

    # ------------------------------------------------------------ actions
    def apply(self, st, order, action):
        """Apply one of our actions; (reason, None) or (reason, (final data, scores)) when the hand ended."""
        player = action.get("player")
        verb = next(k for k in action if k != "player")
        arg = action[verb]
        me = order[st._current_player]
        if st._go_out_query_pending:
            me = order[st._current_player]          # the partner answers
        if player != me:
            raise Reject("turn.not-your-turn", f"it is {me}'s turn")
        team = st._current_player % 2
        if verb == "draw":
            if st._turn_phase != "draw":
                raise Reject("turn.already-drew")
            if not st._stock:
                # the engine ends the hand inside legal_actions() when no draw is possible
                return self.empty_hand(st, order, "hand.ended.stock-exhausted", stock_out=True)
            hand_before = Counter(st._hands[st._current_player])
            self.do(st, tr.DRAW_STOCK, "turn.already-drew")
            gained = Counter(st._hands[st._current_player]) - hand_before
            self.drawn = sorted((tr.name(c) for c in gained.elements()), key=sort_key)
            return "draw.stock", None
        if verb == "take_pile":
            if st._turn_phase != "draw":
                raise Reject("turn.already-drew")
            with_cards = cards(arg.get("with", []))
            self.need_in_hand(st, with_cards)
            top = tr.name(st._discard_pile[-1]) if st._discard_pile else None
            top_id = st._discard_pile[-1] if st._discard_pile else None
            self.do(st, tr.TAKE_PILE, self.pile_reason(st, arg))
            if top is not None:
                # the engine puts the whole pile in the hand; the action's meld with the top card follows
                same_rank = next((i for i, m in enumerate(st._melds[team])
                                  if not tr.is_wild(top) and m.rank == tr.RANK_IDS[rank_of(top)]), None)
                try:
                    self.meld_with_top(st, team, arg, top, top_id, with_cards, same_rank)
                except Reject as exc:
                    raise Reject(as_pile_reason(exc.reason), exc.message)
            return "pile.taken", None
        if verb in ("meld", "layoff"):
            if st._turn_phase == "draw":
                raise Reject("turn.draw-first")
            if st._turn_phase == "discard":
                raise Reject("action.malformed", "the engine's discard phase admits no more melds")
            opened = self.opened_at_start[team]
            if verb == "meld":
                melds = [cards(m) for m in arg]
                self.need_in_hand(st, [c for m in melds for c in m])
                for m in melds:
                    self.new_meld(st, team, m)
            else:
                items = arg if isinstance(arg, list) else [arg]
                items = [(i["meld"], cards(i["cards"])) for i in items]
                self.need_in_hand(st, [c for _, cs in items for c in cs])
                self.layoff(st, team, items)
            if not st._hands[st._current_player]:
                return self.empty_hand(st, order, "going-out.direct")
            if not opened:
                return "opening.pending", None
            return ("meld.laid" if verb == "meld" else "meld.laid-off"), None
        if verb == "discard":
            if st._turn_phase == "draw":
                raise Reject("turn.draw-first")
            c = card(arg)
            cid = self.find(st, c)
            if cid is None:
                raise Reject("card.not-in-hand")
            if st._turn_phase == "meld":
                self.do(st, tr.SKIP_MELD, "action.malformed")
            hand = st._hands[st._current_player]
            if len(hand) == 1 and tr.GO_OUT in st.legal_actions():
                return self.empty_hand(st, order, "going-out.with-discard", go_out=True)
            opened_before = self.opened_at_start[team]
            self.do(st, tr.DISCARD + cid, "card.not-in-hand")
            return ("opening.made" if not opened_before and st._initial_meld_made[team] else "discard.made"), None
        if verb == "ask_partner":
            self.do(st, tr.ASK, "going-out.ask-not-allowed")
            return "partner.asked", None
        if verb == "answer":
            self.do(st, tr.YES if arg == "yes" else tr.NO, "going-out.ask-not-allowed")
            return "partner.answered", None
        raise Skip(f"{verb}: not mapped")

    def meld_with_top(self, st, team, arg, top, top_id, with_cards, same_rank):
        """The meld made with the pile's top card (the game itself puts the whole
        pile in the hand and asks for nothing)."""
        if arg.get("onto") is not None:
            self.layoff(st, team, [(arg["onto"], [top] + with_cards)], first=[top_id])
        elif same_rank is not None:
            # our meld with the top card joins the team's meld of that rank (one meld per rank)
            self.layoff(st, team, [(same_rank, [top] + with_cards)], first=[top_id])
        else:
            self.new_meld(st, team, [top] + with_cards, first=[top_id])

    def empty_hand(self, st, order, reason, go_out=False, stock_out=False):
        """The engine ends a hand only inside GO_OUT or when legal_actions()
        finds the hand empty in the discard phase; it then scores the hand and
        deals the next one, so the final table is read just before."""
        team = st._current_player % 2
        before = json.loads(st.serialize())
        hand_number = st._hand_number
        if go_out:
            before["discard_pile"] = before["discard_pile"] + before["hands"][st._current_player]
            before["hands"][st._current_player] = []
            st.apply_action(tr.GO_OUT)
        else:
            if st._turn_phase == "meld":
                st.apply_action(tr.SKIP_MELD)
            legal = st.legal_actions()   # ends the hand (a side effect of the engine's legal_actions)
            if stock_out and legal:
                raise Reject("stock.exhausted", "the stock is empty (the pile can still be taken)")
        if st._hand_number == hand_number and not st._is_terminal:
            return ("meld.laid" if reason == "going-out.direct" else "discard.made"), None
        went = None if stock_out else order[before["current_player"]]
        scores = {"went": went, "teams": {}}
        team_names = list(teams_of(4))            # NS, EW: team 0 holds N (player 0)
        for t in (0, 1):
            prev = before["team_scores"][t]
            total = st._team_scores[t] - prev      # _hand_scores is reset when the next hand is dealt
            record = {"total": total, "score_before": prev, "score_after": prev + total}
            terms = self.terms(before, t, went is not None and t == team,
                               went is not None and t == team and not before["melds"][t])
            if sum(v["value"] for v in terms.values()) == total:
                record["terms"] = terms
            scores["teams"][team_names[t]] = record
        return reason, (before, scores)

    def terms(self, data, t, went_out, concealed):
        """The engine's scoring primitives (scoring.py) as our term names."""
        sc = self.scoring
        melds = [self.melds.Meld(rank=m["rank"], natural_cards=list(m["natural_cards"]),
                                 wild_cards=list(m["wild_cards"])) for m in data["melds"][t]]
        melded = [c for m in melds for c in m.natural_cards + m.wild_cards]
        hand = data["hands"][t] + data["hands"][t + 2]
        out = {"table": sc.calculate_card_points(melded), "canastras": sc.calculate_meld_bonuses(melds),
               "red_threes": sc.calculate_red_three_bonus(len(data["red_threes"][t]), bool(melds)),
               "going_out": sc.calculate_going_out_bonus(went_out, concealed),
               "hand": -sc.calculate_card_points(hand)}
        return {k: {"value": v} for k, v in out.items()}

    def do(self, st, action_id, reason):
        legal = st.legal_actions()
        if action_id not in legal:
            raise Reject(reason)
        st.apply_action(action_id)

    def find(self, st, c, exclude=()):
        for cid in st._hands[st._current_player]:
            if tr.name(cid) == c and cid not in exclude:
                return cid
        return None

    def need_in_hand(self, st, wanted):
        have = Counter(tr.name(c) for c in st._hands[st._current_player])
        for c, n in Counter(wanted).items():
            if have[c] < n:
                raise Reject("card.not-in-hand", f"{c} is not in the hand")

    def bring_forward(self, st, names, first=()):
        """Put the named cards first in the hand (hand order carries no
        meaning; the engine's actions take the first cards of a kind). `first`:
        physical cards that must stand for their names (the pile's top card)."""
        hand = st._hands[st._current_player]
        chosen = []
        reserved = list(first)
        for c in names:
            match = next((x for x in reserved if tr.name(x) == c), None)
            if match is not None:
                reserved.remove(match)
                chosen.append(match)
                continue
            cid = self.find(st, c, exclude=chosen + reserved)
            if cid is None:
                raise Reject("card.not-in-hand", f"{c} is not in the hand")
            chosen.append(cid)
        rest = [c for c in hand if c not in chosen]
        hand[:] = chosen + rest

    def new_meld(self, st, team, given, first=()):
        rank, naturals, wilds = tr.split_meld(given)
        if rank == "2":
            raise Reject("meld.no-kind", "twos are wild")
        self.bring_forward(st, naturals + wilds, first)
        action_id = tr.create_id(tr.RANK_IDS[rank], len(naturals), len(wilds))
        if action_id not in st.legal_actions():
            already = any(m.rank == tr.RANK_IDS[rank] for m in st._melds[team])
            raise Reject(tr.meld_reason(rank, len(naturals), len(wilds), already, st._initial_meld_made[team]))
        st.apply_action(action_id)

    def layoff(self, st, team, items, first=()):
        for index, cs in items:
            if not 0 <= index < len(st._melds[team]):
                raise Reject("layoff.no-such-meld")
            meld = st._melds[team][index]
            naturals = [c for c in cs if not tr.is_wild(c)]
            wilds = [c for c in cs if tr.is_wild(c)]
            if any(tr.RANK_IDS[rank_of(c)] != meld.rank for c in naturals):
                raise Reject("meld.mixed-ranks")
            self.bring_forward(st, naturals + wilds, first)
            first = ()
            action_id = tr.add_id(index, len(naturals), len(wilds))
            if action_id not in st.legal_actions():
                raise Reject("meld.too-many-wilds" if len(meld.wild_cards) + len(wilds) > 3 else "meld.no-kind")
            st.apply_action(action_id)

    def pile_reason(self, st, arg=None):
        """Our reason for a pile the game does not let the player take, from the
        game's own conditions (_can_take_pile) and the cards the action offered."""
        arg = arg or {}
        if not st._discard_pile:
            return "pile.empty"
        top = st._discard_pile[-1]
        if st._black_three_blocks_next or self.cards.is_black_three(top) or self.cards.is_wild(top):
            return "pile.blocked"
        if st._is_pile_frozen():
            return "pile.onto-meld-not-allowed" if arg.get("onto") is not None else "pile.too-few-naturals"
        return "pile.too-few-hand-cards"

    # ------------------------------------------------------------ queries
    def query(self, ruleset, q):
        (kind, arg), = q.items()
        from canasta import deck
        if kind == "setup":
            teams = teams_of(4)
            dealt = [self.cards.card_id_to_rank_suit(c) for c in deck.create_deck()]
            ids = tr.Ids()
            wild = [r for r in RANKS + (JOKER,) if self.cards.is_wild(ids.take(r if r == JOKER else r + "c"))]
            return Partial({"deck_size": len(dealt), "decks": dealt.count(("A", "clubs")),
                            "jokers": dealt.count(("JOKER", None)), "players": deck.NUM_PLAYERS, "team_size": 2,
                            "teams": {t: list(s) for t, s in teams.items()}, "cards_dealt": deck.HAND_SIZE,
                            "wild_cards": wild, "target": self.game.new_initial_state()._target_score},
                           # one card a draw is the code of _apply_draw_stock, not a setting; players are
                           # numbered 0-3 with no direction, and no one deals
                           ["result.draw", "result.direction", "result.first_dealer", "result.next_dealer"])
        if kind == "points":
            return self.cards.card_point_value(tr.Ids().take(card(arg)))
        if kind == "opening_minimum":
            return self.melds.initial_meld_minimum(arg.get("score", 0))
        if kind == "meld":
            try:
                rank, naturals, wilds = tr.split_meld(arg)
            except Reject as exc:
                return {"meld": None, "reason": exc.reason, "canastra": None, "value": None}
            ids = tr.Ids()
            meld = self.melds.Meld(rank=tr.RANK_IDS[rank], natural_cards=ids.many(naturals),
                                   wild_cards=ids.many(wilds))
            if not self.melds.is_valid_meld(meld):
                reason = "meld.no-kind" if rank == "2" else tr.meld_reason(rank, len(naturals), len(wilds), False, True)
                return {"meld": None, "reason": reason, "canastra": None, "value": None}
            canastra = None
            if self.melds.is_canasta(meld):
                canastra = "limpa" if self.melds.is_natural_canasta(meld) else "suja"
            from _common import kind_name
            return {"meld": kind_name(ruleset, "set", rank), "reason": None, "cards": naturals + wilds,
                    "canastra": canastra, "value": self.melds.canasta_bonus(meld) if canastra else None}
        if kind == "score":
            return self.score_query(ruleset, arg)
        raise Skip(f"query {kind!r} is not mapped")

    def score_query(self, ruleset, state):
        """calculate_hand_score, the engine's own scoring of a finished hand, per team."""
        order, team_of = seating(state, ruleset)
        if len(order) != 4:
            raise Skip("the engine plays with four players only")
        ended = state.get("ended") or {}
        went = ended.get("player") if ended.get("reason") == "went-out" else None
        out = {}
        for team, seats in teams_of(4).items():
            tstate = state.get("teams", {}).get(team, {})
            ids = tr.Ids()
            melds = [tr.meld_to_engine(ids, m) for m in tstate.get("melds", [])]
            objs = [self.melds.Meld(**m) for m in melds]
            melded = [c for m in melds for c in m["natural_cards"] + m["wild_cards"]]
            hand = [c for s in seats for c in ids.many(state.get("hands", {}).get(s, []))]
            total = self.scoring.calculate_hand_score(
                melded_cards=melded, melds=objs, red_three_count=len(tstate.get("red_threes", [])),
                hand_cards=hand, went_out=went in seats, concealed=bool(ended.get("concealed")) and went in seats)
            before = tstate.get("score", 0)
            record = {"total": total, "score_before": before, "score_after": before + total}
            sc = self.scoring
            terms = {"table": sc.calculate_card_points(melded), "canastras": sc.calculate_meld_bonuses(objs),
                     "red_threes": sc.calculate_red_three_bonus(len(tstate.get("red_threes", [])), bool(objs)),
                     "going_out": sc.calculate_going_out_bonus(went in seats,
                                                               bool(ended.get("concealed")) and went in seats),
                     "hand": -sc.calculate_card_points(hand)}
            if sum(terms.values()) == total:
                record["terms"] = {k: {"value": v} for k, v in terms.items()}
            out[team] = record
        return out


def _random_hand(self, seed):
    """One hand dealt by the engine's chance nodes, played with its own
    legal_actions() and random choices."""
    import random
    rng = random.Random(seed)
    st = self.game.new_initial_state()
    findings, steps = [], 0
    while st.is_chance_node():
        outcomes = st.chance_outcomes()
        st.apply_action(rng.choice(outcomes)[0])
    hand = st._hand_number

    def count(s):
        n = sum(len(h) for h in s._hands) + len(s._stock) + len(s._discard_pile)
        n += sum(len(r) for r in s._red_threes)
        n += sum(len(m.natural_cards) + len(m.wild_cards) for team in s._melds for m in team)
        return n
    seen_empty = set()
    last = None
    while steps < 5000:
        if st._is_terminal or st._hand_number != hand:
            return {"steps": steps, "ended": True, "findings": findings}
        if count(st) != 108:
            findings.append({"kind": "cards lost or gained", "step": steps, "cards": count(st),
                             "last_action": last})
            break
        player = st._current_player
        if st._turn_phase == "draw" and not st._hands[player] and player not in seen_empty:
            seen_empty.add(player)
            findings.append({"kind": "a player starts a turn with no cards (the last card was discarded "
                                     "without going out)", "step": steps, "player": player})
        before = st.serialize()
        legal = st.legal_actions()
        if st._hand_number != hand or st._is_terminal:
            # legal_actions() itself ended the hand (stock out, or an empty hand)
            data = json.loads(before)
            if data["turn_phase"] == "discard" and not data["hands"][data["current_player"]]:
                team = data["current_player"] % 2
                canastas = sum(1 for m in data["melds"][team]
                               if len(m["natural_cards"]) + len(m["wild_cards"]) >= 7)
                if canastas == 0:
                    findings.append({"kind": "a hand ended by going out without a canasta", "step": steps})
            return {"steps": steps, "ended": True, "findings": findings}
        if not legal:
            findings.append({"kind": "no legal action before the end of the hand", "step": steps,
                             "phase": st._turn_phase, "player": player})
            break
        last = rng.choice(legal)
        if last == tr.GO_OUT:
            team = player % 2
            hand_cards = list(st._hands[player])
            ranks_melded = {m.rank for m in st._melds[team]}
            strays = [tr.name(c) for c in hand_cards if not tr.is_wild(tr.name(c))
                      and self.cards.rank_of(c) not in ranks_melded]
            if len(strays) > 1:
                findings.append({"kind": "going out with cards that have no meld to join", "step": steps,
                                 "cards": strays})
        try:
            st.apply_action(last)
        except Exception as exc:
            findings.append({"kind": "engine crash", "step": steps, "action": last,
                             "message": f"{type(exc).__name__}: {exc}"})
            break
        steps += 1
    if steps >= 5000:
        findings.append({"kind": "hand did not end within 5000 actions", "step": steps})
    return {"steps": steps, "ended": False, "findings": findings}


OpenSpielAdapter.random_hand = _random_hand


def make(argv):
    root = checkout_path(argv, ENV_VAR, "canasta/canasta_game.py")
    return OpenSpielAdapter(root)


if __name__ == "__main__":
    main(make)
