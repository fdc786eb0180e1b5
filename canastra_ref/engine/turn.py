"""Turn flow: drawing (and the first player's redraw), discarding, ending a
turn without a discard, passing the turn, the end of the stock, and
challenging a short opening."""
from __future__ import annotations

from . import going_out, opening
from .act import Act
from .pile import check_discard
from .state import Turn
from .threes import draw_one


def draw(act: Act) -> None:
    state, turn = act.state, act.state.turn
    if turn.phase == "play":
        _give_pile_back(act)
    state.started = True
    if not state.stock:
        act.decide("stock.exhausted")
        going_out.end_hand(act, "stock-exhausted")
        return
    count = act.value("draw.cards")
    for _ in range(count):
        card = draw_one(act)
        if card is None:
            break
        turn.drawn.append(card)
    if state.ended is None and not turn.drawn:
        # red threes took the last cards of the stock: the player must draw from an empty stock
        act.decide("stock.exhausted")
        going_out.end_hand(act, "stock-exhausted")
    if state.ended is None:
        turn.phase = "play"


def _give_pile_back(act: Act) -> None:
    """After a pile taken for the opening, give it back and draw instead."""
    turn = act.state.turn
    if not (turn.took_pile and turn.opening_undo is not None):
        act.reject("turn.already-drew", "the player has already drawn this turn")
    if not act.value("opening.retry_with_stock_draw"):
        act.reject("pile.no-retry", "the pile cannot be given back for a stock draw", "opening.retry_with_stock_draw")
    if opening.failure(act) is None:
        act.reject("pile.no-retry", "the opening made with the pile reaches the minimum: there is no miscount to "
                   "make good", "opening.retry_with_stock_draw")
    opening.give_back(act)
    act.events.append("draw.stock-instead-of-pile")


def redraw(act: Act) -> None:
    state, turn = act.state, act.state.turn
    if not act.value("draw.first_redraw"):
        act.reject("redraw.not-allowed", "this ruleset has no redraw of the first card", "draw.first_redraw")
    if not turn.first or turn.redrawn or turn.took_pile or len(turn.drawn) != 1 or turn.melds_laid or turn.touched:
        act.reject("redraw.not-allowed", "only the first player, right after drawing the first card, may reject it",
                   "draw.first_redraw")
    card = turn.drawn[0]
    act.hand.remove(card)
    if act.value("draw.rejected_card") == "aside":
        state.aside.append(card)
    else:
        state.pile.append(card)
    turn.redrawn = True
    turn.drawn = []
    kept = draw_one(act)
    if kept is not None:
        turn.drawn.append(kept)


def discard(act: Act, card: str) -> str:
    """Discard and pass the turn; returns the reason code of the outcome."""
    state, turn = act.state, act.state.turn
    if turn.final:
        act.reject("turn.no-discard-now", "the stock is exhausted: this turn ends without a discard",
                   "stock.exhausted")
    if card not in act.hand:
        act.reject("card.not-in-hand", f"{card} is not in {act.player}'s hand")
    check_discard(act, card)
    last = len(act.hand) == 1
    unkept = turn.asked == "yes" and not last
    if last:
        act.hand.remove(card)
        going_out.check(act, discarding=True)
        act.hand.append(card)
    outcome = _judge_opening(act, going_out_now=last, discarding=True, discard=card)
    if outcome in ("opening.below-minimum", "opening.no-clean-meld", "opening.single-meld-below-minimum"):
        if last:
            act.reject("going-out.not-allowed", "the melds of this turn fail the opening, so the player "
                       "cannot go out", "opening.minimum", ctx=act.context(batch=act.batch(), going_out=True,
                                                                            discarding=True))
        if card not in act.hand:
            act.reject("pile.discard-not-allowed", f"{card} went back with the pile; discard a card from the hand")
    act.hand.remove(card)
    state.pile.append(card)
    if last:
        going_out.went_out(act, discarding=True)
        return "going-out.with-discard"
    if unkept:
        # the answer binds, but nothing can force cards down: the count is kept for scoring
        state.team_w(act.team).unkept_answers += 1
        act.decide("going_out.ask_partner")
        pass_turn(act)
        return "going-out.answer-not-followed"
    pass_turn(act)
    return outcome or "discard.made"


def end_turn(act: Act) -> str:
    """End the final turn of an exhausted stock, which has no discard."""
    if not act.state.turn.final:
        act.reject("turn.discard-required", "the turn must end with a discard", "draw.cards")
    outcome = _judge_opening(act, going_out_now=False, discarding=False)
    act.decide("stock.exhausted")
    going_out.end_hand(act, "stock-exhausted")
    return outcome if outcome not in (None, "opening.made") else "hand.ended.turn-ended"


def _judge_opening(act: Act, going_out_now: bool, discarding: bool, discard: str | None = None) -> str | None:
    """Judge this turn's melds as an opening; returns None (nothing to judge),
    'opening.made', a failure reason (penalty applied), or 'opening.short-pending'."""
    state = act.state
    team = state.team_w(act.team)
    was_open = team.opened
    failure = opening.failure(act, going_out=going_out_now, discarding=discarding)
    if failure is None:
        if not was_open and act.batch():
            team.opened = True
            return "opening.made"
        return None
    if failure == "opening.below-minimum" and not going_out_now and \
            act.value("opening.short_stands_unchallenged"):
        state.pending = {"player": act.player, "team": act.team, "melds": list(state.turn.melds_laid),
                         "undo": state.turn.opening_undo, "failures_before": team.opening_failures}
        team.opened = True
        act.events.append("opening.short-pending")
        return "opening.made"
    opening.give_back(act)
    opening.penalise(act)
    return failure


def pass_turn(act: Act) -> None:
    state = act.state
    nxt = state.table.next(act.player)
    state.turn = Turn(player=nxt, phase="draw", had_melded=state.players[nxt].melded)
    if not state.stock and act.value("stock.exhausted", decisive=False) == "end":
        act.decide("stock.exhausted")
        going_out.end_hand(act, "stock-exhausted")


def settle_pending(act: Act) -> None:
    """The next player plays on: a short opening awaiting challenge now stands."""
    if act.state.pending is not None:
        act.state.pending = None
        act.decide("opening.short_stands_unchallenged")
        act.events.append("opening.short-unchallenged")


def challenge(act: Act) -> None:
    state = act.state
    pending = state.pending
    if pending is None:
        act.reject("challenge.nothing-to-challenge", "there is no short opening to challenge")
    if act.player != state.turn.player or state.turn.phase != "draw":
        act.reject("challenge.not-yours", "only the next player, before playing, may challenge",
                   "opening.short_stands_unchallenged")
    offender = pending["player"]
    team = state.team_w(pending["team"])
    hand = state.player_w(offender).hand
    for index in sorted(pending["melds"], reverse=True):
        hand.extend(team.melds.pop(index).cards)
    undo = pending.get("undo")
    if undo is not None:
        for card in undo["pile"]:
            if card in hand:
                hand.remove(card)
        state.pile = list(undo["pile"]) + state.pile
    team.opened = False
    state.player_w(offender).melded = False
    state.pending = None
    offender_act = Act(act.engine, state, offender)
    offender_act.trace = act.trace
    opening.penalise(offender_act)
    act.decide("opening.short_stands_unchallenged")
