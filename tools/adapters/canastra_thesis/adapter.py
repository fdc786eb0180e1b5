"""Conformance adapter for LuizFelipeBarbosa/canastra-thesis (the `buraco`
package: a rules-configurable Buraco/Canasta engine in Python).

    python tools/adapters/canastra_thesis/adapter.py --checkout PATH [--profile canasta|buraco]

PATH is your own checkout of the repository (or set CANASTRA_THESIS_CHECKOUT).
The engine is imported from PATH/src; nothing of it lives in canastra-spec.
See README.md beside this file for what is mapped and what is skipped.
"""
from __future__ import annotations

import copy
import dataclasses
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))      # tools/adapters: _common and this adapter's package

from _common import (  # noqa: E402
    Adapter,
    Partial,
    Reject,
    Skip,
    as_pile_reason,
    card,
    cards,
    check_conservation,
    checkout_path,
    deck_of,
    facts,
    hand_played,
    in_play,
    lacks,
    main,
    option,
    rank_of,
    seating,
    sort_key,
    teams_of,
)
from canastra_thesis import translate as tr  # noqa: E402

ENV_VAR = "CANASTRA_THESIS_CHECKOUT"
# The readings each profile follows where the engine's code or decisions say
# so (README.md cites the line for each); disputes it does not settle, or
# settles some third way, are left out.
READINGS = {
    "canasta": {
        "classica": {"minimum-table": "standard", "card-values": "standard", "scoring-summary": "standard",
                     "red-three-freezes": "yes", "opening-pile-cards": "all", "going-out-discard": "either"},
        "uruguaya": {"deck-size": "cards-108", "minimum-table": "standard", "opening-melds": "several",
                     "pile-start": "upcard", "threes-value": "five"},
        "cbc": {"three-points": "five"},
        "ituiutaba": {"going-out-canastra": "any"},
        "treze": {"going-out-canastra": "one"},
    },
    "buraco": {
        "cbc": {"three-points": "five", "wilds-per-meld": "one"},
        "ituiutaba": {"going-out-canastra": "any"},
        "treze": {"wilds-per-meld": "one", "going-out-canastra": "one"},
        "uruguaya": {"deck-size": "cards-104", "threes-value": "five"},
    },
}
READINGS["canasta"]["classica-2p"] = READINGS["canasta"]["classica"]

UNSUPPORTED_VERBS = {
    "deal": "the engine deals from its own seeded shuffle; our deal has no counterpart",
    "replace_red_three": "red threes are replaced automatically on the draw",
    "lay_down_red_three": "red threes are laid down automatically",
    "end_turn": "the engine ends an exhausted hand in the draw phase, not by ending a turn without discard",
    **lacks("exact_cut", "misdeal", "redraw", "ask_partner", "answer", "challenge"),
}


