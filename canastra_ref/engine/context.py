"""The game facts of canastra_ref.dsl.facts, computed from a State.

A context is what a compiled DSL expression reads through `fact(name)`:
CardContext for the pile's upcard (MeldContext, for canastra kinds, is in rules),
TeamContext for scoring and canastra bonuses, ActionContext for the rules
that judge an action (team facts of the acting player's team, plus the facts
of the turn, the stock, the pile and the melds being laid).
"""
from __future__ import annotations

from ..cards import JOKER, holds_black_three, holds_red_three, is_black_three, is_red_three, rank_label, rank_of
from .rules import Engine
from .state import State


class CardContext:
    __slots__ = ("engine", "card")

    def __init__(self, engine: Engine, card: str):
        self.engine, self.card = engine, card

    def decision(self, path: str):
        return self.engine.decide(path, self)

    def fact(self, name: str):
        if name == "card.wild":
            return self.engine.is_wild(self.card)
        if name == "card.red_three":
            return is_red_three(self.card)
        if name == "card.black_three":
            return is_black_three(self.card)
        raise KeyError(name)


def team_canastras(engine: Engine, state: State, team: str) -> list[tuple[str, list[str], str]]:
    """(meld kind, cards, canastra kind) of each canastra of the team."""
    return [(meld.kind, meld.cards, meld.canastra) for meld in state.teams[team].melds if meld.canastra]


def _team_fact(engine: Engine, state: State, team: str, field: str):
    t = state.teams[team]
    seats = state.table.teams[team]
    if field == "score":
        return t.score
    if field == "opened":
        return t.opened
    if field == "melds":
        return len(t.melds)
    if field == "canastras":
        return len(team_canastras(engine, state, team))
    if field.startswith("canastras."):
        kind = field[len("canastras."):]
        return sum(1 for _, _, k in team_canastras(engine, state, team) if k == kind)
    if field.startswith("canastras_lost."):
        kind = field[len("canastras_lost."):]
        return sum(1 for k in t.canastras_lost if k == kind)
    if field == "red_threes":
        return len(t.red_threes)
    if field == "red_three_points":
        return engine.hand_points(t.red_threes)
    if field == "table_points":
        return sum(engine.hand_points(m.cards) for m in t.melds)
    if field == "canastra_bonus":
        return canastra_bonus(engine, state, team)[0]
    if field == "hand_points":
        return sum(engine.hand_points(state.players[s].hand) for s in seats)
    if field == "hand_points_of_melders":
        return sum(engine.hand_points(state.players[s].hand) for s in seats if state.players[s].melded)
    if field == "players_without_melds":
        return sum(1 for s in seats if not state.players[s].melded)
    if field == "black_threes_in_hand":
        return sum(1 for s in seats for c in state.players[s].hand if is_black_three(c))
    if field == "red_threes_in_hand":
        return sum(1 for s in seats for c in state.players[s].hand if is_red_three(c))
    went_out = bool(state.ended and state.ended.get("reason") == "went-out" and state.ended.get("player") in seats)
    if field == "went_out":
        return went_out
    if field == "went_out_concealed":
        return went_out and bool(state.ended.get("concealed"))
    if field == "went_out_took_pile":
        return went_out and bool(state.ended.get("took_pile"))
    if field == "went_out_concealed_canastras":
        return state.ended.get("concealed_canastras", 0) if went_out and state.ended.get("concealed") else 0
    if field == "exact_cuts":
        return t.exact_cuts
    if field == "unkept_answers":
        return t.unkept_answers
    if field == "misdeals":
        return t.misdeals
    if field == "opening_failures":
        return t.opening_failures
    if field == "size":
        return len(seats)
    raise KeyError(field)


def canastra_bonus(engine: Engine, state: State, team: str):
    """The team's counted canastra bonuses and the decisions behind them."""
    total, decisions = 0, []
    ctx = TeamContext(engine, state, team)
    for meld in state.teams[team].melds:
        if meld.canastra is None:
            continue
        counts = engine.decide(f"canastra.{meld.canastra}.counts", ctx)
        decisions.append(counts)
        if counts.value:
            value = engine.canastra_value(meld)
            decisions.append(value)
            total += value.value
    return total, decisions


_UNKNOWN = object()    # a fact not computed yet (facts may be None)


