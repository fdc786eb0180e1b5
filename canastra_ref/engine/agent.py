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
from .context import ActionContext
from .rules import Engine
from .state import State
from .verdict import PENALISED, REJECTED


class RandomAgent:
    def __init__(self, engine: Engine, rng: random.Random, *, redraw_chance=0.3, challenge_chance=0.5,
                 answer_yes_chance=0.8, penalty_chance=0.05):
        self.engine, self.rng = engine, rng
        self.redraw_chance, self.challenge_chance = redraw_chance, challenge_chance
        self.answer_yes_chance, self.penalty_chance = answer_yes_chance, penalty_chance
        self._tried: dict[int, dict] = {}      # results of trial applies, reused by step()
        self._ranks: dict[tuple, set] = {}     # meld ranks by shape, for the current decision

    def _try(self, state: State, action: dict):
        result = apply(self.engine, state, action)
        self._tried.setdefault(id(state), {})[_key(action)] = result
        return result

    # ------------------------------------------------------------------ API
    def step(self, state: State) -> list[tuple[dict, State, object]]:
        """Play the next short plan: (action, state after it, verdict) for each
        action, all of them accepted or penalised (rejections are not kept)."""
        steps = []
        for action in self.next_actions(state):
            cached = self._tried.get(id(state), {}).get(_key(action))
            new, verdict = cached if cached else apply(self.engine, state, action)
            if verdict.verdict == REJECTED:
                break
            steps.append((action, new, verdict))
            state = new
            if state.ended is not None:
                break
        self._tried.clear()
        self._ranks.clear()
        return steps

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
            for action in self._pile_candidates(state, player)[:2]:
                if self._ok(state, action):
                    return action
        return {"player": player, "draw": "stock"}

    def _pile_candidates(self, state: State, player: str) -> list[dict]:
        top = state.pile[-1]
        hand = state.players[player].hand
        wilds = [c for c in hand if self.engine.is_wild(c)]
        naturals = [c for c in hand if not self.engine.is_wild(c)]
        out = []
        if not self.engine.is_wild(top) and rank_of(top) in self._kind_ranks(state, player, "set"):
            same = [c for c in naturals if rank_of(c) == rank_of(top)]
            if len(same) >= 2:
                out.append(same[:2])
            if same and wilds:
                out.append([same[0], wilds[0]])
        if not self.engine.is_wild(top) and rank_of(top) in self._kind_ranks(state, player, "sequence"):
            suited = {rank_of(c): c for c in naturals if suit_of(c) == suit_of(top)}
            i = RANKS.index(rank_of(top))
            for a, b in ((i - 2, i - 1), (i - 1, i + 1), (i + 1, i + 2)):
                if 0 <= a and b < len(RANKS) and RANKS[a] in suited and RANKS[b] in suited:
                    out.append([suited[RANKS[a]], suited[RANKS[b]]])
        actions = [{"player": player, "take_pile": {"with": w}} for w in out]
        for index, meld in enumerate(state.teams[state.team_of(player)].melds):
            if self._extends(meld, top):
                actions.append({"player": player, "take_pile": {"onto": index, "with": []}})
        self.rng.shuffle(actions)
        return actions

    def _extends(self, meld, card: str) -> bool:
        """A cheap guess whether `card` could join `meld` (the engine decides)."""
        if self.engine.is_wild(card):
            return True
        naturals = [c for c in meld.cards if not self.engine.is_wild(c)]
        if not naturals:
            return False
        kind = self.engine.meld_kind(meld.kind)
        if kind is None:
            return False
        if kind.shape == "set":
            return rank_of(naturals[0]) == rank_of(card)
        if suit_of(naturals[0]) != suit_of(card) or rank_of(card) not in RANKS:
            return False
        first = next(i for i, c in enumerate(meld.cards) if not self.engine.is_wild(c))
        low = RANKS.index(rank_of(meld.cards[first])) - first
        return RANKS.index(rank_of(card)) in (low - 1, low + len(meld.cards))

    # ----------------------------------------------------------------- play
    def _play(self, state: State, player: str) -> list[dict]:
        turn = state.turn
        if turn.first and len(turn.drawn) == 1 and not turn.redrawn and not turn.took_pile \
                and self.rng.random() < self.redraw_chance:
            action = {"player": player, "redraw": True}
            if self._ok(state, action):
                return [action]
        plan, scratch = [], state
        for _ in range(3):
            progressed = False
            for action in self._layoffs(scratch, player) + self._new_melds(scratch, player):
                after, verdict = self._try(scratch, action)
                if verdict.verdict != REJECTED:
                    plan.append(action)
                    scratch, progressed = after, True
                    if scratch.ended is not None:
                        return plan
                    break
            if not progressed:
                break
        if scratch.turn.final:
            return plan + [{"player": player, "end_turn": True}]
        if self.engine.value("going_out.ask_partner") and state.table.partners(player) and \
                len(scratch.players[player].hand) <= 2 and turn.asked is None and not plan:
            ask = {"player": player, "ask_partner": True}
            if self._ok(state, ask):
                return [ask]
        discard, verdict = self._discard(scratch, player)
        if discard is not None and (verdict != PENALISED or self.rng.random() < self.penalty_chance):
            return plan + [discard]
        # the plan fails the opening or strands the hand: play no melds this turn
        fallback, _ = self._discard(state, player)
        if fallback is not None:
            return [fallback]
        return plan + [discard] if discard is not None else [{"player": player, "end_turn": True}]

    def _layoffs(self, state: State, player: str) -> list[dict]:
        """For each team meld, the hand cards that extend it (its rank, or the
        ranks just beyond a sequence's ends), found by lookup, not search."""
        hand = list(state.players[player].hand)
        for card in state.turn.pile_cards:
            if card in hand:
                hand.remove(card)
        present = set(hand)
        wild = self.engine.wild_set
        wilds = [c for c in hand if c in wild]
        run_ranks = self._kind_ranks(state, player, "sequence")
        ranks = [r for r in RANKS if r in run_ranks]
        shapes = {k.name: k.shape for k in self.engine.meld_kinds}
        actions = []
        for index, meld in enumerate(state.teams[state.team_of(player)].melds):
            naturals = [c for c in meld.cards if c not in wild]
            shape = shapes.get(meld.kind)
            if not naturals or shape is None:
                continue
            cards: list[str] = []
            if shape == "sequence":
                suit = naturals[0][-1]
                first = meld.cards.index(naturals[0])
                low = ranks.index(naturals[0][:-1]) - first
                high = low + len(meld.cards) - 1
                i = low - 1
                while i >= 0 and ranks[i] + suit in present:
                    cards.append(ranks[i] + suit)
                    i -= 1
                i = high + 1
                while i < len(ranks) and ranks[i] + suit in present:
                    cards.append(ranks[i] + suit)
                    i += 1
                suited = suit
            else:
                rank = naturals[0][:-1]
                cards = [c for c in hand if c[:-1] == rank and c not in wild]
                suited = None
            if cards:
                actions.append({"player": player, "layoff": {"meld": index, "cards": cards}})
            if wilds and len(meld.cards) >= 6 and self.rng.random() < 0.3:
                chosen = self._wild_for(wilds, suited)
                if chosen:
                    actions.append({"player": player, "layoff": {"meld": index, "cards": chosen}})
        self.rng.shuffle(actions)
        return actions[:6]

    def _kind_ranks(self, state: State, player: str, shape: str) -> set[str]:
        """Ranks the ruleset allows in melds of a shape, read from the engine
        (once per decision: they may depend on the team's situation)."""
        key = (id(state), shape)
        if key not in self._ranks:
            ctx = ActionContext(self.engine, state, player)
            ranks: set[str] = set()
            for kind in self.engine.meld_kinds:
                if kind.shape == shape:
                    ranks.update(self.engine.value(f"meld.{kind.name}.ranks", ctx))
            self._ranks[key] = ranks
        return self._ranks[key]

    def _wild_for(self, wilds: list[str], suit: str | None) -> list[str]:
        for card in wilds:
            if card == "JK" or suit is None or suit_of(card) == suit or \
                    self.engine.value(f"wild.{card[0]}.suit") == "any":
                return [card]
        return []

    def _new_melds(self, state: State, player: str) -> list[dict]:
        hand = state.players[player].hand
        usable = list(hand)
        if state.turn.pile_cards:
            for card in state.turn.pile_cards:
                if card in usable:
                    usable.remove(card)
        wild = self.engine.wild_set
        wilds = [c for c in usable if c in wild]
        set_ranks = self._kind_ranks(state, player, "set")
        sequence_ranks = self._kind_ranks(state, player, "sequence")
        run_ranks = [r for r in RANKS if r in sequence_ranks]
        by_rank, by_suit = defaultdict(list), defaultdict(dict)
        for card in usable:
            if card in wild:
                continue
            by_rank[card[:-1]].append(card)
            by_suit[card[-1]][card[:-1]] = card
        melds = []
        for rank, cards in by_rank.items():
            if rank not in set_ranks:
                continue
            if len(cards) >= 3:
                melds.append(cards)
            elif len(cards) == 2 and wilds:
                melds.append(cards + self._wild_for(wilds, None))
        for suit, ranks in by_suit.items():
            run: list[str] = []
            for rank in run_ranks:
                if rank in ranks:
                    run.append(ranks[rank])
                    continue
                if len(run) >= 3:
                    melds.append(run)
                elif len(run) == 2 and wilds:
                    melds.append(run + self._wild_for(wilds, suit))
                run = []
            if len(run) >= 3:
                melds.append(run)
        melds = [m for m in melds if len(m) >= 3]
        self.rng.shuffle(melds)
        if len(melds) > 1 and self.rng.random() < 0.5:
            return [{"player": player, "meld": melds[:3]}] + [{"player": player, "meld": [m]} for m in melds[:3]]
        return [{"player": player, "meld": [m]} for m in melds[:4]]

    def _discard(self, state: State, player: str):
        """A discard to end the turn and its verdict. A penalised one (a failed
        opening) is returned at once: the failure does not depend on the card."""
        hand = list(state.players[player].hand)
        self.rng.shuffle(hand)
        for card in hand:
            action = {"player": player, "discard": card}
            _, verdict = self._try(state, action)
            if verdict.verdict != REJECTED:
                return action, verdict.verdict
        return None, None

    def _ok(self, state: State, action: dict) -> bool:
        return self._try(state, action)[1].verdict != REJECTED


def _key(action: dict) -> str:
    return repr(sorted(action.items()))
