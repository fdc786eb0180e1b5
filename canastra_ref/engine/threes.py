"""Red threes: laid down and replaced when dealt, drawn or taken with the
pile, late ones, and a red three as the last card of the stock."""
from __future__ import annotations

from ..cards import holds_red_three, is_red_three
from .act import Act
from .going_out import end_hand, end_if_stock_drawn_out


def draw_one(act: Act) -> str | None:
    """Draw one card for the acting player, laying down and replacing red
    threes as the spec says. Returns the card kept, or None when the stock ran
    out (the hand may have ended)."""
    state = act.state
    while state.stock:
        card = state.stock_w().pop(0)
        if is_red_three(card) and act.value("red_three.replace", decisive=False):
            if not state.stock and act.value("red_three.last_card_ends_hand"):
                if act.value("red_three.last_card_laid"):
                    state.team_w(act.team).red_threes.append(card)
                else:
                    act.hand.append(card)
                end_hand(act, "red-three-last", act.player)
                return None
            act.decide("red_three.replace")
            state.team_w(act.team).red_threes.append(card)
            act.events.append(f"red-three.replaced:{card}")
            continue
        act.hand.append(card)
        return card
    return None


def start_play(act: Act) -> None:
    """Play starts (the first draw or pile take of the hand): where dealt red
    threes go down automatically, every one still in a hand is laid down and
    replaced, in the order of play from the first player. A replacement is a
    draw like any other: the stock's last card ends the hand where the spec
    says so (red_three.last_card_ends_hand, stock.exhausted = last-card-ends),
    and the caller then plays nothing more; so too, under draw.short_stock, where
    a replacement is owed from an empty stock (end_if_owed)."""
    state = act.state
    if state.started or act.value("red_three.dealt", decisive=False) != "automatic":
        return
    replaced = owed = False
    for seat in state.table.from_dealer(state.dealer):
        hand = state.players[seat].hand
        if not holds_red_three(hand):
            continue
        replaced = True
        held = [c for c in hand if is_red_three(c)]
        holder = Act(act.engine, state, seat)
        holder.trace, holder.events = act.trace, act.events
        for card in held:
            holder.take_from_hand([card])
            state.team_w(holder.team).red_threes.append(card)
            act.events.append(f"red-three.replaced:{card}")
            owed = draw_one(holder) is None or owed
            if state.ended is not None:
                act.decide("red_three.dealt")
                return
        act.decide("red_three.dealt")
    if replaced:
        end_if_owed(act, owed)
        end_if_stock_drawn_out(act)


def end_if_owed(act: Act, owed: bool) -> None:
    """Where the stock ran out before every red three laid down was replaced (it
    was empty, or held fewer cards), whether the three was dealt, taken with the
    pile or exchanged late, or before the first player had the card that takes
    the place of the one he turned down (turns.redraw): each three has gone down,
    and draw.short_stock says whether the player plays on or the hand ends, as he
    must draw from an empty stock."""
    if owed and act.state.ended is None and act.value("draw.short_stock") == "ends-hand":
        act.decide("stock.exhausted")
        end_hand(act, "stock-exhausted")


def from_pile(act: Act, cards: list[str]) -> list[str]:
    """Red threes among the cards just taken with the pile (already in the hand):
    laid down, and replaced, as red_three.with_pile says; a replacement owed
    from an empty stock is draw.short_stock's (end_if_owed). Returns the cards
    drawn to replace them."""
    threes = [c for c in cards if is_red_three(c)] if holds_red_three(cards) else []
    rule = act.value("red_three.with_pile", decisive=False) if threes else "keep"
    if rule == "keep":
        return []
    act.decide("red_three.with_pile")
    drawn = []
    owed = False
    for card in threes:
        act.take_from_hand([card])
        act.state.team_w(act.team).red_threes.append(card)
        act.events.append(f"red-three.laid-down:{card}")
        if rule == "replace":
            kept = draw_one(act)
            if kept is not None:
                drawn.append(kept)
            else:
                owed = True
    end_if_owed(act, owed)
    if rule == "replace":
        end_if_stock_drawn_out(act)
    return drawn


# what a held red three must become before its holder's turn ends, by red_three.late
_MUST = {"lay-down": ("red-three.must-lay-down", "laid down"),
         "replace-on-turn": ("red-three.must-exchange", "exchanged")}


def check_none_held(act: Act) -> None:
    """Where a red three held once play has started must be laid down or
    replaced on its holder's turn, the turn cannot end (nor the three be
    discarded) while he holds one."""
    if not holds_red_three(act.hand):
        return
    must = _MUST.get(act.value("red_three.late", decisive=False))
    if must is not None:
        act.reject(must[0], f"a red three in the hand must be {must[1]} before the turn ends",
                   "red_three.late")


def to_lay_down(act: Act) -> list[str]:
    """The red threes in the hand that must leave it, unreplaced, before the
    turn ends (red_three.late = lay-down): cards that cannot end the turn."""
    held = [c for c in act.hand if is_red_three(c)] if holds_red_three(act.hand) else []
    if not held or act.value("red_three.late", decisive=False) != "lay-down":
        return []
    return held


def replace(act: Act, card: str) -> None:
    """Exchange a red three from the hand: in the window before play starts,
    or later on the holder's turn where the spec allows it; a replacement owed
    from an empty stock is draw.short_stock's (end_if_owed)."""
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
    elif act.value("red_three.dealt") == "keep":
        act.reject("red-three.kept", "a dealt red three stays in the hand", "red_three.dealt")
    elif act.value("red_three.exchange_in_order"):
        for seat in state.table.from_dealer(state.dealer):
            if seat == act.player:
                break
            if holds_red_three(state.players[seat].hand):
                act.reject("red-three.out-of-order", f"{seat} exchanges before {act.player} (the dealer is last)",
                           "red_three.exchange_in_order")
    act.take_from_hand([card])
    act.decide("red_three.replace")
    state.team_w(act.team).red_threes.append(card)
    end_if_owed(act, draw_one(act) is None)
    end_if_stock_drawn_out(act)


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
