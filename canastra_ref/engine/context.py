"""The game facts of canastra_ref.dsl.facts, computed from a State.

A context is what a compiled DSL expression reads through `fact(name)`:
CardContext for the pile's upcard (MeldContext, for canastra kinds, is in rules),
TeamContext for scoring and canastra bonuses, ActionContext for the rules
that judge an action (team facts of the acting player's team, plus the facts
of the turn, the stock, the pile and the melds being laid), which an action
asks for as a LaterContext, made when a decision first reads a fact.
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


def _went_out(state: State, team: str) -> bool:
    ended = state.ended
    return bool(ended and ended.get("reason") == "went-out" and ended.get("player") in state.table.teams[team])


def _concealed_count(state: State, team: str, key: str) -> int:
    """A count the end of the hand records for a concealed going out (0 unless the team went out so)."""
    return state.ended.get(key, 0) if _went_out(state, team) and state.ended.get("concealed") else 0


def _hands(state: State, team: str):
    """The hands of the team's players, each with the player's state."""
    return [state.players[s] for s in state.table.teams[team]]


# team facts by field, each f(engine, state, team): looked up, not tried in turn,
# as contexts are made for every action and most read a fact or two
_TEAM_FACTS = {
    "score": lambda engine, state, team: state.teams[team].score,
    "opened": lambda engine, state, team: state.teams[team].opened,
    "melds": lambda engine, state, team: len(state.teams[team].melds),
    "canastras": lambda engine, state, team: len(team_canastras(engine, state, team)),
    "red_threes": lambda engine, state, team: len(state.teams[team].red_threes),
    "red_three_points": lambda engine, state, team: engine.hand_points(state.teams[team].red_threes),
    "table_points": lambda engine, state, team: sum(engine.hand_points(m.cards) for m in state.teams[team].melds),
    "canastra_bonus": lambda engine, state, team: canastra_bonus(engine, state, team)[0],
    "hand_points": lambda engine, state, team: sum(engine.hand_points(p.hand) for p in _hands(state, team)),
    "hand_points_of_melders": lambda engine, state, team: sum(engine.hand_points(p.hand) for p in _hands(state, team)
                                                              if p.melded),
    "players_without_melds": lambda engine, state, team: sum(1 for p in _hands(state, team) if not p.melded),
    "black_threes_in_hand": lambda engine, state, team: sum(1 for p in _hands(state, team) for c in p.hand
                                                            if is_black_three(c)),
    "red_threes_in_hand": lambda engine, state, team: sum(1 for p in _hands(state, team) for c in p.hand
                                                          if is_red_three(c)),
    "went_out": lambda engine, state, team: _went_out(state, team),
    "went_out_concealed": lambda engine, state, team: _went_out(state, team) and bool(state.ended.get("concealed")),
    "went_out_took_pile": lambda engine, state, team: _went_out(state, team) and bool(state.ended.get("took_pile")),
    "went_out_concealed_canastras": lambda engine, state, team: _concealed_count(state, team, "concealed_canastras"),
    "went_out_concealed_own_canastras": lambda engine, state, team: _concealed_count(state, team,
                                                                                    "concealed_own_canastras"),
    "exact_cuts": lambda engine, state, team: state.teams[team].exact_cuts,
    "unkept_answers": lambda engine, state, team: state.teams[team].unkept_answers,
    "misdeals": lambda engine, state, team: state.teams[team].misdeals,
    "opening_failures": lambda engine, state, team: state.teams[team].opening_failures,
    "size": lambda engine, state, team: len(state.table.teams[team]),
}


def _team_function(field: str):
    """f(engine, state, team) computing the team fact `field`, or KeyError."""
    compute = _TEAM_FACTS.get(field)
    if compute is not None:
        return compute
    if field.startswith("canastras."):
        kind = field[len("canastras."):]
        return lambda engine, state, team: sum(1 for _, _, k in team_canastras(engine, state, team) if k == kind)
    if field.startswith("canastras_lost."):
        kind = field[len("canastras_lost."):]
        return lambda engine, state, team: state.teams[team].canastras_lost.count(kind)
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
    # fact name -> f(context): a name is resolved once per process, not on every first read
    _functions: dict = {}

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
            compute = self._functions.get(name)
            if compute is None:
                compute = self._functions[name] = self._resolve(name)
            value = self._cache[name] = compute(self)
        return value

    @staticmethod
    def _resolve(name: str):
        """f(context) computing the fact `name`, or KeyError."""
        side, _, field = name.partition(".")
        if side == "team":
            compute = _team_function(field)
            return lambda ctx: compute(ctx.engine, ctx.state, ctx.team)
        if side == "opponents":
            compute = _team_function(field)
            return lambda ctx: _of_opponents(compute, ctx)
        if side == "hand" and field == "end":
            return lambda ctx: ctx.state.ended["reason"] if ctx.state.ended else "none"
        if side == "hand" and field == "went_out":
            return lambda ctx: bool(ctx.state.ended and ctx.state.ended["reason"] == "went-out")
        raise KeyError(name)


def _of_opponents(compute, ctx: TeamContext):
    """A team fact of the opponents together: any of theirs for a condition, else the sum."""
    values = [compute(ctx.engine, ctx.state, other) for other in ctx.state.table.opponents(ctx.team)]
    if values and isinstance(values[0], bool):
        return any(values)
    return sum(values)


class ActionContext(TeamContext):
    """Facts for judging an action of `player`. `batch` holds (kind, cards) of the
    melds started in the current turn, as they stand now (in the order of
    turn.melds_laid; one being laid in this action last). `meld`: the facts
    (MeldInfo) of the meld the action lays, read as meld.* where a setting's
    scope is action-meld."""
    __slots__ = ("player", "batch", "going_out", "discarding", "last_card", "taking_pile", "shortfall", "onto",
                 "meld")
    _functions: dict = {}          # as TeamContext's, for the facts of an action

    def __init__(self, engine: Engine, state: State, player: str, batch=(), going_out=False,
                 discarding=False, last_card=False, taking_pile=False, shortfall=0, onto=None, meld=None):
        self.engine, self.state, self.team = engine, state, state.table.team_of[player]
        self._cache = {}
        self._decided = {}
        self.player, self.batch = player, batch          # batch: read, never changed
        self.going_out, self.discarding, self.last_card = going_out, discarding, last_card
        self.taking_pile, self.shortfall, self.onto = taking_pile, shortfall, onto
        self.meld = meld

    @staticmethod
    def _resolve(name: str):
        compute = _ACTION_FACTS.get(name)
        if compute is not None:
            return compute
        if name.startswith("batch."):
            field = name[len("batch."):]
            return lambda ctx: ctx._batch(field)
        if name.startswith("turn.canastras_lost."):
            kind = name[len("turn.canastras_lost."):]
            return lambda ctx: ctx.state.turn.canastras_lost.count(kind)
        if name.startswith("meld."):
            field = name[len("meld."):]
            return lambda ctx: getattr(ctx.meld, field)
        return TeamContext._resolve(name)

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
        kinds = self._canastra_kinds()
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

    def _canastra_kinds(self) -> list[str | None]:
        """The canastra kind of each meld of the batch as it stands now: for a meld of the
        table, the one the table records, which the cards added to it later in the turn made
        of it (a kind may depend on the one before: meld.previous_kind); for one being laid
        in this action, not on the table yet, the one its cards make."""
        melds, laid = self.state.teams[self.team].melds, self.state.turn.melds_laid
        kinds = []
        for j, (kind, cards) in enumerate(self.batch):
            meld = melds[laid[j]] if j < len(laid) else None
            if meld is not None and meld.kind == kind and meld.cards == cards:
                kinds.append(meld.canastra)
            else:
                kinds.append(self.engine.canastra_kind(kind, cards))
        return kinds


class LaterContext:
    """An ActionContext made when first used (Act.context): most settings an action
    reads are decided alike in every state (Engine.fixed) and need none, and a
    context costs more to make than most actions spend deciding with it. It is
    made with the arguments given when it was asked for; its facts are read
    when first asked for either way. Made by Act.context, `_act` an
    engine.act.Act (whose state is its own for the whole action)."""
    __slots__ = ("_act", "_kw", "_made")

    def decision(self, path: str):
        return self.context().decision(path)

    def fact(self, name: str):
        return self.context().fact(name)

    def context(self) -> ActionContext:
        made = self._made
        if made is None:
            act = self._act
            made = self._made = ActionContext(act.engine, act.state, act.player, **self._kw)
        return made


def _player_melded(ctx: ActionContext) -> bool:
    turn = ctx.state.turn
    if ctx.player == turn.player:
        return turn.had_melded      # melds of this very turn do not count
    return ctx.state.players[ctx.player].melded


def _top(ctx: ActionContext) -> str | None:
    pile = ctx.state.pile
    return pile[-1] if pile else None


def _onto_shape(ctx: ActionContext) -> str:
    melds = ctx.state.teams[ctx.team].melds
    if ctx.onto is None or not 0 <= ctx.onto < len(melds):
        return "none"
    kind = ctx.engine.meld_kind(melds[ctx.onto].kind)
    return kind.shape if kind else "none"


# the facts of the action, the turn, the stock and the pile by name, each f(context)
# (batch.* and the patterned ones are resolved by ActionContext._resolve, team facts by TeamContext)
_ACTION_FACTS = {
    "player.melded": _player_melded,
    "player.hand_size": lambda ctx: len(ctx.state.players[ctx.player].hand),
    "turn.took_pile": lambda ctx: ctx.state.turn.took_pile,
    "turn.going_out": lambda ctx: ctx.going_out,
    "turn.discarding": lambda ctx: ctx.discarding,
    "turn.last_card": lambda ctx: ctx.last_card,
    "turn.taking_pile": lambda ctx: ctx.taking_pile,
    "turn.first": lambda ctx: ctx.state.turn.first,
    "turn.final": lambda ctx: ctx.state.turn.final,
    "turn.first_card_red_three": lambda ctx: ctx.state.turn.first_card_red_three,
    "turn.drew": lambda ctx: ctx.state.turn.phase == "play",
    "turn.asked_partner": lambda ctx: ctx.state.turn.asked is not None,
    "turn.retried": lambda ctx: ctx.state.turn.retried,
    "turn.opening_shortfall": lambda ctx: ctx.shortfall,
    "turn.opening": lambda ctx: not ctx.state.teams[ctx.team].opened,
    "stock.size": lambda ctx: len(ctx.state.stock),
    "stock.empty": lambda ctx: not ctx.state.stock,
    "pile.size": lambda ctx: len(ctx.state.pile),
    "pile.top.wild": lambda ctx: (top := _top(ctx)) is not None and ctx.engine.is_wild(top),
    "pile.top.black_three": lambda ctx: (top := _top(ctx)) is not None and is_black_three(top),
    "pile.top.red_three": lambda ctx: (top := _top(ctx)) is not None and is_red_three(top),
    "pile.top.rank": lambda ctx: "none" if (top := _top(ctx)) is None or top == JOKER else rank_label(rank_of(top)),
    "pile.onto.shape": _onto_shape,
    "pile.contains.wild": lambda ctx: not ctx.engine.wild_set.isdisjoint(ctx.state.pile),
    "pile.contains.red_three": lambda ctx: holds_red_three(ctx.state.pile),
    "pile.contains.black_three": lambda ctx: holds_black_three(ctx.state.pile),
}
