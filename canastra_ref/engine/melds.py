"""Melds and wild cards: which cards form a meld of which kind, how a sequence
lays out its wild cards, and adding cards to a meld on the table.

A sequence is stored in rank order, each wild card at the place of the rank it
stands for, so its position is part of the state. When a new sequence is
given in an order that is itself a valid layout, that layout is kept;
otherwise the canonical layout fills gaps with the wild cards in the order
given and puts any extra wild card above the highest natural card (below the
lowest when the top is full).
"""
from __future__ import annotations

from bisect import bisect_left
from itertools import filterfalse
from typing import NamedTuple

from ..cards import JOKER, rank_label, rank_of, suit_of
from .rules import Engine, MeldKind


class MeldError(Exception):
    """A meld refused: the reason, and the setting that refused it (by path, or
    as the decision already made where it depends on the meld itself)."""
    def __init__(self, reason: str, message: str, setting: str | None = None, decision=None):
        super().__init__(message)
        self.reason, self.message = reason, message
        self.setting, self.decision = setting, decision


class Layout(NamedTuple):
    """A sequence laid out on its kind's ranks: position -> card. Made with
    _layout_of (tuple.__new__: a NamedTuple's own __new__ is Python code)."""
    start: int
    cards: list[str]


_tuple_new = tuple.__new__


def _layout_of(start: int, cards: list[str]) -> Layout:
    return _tuple_new(Layout, (start, cards))


def _first_natural(cards: list[str], wild) -> int:
    """The index of the first natural card (found in C: the first card not wild, then its index)."""
    return cards.index(next(filterfalse(wild.__contains__, cards)))


def _wild_key(card: str) -> str:
    return "JK" if card == JOKER else card[0]


def _check_common(engine: Engine, kind: MeldKind, cards: list[str], naturals: list[str], wilds: list[str]):
    if len(cards) < kind.min_cards:
        raise MeldError("meld.too-few-cards", f"a {kind.name} needs at least {kind.min_cards} cards",
                        f"meld.{kind.name}.min_cards")
    if kind.max_cards is not None and len(cards) > kind.max_cards:
        raise MeldError("meld.too-many-cards", f"a {kind.name} holds at most {kind.max_cards} cards",
                        f"meld.{kind.name}.max_cards")
    limit = engine.max_wilds(kind, cards)
    decision = None if isinstance(limit, int) else limit
    if decision is not None:
        limit = decision.value
    if len(wilds) > limit:
        raise MeldError("meld.too-many-wilds", f"a {kind.name} of {len(cards)} cards holds at most {limit} "
                        f"wild card(s)", None if decision else f"meld.{kind.name}.max_wilds", decision)
    if len(naturals) < kind.min_naturals:
        raise MeldError("meld.too-few-naturals", f"a {kind.name} needs at least {kind.min_naturals} natural cards",
                        f"meld.{kind.name}.min_naturals")


def _check_ranks_and_colors(kind: MeldKind, naturals: list[str], ranks: tuple[str, ...]):
    for card in naturals:
        if rank_of(card) not in ranks:
            reason = "meld.threes" if card[0] == "3" else "meld.rank-not-allowed"
            raise MeldError(reason, f"{card}: rank {rank_label(rank_of(card))} cannot be used in a {kind.name}",
                            f"meld.{kind.name}.ranks")
        if kind.colors is not None:
            color = "red" if suit_of(card) in "dh" else "black"
            if color not in kind.colors:
                raise MeldError("meld.colour-not-allowed", f"{card}: a {kind.name} takes only "
                                f"{' and '.join(kind.colors)} cards", f"meld.{kind.name}.colors")


def _check_wild_suits(engine: Engine, suit: str, wilds: list[str]):
    for card in wilds:
        if card == JOKER:
            continue
        if engine.value(f"wild.{_wild_key(card)}.suit") == "same-in-sequence" and suit_of(card) != suit:
            raise MeldError("meld.wild-suit", f"{card} cannot stand in a sequence of {suit}",
                            f"wild.{_wild_key(card)}.suit")


def split(engine: Engine, cards) -> tuple[list[str], list[str]]:
    """(natural cards, wild cards), each in the order given."""
    wild = engine.wild_set
    if wild.isdisjoint(cards):
        return list(cards), []      # no wild card (most melds): one test in C, no card looked at in Python
    return list(filterfalse(wild.__contains__, cards)), list(filter(wild.__contains__, cards))     # in C