class ThesisAdapter(Adapter):
    UNSUPPORTED_VERBS = UNSUPPORTED_VERBS

    def __init__(self, root, profile: str):
        sys.path.insert(0, str(root / "src"))
        from buraco import cards as bcards
        from buraco import config, profiles
        from buraco.engine import actions, melds, scoring, serialize, turns  # noqa: F401
        from buraco.engine import state as st
        self.ser, self.turns, self.act = serialize, turns, actions
        self.st, self.scoring, self.melds = st, scoring, melds
        self.config, self.profiles, self.bcards = config, profiles, bcards
        self.profile = profile
        self.READINGS = READINGS[profile]
        version = "0.1.0"
        try:
            import tomllib
            version = tomllib.loads((root / "pyproject.toml").read_text())["project"]["version"]
        except Exception:
            pass
        self.IMPLEMENTATION = {"name": f"canastra-thesis/{profile}", "version": version, "language": "python",
                               "homepage": "https://github.com/LuizFelipeBarbosa/canastra-thesis",
                               "documentation": f"the engine's '{profile}' profile for the state's number of "
                                                "players, without its morto (our states carry none)"}

    # ------------------------------------------------------------ declared
    def features(self):
        common = {"setup", "card-points", "wilds", "canastras", "pile-take", "going-out", "scoring",
                  "stock-exhaustion", "two-players", "game-end"}
        if self.profile == "canasta":
            return common | {"same-rank-sets", "opening-minimum", "red-threes", "black-threes", "blocked-pile",
                             "frozen-pile", "pile-onto-meld", "black-three-sets", "concealed-going-out"}
        return common | {"sequences", "same-rank-sets", "wild-positions"}

    # ------------------------------------------------------------ config
    def cfg_for(self, players: int, state: dict | None = None):
        """The profile's rules for that many players; Skip when the state's
        deck is not the profile's (the engine's decks are its profiles')."""
        try:
            cfg = self.profiles.load_profile(self.profile, num_players=players)
        except ValueError as exc:
            raise Skip(f"profile {self.profile}: {exc}")
        if state is not None:
            decks, jokers = deck_of(state)
            if (decks, jokers) != (cfg.deck.deck_count, cfg.deck.printed_jokers):
                raise Skip(f"the engine's {self.profile} profile plays {cfg.deck.deck_count} decks and "
                           f"{cfg.deck.printed_jokers} jokers; this table has {decks} decks and {jokers} jokers")
        # our states carry no morto: the adapter plays without one (documented)
        return dataclasses.replace(cfg, morto=dataclasses.replace(cfg.morto, count=0))

    def rules(self, cfg) -> tr.Rules:
        Rank = self.bcards.Rank
        return tr.Rules(two_wild=Rank.TWO in cfg.wildcard.wild_ranks, jokers_wild=cfg.wildcard.jokers_wild,
                        natural_two_in_suit=cfg.wildcard.natural_two_in_suit, sequences=cfg.meld.allow_sequences,
                        sets=cfg.meld.allow_sets, freeze=cfg.discard_pile.freeze_enabled,
                        black_three_blocks=cfg.special_threes.black_three_blocks_pile,
                        initial_meld=cfg.initial_meld.enabled, thresholds=cfg.initial_meld.thresholds,
                        card_points=cfg.scoring.card_points, players=cfg.table.num_players,
                        sides=cfg.table.num_sides)

    # ------------------------------------------------------------ run
    def run(self, message: dict) -> dict:
        ruleset = message["ruleset"]
        state = message["state"]
        actions = message["actions"]
        order, team_of = seating(state, ruleset)
        cfg = self.cfg_for(len(order), state)
        rules = self.rules(cfg)
        try:
            rnd = self.ser.round_from_dict(cfg, tr.to_round(rules, state, order, team_of))
        except Reject as exc:
            raise Skip(f"the state cannot be given to the engine: {exc.message}")
        self.check_conservation(rnd, state)
        opened_at_start = list(rnd.initial_meld_done)
        turn_player = rnd.current_player
        results = []
        current = state
        for action in actions:
            if rnd.current_player != turn_player:
                turn_player = rnd.current_player
                opened_at_start = list(rnd.initial_meld_done)
            before = copy.deepcopy(rnd)
            try:
                reason = self.apply(rules, rnd, order, action, opened_at_start)
                verdict = "accepted"
            except Reject as exc:
                rnd = before
                verdict, reason = "rejected", exc.reason
            except self.turns.IllegalAction as exc:
                rnd = before
                verdict, reason = "rejected", self.reason_for(rules, rnd, action, str(exc))
            except self.melds.MeldError as exc:
                rnd = before
                verdict, reason = "rejected", self.reason_for(rules, rnd, action, str(exc))
            self.check_conservation(rnd, state)
            previous_player = current["turn"]["player"]
            current = tr.from_round(rules, self.ser.round_to_dict(rnd), current, order, team_of, ruleset,
                                    ended_by_draw=reason == "hand.ended.red-three-last")
            if current["turn"]["player"] != previous_player:
                current["turn"] = tr.fresh_turn(current["turn"])
            elif verdict == "accepted":
                self.note_turn(current["turn"], before, rnd, action)
            result = {"verdict": verdict, "reason": reason, "state": current}
            if rnd.round_over:
                result["score"] = self.score(rnd, current, order, team_of)
            results.append(result)
            if rnd.round_over and verdict == "accepted":
                turn_player = None
        return {"results": results}

    def note_turn(self, turn, before, rnd, action):
        """What our turn record says about a draw or a pile taken (the engine
        keeps no such record): the cards that came into the hand."""
        verb = next(k for k in action if k != "player")
        gained = Counter(rnd.hands[rnd.current_player]) - Counter(before.hands[before.current_player])
        came = sorted((tr.name(c) for c, n in gained.items() for _ in range(n)), key=sort_key)
        if verb == "draw":
            turn["drawn"] = list(turn.get("drawn", [])) + came
        elif verb == "take_pile":
            turn["took_pile"] = True
            turn["pile_cards"] = came

    def check_conservation(self, rnd, state):
        want = Counter(tr.ct(c) for c in in_play(state).elements())
        have = self.st.dealt_multiset(rnd)
        check_conservation(want, have, tr.name)

    def score(self, rnd, state, order, team_of):
        """The engine's round score per team (round_scores), with a breakdown
        into our term names from the engine's own scoring primitives, given
        only when it adds up to the engine's total."""
        cfg, sc = rnd.cfg, self.scoring
        per_side = sc.round_scores(rnd)
        out = {}
        for side, total in enumerate(per_side):
            team = team_of[order[side]]
            before = state.get("teams", {}).get(team, {}).get("score", 0)
            melds = rnd.side_melds(side)
            terms = {"table": sum(sc.meld_points(cfg, m) for m in melds),
                     "canastras": sum(sc.canastra_bonus(cfg, m) for m in melds),
                     "hand": -sum(sc.hand_points(cfg, rnd, p) for p in range(cfg.table.num_players)
                                  if cfg.table.side(p) == side)}
            terms["going_out"] = 0
            terms["red_threes"] = 0
            if rnd.went_out_side == side:
                bonus = cfg.going_out.go_out_bonus
                if cfg.going_out.concealed_bonus and rnd.opened_on_turn and \
                        rnd.opened_on_turn[side] == rnd.turn_number:
                    bonus += cfg.going_out.concealed_bonus
                terms["going_out"] = bonus
            tray = rnd.red_threes[side] if rnd.red_threes else []
            if tray and cfg.special_threes.red_three_mode != "NONE":
                value = len(tray) * cfg.special_threes.red_three_bonus + \
                    (cfg.special_threes.red_three_all_bonus if len(tray) == 4 else 0)
                terms["red_threes"] = -value if cfg.special_threes.red_three_negative_if_no_meld and not melds \
                    else value
            record = {"total": total, "score_before": before, "score_after": before + total}
            if sum(terms.values()) == total:
                record["terms"] = {k: {"value": v} for k, v in terms.items()}
            out[team] = record
        return out

    # ------------------------------------------------------------ actions
    def apply(self, rules, rnd, order, action, opened_at_start) -> str:
        A = self.act
        player = action.get("player")
        verb = next(k for k in action if k != "player")
        arg = action[verb]
        me = order[rnd.current_player]
        side = rnd.current_player % rules.sides
        if rnd.round_over:
            raise Reject("turn.hand-over", "the hand is over")
        if player != me:
            raise Reject("turn.not-your-turn", f"it is {me}'s turn")
        step = lambda a: self.turns.apply_action(rnd, a)  # noqa: E731
        if verb == "draw":
            if not rnd.stock and rnd.phase == self.st.Phase.DRAW:
                step(A.EndRound())        # the engine's way to end a hand whose stock is out
                return "hand.ended.stock-exhausted"
            step(A.DrawDeck())
            if rnd.round_over:   # a red three drawn as the last stock card
                return "hand.ended.red-three-last"
            return "draw.stock"
        if verb == "discard":
            c = card(arg)
            if rnd.hands[rnd.current_player].get(tr.ct(c), 0) <= 0:
                raise Reject("card.not-in-hand", f"{c} is not in the hand")
            step(A.Discard(tr.ct(c)))
            if rnd.round_over and rnd.went_out_side is not None:
                return "going-out.with-discard"
            if rules.initial_meld and not opened_at_start[side] and rnd.initial_meld_done[side]:
                return "opening.made"
            return "discard.made"
        if verb == "take_pile":
            with_cards = cards(arg.get("with", []))
            onto = arg.get("onto")
            top = tr.name(rnd.trash[-1]) if rnd.trash else None
            self.need_in_hand(rnd, with_cards)
            step(A.DrawTrash())
            if top is None:
                return "pile.taken"
            pair_only = rnd.pending_pile_pair_only
            same_rank = next((i for i, m in enumerate(rnd.side_melds(side))
                              if m.kind == self.melds.MeldKind.SET and not rules.wild(top)
                              and int(m.rank) == tr.RANK_IDS[rank_of(top)]), None)
            try:
                if onto is not None:
                    self.layoff(rnd, rules, side, [(onto, [top] + with_cards)])
                elif same_rank is not None and not rules.sequences:
                    # our meld with the top card joins the team's set of that rank (one set per rank)
                    self.layoff(rnd, rules, side, [(same_rank, [top] + with_cards)])
                elif with_cards:
                    self.new_meld(rnd, rules, side, [top] + with_cards)
            except self.turns.IllegalAction as exc:
                if pair_only and any(rules.wild(c) for c in with_cards):
                    raise Reject("pile.too-few-naturals", f"the frozen pile is taken with two naturals only ({exc})")
                raise
            except Reject as exc:
                raise Reject(as_pile_reason(exc.reason), exc.message)
            return "pile.taken"
        if verb == "meld":
            melds = [cards(m) for m in arg]
            self.need_in_hand(rnd, [c for m in melds for c in m])
            for m in melds:
                self.new_meld(rnd, rules, side, m)
            return self.after_melding(rules, rnd, side, opened_at_start, "meld.laid")
        if verb == "layoff":
            items = arg if isinstance(arg, list) else [arg]
            items = [(i["meld"], cards(i["cards"])) for i in items]
            self.need_in_hand(rnd, [c for _, cs in items for c in cs])
            self.layoff(rnd, rules, side, items)
            return self.after_melding(rules, rnd, side, opened_at_start, "meld.laid-off")
        raise Skip(f"{verb}: not mapped")

    def after_melding(self, rules, rnd, side, opened_at_start, reason):
        if rnd.hand_size(rnd.current_player) == 0 and not rnd.round_over:
            self.turns.apply_action(rnd, self.act.GoOut())
        if rnd.round_over:
            return "going-out.direct"
        if rules.initial_meld and not opened_at_start[side]:
            return "opening.pending"
        if not rules.initial_meld and not opened_at_start[side]:
            return reason
        return reason

    def need_in_hand(self, rnd, wanted):
        hand = rnd.hands[rnd.current_player]
        need = Counter(tr.ct(c) for c in wanted)
        for c, n in need.items():
            if hand.get(c, 0) < n:
                raise Reject("card.not-in-hand", f"{tr.name(c)} is not in the hand")

    def new_meld(self, rnd, rules, side, given):
        A, Rank, Suit = self.act, self.bcards.Rank, self.bcards.Suit
        steps = tr.meld_steps(rules, given)
        index = len(rnd.side_melds(side))
        for s in steps:
            if s[0] == "set":
                self.turns.apply_action(rnd, A.CreateSet(rank=Rank(s[1]), wild=s[2]))
                self.relabel(rnd, rules, rnd.side_melds(side)[index], list(s[-1]))
            elif s[0] == "seq":
                self.turns.apply_action(rnd, A.CreateSeq(suit=Suit(s[1]), start=s[2], wild=s[3]))
                self.relabel(rnd, rules, rnd.side_melds(side)[index], list(s[-1]))
            else:
                self.turns.apply_action(rnd, A.Add(slot=index, ct=tr.ct(s[1])))
        if len(rnd.side_melds(side)) > index:
            self.relabel(rnd, rules, rnd.side_melds(side)[index], given)

    def layoff(self, rnd, rules, side, items):
        melds = rnd.side_melds(side)
        for index, cs in items:
            if not 0 <= index < len(melds):
                raise Reject("layoff.no-such-meld", f"the team has no meld {index}")
            for c in cs:
                self.turns.apply_action(rnd, self.act.Add(slot=index, ct=tr.ct(c)))

    def relabel(self, rnd, rules, meld, given):
        """The engine picks which physical card of a rank goes into a set (and
        which two serves as an off-suit wild): exchange interchangeable cards
        between meld and hand so the meld holds the cards the action named."""
        hand = rnd.hands[rnd.current_player]
        want = Counter(tr.ct(c) for c in given)
        have = Counter(s.card for s in meld.slots)
        extra, missing = have - want, want - have
        for slot in meld.slots:
            if slot.card not in extra or extra[slot.card] == 0:
                continue
            for m in list(missing):
                same = (meld.kind == self.melds.MeldKind.SET and slot.role == self.melds.SlotRole.NATURAL
                        and m % 13 == slot.card % 13 and m != 52) or \
                       (slot.role == self.melds.SlotRole.WILD and rules.wild(tr.name(m)) and m != 52
                        and slot.card != 52)
                if missing[m] > 0 and same and hand.get(m, 0) > 0:
                    hand[m] -= 1
                    if not hand[m]:
                        del hand[m]
                    hand[slot.card] = hand.get(slot.card, 0) + 1
                    extra[slot.card] -= 1
                    missing[m] -= 1
                    slot.card = m
                    break

    def reason_for(self, rules, rnd, action, message: str) -> str:
        verb = next(k for k in action if k != "player")
        m = message.lower()
        if "round is over" in m:
            return "turn.hand-over"
        if "expected a draw-phase action" in m:
            return "turn.draw-first"
        if "expected a play-phase action" in m:
            return "turn.already-drew"
        if "stock is empty" in m:
            return "stock.exhausted"
        if verb == "take_pile" and ("trash" in m or "pile conditions" in m):
            return self.pile_reason(rules, rnd, action["take_pile"])
        if "initial meld" in m or "initial-meld" in m:
            return "opening.below-minimum"
        if "strand" in m:
            # the engine refuses a step that would leave no legal way to finish the hand; for the
            # whole action that is going out without the right (no card left) or a stranded last card
            left = rnd.hand_size(rnd.current_player) - len(_action_cards(action))
            return "going-out.not-allowed" if left <= 0 else "turn.last-card-stranded"
        if "already owns a set" in m:
            return "meld.rank-already-melded"
        if "black-three sets take no wilds" in m:
            return "meld.too-many-wilds"
        if "black threes meld only" in m:
            return "meld.not-allowed-now"
        if "wildcard limit" in m:
            return "meld.too-many-wilds"
        if "minimum natural" in m:
            return "meld.too-few-naturals"
        if "cannot discard" in m:
            return "going-out.not-allowed" if rnd.hand_size(rnd.current_player) == 1 else "pile.discard-not-allowed"
        if "going-out requirements" in m or "requires going out with a discard" in m:
            return "going-out.not-allowed"
        if "no meld in slot" in m:
            return "layoff.no-such-meld"
        if "illegal add" in m:
            wild = any(rules.wild(c) for c in _action_cards(action))
            return "meld.too-many-wilds" if wild else "meld.not-consecutive"
        if "illegal set" in m:
            cs = _action_cards(action)
            if any(rank_of(c) == "3" for c in cs):
                return "meld.threes"
            return "meld.rank-not-allowed"
        if "illegal sequence" in m:
            return "meld.not-consecutive"
        if "pending" in m or "top card" in m:
            return "pile.too-few-hand-cards"
        return "action.malformed"

    def pile_reason(self, rules, rnd, arg=None) -> str:
        """Our reason for a pile the engine does not let the player take, from
        the engine's own conditions and the cards the action offered."""
        arg = arg or {}
        if not rnd.trash:
            return "pile.empty"
        top = tr.name(rnd.trash[-1])
        if rnd.pile_blocked_for_next or rules.wild(top) or rank_of(top) == "3":
            return "pile.blocked"
        side = rnd.current_player % rules.sides
        offered = cards(arg.get("with", []))
        naturals = sum(1 for c in offered if rank_of(c) == rank_of(top) and not rules.wild(c))
        frozen = rnd.frozen or (rules.initial_meld and not rnd.initial_meld_done[side])
        if frozen:
            if arg.get("onto") is not None:
                return "pile.onto-meld-not-allowed"
            if naturals < 2:
                return "pile.too-few-naturals"
            return "opening.below-minimum"
        if arg.get("onto") is None and len(offered) < 2:
            return "pile.too-few-hand-cards"
        if naturals < 1:
            return "pile.too-few-naturals"
        return "pile.too-few-hand-cards"

    # ------------------------------------------------------------ queries
    def query(self, ruleset, q):
        (kind, arg), = q.items()
        players = facts(ruleset)["players"]
        cfg = self.cfg_for(players, None)
        rules = self.rules(cfg)
        if kind == "setup":
            Rank = self.bcards.Rank
            teams = teams_of(players)
            wild = (["2"] if Rank.TWO in cfg.wildcard.wild_ranks else []) + \
                   (["JK"] if cfg.wildcard.jokers_wild and cfg.deck.printed_jokers else [])
            return Partial({"deck_size": cfg.deck.total_cards, "decks": cfg.deck.deck_count,
                            "jokers": cfg.deck.printed_jokers, "players": cfg.table.num_players,
                            "team_size": cfg.table.team_of, "teams": {t: list(s) for t, s in teams.items()},
                            "cards_dealt": cfg.table.cards_per_player, "draw": cfg.turn.draw_count,
                            "wild_cards": sorted(wild), "target": cfg.scoring.match_target},
                           # players are numbered, each playing after the one before; nobody deals
                           ["result.direction", "result.first_dealer", "result.next_dealer"])
        if kind == "points":
            return cfg.card_value(tr.ct(card(arg)))
        if kind == "opening_minimum":
            # the engine sets a side's minimum from the match score when it deals a round (deal_round)
            import random
            sides = cfg.table.num_sides
            rnd = self.st.deal_round(cfg, random.Random(0), match_scores=[arg.get("score", 0)] * sides)
            return rnd.initial_meld_min[0] if cfg.initial_meld.enabled else 0
        if kind == "meld":
            return self.meld_query(ruleset, cfg, rules, cards(arg))
        if kind == "score":
            order, team_of = seating(arg, ruleset)
            cfg = self.cfg_for(len(order), arg)
            rules = self.rules(cfg)
            rnd = self.ser.round_from_dict(cfg, tr.to_round(rules, arg, order, team_of))
            return self.score(rnd, arg, order, team_of)
        raise Skip(f"query {kind!r} is not mapped")

    def meld_query(self, ruleset, cfg, rules, given):
        """Lay the cards down on an otherwise empty table for an opened team."""
        hand = Counter(tr.ct(c) for c in given)
        # two spare cards keep the meld from being a going out
        spare = [c for c in range(52) if c % 13 in (6, 7) and hand[c] == 0][:2]
        hand.update(spare)
        rnd = self.st.RoundState(cfg=cfg, hands=[hand] + [Counter() for _ in range(cfg.table.num_players - 1)],
                                 stock=[], trash=[], melds=[], morto=[], morto_taken=[], current_player=0,
                                 phase=self.st.Phase.PLAY, initial_meld_done=[True] * cfg.table.num_sides,
                                 red_threes=[[] for _ in range(cfg.table.num_sides)],
                                 opened_on_turn=[None] * cfg.table.num_sides,
                                 initial_meld_min=[0] * cfg.table.num_sides)
        try:
            self.new_meld(rnd, rules, 0, given)
        except Reject as exc:
            return {"meld": None, "reason": exc.reason, "canastra": None, "value": None}
        except (self.turns.IllegalAction, self.melds.MeldError) as exc:
            return {"meld": None, "reason": self.reason_for(rules, rnd, {"player": "N", "meld": [given]}, str(exc)),
                    "canastra": None, "value": None}
        meld = rnd.melds[0]
        laid = tr.meld_from_engine(rules, self.ser.meld_to_dict(meld), ruleset)
        bonus = self.scoring.canastra_bonus(cfg, meld)
        canastra = None
        if meld.is_canastra(cfg.meld.canastra_min_size):
            canastra = "limpa" if meld.is_clean else "suja"
        return {"meld": laid["kind"], "reason": None, "cards": laid["cards"], "canastra": canastra,
                "value": bonus if canastra else None}


