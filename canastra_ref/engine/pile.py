"""Taking the discard pile: when it is blocked, with which hand cards the top
card may start a new meld or join a team meld, and what the player may do with
the rest of the pile."""
from __future__ import annotations

from collections import Counter

from ..cards import holds_red_three
from . import opening, threes
from .act import Act
from .melding import add_to, lay_new, melded_by_adding
from .melds import MeldError, bridges, fit_new, split


def take(act: Act, with_cards: list[str], onto: int | None, end: str | None = None,
         kind: str | None = None) -> None:
    """Take the pile: the top card starts a new meld with `with_cards`, or joins
    team meld `onto` with them (a wild card going to an end goes to `end`); a
    new meld is of the meld kind `kind` where the action names one."""
    state = act.state
    if not state.pile:
        act.reject("pile.empty", "the discard pile is empty")
    if not state.stock and act.value("stock.exhausted") == "end":
        act.reject("stock.exhausted", "the stock is exhausted: the hand is over", "stock.exhausted")
    threes.start_play(act)
    if state.ended is not None:
        state.started = True
        return          # a dealt red three's replacement drew the stock's last card, and the hand ended there
    ctx = act.context(onto=onto)
    blocked = act.decide("pile.blocked", ctx, decisive=False)
    if blocked.value:
        act.reject("pile.blocked", f"the pile cannot be taken (top card {state.pile[-1]})", "pile.blocked", ctx=ctx)
    act.trace.add(blocked)
    original = state.pile           # kept as it was: the pile is replaced, not changed in place
    top = original[-1]
    state.pile = original[:-1]
    naturals, wilds = split(act.engine, with_cards)
    opening_move = not state.teams[act.team].opened
    opening.check_allowed(act)
    if onto is None:
        needs = act.decide("pile.take.min_hand_cards", ctx, decisive=False)
        if len(with_cards) < needs.value:
            act.reject("pile.too-few-hand-cards", f"the top card needs at least {needs.value} cards from the hand",
                       "pile.take.min_hand_cards", ctx=ctx)
        act.trace.add(needs)
    else:
        onto_meld = act.decide("pile.take.onto_meld", ctx, decisive=False)
        if not onto_meld.value:
            act.reject("pile.onto-meld-not-allowed", "the top card cannot be added to a meld on the table here",
                       "pile.take.onto_meld", ctx=ctx)
        act.trace.add(onto_meld)
        needs = act.decide("pile.take.onto_meld_hand_cards", ctx, decisive=False)
        needed = needs.value
        if len(with_cards) < needed:
            act.reject("pile.too-few-hand-cards", f"adding the top card to a meld needs {needed} cards from the hand "
                       f"with it", "pile.take.onto_meld_hand_cards", ctx=ctx)
        if needed:
            act.trace.add(needs)
    if onto is None:
        min_naturals = act.decide("pile.take.min_naturals", ctx, decisive=False)
        if len(naturals) < min_naturals.value:
            act.reject("pile.too-few-naturals", f"the top card needs {min_naturals.value} natural cards from the "
                       f"hand", "pile.take.min_naturals", ctx=ctx)
        if min_naturals.value:
            act.trace.add(min_naturals)
    max_wilds = act.decide("pile.take.max_wilds", ctx, decisive=False)
    top_wild = 1 if act.engine.is_wild(top) else 0
    if max_wilds.value is not None:
        if len(wilds) + top_wild > max_wilds.value:
            act.reject("pile.too-many-wilds", f"at most {max_wilds.value} wild card(s) may go with the top card",
                       "pile.take.max_wilds", ctx=ctx)
        act.trace.add(max_wilds)
    if onto is not None and needed:
        _check_block(act, top, with_cards, onto, ctx)
    act.take_from_hand(with_cards)
    if onto is None:
        # taking the pile with the last hand cards when the pile holds only its top is a going out
        empties = not act.hand and not state.pile
        state.turn_w().pile_meld = lay_new(act, with_cards + [top], going_out=empties, taking_pile=True,
                                           named=kind)
    else:
        state.turn_w().pile_meld = onto
        left = len(act.hand) + len(state.pile)      # the rest of the pile joins the hand
        before, _, layout = add_to(act, onto, [top] + with_cards, going_out=left == 0, last_card=left == 1,
                                   end=end, taking_pile=True)
        melded_by_adding(act, "layoff.melds" if with_cards else "pile.take.top_card_alone_melds", ctx)
        if layout is not None and not act.value("pile.take.wild_bridge", ctx, decisive=False):
            kind = act.engine.meld_kind(state.teams[act.team].melds[onto].kind)
            ranks = act.value(f"meld.{kind.name}.ranks", ctx, decisive=False)
            if bridges(act.engine, layout, before, top, ranks):
                act.reject("pile.wild-bridge", "a wild card would bridge the gap to the top card; meld it apart",
                           "pile.take.wild_bridge", ctx=ctx)
            act.decide("pile.take.wild_bridge", ctx)
    rest = state.pile
    turn = state.turn_w()
    hand_before = [*act.hand, *with_cards, top]
    threes_in_rest = holds_red_three(rest)     # only red threes taken with the pile move the stock or go down
    stock_before = list(state.stock) if threes_in_rest else None
    threes_before = list(state.teams[act.team].red_threes) if threes_in_rest else None
    act.hand.extend(rest)
    state.pile = []
    drawn = threes.from_pile(act, rest)
    laid = Counter(state.teams[act.team].red_threes) - Counter(threes_before) if threes_in_rest else None
    turn.hand_at_take = hand_before + drawn
    turn.took_pile = True
    turn.pile_cards = list((Counter(rest) - laid).elements()) if laid else _grouped(rest)
    if opening_move:
        turn.opening_undo = {"pile": original}      # what giving back a failed opening restores
        if drawn or laid:
            turn.opening_undo.update(stock=stock_before, red_threes=threes_before, drawn=drawn)
    state.started = True
    if state.ended is not None:
        return          # a red three's replacement drew the stock's last card, and the hand ended there
    turn.phase = "play"
    if not state.stock:
        if act.value("stock.exhausted") == "final-pile-take":
            turn.final = True