# ------------------------------------------------------------------ new melds

def fit_new(engine: Engine, kind: MeldKind, cards: list[str], ranks: tuple[str, ...],
            last_unplaced: bool = False) -> list[str]:
    """The cards laid out as a new meld of `kind`, or MeldError.
    `last_unplaced`: the last card (the pile's top card, after the hand cards
    laid with it) has no place in the order listed; it takes the one its rank
    gives it among the others (_placed_layout)."""
    naturals, wilds = split(engine, cards)
    if kind.shape == "wilds":
        if naturals:
            raise MeldError("meld.no-kind", f"a {kind.name} is made of wild cards only")
        _check_common(engine, kind, cards, naturals, wilds)
        return list(cards)
    if not naturals:
        raise MeldError("meld.only-wilds", "a meld needs at least one natural card")
    _check_ranks_and_colors(kind, naturals, ranks)
    if kind.shape == "set":
        if len({rank_of(c) for c in naturals}) > 1:
            raise MeldError("meld.mixed-ranks", "the natural cards of a set must share one rank")
        if kind.suits == "same" and len({suit_of(c) for c in naturals}) > 1:
            raise MeldError("meld.mixed-suits", f"the cards of a {kind.name} must share one suit",
                            f"meld.{kind.name}.suits")
        _check_common(engine, kind, cards, naturals, wilds)
        return naturals + wilds
    # sequence
    suit = suit_of(naturals[0])
    if any(suit_of(c) != suit for c in naturals):
        raise MeldError("meld.mixed-suits", "the natural cards of a sequence must share one suit")
    _check_wild_suits(engine, suit, wilds)
    _check_common(engine, kind, cards, naturals, wilds)
    given = _placed_layout(engine, cards, ranks) if last_unplaced else _given_layout(engine, cards, ranks)
    if given is not None:
        return given.cards
    return _layout(engine, ranks, {ranks.index(rank_of(c)): c for c in _unique_ranks(naturals)}, {},
                   wilds).cards


def _unique_ranks(naturals: list[str]) -> list[str]:
    seen = set()
    for card in naturals:
        if rank_of(card) in seen:
            raise MeldError("meld.not-consecutive", f"{card}: a sequence holds each rank once")
        seen.add(rank_of(card))
    return naturals


def _given_layout(engine: Engine, cards: list[str], ranks: tuple[str, ...]) -> Layout | None:
    wild = engine.wild_set
    first = _first_natural(cards, wild)
    start = ranks.index(rank_of(cards[first])) - first
    if start < 0 or start + len(cards) > len(ranks):
        return None
    for rank, card in zip(ranks[start:], cards):
        if card not in wild and rank_of(card) != rank:
            return None
    return _layout_of(start, list(cards))


def _placed_layout(engine: Engine, cards: list[str], ranks: tuple[str, ...]) -> Layout | None:
    """The layout of cards[:-1] as listed, the last card put among them where the
    listed order lays out a sequence (_given_layout), or None. Among the others'
    natural cards its rank has one place; before hand cards that are all wild,
    the last place that fits is taken (the top card after them, as listed)."""
    *listed, card = cards
    for at in range(len(listed), -1, -1):
        found = _given_layout(engine, listed[:at] + [card] + listed[at:], ranks)
        if found is not None:
            return found
    return None


def _layout(engine: Engine, ranks, fixed: dict[int, str], fixed_wilds: dict[int, str], free: list[str],
            to_end: list[tuple[str, str]] = (), end: str | None = None) -> Layout:
    """Place `free` wild cards around the fixed cards into one unbroken
    sequence; each (card, end) of `to_end` must go to that end ("low"/"high").
    The free wild cards that fill no gap go to `end` when it is named, else
    above the highest card while there is room, then below the lowest."""
    occupied = dict(fixed)
    for pos, card in fixed_wilds.items():
        if pos in occupied:
            raise MeldError("layoff.wild-locked", f"{occupied[pos]} would displace {card}, which can no longer move")
        occupied[pos] = card
    low, high = min(occupied), max(occupied)
    free = list(free)
    if len(occupied) <= high - low:         # a gap between the lowest and the highest card
        for pos in range(low, high + 1):
            if pos not in occupied:
                if not free:
                    raise MeldError("meld.not-consecutive", "the cards leave a gap the wild cards cannot fill")
                occupied[pos] = free.pop(0)
    for card, bound in to_end:
        if bound == "low" and low > 0:
            low -= 1
            occupied[low] = card
        elif bound == "high" and high + 1 < len(ranks):
            high += 1
            occupied[high] = card
        else:
            raise MeldError("layoff.wild-locked", f"{card} would have to move past the "
                            f"{'lowest' if bound == 'low' else 'highest'} rank", "wild.shift")
    while free:
        if end == "low" and low == 0 or end == "high" and high + 1 == len(ranks):
            raise MeldError("layoff.wild-end-full", f"{free[0]} cannot go to the {end} end: it would pass the "
                            f"{'lowest' if end == 'low' else 'highest'} rank")
        if end != "low" and high + 1 < len(ranks):
            high += 1
            occupied[high] = free.pop(0)
        elif low > 0:
            low -= 1
            occupied[low] = free.pop(0)
        else:
            raise MeldError("meld.too-many-cards", "the sequence would run past its lowest and highest ranks")
    return _layout_of(low, list(map(occupied.__getitem__, range(low, high + 1))))


