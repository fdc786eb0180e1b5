"""Turn flow: drawing (and the first player's redraw), discarding, ending a
turn without a discard (the last turn of an exhausted stock, or a turn with no
legal discard), passing the turn, the end of the stock. The opening a turn's
melds make is judged in opening.py."""
from __future__ import annotations

from . import going_out, opening, threes
from .act import Act
from .pile import check_discard


def draw(act: Act) -> None:
    state = act.state
    if state.turn.phase == "play":
        opening.give_pile_back(act)
    turn = state.turn_w()
    threes.start_play(act)
    state.started = True
    if state.ended is not None:
        return          # a dealt red three's replacement drew the stock's last card, and the hand ended there
    if not state.stock:
        act.decide("stock.exhausted")
        going_out.end_hand(act, "stock-exhausted")
        return
    count = act.value("draw.cards")
    for _ in range(count):
        laid = len(state.teams[act.team].red_threes)
        card = threes.draw_one(act)
        if not turn.drawn and len(state.teams[act.team].red_threes) > laid:
            turn.first_card_red_three = True    # the first card was a red three: the card kept replaced it
        if card is None:
            break
        turn.drawn = [*turn.drawn, card]
    if state.ended is None and len(turn.drawn) < count and act.value("draw.short_stock") == "ends-hand":
        # the stock ran out in the middle of the draw (red threes may have taken its last
        # cards): the player needs a card from an empty stock
        act.decide("stock.exhausted")
        going_out.end_hand(act, "stock-exhausted")
    else:
        going_out.end_if_stock_drawn_out(act)
    if state.ended is None:
        turn.phase = "play"


def redraw(act: Act) -> None:
    state, turn = act.state, act.state.turn_w()
    # judged in the turn's context: a rulebook may deny it where the first card drawn was a red three
    # (turn.first_card_red_three), the card in hand being that card's replacement
    ctx = act.context()
    if not act.value("draw.first_redraw", ctx):
        act.reject("redraw.not-allowed", "the ruleset does not let the player reject this card", "draw.first_redraw",
                   ctx=ctx)
    if not turn.first or turn.redrawn or turn.took_pile or len(turn.drawn) != 1 or turn.melds_laid or turn.touched:
        act.reject("redraw.not-allowed", "only the first player, right after drawing the first card, may reject it",
                   "draw.first_redraw", ctx=ctx)
    card = turn.drawn[0]
    act.hand.remove(card)
    if act.value("draw.rejected_card") == "aside":
        state.aside_w().append(card)
    else:
        state.pile_w().append(card)
    turn.redrawn = True
    turn.drawn = []
    kept = threes.draw_one(act)
    if kept is not None:
        turn.drawn = [*turn.drawn, kept]
    # the card he draws in its place is owed where the stock ran out (it was empty, or its
    # last card was a red three laid down): draw.short_stock, as for the turn's own draw
    threes.end_if_owed(act, kept is None)
    going_out.end_if_stock_drawn_out(act)


def discard(act: Act, card: str) -> str:
    """Discard and pass the turn; returns the reason code of the outcome."""
    state, turn = act.state, act.state.turn
    if turn.final:
        act.reject("turn.no-discard-now", "the stock is exhausted: this turn ends without a discard",
                   "stock.exhausted")
    hand = act.hand
    last = len(hand) == 1
    # where the melds of a failed opening go back to the hand before the discard (opening.failure_discard;
    # before a last card's discard is judged, opening.short_last_discard), the discard may be any card
    # of the hand they come back to
    taken_back = last and opening.taken_back_before_going_out(act)
    if card not in hand:
        # a card of the turn's melds, or one it added to an earlier meld that goes back with them
        melded = any(card in cards for _, cards in act.batch()) \
            or card in opening.returned_layoffs(act.engine, state)
        order = opening.failure_discard(act) if melded and not last else None
        if order is not None:
            act.trace.add(order)        # the clause that allows, or refuses, a card of the melds
        if not (melded and (taken_back or (order is not None and order.value == "after-return"))):
            act.reject("card.not-in-hand", f"{card} is not in {act.player}'s hand")
    threes.check_none_held(act)
    check_discard(act, card)
    if taken_back:
        # the failed opening's melds go back first: the discard no longer empties the hand
        outcome = opening.judge(act, going_out_now=True, discarding=True)
        last = False
    else:
        if last:
            hand.remove(card)
            going_out.check(act, discarding=True)
            hand.append(card)
        outcome = opening.judge(act, going_out_now=last, discarding=True)
    if outcome in opening.FAILURES:
        if last:
            # a team that had not opened: the discard was judged as a going out first, refused with the
            # reason of the failure, as a going out without a discard is (actions._after_melding)
            act.reject(outcome, "the melds of this turn fail the opening, so the player cannot go out",
                       *opening.failed_rule(outcome), *opening.order_of_judgement(act),
                       ctx=act.context(batch=act.batch(), going_out=True, discarding=True))
        if opening.turn_restarted(act):
            return outcome          # nothing is discarded
        if card not in hand:
            act.reject("pile.discard-not-allowed", f"{card} went back with the pile; discard a card from the hand")
    hand.remove(card)
    state.pile_w().append(card)
    state.player_w(act.player).discarded = True
    if last:
        going_out.went_out(act, discarding=True)
        return "going-out.with-discard"
    if turn.asked == "yes":
        # told yes, the player ends the turn without going out (a discard that the melds of a failed
        # opening, gone back to the hand, kept from being his last card included): the answer binds,
        # but nothing can force cards down, so the count is kept for scoring; a failed opening's
        # penalty is the verdict still
        state.team_w(act.team).unkept_answers += 1
        going_out.cite_question(act)
        pass_turn(act)
        return outcome if outcome in opening.FAILURES else "going-out.answer-not-followed"
    pass_turn(act)
    return outcome or "discard.made"


def end_turn(act: Act, can_discard) -> str:
    """End a turn without a discard: the final turn of an exhausted stock, or a
    turn in which the player may discard none of his cards
    (turn.end_without_discard; `can_discard()` tells whether some discard is
    legal)."""
    if not act.state.turn.final:
        if not act.value("turn.end_without_discard", decisive=False) or can_discard():
            act.reject("turn.discard-required", "the turn must end with a discard", "draw.cards",
                       "turn.end_without_discard")
        act.decide("turn.end_without_discard")
        outcome = opening.judge(act, going_out_now=False, discarding=False)
        if opening.turn_restarted(act):
            return outcome
        pass_turn(act)
        if outcome not in (None, "opening.made"):
            return outcome
        return "hand.ended.turn-ended" if act.state.ended is not None else "turn.ended-without-discard"
    outcome = opening.judge(act, going_out_now=False, discarding=False)
    act.decide("stock.exhausted")
    going_out.end_hand(act, "stock-exhausted")
    return outcome if outcome not in (None, "opening.made") else "hand.ended.turn-ended"


def pass_turn(act: Act) -> None:
    state = act.state
    nxt = state.table.next(act.player)
    state.start_turn(nxt, state.players[nxt].melded)
    for name, team in state.teams.items():
        if nxt in team.pending_failures:
            # a failed opening charged at this player's last turn is in force from this one
            owed = state.team_w(name)
            owed.opening_failures += owed.pending_failures.count(nxt)
            owed.pending_failures = [s for s in owed.pending_failures if s != nxt]
    if not state.stock and act.value("stock.exhausted", decisive=False) == "end":
        act.decide("stock.exhausted")
        going_out.end_hand(act, "stock-exhausted")
