"""A random legal agent, for self-play and stateful tests.

It proposes a few cheap candidates for each decision (a pair or a run around
the pile's top card, sets and runs found by grouping the hand by rank and by
suit, single cards to add to the team's melds) and lets the engine judge
them: it never enumerates meld combinations, so the cost of a decision does
not grow with the size of the hand. Because `apply` never changes its input,
the agent can try a whole plan (melds and the discard) on a scratch state and
keep it only when it does not end in a failed opening.
"""
from __future__ import annotations

import random
from collections import defaultdict

from ..cards import RANKS, is_red_three, rank_of, suit_of
from .actions import apply
from .rules import Engine
from .state import State
from .verdict import ACCEPTED, PENALISED, REJECTED


class RandomAgent:
    def __init__(self, engine: Engine, rng: random.Random, *, redraw_chance=0.3, challenge_chance=0.5,
                 answer_yes_chance=0.8, penalty_chance=0.05):
        self.engine, self.rng = engine, rng
        self.redraw_chance, self.challenge_chance = redraw_chance, challenge_chance
        self.answer_yes_chance, self.penalty_chance = answer_yes_chance, penalty_chance

    # ------------------------------------------------------------------ API
    def next_actions(self, state: State) -> list[dict]:
        """A short plan of legal actions for whoever must act now (at least one)."""
        if state.turn.phase == "deal":
            return [{"player": state.dealer, "deal": {"seed": self.rng.randrange(2 ** 31)}}]
        turn = state.turn
        if turn.asked == "asking":
            partner = state.table.partners(turn.player)[0]
            reply = "yes" if self.rng.random() < self.answer_yes_chance else "no"
            return [{"player": partner, "answer": reply}]
        if not state.started:
            for seat in state.table.from_dealer(state.dealer):
                threes = [c for c in state.players[seat].hand if is_red_three(c)]
                if threes:
                    return [{"player": seat, "replace_red_three": threes[0]}]
        player = turn.player
        if state.pending is not None and self.rng.random() < self.challenge_chance:
            return [{"player": player, "challenge": True}]
        if turn.phase == "draw":
            return [self._draw(state, player)]
        return self._play(state, player)

    # ----------------------------------------------------------------- draw
    def _draw(self, state: State, player: str) -> dict:
        late = [c for c in state.players[player].hand if is_red_three(c)]
        if late:
            for verb in ("replace_red_three", "lay_down_red_three"):
                action = {"player": player, verb: late[0]}
                if self._ok(state, action):
                    return action
        if state.pile and self.rng.random() < 0.8:
            for action in self._pile_candidates(state, player):
                if self._ok(state, action):
                    return action
        return {"player": player, "draw": "stock"}

    def _pile_candidates(self, state: State, player: str) -> list[dict]:
        top = state.pile[-1]
        hand = state.players[player].hand
        wilds = [c for c in hand if self.engine.is_wild(c)]
        naturals = [c for c in hand if not self.engine.is_wild(c)]
        out = []
        if not self.engine.is_wild(top):
            same = [c for c in naturals if rank_of(c) == rank_of(top)]
            if len(same) >= 2:
                out.append(same[:2])
            if same and wilds:
                out.append([same[0], wilds[0]])
            suited = {rank_of(c): c for c in naturals if suit_of(c) == suit_of(top)}
            i = RANKS.index(rank_of(top))
            for a, b in ((i - 2, i - 1), (i - 1, i + 1), (i + 1, i + 2)):
                if 0 <= a and b < len(RANKS) and RANKS[a] in suited and RANKS[b] in suited:
                    out.append([suited[RANKS[a]], suited[RANKS[b]]])
        actions = [{"player": player, "take_pile": {"with": w}} for w in out]
        for index in range(len(state.teams[state.team_of(player)].melds)):
            actions.append({"player": player, "take_pile": {"onto": index, "with": []}})
        self.rng.shuffle(actions)
        return actions[:6]

    # ----------------------------------------------------------------- play
    def _play(self, state: State, player: str) -> list[dict]:
        turn = state.turn
        if turn.first and len(turn.drawn) == 1 and not turn.redrawn and not turn.took_pile \
                and self.rng.random() < self.redraw_chance:
            action = {"player": player, "redraw": True}
            if self._ok(state, action):
                return [action]
        plan, scratch = [], state
        for action in self._layoffs(scratch, player) + self._new_melds(scratch, player):
            after, verdict = apply(self.engine, scratch, action)
            if verdict.verdict != REJECTED:
                plan.append(action)
                scratch = after
                if scratch.ended is not None:
                    return plan
        if scratch.turn.final:
            return plan + [{"player": player, "end_turn": True}]
        if self.engine.value("going_out.ask_partner") and state.table.partners(player) and \
                len(scratch.players[player].hand) <= 2 and turn.asked is None and not plan:
            return [{"player": player, "ask_partner": True}]
        discard, verdict = self._discard(scratch, player)
        if discard is not None and (verdict != PENALISED or self.rng.random() < self.penalty_chance):
            return plan + [discard]
        # the plan fails the opening or strands the hand: play no melds this turn
        discard, _ = self._discard(state, player)
        return [discard or {"player": player, "end_turn": True}]

    def _layoffs(self, state: State, player: str) -> list[dict]:
        """For each team meld, the hand cards that extend it (its rank, or the
        ranks just beyond a sequence's ends), found by lookup, not search."""
        hand = state.players[player].hand
        by_card = defaultdict(int)
        for card in hand:
            by_card[card] += 1
        wilds = [c for c in hand if self.engine.is_wild(c)]
        actions = []
        for index, meld in enumerate(state.teams[state.team_of(player)].melds):
            naturals = [c for c in meld.cards if not self.engine.is_wild(c)]
            if not naturals:
                continue
            kind = self.engine.meld_kind(meld.kind)
            cards: list[str] = []
            if kind is not None and kind.shape == "sequence":
                suit = suit_of(naturals[0])
                ranks = [rank_of(c) for c in naturals]
                low, high = RANKS.index(min(ranks, key=RANKS.index)), RANKS.index(max(ranks, key=RANKS.index))
                span = len(meld.cards) - len(naturals)
                for step in (-1, 1):
                    i = (low if step < 0 else high) + step * (1 + span if step > 0 else 1)
                    while 0 <= i < len(RANKS) and by_card.get(RANKS[i] + suit, 0) > 0:
                        cards.append(RANKS[i] + suit)
                        i += step
            else:
                rank = rank_of(naturals[0])
                cards = [c for c in hand if not self.engine.is_wild(c) and rank_of(c) == rank]
            if cards:
                actions.append({"player": player, "layoff": {"meld": index, "cards": cards}})
            if wilds and len(meld.cards) >= 6 and self.rng.random() < 0.3:
                actions.append({"player": player, "layoff": {"meld": index, "cards": wilds[:1]}})
        self.rng.shuffle(actions)
        return actions[:6]

    def _new_melds(self, state: State, player: str) -> list[dict]:
        hand = state.players[player].hand
        wilds = [c for c in hand if self.engine.is_wild(c)]
        by_rank, by_suit = defaultdict(list), defaultdict(dict)
        for card in hand:
            if self.engine.is_wild(card):
                continue
            by_rank[rank_of(card)].append(card)
            by_suit[suit_of(card)][rank_of(card)] = card
        melds = []
        for cards in by_rank.values():
            if len(cards) >= 3:
                melds.append(cards)
            elif len(cards) == 2 and wilds:
                melds.append(cards + wilds[:1])
        for ranks in by_suit.values():
            run: list[str] = []
            for rank in RANKS:
                if rank in ranks:
                    run.append(ranks[rank])
                    continue
                if len(run) >= 3:
                    melds.append(run)
                elif len(run) == 2 and wilds:
                    melds.append(run + wilds[:1])
                run = []
            if len(run) >= 3:
                melds.append(run)
        self.rng.shuffle(melds)
        if len(melds) > 1 and self.rng.random() < 0.5:
            return [{"player": player, "meld": melds[:3]}] + [{"player": player, "meld": [m]} for m in melds[:3]]
        return [{"player": player, "meld": [m]} for m in melds[:4]]

    def _discard(self, state: State, player: str):
        """A discard to end the turn and its verdict, preferring accepted ones."""
        hand = list(state.players[player].hand)
        self.rng.shuffle(hand)
        fallback = (None, None)
        for card in hand[:8]:
            action = {"player": player, "discard": card}
            _, verdict = apply(self.engine, state, action)
            if verdict.verdict == ACCEPTED:
                return action, ACCEPTED
            if verdict.verdict == PENALISED and fallback[0] is None:
                fallback = (action, PENALISED)
        return fallback

    def _ok(self, state: State, action: dict) -> bool:
        return apply(self.engine, state, action)[1].verdict != REJECTED
