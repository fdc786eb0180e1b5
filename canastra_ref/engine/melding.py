"""Laying down new melds and adding cards to the team's melds, as actions."""
from __future__ import annotations

from .act import Act
from .melds import MeldError, extend, fit_new, split
from .rules import MeldKind
from .state import Meld

_RANK_REASONS = ("meld.rank-not-allowed", "meld.threes", "meld.colour-not-allowed")


def candidates(act: Act, cards: list[str]) -> list[MeldKind]:
    """Meld kinds worth trying for these cards, in the order the spec declares them."""
    naturals, wilds = split(act.engine, cards)
    ranks = {c[:-1] for c in naturals}
    out = []
    for kind in act.engine.meld_kinds:
        if kind.shape == "wilds" and not naturals:
            out.append(kind)
        elif kind.shape == "set" and naturals and len(ranks) == 1:
            out.append(kind)
        elif kind.shape == "sequence" and naturals:
            out.append(kind)
    # several naturals of one rank look like a set: its kinds' verdicts come first
    if len(naturals) > 1 and len(ranks) == 1:
        out.sort(key=lambda k: k.shape != "set")
    # cards that fit no shape get the most telling refusal of every kind
    return out or list(act.engine.meld_kinds)


def ranks_of(act: Act, kind: MeldKind, ctx) -> tuple[str, ...]:
    return act.value(f"meld.{kind.name}.ranks", ctx, decisive=False)


def classify(act: Act, cards: list[str], batch, going_out=False, discarding=False, last_card=False,
             taking_pile=False, named: str | None = None):
    """(kind, laid-out cards) for a new meld, or reject with the most relevant reason.
    `named`: the meld kind the action names, the only one tried; without it, the
    first candidate the cards form (the protocol's notation, PROTOCOL.md)."""
    kinds = [act.engine.meld_kind(named)] if named is not None else candidates(act, cards)
    if not kinds:
        act.reject("meld.no-kind", f"{' '.join(cards)} form no meld of this ruleset")
    ctx = act.context(batch=batch, going_out=going_out, discarding=discarding, last_card=last_card,
                      taking_pile=taking_pile)
    errors = []
    for kind in kinds:
        try:
            laid = fit_new(act.engine, kind, cards, ranks_of(act, kind, ctx), last_unplaced=taking_pile)
        except MeldError as err:
            errors.append((kind, err))
            continue
        # the meld's own facts (meld.*) are those of the cards as laid: described, with a context
        # to read them, only where a clause may read them (not where both settings, once read,
        # proved to be decided alike in every state: Engine.fixed)
        allowed_path, penalised_path = f"meld.{kind.name}.allowed", f"meld.{kind.name}.penalised"
        fixed = act.engine.fixed
        meld_ctx = None if fixed.get(allowed_path) is not None and fixed.get(penalised_path) is not None else \
            act.context(batch=batch, going_out=going_out, discarding=discarding, last_card=last_card,
                        taking_pile=taking_pile, meld=act.engine.describe(kind.name, laid))
        allowed = act.decide(allowed_path, meld_ctx, decisive=False)
        if not allowed.value:
            errors.append((kind, MeldError("meld.not-allowed-now", f"this {kind.name} may not be laid down",
                                           None, allowed)))
            continue
        act.trace.add(allowed)
        penalised = act.decide(penalised_path, meld_ctx, decisive=False)
        if penalised.value:
            act.trace.add(penalised)
            act.penalty = "meld.penalised"
        return kind, laid
    # the most telling error: from a kind of the shape the cards look like (the
    # first candidate's), preferring one whose ranks admit the cards
    shape = kinds[0].shape
    same_shape = [(k, e) for k, e in errors if k.shape == shape] or errors
    kind, err = next(((k, e) for k, e in same_shape if e.reason not in _RANK_REASONS), same_shape[0])
    _refuse(act, err, f"{' '.join(cards)}: {err.message}", ctx)


def _refuse(act: Act, err: MeldError, message: str, ctx) -> None:
    """Reject for a meld error, citing the setting (or the decision) that made it."""
    if err.decision is not None:
        act.trace.add(err.decision)
    act.reject(err.reason, message, *((err.setting,) if err.setting else ()), ctx=ctx)


