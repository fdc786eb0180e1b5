"""Cards and the deal: a fresh hand, the seeded shuffle and deal, the exact
cut and the misdeal, and the next hand of a game."""
from __future__ import annotations

import random
from collections import Counter

from ..cards import full_deck
from .act import Act
from .completion import fill_key
from .context import CardContext
from .rules import Engine
from .state import PlayerState, State, TeamState, Turn


def new_hand(engine: Engine, dealer: str | None = None, scores: dict[str, int] | None = None,
             carried: dict[str, int] | None = None) -> State:
    """A hand waiting to be dealt: every card in the stock, in canonical order."""
    table = engine.table
    dealer = dealer or table.order[-1]
    first = table.next(dealer)
    teams = {t: TeamState(score=(scores or {}).get(t, 0), opening_failures=(carried or {}).get(t, 0))
             for t in table.teams}
    return State(table=table, dealer=dealer, turn=Turn(player=first, phase="deal", first=True),
                 players={s: PlayerState() for s in table.seats}, teams=teams,
                 stock=full_deck(*engine.deck), pile=[], started=False)


def deal(act: Act, seed: int | None = None, deck: list[str] | None = None) -> None:
    """Deal from a seeded shuffle of every card, or from a stated order: `deck`
    lists the cards from the top, the rest following in the fill order of
    completion.py. Cards are dealt one at a time in the order of play, starting
    after the dealer; the rest is the stock, its top card first."""
    state = act.state
    cards = state.stock + state.pile + state.aside
    for seat in state.table.seats:
        player = state.player_w(seat)
        cards += player.hand
        player.hand.clear()
        player.melded, player.barred, player.discarded = False, False, False
    for name in state.table.teams:
        team = state.team_w(name)
        cards += team.red_threes
        for meld in team.melds:
            cards += meld.cards
        team.red_threes, team.melds, team.opened = [], [], False
    if deck is None:
        cards.sort()
        random.Random(seed).shuffle(cards)
        order = cards
    else:
        rest = Counter(cards)
        rest.subtract(Counter(deck))
        if any(n < 0 for n in rest.values()):
            extra = sorted(c for c, n in rest.items() if n < 0)
            act.reject("action.malformed", f"the deck order names more copies than the deck holds: {', '.join(extra)}")
        order = list(deck) + sorted(rest.elements(), key=fill_key)
    count = act.value("deal.cards")
    act.decide("play.direction")
    seats = state.table.from_dealer(state.dealer)
    dealt = len(seats) * count
    for first, seat in enumerate(seats):
        # one card at a time round the table: every len(seats)-th card of the dealt ones, from the seat's own
        state.player_w(seat).hand += order[first:dealt:len(seats)]
    state.stock, state.pile, state.aside = order[dealt:], [], []
    if act.value("pile.start") == "upcard":
        while state.stock:
            card = state.stock_w().pop(0)
            state.pile_w().append(card)
            if not act.value("pile.upcard_covered", CardContext(act.engine, card)):
                break
    act.decide("play.first_player")
    state.turn = Turn(player=seats[0], phase="draw", first=True)
    state.started = False


def exact_cut(act: Act) -> None:
    """The cutter cut exactly the cards to be dealt: one cut a deal, by the
    player deal.cutter names where the rulebook names one."""
    state = act.state
    if any(team.exact_cuts for team in state.teams.values()):
        act.reject("deal.already-cut", "the deck is cut once a deal, and an exact cut is already recorded")
    cutter = cutter_of(state, act.value("deal.cutter"))
    if cutter is not None and act.player != cutter:
        act.reject("deal.not-the-cutter", f"{cutter}, at the dealer's left, cuts the deck", "deal.cutter")
    state.team_w(act.team).exact_cuts += 1


def cutter_of(state: State, rule: str | None) -> str | None:
    """The player who cuts the deck under deal.cutter's value `rule` (None where it
    names nobody: the exact cut is then the named player's)."""
    return state.table.left_of(state.dealer) if rule == "left-of-dealer" else None


def misdeal(act: Act) -> None:
    """The dealer misdealt: the team is charged, and the cards are dealt again."""
    state = act.state
    redeal = act.value("deal.misdeal_redeal")
    if redeal is None:
        act.reject("action.malformed", "this ruleset legislates no misdeal", "deal.misdeal_redeal")
    state.team_w(state.team_of(state.dealer)).misdeals += 1
    if redeal == "next-player":
        state.dealer = state.table.next(state.dealer)
    state.turn = Turn(player=state.table.next(state.dealer), phase="deal", first=True)


# who deals the next hand where deal.next_dealer is off (the rulebook does not
# say): self-play and the random walks still deal one, and pass the deal as
# first-player does. A convention of those tools, no ruling: a hand's state
# names its dealer, so no fixture and no judgement of play depends on it.
TOOLS_NEXT_DEALER = "first-player"

# each value of deal.next_dealer: the dealer of the next hand, from the final state of a hand
_NEXT_DEALER = {
    "first-player": lambda state: state.table.from_dealer(state.dealer)[0],    # who played first in it
}


def next_hand(engine: Engine, state: State) -> State:
    """The following hand of the game: scores and carried penalties kept, dealt
    by the player deal.next_dealer names (TOOLS_NEXT_DEALER where it is off)."""
    dealer = _NEXT_DEALER[engine.value("deal.next_dealer") or TOOLS_NEXT_DEALER](state)
    scores = {t: v.score for t, v in state.teams.items()}
    carried = {t: v.carried_failures for t, v in state.teams.items()}
    return new_hand(engine, dealer, scores, carried)
