"""The engine's view of a ruleset: settings read once, and the concepts every
other engine module shares (card points, which cards are wild, meld kinds,
canastra kinds). It imports no other engine module: they all build on it.
Nothing here knows any ruleset by name: every number and choice comes from
the composed ruleset model.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ..cards import CARD_CLASSES, JOKER, card_class, full_deck, rank_of
from ..dsl.loader import load
from ..dsl.model import Decision, Ruleset
from ..dsl.strict import possible_values
from ..seating import Table, make_table


@dataclass(frozen=True)
class MeldKind:
    name: str
    shape: str                 # sequence | set | wilds
    colors: tuple[str, ...] | None
    suits: str                 # same | any
    min_cards: int
    max_cards: int | None
    max_wilds: int | None      # None: it depends on the meld (read per meld)
    min_naturals: int
    one_per_rank: bool
    wild_bound: int = 0        # the most wild cards any meld of the kind may hold (max_wilds where fixed)


_UNSEEN = object()     # a setting not decided yet (Engine.fixed)
_tuple_new = tuple.__new__


class MeldInfo(NamedTuple):
    """The facts of one meld, as canastra kinds read them (meld.*); a tuple,
    hashed cheaply, as it keys the caches of meld decisions."""
    kind: str
    shape: str
    size: int
    naturals: int
    wilds: int
    jokers: int
    twos: int
    rank: str                  # DSL label of a set's rank; "none" otherwise
    natural_run: int           # a sequence's longest run of natural cards in a row; a set's natural cards
    previous_kind: str = "none"   # the canastra kind before the cards just added


class MeldContext:
    """The meld facts (meld.*) a canastra kind's match and value read."""
    __slots__ = ("info",)

    def __init__(self, info: MeldInfo):
        self.info = info

    def fact(self, name: str):
        return getattr(self.info, name[5:])      # "meld.<field>"