def layout_of(engine: Engine, cards: list[str], ranks: tuple[str, ...]) -> Layout:
    """The layout of a sequence already on the table (stored in rank order)."""
    first = _first_natural(cards, engine.wild_set)
    return _layout_of(ranks.index(rank_of(cards[first])) - first, list(cards))


# --------------------------------------------------------------------- adding

def extend(engine: Engine, kind: MeldKind, meld_cards: list[str], new: list[str], ranks: tuple[str, ...],
           used: list[str] | None = None, shift=lambda: "any-end", end: str | None = None,
           both_sides=lambda: "either-end"):
    """The meld with `new` cards added: (cards, layout or None), or MeldError.
    A natural card may take the place of a wild card only if that wild card can
    move (wild.<card>.locked); the moved wild card then fills a gap or an end,
    the end `shift()` allows (the value of wild.shift for this addition, read
    only when a wild card gives way); `both_sides()`, the value of
    wild.shift_both_sides, read where far-end meets cards added on both sides
    of the wild card's place.
    Where the cards added leave a gap, a wild card that is not locked may leave
    its place to fill it (wild.<card>.relocates).
    `end` ("low"/"high"): the end the player names for the wild cards this
    addition puts at an end (given way, or added without a gap to fill); None
    leaves them to the layout convention of _layout.
    The settings that decided such a move are appended to `used`."""
    used = [] if used is None else used
    cards = list(meld_cards) + list(new)
    old_naturals, old_wilds = split(engine, meld_cards)
    new_naturals, new_wilds = split(engine, new)
    naturals, wilds = old_naturals + new_naturals, old_wilds + new_wilds     # split(engine, cards)
    if kind.shape == "wilds":
        if new_naturals:
            raise MeldError("meld.no-kind", f"only wild cards can join a {kind.name}")
        _check_common(engine, kind, cards, naturals, wilds)
        return cards, None
    _check_ranks_and_colors(kind, new_naturals, ranks)
    if kind.shape == "set":
        rank = rank_of(old_naturals[0])
        if any(rank_of(c) != rank for c in new_naturals):
            raise MeldError("meld.mixed-ranks", "cards added to a set must be of its rank")
        if kind.suits == "same" and len({suit_of(c) for c in naturals}) > 1:
            raise MeldError("meld.mixed-suits", f"the cards of a {kind.name} must share one suit",
                            f"meld.{kind.name}.suits")
        _check_common(engine, kind, cards, naturals, wilds)
        return naturals + wilds, None
    layout = layout_of(engine, meld_cards, ranks)
    suit = suit_of(old_naturals[0])
    if any(suit_of(c) != suit for c in new_naturals):
        raise MeldError("meld.mixed-suits", "cards added to a sequence must be of its suit")
    _check_wild_suits(engine, suit, new_wilds)
    _check_common(engine, kind, cards, naturals, wilds)
    wild, start = engine.wild_set, layout.start
    fixed: dict[int, str] = {pos: card for pos, card in enumerate(meld_cards, start) if card not in wild}
    fixed_wilds: dict[int, str] = {}
    free: list[str] = []
    existing_naturals = set(fixed)
    arriving = {}
    for card in new_naturals:
        pos = ranks.index(rank_of(card))
        if pos in existing_naturals or pos in arriving:
            raise MeldError("meld.not-consecutive", f"{card}: the sequence already has that rank")
        arriving[pos] = card
    to_end: list[tuple[str, str]] = []
    for pos, card in enumerate(meld_cards, start):
        if card not in wild:
            continue                # a natural card: in fixed already
        if pos in arriving:
            if wild_locked(engine, card, pos, existing_naturals):
                raise MeldError("layoff.wild-locked", f"{arriving[pos]} would displace {card}, which is locked "
                                f"in place", f"wild.{_wild_key(card)}.locked")
            used += [f"wild.{_wild_key(card)}.locked", "wild.shift"]
            above = any(p > pos for p in arriving)
            below = any(p < pos for p in arriving)
            if above and below and shift() == "far-end":
                # no end is away from the cards added: wild.shift_both_sides decides
                used.append("wild.shift_both_sides")
                if both_sides() == "refused":
                    raise MeldError("layoff.wild-locked", f"{card} gives way to {arriving[pos]}, and the cards "
                                    f"added lie on both sides of its place: no end is away from them",
                                    "wild.shift_both_sides")
                free.append(card)
            elif above != below and shift() == "far-end":
                # the displaced wild goes to the end away from the other cards added
                away = "low" if above else "high"
                if end not in (None, away):
                    raise MeldError("layoff.wild-end-refused", f"{card} gives way to {arriving[pos]} and can go "
                                    f"only to the {away} end, away from the cards added", "wild.shift")
                to_end.append((card, away))
            else:
                free.append(card)
        else:
            fixed_wilds[pos] = card
    fixed.update(arriving)
    try:
        result = _layout(engine, ranks, fixed, fixed_wilds, free + new_wilds, to_end, end)
    except MeldError as err:
        if err.reason != "meld.not-consecutive" or not fixed_wilds:
            raise
        result = _relocated(engine, ranks, fixed, fixed_wilds, free + new_wilds, to_end, end, existing_naturals,
                            used, err)
    return result.cards, result