def same_rank_meld(act: Act, kind: MeldKind, cards: list[str]) -> int | None:
    """The team's meld of this kind and rank, where the kind allows one per rank."""
    if not act.value(f"meld.{kind.name}.one_per_rank", decisive=False):
        return None
    wild = act.engine.wild_set
    rank = _natural_rank(cards, wild)
    for i, meld in enumerate(act.state.teams[act.team].melds):
        if meld.kind == kind.name:
            other = _natural_rank(meld.cards, wild)
            if other is not None and other == rank:
                return i
    return None


def _natural_rank(cards: list[str], wild) -> str | None:
    """The rank of the first natural card, None where all are wild."""
    for card in cards:
        if card not in wild:
            return card[:-1]
    return None


def keep_runs_apart(act: Act, kind: MeldKind, cards: list[str], index: int | None = None) -> None:
    """Refuse `cards` (meld `index` as it would be, or a new meld) where the kind
    keeps its melds of one suit apart and another of the team's melds of the kind
    already holds one of their natural cards (same rank, same suit)."""
    if kind.shape != "sequence":
        return
    disjoint = act.decide(f"meld.{kind.name}.disjoint_ranks", decisive=False)
    if not disjoint.value:
        return
    mine = set(split(act.engine, cards)[0])
    for i, meld in enumerate(act.state.teams[act.team].melds):
        if i == index or meld.kind != kind.name:
            continue
        common = sorted(mine & set(split(act.engine, meld.cards)[0]))
        if common:
            act.reject("meld.rank-in-other-run", f"{' '.join(common)} already in meld {i}; the team's "
                       f"{kind.name} melds of one suit share no rank", f"meld.{kind.name}.disjoint_ranks")
    act.trace.add(disjoint)


def lay_new(act: Act, cards: list[str], going_out=False, discarding=False, last_card=False,
            taking_pile: bool = False, named: str | None = None) -> int:
    """Lay one new meld from cards already taken from the hand; returns its index.
    `named`: the meld kind the action names (classify).
    Where a team keeps one meld per rank and already has this one, the cards
    join it when `taking_pile` (the pile's top card with its pair), else are refused."""
    batch = act.batch() + [("", cards)]
    kind, laid = classify(act, cards, batch, going_out, discarding, last_card, taking_pile, named)
    existing = same_rank_meld(act, kind, laid)
    if existing is not None:
        if not taking_pile:
            act.reject("meld.rank-already-melded", f"the team already has a meld of this rank (meld {existing}); "
                       f"add the cards to it", f"meld.{kind.name}.one_per_rank")
        act.decide(f"meld.{kind.name}.one_per_rank")
        add_to(act, existing, laid, going_out=going_out, last_card=last_card)
        act.state.player_w(act.player).melded = True       # a new meld, joined to its rank's
        return existing
    keep_runs_apart(act, kind, laid)
    return act.add_meld(Meld(kind.name, laid, act.engine.canastra_kind(kind.name, laid)))


