"""Completing a partial state: the one documented rule by which a fixture that
states only what matters becomes the full table every implementation sees.

A partial state may omit any field of the full JSON form (state.py) and may
give a hand as a number ("E": 15) instead of a list of cards. Completion:

1. Every card the partial state places (hands, stock, pile, aside, melds, red
   threes) is taken out of the deck.
2. The remaining cards are ordered by the fill order: plain cards 4 to K
   first, then aces, black threes, twos, red threes and jokers last; within a
   class by suit (clubs, diamonds, hearts, spades) then rank.
3. Hands given as a number are filled from the front of that order, seat by
   seat in the table's clockwise order (N, E, S, W, ...).
4. The stock is the stated stock cards (the next to be drawn first) followed
   by the remaining cards in fill order; when `stock_size` is given, the
   stock stops at that size and what is left is set aside (out of play).
5. The dealer defaults to the seat before the player whose turn it is; the
   turn defaults to the first player after the dealer, in phase "draw", with
   `had_melded` as that player's `melded`; `started` defaults to true; teams
   and players default to their empty form.
"""
from __future__ import annotations

from collections import Counter

from ..cards import JOKER, RANKS, SUITS, cards_at, full_deck
from ..display import shown
from ..errors import InputError
from ..seating import Table

_CLASS = {"A": 1, "3black": 2, "2": 3, "3red": 4}


def fill_key(card: str) -> tuple[int, int, int]:
    if card == JOKER:
        return (5, 0, 0)
    rank, suit = card[:-1], card[-1]
    if rank == "3":
        cls = _CLASS["3red"] if suit in "dh" else _CLASS["3black"]
    else:
        cls = _CLASS.get(rank, 0)
    return (cls, SUITS.index(suit), RANKS.index(rank))


def complete(table: Table, deck: tuple[int, int], partial: dict, root: str = "$") -> dict:
    """The full JSON state of a partial one, for a table and a deck of
    (decks, jokers) (see the module docstring)."""
    if not isinstance(partial, dict):
        raise InputError("a state is an object", json_path=root)
    state = {k: v for k, v in partial.items() if k not in ("stock_size",)}
    placed: list[str] = []
    hands = dict(partial.get("hands") or {})
    counts: dict[str, int] = {}
    for seat, value in hands.items():
        if seat not in table.seats:
            raise InputError(f"unknown seat {shown(seat)}", json_path=f"{root}.hands.{seat[:40]}",
                             expected="one of: " + ", ".join(table.seats))
        if isinstance(value, int) and not isinstance(value, bool):
            counts[seat] = value
        else:
            hands[seat] = cards_at(value, f"{root}.hands.{seat}")
            placed += hands[seat]
    stock = cards_at(partial.get("stock", []), f"{root}.stock")
    pile = cards_at(partial.get("pile", []), f"{root}.pile")
    aside = cards_at(partial.get("aside", []), f"{root}.aside")
    placed += stock + pile + aside
    teams = partial.get("teams") or {}
    if not isinstance(teams, dict):
        raise InputError("teams is an object keyed by team", json_path=f"{root}.teams")
    for name, team in teams.items():
        if not isinstance(team, dict):
            raise InputError("a team is an object", json_path=f"{root}.teams.{name}")
        placed += cards_at(team.get("red_threes", []), f"{root}.teams.{name}.red_threes")
        for i, meld in enumerate(team.get("melds", []) or []):
            cards = meld.get("cards", []) if isinstance(meld, dict) else meld
            placed += cards_at(cards, f"{root}.teams.{name}.melds[{i}]")
    pool = Counter(full_deck(*deck))
    pool.subtract(Counter(placed))
    over = sorted(c for c, n in pool.items() if n < 0)
    if over:
        raise InputError("the state places more copies of a card than the deck holds: " + ", ".join(over),
                         json_path=root, expected=f"at most {deck[0]} of each card and "
                                                  f"{deck[1]} jokers")
    remaining = sorted(pool.elements(), key=fill_key)
    for seat in table.seats:
        if seat in counts:
            n = counts[seat]
            if n < 0 or n > len(remaining):
                raise InputError(f"cannot deal {n} cards to {seat}", json_path=f"{root}.hands.{seat}")
            hands[seat], remaining = remaining[:n], remaining[n:]
    state["hands"] = {seat: hands.get(seat, []) for seat in table.seats}
    size = partial.get("stock_size")
    if size is not None:
        if not isinstance(size, int) or isinstance(size, bool) or size < len(stock):
            raise InputError("stock_size is the number of cards in the stock, at least the stated ones",
                             json_path=f"{root}.stock_size")
        take = size - len(stock)
        stock, aside = stock + remaining[:take], aside + remaining[take:]
    else:
        stock = stock + remaining
    state["stock"], state["pile"], state["aside"] = stock, pile, aside
    turn = dict(partial.get("turn") or {})
    dealer = partial.get("dealer")
    if dealer is None:
        dealer = table.order[table.order.index(turn["player"]) - 1] if turn.get("player") in table.seats \
            else table.order[-1]
    turn.setdefault("player", table.next(dealer) if dealer in table.seats else table.order[0])
    turn.setdefault("phase", "draw")
    player_json = (partial.get("players") or {}).get(turn["player"]) or {}
    turn.setdefault("had_melded", bool(player_json.get("melded", False)))
    state["dealer"], state["turn"] = dealer, turn
    return state