def _relocated(engine: Engine, ranks, fixed, fixed_wilds: dict[int, str], free: list[str], to_end, end,
               naturals: set[int], used: list[str], err: MeldError) -> Layout:
    """The layout when the wild cards that may leave their places
    (wild.<card>.relocates, and not locked) fill the gaps the cards added
    left; otherwise `err`, naming the setting that kept them in place."""
    movable = {pos: card for pos, card in fixed_wilds.items() if not wild_locked(engine, card, pos, naturals)}
    allowed = {pos: card for pos, card in fixed_wilds.items() if may_relocate(engine, card, pos, naturals)}
    if not allowed:
        card = next(iter((movable or fixed_wilds).values()))
        setting = "relocates" if movable else "locked"
        raise MeldError(err.reason, err.message, f"wild.{_wild_key(card)}.{setting}")
    for card in allowed.values():
        used += [f"wild.{_wild_key(card)}.locked", f"wild.{_wild_key(card)}.relocates"]
    staying = {pos: card for pos, card in fixed_wilds.items() if pos not in allowed}
    return _layout(engine, ranks, fixed, staying, list(allowed.values()) + free, to_end, end)


def may_relocate(engine: Engine, card: str, pos: int, naturals: set[int]) -> bool:
    """Whether the wild card at `pos` may leave its place to fill a gap (wild.<card>.relocates)."""
    return not wild_locked(engine, card, pos, naturals) and bool(engine.value(f"wild.{_wild_key(card)}.relocates"))


def wild_locked(engine: Engine, card: str, pos: int, naturals: set[int]) -> bool:
    """Whether the wild card at `pos` stays where it is (wild.<card>.locked); `naturals`: the natural places."""
    rule = engine.value(f"wild.{_wild_key(card)}.locked")
    if rule == "never":
        return False
    if rule == "always":
        return True
    return pos - 1 in naturals and pos + 1 in naturals


def bridges(engine: Engine, layout: Layout, before: list[str], card: str, ranks) -> bool:
    """Does a wild card stand between `card` and the natural cards the meld had?"""
    pos = ranks.index(rank_of(card))
    old = layout_of(engine, before, ranks)
    wild = engine.wild_set
    old_naturals = [old.start + i for i, c in enumerate(before) if c not in wild]    # in rank order
    # the nearest to the card, the lower of two as near (min by distance): found by bisection
    at = bisect_left(old_naturals, pos)
    if at == len(old_naturals) or at and pos - old_naturals[at - 1] <= old_naturals[at] - pos:
        at -= 1
    low, high = sorted((pos, old_naturals[at]))
    return not wild.isdisjoint(layout.cards[low + 1 - layout.start:high - layout.start])