class TeamContext:
    """Facts of a team, each computed once (the first time it is read). A
    decision reads only facts, so it is kept too: deciding a setting again in
    the same context gives the same decision without evaluating its clauses."""
    __slots__ = ("engine", "state", "team", "_cache", "_decided")

    def __init__(self, engine: Engine, state: State, team: str):
        self.engine, self.state, self.team = engine, state, team
        self._cache = {}
        self._decided = {}

    # a context lives for one action, so most lookups miss: .get, not a KeyError caught
    def decision(self, path: str):
        made = self._decided.get(path)
        if made is None:
            made = self._decided[path] = self.engine.decide(path, self)
        return made

    def fact(self, name: str):
        value = self._cache.get(name, _UNKNOWN)
        if value is _UNKNOWN:
            value = self._cache[name] = self._compute(name)
        return value

    def _compute(self, name: str):
        side, _, field = name.partition(".")
        if side == "team":
            return _team_fact(self.engine, self.state, self.team, field)
        if side == "opponents":
            values = [_team_fact(self.engine, self.state, other, field)
                      for other in self.state.table.opponents(self.team)]
            if values and isinstance(values[0], bool):
                return any(values)
            return sum(values)
        if side == "hand":
            ended = self.state.ended
            if field == "end":
                return ended["reason"] if ended else "none"
            if field == "went_out":
                return bool(ended and ended["reason"] == "went-out")
        raise KeyError(name)


class ActionContext(TeamContext):
    """Facts for judging an action of `player`. `batch` holds (kind, cards) of the
    melds laid in the current turn (those of the action included)."""
    __slots__ = ("player", "batch", "going_out", "discarding", "last_card", "taking_pile", "shortfall", "onto")

    def __init__(self, engine: Engine, state: State, player: str, batch=(), going_out=False,
                 discarding=False, last_card=False, taking_pile=False, shortfall=0, onto=None):
        self.engine, self.state, self.team = engine, state, state.table.team_of[player]
        self._cache = {}
        self._decided = {}
        self.player, self.batch = player, batch          # batch: read, never changed
        self.going_out, self.discarding, self.last_card = going_out, discarding, last_card
        self.taking_pile, self.shortfall, self.onto = taking_pile, shortfall, onto

    def _compute(self, name: str):
        head, _, field = name.partition(".")
        state, engine = self.state, self.engine
        if head == "player":
            if field == "melded":
                if self.player == state.turn.player:
                    return state.turn.had_melded      # melds of this very turn do not count
                return state.players[self.player].melded
            if field == "hand_size":
                return len(state.players[self.player].hand)
        elif head == "turn":
            turn = state.turn
            if field == "took_pile":
                return turn.took_pile
            if field == "going_out":
                return self.going_out
            if field == "discarding":
                return self.discarding
            if field == "last_card":
                return self.last_card
            if field == "taking_pile":
                return self.taking_pile
            if field == "first":
                return turn.first
            if field == "retried":
                return turn.retried
            if field == "opening_shortfall":
                return self.shortfall
            if field == "opening":
                return not state.teams[self.team].opened
            if field.startswith("canastras_lost."):
                kind = field[len("canastras_lost."):]
                return sum(1 for k in turn.canastras_lost if k == kind)
        elif head == "stock":
            if field == "size":
                return len(state.stock)
            if field == "empty":
                return not state.stock
        elif head == "pile":
            pile = state.pile
            top = pile[-1] if pile else None
            if field == "size":
                return len(pile)
            if field == "top.wild":
                return top is not None and engine.is_wild(top)
            if field == "top.black_three":
                return top is not None and is_black_three(top)
            if field == "top.red_three":
                return top is not None and is_red_three(top)
            if field == "top.rank":
                return "none" if top is None or top == JOKER else rank_label(rank_of(top))
            if field == "onto.shape":
                melds = state.teams[self.team].melds
                if self.onto is None or not 0 <= self.onto < len(melds):
                    return "none"
                kind = engine.meld_kind(melds[self.onto].kind)
                return kind.shape if kind else "none"
            if field == "contains.wild":
                return not engine.wild_set.isdisjoint(pile)
            if field == "contains.red_three":
                return holds_red_three(pile)
            if field == "contains.black_three":
                return holds_black_three(pile)
        elif head == "batch":
            return self._batch(field)
        return super()._compute(name)

    def _batch(self, field: str):
        engine = self.engine
        if field == "points":
            return sum(engine.hand_points(cards) for _, cards in self.batch)
        if field == "clean_points":
            wild = engine.wild_set
            return sum(engine.hand_points(cards) for _, cards in self.batch if not any(c in wild for c in cards))
        if field == "melds":
            return len(self.batch)
        if field == "clean_melds":
            return sum(1 for _, cards in self.batch if not any(engine.is_wild(c) for c in cards))
        if field == "best_meld_points":
            return max((engine.hand_points(cards) for _, cards in self.batch), default=0)
        kinds = [engine.canastra_kind(kind, cards) for kind, cards in self.batch]  # new melds: no history
        if field == "canastras":
            return sum(1 for k in kinds if k is not None)
        if field.startswith("canastras."):
            wanted = field[len("canastras."):]
            return sum(1 for k in kinds if k == wanted)
        if field.startswith("canastras_from_hand."):
            wanted = field[len("canastras_from_hand."):]
            # the batch lists the turn's new melds in the order of turn.melds_laid
            turn = self.state.turn
            pile_at = turn.melds_laid.index(turn.pile_meld) if turn.pile_meld in turn.melds_laid else None
            return sum(1 for i, k in enumerate(kinds) if k == wanted and i != pile_at)
        raise KeyError("batch." + field)