def _random_hand(self, seed):
    """One hand of the engine's own deal and legal actions, random choices."""
    import random

    from buraco.engine import legal
    cfg = self.profiles.load_profile(self.profile, num_players=4)
    rng = random.Random(seed)
    rnd = self.st.deal_round(cfg, rng)
    total = self.st.dealt_multiset(rnd)
    findings, steps = [], 0
    while not rnd.round_over and steps < 3000:
        actions = legal.legal_actions(rnd)
        if not actions:
            findings.append({"kind": "no legal action before the end of the hand", "step": steps,
                             "phase": rnd.phase.name, "player": rnd.current_player,
                             "hand": sorted(tr.name(c) for c in rnd.hands[rnd.current_player].elements()),
                             "stock": len(rnd.stock), "pile_top": tr.name(rnd.trash[-1]) if rnd.trash else None,
                             "pending_pile_card": rnd.pending_pile_card, "staged": rnd.staged_points})
            break
        a = rng.choice(actions)
        try:
            self.turns.apply_action(rnd, a)
        except self.turns.IllegalAction as exc:
            findings.append({"kind": "a listed legal action is refused", "step": steps, "action": repr(a),
                             "message": str(exc)})
            break
        except Exception as exc:
            findings.append({"kind": "engine crash", "step": steps, "action": repr(a),
                             "message": f"{type(exc).__name__}: {exc}"})
            break
        steps += 1
        if self.st.dealt_multiset(rnd) != total:
            findings.append({"kind": "cards lost or gained", "step": steps, "action": repr(a)})
            break
    return hand_played(steps, rnd.round_over, findings, 3000)


ThesisAdapter.random_hand = _random_hand


def _action_cards(action):
    verb = next(k for k in action if k != "player")
    arg = action[verb]
    if verb == "meld":
        return [c for m in arg for c in cards(m)]
    if verb == "layoff":
        items = arg if isinstance(arg, list) else [arg]
        return [c for i in items for c in cards(i["cards"])]
    if verb == "take_pile":
        return cards(arg.get("with", []))
    return []


def make(argv):
    """The adapter object for argv (tests and tools build it in-process)."""
    root = checkout_path(argv, ENV_VAR, "src/buraco/engine/turns.py")
    profile = option(argv, "--profile", os.environ.get("CANASTRA_THESIS_PROFILE", "canasta"))
    if profile not in ("canasta", "buraco"):
        raise SystemExit("--profile is canasta or buraco")
    return ThesisAdapter(root, profile)


if __name__ == "__main__":
    main(make)
