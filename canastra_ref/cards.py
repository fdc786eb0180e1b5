"""Cards and decks: the vocabulary shared by the DSL, the engine and fixtures.

A card is written compactly: rank then suit ("4h", "Ts" or "10s", "Ac"), or
"JK" for a joker. Decks are multisets: two decks hold two identical "Ah", and
nothing distinguishes them. The canonical spelling uses "T" for ten.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .display import shown
from .errors import InputError

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("c", "d", "h", "s")  # clubs, diamonds, hearts, spades
RED_SUITS = frozenset("dh")
JOKER = "JK"

# Rank as the DSL writes it (numbers for pips, letters for faces) -> card rank.
_DSL_RANK = {str(n): str(n) for n in range(2, 10)} | {"10": "T", "T": "T", "J": "J",
                                                      "Q": "Q", "K": "K", "A": "A"}

# What a card class is called in the DSL's points.<class> settings.
CARD_CLASSES = ("JK",) + tuple(r if r != "T" else "10" for r in RANKS if r != "3") + ("3.red", "3.black")


def dsl_rank(text: str) -> str | None:
    """The card rank a DSL token names ("10" and "T" are ten), or None."""
    return _DSL_RANK.get(str(text))


def rank_label(rank: str) -> str:
    """How the DSL and messages write a rank: 10 for ten."""
    return "10" if rank == "T" else rank


def parse_card(text) -> str:
    """The canonical spelling of a compact card, or InputError."""
    if not isinstance(text, str):
        raise InputError(f"a card is a string such as '4h' or 'JK', not {shown(text)}")
    return _parse_card(text)


def card_at(value, path: str) -> str:
    """parse_card, its error located at the JSON path `path`."""
    try:
        return parse_card(value)
    except InputError as exc:
        raise InputError(exc.message, json_path=path, expected=exc.expected) from None


def cards_at(value, path: str) -> list[str]:
    """The cards of a JSON list (or of one string of cards separated by spaces),
    each error located at its JSON path."""
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise InputError("expected a list of cards", json_path=path, expected='a list such as ["4h", "JK"]')
    return [card_at(item, f"{path}[{i}]") for i, item in enumerate(value)]


@lru_cache(maxsize=1024)        # bounded: the spellings come from input
def _parse_card(text: str) -> str:
    t = text.strip()
    if t.upper() == JOKER:
        return JOKER
    rank, suit = t[:-1], t[-1:].lower()
    rank = {"10": "T", "t": "T"}.get(rank, rank.upper())
    if rank not in RANKS or suit not in SUITS:
        raise InputError(f"unknown card {shown(text)}",
                         expected="a rank 2-9, T (or 10), J, Q, K, A followed by a suit c, d, h, s; or JK")
    return rank + suit


class _OfCard(dict):
    """A part of a card (its rank, or its suit), filled in for every card of a deck, so
    that rank_of and suit_of, this dict's __getitem__, find it in C: the engine
    asks for a card's rank card by card as it checks melds, where a Python function
    cost a call each time (issue 16). Any other string is worked out by `part`, not kept."""
    __slots__ = ("part",)

    def __init__(self, part):
        super().__init__((card, part(card)) for card in [r + s for s in SUITS for r in RANKS] + [JOKER])
        self.part = part

    def __missing__(self, card: str):
        return self.part(card)


rank_of = _OfCard(lambda card: None if card == JOKER else card[:-1]).__getitem__     # str | None
suit_of = _OfCard(lambda card: None if card == JOKER else card[-1]).__getitem__      # str | None


def is_red_three(card: str) -> bool:
    return card[0] == "3" and card[-1] in RED_SUITS


_RED_THREES, _BLACK_THREES = frozenset(("3d", "3h")), frozenset(("3c", "3s"))


def holds_red_three(cards) -> bool:
    """Whether any of the cards is a red three (3d or 3h: one hashed look-up a card)."""
    return not _RED_THREES.isdisjoint(cards)


def holds_black_three(cards) -> bool:
    """Whether any of the cards is a black three (3c or 3s: one hashed look-up a card)."""
    return not _BLACK_THREES.isdisjoint(cards)


def is_black_three(card: str) -> bool:
    return card[0] == "3" and card[-1] not in RED_SUITS and card != JOKER


def card_class(card: str) -> str:
    """The points class of a card: JK, a rank (10 for ten), 3.red or 3.black."""
    if card == JOKER:
        return JOKER
    if card[0] == "3":
        return "3.red" if card[-1] in RED_SUITS else "3.black"
    return rank_label(card[:-1])


def full_deck(decks: int, jokers: int) -> list[str]:
    """Every card of `decks` standard decks plus `jokers` jokers, in canonical order."""
    one = [r + s for s in SUITS for r in RANKS]
    return one * decks + [JOKER] * jokers


def deck_counts(decks: int, jokers: int) -> Counter:
    return Counter(full_deck(decks, jokers))


def sort_key(card: str) -> tuple[int, int]:
    """Canonical order: by suit, then rank; jokers last."""
    key = _SORT_KEYS.get(card)
    if key is not None:
        return key
    if card == JOKER:
        return (len(SUITS), 0)
    return (SUITS.index(card[-1]), RANKS.index(card[:-1]))


# The keys of the canonical cards, computed once (every state's hands are sorted by them).
_SORT_KEYS: dict[str, tuple[int, int]] = {}
_SORT_KEYS.update({card: sort_key(card) for card in full_deck(1, 1)})
