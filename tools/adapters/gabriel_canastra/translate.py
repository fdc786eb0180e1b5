"""Pure translation between canastra-spec's JSON and the data of
Gabrielcidral1/canastra (a Brazilian Canastra with a morto, Python).

No import of the engine. Their model: a card is (rank, suit) with ranks
"A" "2".."10" "J" "Q" "K" and suits "C" "D" "H" "S" ("J" and rank "Joker"
for the four jokers). Four players sit as indexes 0..3 with teams 0 and 1
being players {0, 1} and {2, 3}, and turns pass in the order 1, 3, 0, 2;
two players are 0 and 1. Melds ("games") belong to a player, not to the
team; the stock is drawn from its end, the discard pile's top is its end.
"""
from __future__ import annotations

from _common import JOKER, Reject, Skip, card, kind_name, rank_of, suit_of

ENGINE_ORDER_4 = (1, 3, 0, 2)     # their order of play (engine._CLOCKWISE_ORDER)
SEQ_ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


def to_pair(c: str) -> tuple[str, str]:
    """(their rank value, their suit value) of a compact card."""
    c = card(c)
    if c == JOKER:
        return ("Joker", "J")
    rank = "10" if c[0] == "T" else c[:-1]
    return (rank, c[-1].upper())


def from_pair(rank: str, suit: str) -> str:
    if rank == "Joker":
        return JOKER
    return ("T" if rank == "10" else rank) + suit.lower()


def engine_index(order: tuple[str, ...], seat: str) -> int:
    """Their player index of one of our seats (seat i of our order of play
    becomes the i-th player of their order of play)."""
    i = order.index(seat)
    if len(order) == 4:
        return ENGINE_ORDER_4[i]
    if len(order) == 2:
        return i
    raise Skip("the engine plays with two or four players")


def holder(order: tuple[str, ...], team_of: dict[str, str], team: str) -> str:
    """The seat whose player holds the team's melds in the engine: the team's
    first seat in our order of play (the engine keeps melds per player)."""
    return next(s for s in order if team_of[s] == team)


def is_wild(c: str) -> bool:
    return c == JOKER or rank_of(c) == "2"


def meld_shape(laid: list[str]) -> tuple[str, str | None]:
    """("sequence", suit) or ("triple", None) of a meld's cards."""
    naturals = [c for c in laid if not is_wild(c)]
    if not naturals:
        raise Reject("meld.only-wilds", "a meld needs natural cards")
    if len({rank_of(c) for c in naturals}) == 1 and len(naturals) >= 2:
        return "triple", None
    suits = {suit_of(c) for c in naturals}
    if len(suits) > 1:
        raise Reject("meld.mixed-suits", "the natural cards of a sequence must share one suit")
    return "sequence", suits.pop()


def lay_out(kind: str, laid: list[str], suit: str | None) -> list[str]:
    """Our layout of an engine meld (the engine keeps cards in the order laid):
    sets naturals then wilds; sequences in rank order, the wild in the gap or
    at the high end (at the low end when the high end is the ace)."""
    if kind == "triple":
        return [c for c in laid if not is_wild(c)] + [c for c in laid if is_wild(c)]
    has_three = any(rank_of(c) == "3" and suit_of(c) == suit for c in laid)
    naturals = [c for c in laid if not is_wild(c) or (has_three and rank_of(c) == "2" and suit_of(c) == suit)]
    wilds = [c for c in laid if c not in naturals or naturals.count(c) < laid.count(c)]
    wilds = list(wilds)
    for c in naturals:
        if c in wilds:
            wilds.remove(c)
    best = None
    for ace_low in (False, True):
        def pos(c):
            r = rank_of(c)
            return -1 if (r == "A" and ace_low) else SEQ_ORDER.index(r)
        ordered = sorted(naturals, key=pos)
        gaps = sum(pos(b) - pos(a) - 1 for a, b in zip(ordered, ordered[1:]))
        if best is None or gaps < best[0]:
            best = (gaps, ordered, pos)
    _, ordered, pos = best
    out = [ordered[0]] if ordered else []
    spare = list(wilds)
    for a, b in zip(ordered, ordered[1:]):
        for _ in range(pos(b) - pos(a) - 1):
            if spare:
                out.append(spare.pop(0))
        out.append(b)
    for w in spare:
        if ordered and rank_of(out[-1]) == "A" and pos(out[-1]) == len(SEQ_ORDER) - 1:
            out.insert(0, w)
        else:
            out.append(w)
    return out


def meld_json(ruleset: str, kind: str, laid: list[str], suit: str | None) -> dict:
    cs = lay_out(kind, laid, suit)
    if kind == "sequence":
        return {"kind": kind_name(ruleset, "sequence", None), "cards": cs}
    naturals = [c for c in cs if not is_wild(c)]
    return {"kind": kind_name(ruleset, "set", rank_of(naturals[0]) if naturals else None), "cards": cs}


REASONS = [   # fragments of the engine's messages (constants.py) -> our reason codes
    ("Carta ", "card.not-in-hand"),
    ("fase de compra", "turn.already-drew"),
    ("fase de baixar", "turn.draw-first"),
    ("fase de descartar", "turn.draw-first"),
    ("Lixo está vazio", "pile.empty"),
    ("jogos do seu time", "layoff.no-such-meld"),
    ("Índice de jogo inválido", "layoff.no-such-meld"),
    ("canastra limpa", "going-out.not-allowed"),
    ("at least 3 cards", "meld.too-few-cards"),
    ("Only one wildcard", "meld.too-many-wilds"),
    ("natural cards", "meld.too-few-naturals"),
    ("same suit", "meld.mixed-suits"),
    ("repetidas", "meld.not-consecutive"),
    ("more than one gap", "meld.not-consecutive"),
    ("valid sequence", "meld.not-consecutive"),
    ("same number", "meld.mixed-ranks"),
    ("Ás, 3 ou Rei", "meld.rank-not-allowed"),
    ("Não é possível adicionar", "meld.not-consecutive"),
]


def reason_for(message: str) -> str:
    for fragment, reason in REASONS:
        if fragment in message:
            return reason
    return "action.malformed"