class Engine:
    """A ruleset made ready for play. Build with `engine_for(ruleset_id, readings)`."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        v = ruleset.value
        self.table: Table = make_table(v("table.players"), v("table.team_size"), v("play.direction"))
        self.deck = (v("deck.decks"), v("deck.jokers"))
        self.deck_size = 52 * self.deck[0] + self.deck[1]
        self.points = {cls: v(f"points.{cls}") for cls in CARD_CLASSES}
        self._card_points = {card: self.points[card_class(card)] for card in full_deck(1, 1)}
        wild = v("wild.cards")
        self.wild_joker = "JK" in wild
        self.wild_ranks = frozenset(r for r in wild if r != "JK")
        self.wild_set = frozenset(c for c in set(full_deck(1, 1)) if
                                  (c == JOKER and self.wild_joker) or (c != JOKER and c[0] in self.wild_ranks))
        self.meld_kinds = tuple(self._meld_kind(k) for k in ruleset.meld_kinds)
        self._kinds_by_name = {k.name: k for k in self.meld_kinds}
        self.canastra_kinds = ruleset.canastra_kinds
        # a decision that reads only meld facts (meld.*) is a function of them: kept by (setting, facts)
        self._meld_decisions: dict[tuple, Decision] = {}
        self._canastra_cache: dict[MeldInfo, str | None] = {}
        # path -> its decision where it reads no fact (a constant clause or the
        # default), else None; filled as settings are first decided, so that
        # every setting is still read once through the ruleset
        self.fixed: dict[str, Decision | None] = {}

    # ------------------------------------------------------------- settings
    def decide(self, path: str, ctx=None) -> Decision:
        fixed = self.fixed.get(path, _UNSEEN)
        if fixed is None:       # the setting reads a fact: the spec gives it clauses
            return self.ruleset.settings[path].decide(ctx)
        if fixed is _UNSEEN:
            fixed = self.ruleset.decide(path, ctx)
            self.fixed[path] = fixed if self._reads_no_fact(path) else None
        return fixed

    def value(self, path: str, ctx=None):
        return self.decide(path, ctx).value

    def _meld_kind(self, name: str) -> MeldKind:
        v = self.ruleset.value
        return MeldKind(name=name, shape=v(f"meld.{name}.shape"), colors=v(f"meld.{name}.colors"),
                        suits=v(f"meld.{name}.suits"), min_cards=v(f"meld.{name}.min_cards"),
                        max_cards=v(f"meld.{name}.max_cards"), max_wilds=self._constant(f"meld.{name}.max_wilds"),
                        min_naturals=v(f"meld.{name}.min_naturals"),
                        one_per_rank=v(f"meld.{name}.one_per_rank"), wild_bound=self._wild_bound(name))

    def _wild_bound(self, name: str) -> int:
        """max_wilds where it is fixed; where it depends on the meld, the largest
        value its clauses give (every wild card of the deck where one computes it)."""
        values = possible_values(self.ruleset, f"meld.{name}.max_wilds")
        if values is None:
            return len([c for c in full_deck(*self.deck) if self.is_wild(c)])
        return max(values)

    def _reads_no_fact(self, path: str) -> bool:
        """Whether the setting is decided alike in every state: the default, or one clause that reads no fact."""
        rules = self.ruleset.settings.get(path)
        return rules is None or rules.constant is not None

    def _constant(self, path: str):
        """The setting's value where it reads no fact; None where it does."""
        return self.ruleset.value(path) if self._reads_no_fact(path) else None

    def max_wilds(self, kind: MeldKind, cards) -> Decision | int:
        """The kind's wild-card limit: a number where it reads no fact, else
        the decision for this meld (its cards as they would be)."""
        if kind.max_wilds is not None:
            return kind.max_wilds
        return self.meld_decide(f"meld.{kind.name}.max_wilds", self.describe(kind.name, cards))

    def meld_kind(self, name: str) -> MeldKind | None:
        return self._kinds_by_name.get(name)

    # ---------------------------------------------------------------- cards
    def is_wild(self, card: str) -> bool:
        return card in self.wild_set

    def card_points(self, card: str) -> int:
        return self._card_points[card]

    def hand_points(self, cards) -> int:
        return sum(map(self._card_points.__getitem__, cards))

    # ------------------------------------------------------------ canastras
    def describe(self, kind: str, cards, previous: str | None = None) -> MeldInfo:
        kind_ = self._kinds_by_name.get(kind)
        shape = kind_.shape if kind_ is not None else "set"
        wild, twos_wild = self.wild_set, "2" in self.wild_ranks
        jokers = twos = wilds = 0
        natural = None
        if wild.isdisjoint(cards):
            natural = cards[0] if cards else None       # no wild card (most melds): nothing to count
            run = len(cards)
        else:
            # a sequence is laid out in rank order, each wild card at the place it stands for
            # (melds.py): its natural cards in a row are natural cards of consecutive ranks
            run = longest = 0
            for card in cards:
                if card in wild:
                    wilds += 1
                    if card == JOKER:
                        jokers += 1
                    elif twos_wild and card[0] == "2":
                        twos += 1
                    longest = 0
                else:
                    if natural is None:
                        natural = card
                    longest += 1
                    run = max(run, longest)
            if shape != "sequence":
                run = len(cards) - wilds            # a set's natural cards stand together, whatever the order
        rank = "none"
        if shape == "set" and natural is not None:
            r = rank_of(natural)
            rank = "10" if r == "T" else r
        # tuple.__new__: a NamedTuple's own __new__ is Python code, and every meld laid or added to is described
        return _tuple_new(MeldInfo, (kind, shape, len(cards), len(cards) - wilds, wilds, jokers, twos, rank, run,
                                     previous or "none"))

    def meld_decide(self, path: str, info: MeldInfo) -> Decision:
        """The decision of a setting that reads only the facts of one meld."""
        key = (path, info)
        found = self._meld_decisions.get(key)
        if found is None:
            found = self._meld_decisions[key] = self.decide(path, MeldContext(info))
        return found

    def canastra_kind(self, kind: str, cards, previous: str | None = None) -> str | None:
        """The first canastra kind whose `match` holds for the meld, or None.
        `previous`: the kind the meld had before the cards just added."""
        key = self.describe(kind, cards, previous)     # the facts decide: few distinct ones, a bounded cache
        if key in self._canastra_cache:
            return self._canastra_cache[key]
        ctx = MeldContext(key)
        found = None
        for name in self.canastra_kinds:
            if self.value(f"canastra.{name}.match", ctx):
                found = name
                break
        self._canastra_cache[key] = found
        return found

    def canastra_value(self, meld) -> Decision | None:
        """The bonus decision of a meld on the table (None when it is no canastra)."""
        if meld.canastra is None:
            return None
        return self.meld_decide(f"canastra.{meld.canastra}.value", self.describe(meld.kind, meld.cards))


@lru_cache(maxsize=None)
def engine_for(ruleset: str, readings: tuple[tuple[str, str], ...] = ()) -> Engine:
    """The engine of a ruleset under a reading choice (cached)."""
    return Engine(load(ruleset, dict(readings)))