def add_to(act: Act, index: int, cards: list[str], going_out: bool = False, last_card: bool = False,
           end: str | None = None, taking_pile: bool = False):
    """Add cards to team meld `index`; returns (old cards, new cards, layout).
    `going_out` / `last_card`: the action leaves the hand empty / one card.
    `end`: the end the action names for a wild card that goes to an end.
    `taking_pile`: the cards are the pile's top card and those laid with it."""
    melds = act.state.teams[act.team].melds
    if not 0 <= index < len(melds):
        act.reject("layoff.no-such-meld", f"the team has no meld {index} (it has {len(melds)})")
    meld = melds[index]
    kind = act.engine.meld_kind(meld.kind)
    if kind is None:
        act.reject("layoff.no-such-meld", f"meld {index} is of unknown kind {meld.kind!r}")
    ctx = act.context(taking_pile=taking_pile)
    if meld.canastra is not None:
        grow_ctx = act.context(going_out=going_out, last_card=last_card)
        if not act.value(f"canastra.{meld.canastra}.grows", grow_ctx, decisive=False):
            act.reject("layoff.canastra-closed", f"meld {index}, a canastra {meld.canastra}, takes no more cards "
                       f"now", f"canastra.{meld.canastra}.grows", ctx=grow_ctx)
        penalised = act.decide(f"canastra.{meld.canastra}.grows_penalised", grow_ctx, decisive=False)
        if penalised.value:
            act.trace.add(penalised)
            act.penalty = "layoff.canastra-penalised"
    if index == act.state.turn.pile_meld and any(act.engine.is_wild(c) for c in cards):
        if not act.value("pile.meld_takes_wilds", ctx, decisive=False):
            act.reject("pile.too-many-wilds", "no wild card may join the meld made with the pile this turn",
                       "pile.meld_takes_wilds", ctx=ctx)
    used: list[str] = []
    def shift() -> str:        # read only when a wild card gives way
        return act.value("wild.shift", ctx, decisive=False)

    def both_sides() -> str:   # read only where far-end meets cards added on both sides
        return act.value("wild.shift_both_sides", ctx, decisive=False)
    try:
        new_cards, layout = extend(act.engine, kind, meld.cards, cards, ranks_of(act, kind, ctx), used, shift, end,
                                   both_sides)
    except MeldError as err:
        _refuse(act, err, f"meld {index}: {err.message}", ctx)
    if used:                         # the settings that moved a wild card (most additions move none)
        for path in dict.fromkeys(used):
            act.decide(path, ctx)
    keep_runs_apart(act, kind, new_cards, index)
    if meld.canastra is None:
        _judge_grown(act, kind, index, cards, new_cards, going_out, last_card, taking_pile)
    before = list(meld.cards)        # also the meld as it was, kept in turn.touched_before (never changed)
    canastra = act.engine.canastra_kind(meld.kind, new_cards, meld.canastra)
    act.state.team_w(act.team).melds[index] = Meld(meld.kind, new_cards, canastra)
    turn = act.state.turn_w()
    if index not in turn.touched:
        turn.touched = [*turn.touched, index]
        if index not in turn.melds_laid:
            # a meld of an earlier turn, as it was: what a failed turn gives back (opening.give_back)
            turn.touched_before = [*turn.touched_before, {"meld": index, "cards": before, "canastra": meld.canastra,
                                                        "lost": []}]
    if meld.canastra is not None and canastra != meld.canastra:
        turn.canastras_lost = [*turn.canastras_lost, meld.canastra]
        act.state.team_w(act.team).canastras_lost.append(meld.canastra)
        if index in turn.melds_laid:
            turn.laid_lost = [*turn.laid_lost, {"meld": index, "kind": meld.canastra}]
        else:
            turn.touched_before = [{**r, "lost": [*r["lost"], meld.canastra]} if r["meld"] == index else r
                                   for r in turn.touched_before]
    if canastra is not None and meld.canastra is None and index not in turn.formed:
        turn.formed = [*turn.formed, index]
    return before, new_cards, layout


def melded_by_adding(act: Act, setting: str, ctx=None) -> None:
    """Cards added to a meld already on the table make the acting player one
    who melded (player.melded) where `setting` says so: layoff.melds for cards
    of his hand, pile.take.top_card_alone_melds for the pile's top card alone;
    read only where he had not melded (a meld laid earlier in the turn has)."""
    if not act.state.players[act.player].melded and act.value(setting, ctx or act.context()):
        act.state.player_w(act.player).melded = True


def _judge_grown(act: Act, kind: MeldKind, index: int, cards: list[str], new_cards: list[str], going_out: bool,
                 last_card: bool, taking_pile: bool) -> None:
    """Cards added to a meld that was no canastra, judged by the meld they make
    (meld.<kind>.grows, meld.<kind>.grows_penalised): an addition can make at
    once what a canastra's own rules judge card by card (canastra.<kind>.grows)."""
    grows, grows_penalised = f"meld.{kind.name}.grows", f"meld.{kind.name}.grows_penalised"
    fixed = act.engine.fixed        # decided alike in every state (most rulesets): no meld facts to work out
    info = None if fixed.get(grows) is not None and fixed.get(grows_penalised) is not None \
        else act.engine.describe(kind.name, new_cards)
    ctx = act.context(going_out=going_out, last_card=last_card, taking_pile=taking_pile, meld=info)
    if not act.value(grows, ctx, decisive=False):
        act.reject("layoff.not-allowed-now", f"meld {index} may not take {' '.join(cards)}", grows, ctx=ctx)
    penalised = act.decide(grows_penalised, ctx, decisive=False)
    if penalised.value:
        act.trace.add(penalised)
        act.penalty = "layoff.penalised"
