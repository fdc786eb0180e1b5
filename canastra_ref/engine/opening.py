"""The opening: the first melds of a team in a hand.

The melds a player lays while the team has not opened are provisional; the
opening is judged when the turn ends (on the discard, on going out, or when
the last turn ends without a discard), against opening.minimum raised by the
ladder for each failed opening, turn.clean_meld and opening.single_meld. A
failed opening gives the melds back to the hand (and the pile back to the
table if it was taken for it) and moves the team up the ladder.
"""
from __future__ import annotations

from collections import Counter

from .act import Act


def minimum(act: Act, ctx) -> int:
    base = act.value("opening.minimum", ctx)
    failures = act.state.teams[act.team].opening_failures
    if base > 0 and failures:
        ladder = act.value("opening.ladder")
        if ladder is not None:
            return ladder.after(base, failures)
    return base


def failure(act: Act, going_out: bool = False, discarding: bool = False) -> str | None:
    """The reason the melds of this turn fail the opening rules, or None."""
    batch = act.batch()
    if not batch:
        return None
    ctx = act.context(batch=batch, going_out=going_out, discarding=discarding)
    if not act.state.teams[act.team].opened:
        needed = minimum(act, ctx)
        if act.value("opening.single_meld", ctx, decisive=False):
            best = max(act.engine.hand_points(cards) for _, cards in batch)
            if best < needed:
                act.decide("opening.single_meld", ctx)
                return "opening.single-meld-below-minimum"
        counted = "batch.clean_points" if act.value("opening.counts", decisive=False) == "clean-melds" \
            else "batch.points"
        points = ctx.fact(counted) - _pile_rest_points(act, batch)
        if points < needed:
            act.decide("opening.counts")
            return "opening.below-minimum"
    if act.value("turn.clean_meld", ctx, decisive=False):
        if not any(not any(act.engine.is_wild(c) for c in cards) for _, cards in batch):
            act.decide("turn.clean_meld", ctx)
            return "opening.no-clean-meld"
    return None


def _pile_rest_points(act: Act, batch) -> int:
    """Points of the pile's rest melded this turn, where they do not count
    (opening.pile_cards_count = no): the cards the player could not have melded
    from the hand, the hand cards laid with the top card and the top card."""
    turn = act.state.turn
    if turn.hand_at_take is None or act.value("opening.pile_cards_count", decisive=False):
        return 0
    act.decide("opening.pile_cards_count")
    melded = Counter(card for _, cards in batch for card in cards)
    return sum(act.engine.card_points(c) * n for c, n in (melded - Counter(turn.hand_at_take)).items())


def give_back(act: Act) -> None:
    """Return this turn's provisional melds to the hand and the pile to the table."""
    state, turn = act.state, act.state.turn
    melds = state.team_w(act.team).melds
    for index in sorted(turn.melds_laid, reverse=True):
        act.hand.extend(melds.pop(index).cards)
    turn.melds_laid.clear()
    turn.touched.clear()
    turn.formed.clear()
    turn.pile_meld = None
    turn.hand_at_take = None
    undo = turn.opening_undo
    if undo is not None:
        hand = Counter(act.hand)
        for card in undo["pile"]:
            if hand[card]:
                hand[card] -= 1
                act.hand.remove(card)
        state.pile = list(undo["pile"]) + state.pile
        turn.pile_cards.clear()
        turn.took_pile = False
        turn.opening_undo = None
    state.player_w(act.player).melded = turn.had_melded


def penalise(act: Act) -> None:
    """Charge a failed opening: the ladder step, and the bar where the spec has one."""
    team = act.state.team_w(act.team)
    if act.value("opening.penalty_applies") == "next-hand":
        # each error adds a step to those already owed (treze valor.14)
        team.carried_failures = (team.carried_failures or team.opening_failures) + 1
    else:
        team.opening_failures += 1
    act.decide("opening.ladder")
    if act.value("opening.failure_bars_player"):
        act.state.player_w(act.player).barred = True
