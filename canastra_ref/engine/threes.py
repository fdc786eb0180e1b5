"""Red threes: laid down and replaced when dealt or drawn, late ones, and a red
three as the last card of the stock."""
from __future__ import annotations

from ..cards import is_red_three
from .act import Act
from .going_out import end_hand


def draw_one(act: Act) -> str | None:
    """Draw one card for the acting player, laying down and replacing red
    threes as the spec says. Returns the card kept, or None when the stock ran
    out (the hand may have ended)."""
    state = act.state
    while state.stock:
        card = state.stock_w().pop(0)
        if is_red_three(card) and act.value("red_three.replace", decisive=False):
            act.decide("red_three.replace")
            state.team_w(act.team).red_threes.append(card)
            act.events.append(f"red-three.replaced:{card}")
            if not state.stock and act.value("red_three.last_card_ends_hand"):
                end_hand(act, "red-three-last", act.player)
                return None
            continue
        act.hand.append(card)
        return card
    return None


def replace(act: Act, card: str) -> None:
    """Exchange a red three from the hand: in the window before play starts,
    or later on the holder's turn where the spec allows it."""
    if not is_red_three(card):
        act.reject("card.not-a-red-three", f"{card} is not a red three")
    state = act.state
    if state.started:
        late = act.value("red_three.late")
        if late != "replace-on-turn":
            act.reject("red-three.window-closed", "red threes can only be exchanged before the first draw",
                       "red_three.late")
        if state.turn.player != act.player:
            act.reject("red-three.not-your-turn", "a late red three is exchanged on its holder's turn",
                       "red_three.late")
    elif act.value("red_three.exchange_in_order"):
        for seat in state.table.from_dealer(state.dealer):
            if seat == act.player:
                break
            if any(is_red_three(c) for c in state.players[seat].hand):
                act.reject("red-three.out-of-order", f"{seat} exchanges before {act.player} (the dealer is last)",
                           "red_three.exchange_in_order")
    act.take_from_hand([card])
    act.decide("red_three.replace")
    state.team_w(act.team).red_threes.append(card)
    draw_one(act)


def lay_down(act: Act, card: str) -> None:
    """Lay down a red three that was not exchanged in time, with no replacement."""
    if not is_red_three(card):
        act.reject("card.not-a-red-three", f"{card} is not a red three")
    if not act.state.started:
        act.reject("red-three.window-closed", "before play starts a red three is exchanged, not just laid down",
                   "red_three.replace")
    if act.value("red_three.late") != "lay-down":
        act.reject("red-three.window-closed", "this ruleset does not lay late red threes down", "red_three.late")
    if act.state.turn.player != act.player:
        act.reject("red-three.not-your-turn", "a late red three is laid down on its holder's turn", "red_three.late")
    act.take_from_hand([card])
    act.state.team_w(act.team).red_threes.append(card)
