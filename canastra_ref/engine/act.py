"""The action being judged: the working copy of the state, the acting player,
and the trace of every setting consulted. Rule modules decide through it and
reject through it, so every verdict cites the clauses that made it."""
from __future__ import annotations

from collections import Counter

from ..dsl.model import Decision
from .context import LaterContext
from .rules import Engine
from .state import Meld, State
from .verdict import Rejection, Trace

_new = object.__new__


class Act:
    __slots__ = ("engine", "state", "player", "team", "trace", "events", "penalty", "hand")

    def __init__(self, engine: Engine, state: State, player: str, read_only: bool = False):
        self.engine, self.state, self.player = engine, state, player
        self.team = state.table.team_of[player]
        self.trace = Trace()
        self.events: list[str] = []
        self.penalty: str | None = None     # a penalised reason a play of the action incurred
        # the acting player's hand, private to the working state (may be changed): made so at once, as
        # nearly every action reads or changes it, and a plain attribute costs nothing to read; an Act
        # that only reads a state it must not change (read_only: a query) reads the state's own hand
        self.hand: list[str] = state.players[player].hand if read_only else state.player_w(player).hand

    def context(self, **kw) -> LaterContext:
        """The context of this action (ActionContext's arguments), made when a decision first reads a fact.
        Filled as State.copy fills a state: no __init__ to call (more than half a context an action)."""
        later = _new(LaterContext)
        later._act, later._kw, later._made = self, kw, None
        return later

    def decide(self, path: str, ctx=None, decisive: bool = True) -> Decision:
        """The setting's decision, traced. A decision first read with decisive=False
        and then cited is added again with trace.add, not decided twice."""
        decision = self.engine.fixed.get(path)      # most settings read no fact: no context needed
        if decision is None:
            decision = self.engine.decide(path) if ctx is None else ctx.decision(path)
        self.trace.append((decision, decisive))
        return decision

    def value(self, path: str, ctx=None, decisive: bool = True):
        return self.decide(path, ctx, decisive).value

    def reject(self, reason: str, message: str, *paths: str, ctx=None):
        decisions = tuple(self.decide(p, ctx) for p in paths)
        raise Rejection(reason, message, decisions)

    # ------------------------------------------------------------ card moves
    def take_from_hand(self, cards: list[str], usable_only: bool = False) -> None:
        """Remove cards from the hand; reject if any is missing (or, with
        usable_only, is a card received from the pile that may not be used yet)."""
        hand = self.hand
        left = list(hand)
        try:
            for card in cards:
                left.remove(card)
        except ValueError:
            have = Counter(hand)         # the first card short, counting copies, is the one named
            for card, n in Counter(cards).items():
                if have[card] < n:
                    self.reject("card.not-in-hand", f"{card} is not in {self.player}'s hand")
        if usable_only and self.state.turn.pile_cards:
            if not self.value("pile.rest_usable", self.context()):
                have, reserved = Counter(hand), Counter(self.state.turn.pile_cards)
                for card, n in Counter(cards).items():
                    if have[card] - reserved[card] < n:
                        self.reject("card.from-pile-not-usable",
                                    f"{card} came from the pile and cannot be melded this turn", "pile.rest_usable",
                                    ctx=self.context())
        hand[:] = left

    def batch(self) -> list[tuple[str, list[str]]]:
        """(kind, cards) of the melds started this turn."""
        melds = self.state.teams[self.team].melds
        return [(melds[i].kind, melds[i].cards) for i in self.state.turn.melds_laid]

    def add_meld(self, meld: Meld) -> int:
        melds = self.state.team_w(self.team).melds
        melds.append(meld)
        index = len(melds) - 1
        turn = self.state.turn_w()
        turn.melds_laid = [*turn.melds_laid, index]
        if meld.canastra is not None:
            turn.formed = [*turn.formed, index]
        self.state.player_w(self.player).melded = True
        return index