def _grouped(cards: list[str]) -> list[str]:
    """The cards with the copies of each together, in the order of their first
    copies: Counter(cards).elements(), which a pile of distinct cards (the most
    common) needs not be counted for."""
    return list(cards) if len(set(cards)) == len(cards) else list(Counter(cards).elements())


def _check_block(act: Act, top: str, with_cards: list[str], onto: int, ctx) -> None:
    """pile.take.block: the top card and the hand cards laid with it onto a
    meld must make a meld of that meld's kind on their own."""
    melds = act.state.teams[act.team].melds
    if not 0 <= onto < len(melds) or not act.value("pile.take.block", ctx, decisive=False):
        return
    kind = act.engine.meld_kind(melds[onto].kind)
    if kind is None:
        return
    cards = [top] + with_cards
    try:
        fit_new(act.engine, kind, cards, act.value(f"meld.{kind.name}.ranks", ctx, decisive=False))
    except MeldError as err:
        act.reject("pile.block-not-a-meld", f"{' '.join(cards)} make no {kind.name} of their own ({err.message})",
                   "pile.take.block", ctx=ctx)
    act.decide("pile.take.block", ctx)


def check_discard(act: Act, card: str) -> None:
    """A card received from the pile this turn may be discarded only where the spec allows."""
    turn = act.state.turn
    if not turn.took_pile or card not in turn.pile_cards:
        return
    if act.hand.count(card) > turn.pile_cards.count(card):
        return          # an identical copy from the hand is discarded
    ctx = act.context(batch=act.batch())
    if not act.value("pile.discard_from_pile", ctx, decisive=False):
        act.reject("pile.discard-not-allowed", f"{card} came with the pile and cannot be discarded this turn",
                   "pile.discard_from_pile", ctx=ctx)
