"""The legal actions of a state: `legal_actions(engine, state)`.

A public API for agents, fuzzers and engine authors' property tests. It lists
the distinct actions `apply` accepts (or penalises) in `state`, up to the
equivalence below, each as its JSON form; every action listed was judged by
`apply` itself, so the list can never disagree with the engine. The list
follows the order of `options`: by verb, then in the canonical order of the
cards. docs/legal-actions.md says the same for the readers of the docs.

Equivalence. Two actions are equivalent when they are the same verb by the
same player (or by partners, where the rules cannot tell them apart: an exact
cut is recorded for the team) and lay, add or give the same cards up to:
- which copy of a natural card of a set is used, and which wild card of a
  class (joker, or wild two) fills a wild place: a set is its rank, its count
  of natural cards and its counts of jokers and of twos; where a meld kind
  wants one suit (meld.<kind>.suits = same), the suit too;
- in a sequence, which wild card of a class stands at which wild place: a
  sequence is its suit, its ranks, which of them are wild, and its counts of
  jokers and twos (a two must match the sequence's suit where
  wild.2.suit = same-in-sequence).
Everything else is told apart: seats, verbs, meld indices, distinct cards to
discard, ranks and suits of sequences.

Canonical form of melds (the list does not hold every subset of the hand):
- a `meld` action lays ONE meld. A batch of several melds ends in the same
  state as its melds laid one after another (the opening is judged when the
  turn ends, not meld by meld); a meld kind allowed only when going out
  (meld.<kind>.allowed reading turn.going_out or turn.last_card) is allowed as
  the last single meld that empties the hand (or leaves its last card), so
  only a batch holding two such melds is beyond the list;
- a meld whose cards form melds of several kinds is listed once for each,
  naming its kind (`{"kind", "cards"}`, or `kind` in a pile take); other
  melds name none;
- a meld uses a wild card only where the hand holds no natural card of that
  rank and suit (a sequence that keeps a natural back and puts a wild card in
  its place is legal, and `apply` accepts it, but is not listed);
- sets: every rank the kind allows, every count of naturals from its minimum,
  every count of jokers and twos up to its wild limit;
- sequences: every window of consecutive ranks the kind allows whose gaps the
  hand's wild cards can fill, with every split of those gaps into jokers and
  twos (jokers at the lowest wild places);
- `layoff`: cards added to one meld: for a set, every count of naturals of
  its rank and of jokers and twos; for a sequence, every wider window's
  naturals held by the hand (and those that would replace the meld's wild
  cards), with every count of jokers and twos added that can fill the
  window's gaps (a wild card of the meld that may move fills one only from
  beyond the cards that stay: from between them it leaves a gap of its own);
  `apply` places them.
  Where a wild card goes to an end of the sequence (given way to its natural
  card, or added with no gap to fill), the addition is listed without
  `wild_end` and, when it lays the meld out otherwise, with the `wild_end`
  that does (the end the action leaves to the player);
- `take_pile`: every meld above that holds the pile's top card, as a new meld
  (`with` the rest) or added to a team meld (`onto`, with `wild_end` as for a
  layoff); the engine keeps the order of `with`, the top card in the place
  its rank takes among them, when that is a valid layout and lays the cards
  out itself otherwise, so a new meld is listed once in each of those forms;
  `options` leaves out the takes the ruleset refuses whatever the state
  (refused_take: too few hand cards or naturals, too many wild cards, for
  every value the spec can give);
- `discard`: every distinct card of the hand, and of the melds laid this turn
  where a failed opening's melds may go back to the hand before the discard,
  which may then be one of their cards (opening.failure_discard = after-return,
  or a last card: opening.short_last_discard);
- `deal`: dealing is chance; the list holds one representative, seed 0.

Cost: building the candidates is linear in the hand for discards and draws,
and bounded by windows x wild splits for melds (ranks x counts for sets); then
every candidate costs one `apply`. A hand of 15 cards gives a few dozen
candidates; after a big pile, a few hundred. Where no wild card can fill a
gap, a suit without a natural run long enough for a sequence, and a team
sequence with no natural card of the hand within its reach, are passed over
before their search (_has_run, _none_within: exact, they drop no
candidate). `options` gives the candidates by verb without judging them, for
an agent that needs only one legal action of a chosen verb.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations

from ..cards import JOKER, full_deck, holds_red_three, is_red_three, rank_of, sort_key, suit_of
from ..dsl.strict import possible_values
from .actions import Action, apply
from .context import ActionContext
from .deal import cutter_of
from .melds import may_relocate, wild_locked
from .opening import discard_candidates
from .rules import Engine, MeldKind
from .state import State
from .verdict import REJECTED


def legal_actions(engine: Engine, state: State) -> list[dict]:
    """The JSON form of every legal action of `state`, one per equivalence class."""
    return [action.json for action in legal(engine, state)]


def legal(engine: Engine, state: State) -> list[Action]:
    """Every legal action of `state` (see the module docstring), as Actions."""
    out = []
    for group in options(engine, state).values():
        laid_out: dict = {}         # an addition naming no end -> the team's melds after it
        for action in group:
            new, verdict = apply(engine, state, action)
            if verdict.verdict == REJECTED:
                continue
            unnamed = _without_end(action)
            if unnamed is not None:
                melds = new.teams[state.team_of(action.player)].melds
                if unnamed == action.arg:
                    laid_out[_key(unnamed)] = melds
                elif laid_out.get(_key(unnamed)) == melds:
                    continue        # naming the end changes nothing: the unnamed form is listed
            out.append(action)
    return out


def _without_end(action: Action):
    """A layoff or pile take onto a meld, as the argument naming no wild_end (None for other actions)."""
    if action.verb == "layoff":
        return [(index, cards, None) for index, cards, _ in action.arg]
    if action.verb == "take_pile" and action.arg[1] is not None:
        return action.arg[:2] + (None, None)
    return None


def _key(arg) -> str:
    return repr(arg)


class Options:
    """Candidate actions by verb, not yet judged: a superset of the legal ones
    in canonical form. Each verb's group is built the first time it is asked
    for, so that an agent pays only for the verbs it considers."""

    def __init__(self):
        self._makers: dict[str, object] = {}
        self._groups: dict[str, list[Action]] = {}

    def offer(self, verb: str, make) -> None:
        """`make()` yields the (player, argument) pairs of the verb's candidates."""
        self._makers[verb] = make

    def get(self, verb: str, default=()) -> list[Action]:
        group = self._groups.get(verb)
        if group is None:
            make = self._makers.get(verb)
            group = self._groups[verb] = [Action(p, verb, a) for p, a in make()] if make else []
        return group or list(default)

    def __contains__(self, verb: str) -> bool:
        return bool(self.get(verb))

    def __getitem__(self, verb: str) -> list[Action]:
        group = self.get(verb)
        if not group:
            raise KeyError(verb)
        return group

    def values(self):
        return [group for group in map(self.get, self._makers) if group]


def options(engine: Engine, state: State) -> Options:
    """The candidate actions of `state` by verb (see Options)."""
    out = Options()
    turn = state.turn
    if state.ended is not None:
        return out
    table = state.table
    if turn.phase == "deal":
        out.offer("deal", lambda: [(state.dealer, (0, None))])
        cutter = cutter_of(state, engine.value("deal.cutter"))
        # one cutter for each team (the cut counts for his team), the one deal.cutter names where it names one
        out.offer("exact_cut", lambda: [(cutter if cutter in seats else seats[0], True)
                                        for seats in table.teams.values()])
        return out
    if not state.started:
        out.offer("misdeal", lambda: [(seat, True) for seat in table.seats])   # some rulesets: any claimant
    player = turn.player
    if turn.asked == "asking":
        out.offer("answer", lambda: [(p, reply) for p in table.partners(player) for reply in ("yes", "no")])
        return out
    if state.pending is not None:
        out.offer("challenge", lambda: [(player, True)])

    def red_threes(seats):
        return [(seat, card) for seat in seats if holds_red_three(state.players[seat].hand)
                for card in _distinct(c for c in state.players[seat].hand if is_red_three(c))]
    out.offer("replace_red_three", lambda: red_threes([player] if state.started else table.seats))
    out.offer("lay_down_red_three", lambda: red_threes([player]))
    if turn.phase == "draw" or turn.took_pile:
        out.offer("draw", lambda: [(player, "stock")])
    if turn.phase == "draw":
        if state.pile:
            team_melds = state.teams[state.team_of(player)].melds
            out.offer("take_pile", lambda: [(player, (cards, onto, end, kind))
                                            for cards, onto, kind in _pile_takes(engine, state, player)
                                            if not refused_take(engine, cards, onto, state.pile[-1])
                                            for end in _ends(engine, team_melds, onto, cards + state.pile[-1:])])
        if table.partners(player):      # asked before the draw where going_out.ask_partner allows it
            out.offer("ask_partner", lambda: [(player, True)])
        return out
    if turn.phase != "play":
        return out
    if turn.first and len(turn.drawn) == 1 and not turn.redrawn:
        out.offer("redraw", lambda: [(player, True)])
    if table.partners(player):
        out.offer("ask_partner", lambda: [(player, True)])
    melding: dict = {}

    def usable_and_kinds():
        if not melding:
            ctx = ActionContext(engine, state, player)
            usable = _usable(engine, state, player, ctx)
            melding.update(usable=usable, kinds=_kinds(engine, ctx), hand=_Hand(engine, usable))
        return melding["usable"], melding["kinds"], melding["hand"]

    def new_melds():
        usable, kinds, grouped = usable_and_kinds()
        return [(player, [named]) for named in melds(engine, kinds, usable, hand=grouped)]

    def additions():
        usable, kinds, grouped = usable_and_kinds()
        team_melds = state.teams[state.team_of(player)].melds
        return [(player, [(index, cards, end)])
                for index, cards in layoffs(engine, kinds, team_melds, usable, hand=grouped)
                for end in _ends(engine, team_melds, index, cards)]
    out.offer("meld", new_melds)
    out.offer("layoff", additions)
    # a card of the turn's melds may be discarded where they go back to the hand as a failed opening
    # before the discard (opening.failure_discard; for a last card, opening.short_last_discard)
    out.offer("discard", lambda: [(player, card) for card in _distinct(discard_candidates(engine, state, player))])
    if turn.final or engine.value("turn.end_without_discard"):
        out.offer("end_turn", lambda: [(player, True)])
    return out


# ------------------------------------------------------------------ helpers

def _ends(engine: Engine, team_melds, index: int | None, cards: list[str]) -> tuple:
    """The wild_end values worth trying for adding `cards` to meld `index`: none,
    and both ends where a wild card may go to an end of a sequence."""
    if index is None or not 0 <= index < len(team_melds):
        return (None,)
    kind = engine.meld_kind(team_melds[index].kind)
    if kind is None or kind.shape != "sequence" or \
            not any(engine.is_wild(c) for c in (*team_melds[index].cards, *cards)):
        return (None,)
    return None, "low", "high"

_ORDER = {card: sort_key(card) for card in full_deck(1, 1)}


def _sorted(cards) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


def _distinct(cards) -> list[str]:
    return _sorted(set(cards))


def _usable(engine: Engine, state: State, player: str, ctx) -> list[str]:
    """The hand cards that may be melded now (the pile's rest may not be, where the spec says so)."""
    hand = _sorted(state.players[player].hand)
    if state.turn.pile_cards and not engine.value("pile.rest_usable", ctx):
        left = Counter(hand) - Counter(state.turn.pile_cards)
        hand = _sorted(left.elements())
    return hand


def _kinds(engine: Engine, ctx) -> list[tuple[MeldKind, tuple[str, ...]]]:
    """Each meld kind with the ranks it allows in this situation."""
    return [(kind, tuple(engine.value(f"meld.{kind.name}.ranks", ctx))) for kind in engine.meld_kinds]


class _Wilds:
    """The wild cards at hand, by class: jokers, and twos (of a suit, or any)."""

    def __init__(self, engine: Engine, cards: list[str]):
        wild = engine.wild_set
        self.jokers = [c for c in cards if c == JOKER and c in wild]
        self.twos = [c for c in cards if c != JOKER and c in wild]
        self.count = len(self.jokers) + len(self.twos)
        self.engine = engine
        self._twos: dict[str | None, list[str]] = {}
        self._fills: dict[tuple[int, str | None], list[list[str]]] = {}

    def twos_for(self, suit: str | None) -> list[str]:
        """The twos that may stand in a sequence of `suit` (any two for a set: suit None)."""
        found = self._twos.get(suit)
        if found is None:
            if not self.twos:
                found = []
            elif suit is None or self.engine.value("wild.2.suit") == "any":
                found = sorted(self.twos, key=lambda c: (c[-1] != suit, _ORDER[c]))
            else:
                found = [c for c in self.twos if c[-1] == suit]
            self._twos[suit] = found
        return found

    def fills(self, count: int, suit: str | None) -> list[list[str]]:
        """Every way to take `count` wild cards, as jokers then twos (twos_for(suit)),
        one per split of the count between the two classes, most jokers first.
        The lists are shared: copy one before changing it."""
        key = (count, suit)
        found = self._fills.get(key)
        if found is None:
            twos = self.twos_for(suit)
            found = self._fills[key] = [self.jokers[:j] + twos[:count - j]
                                        for j in range(min(count, len(self.jokers)), -1, -1)
                                        if count - j <= len(twos)]
        return found


def melds(engine: Engine, kinds, cards: list[str], must: str | None = None,
          hand: _Hand | None = None) -> list[tuple[str | None, list[str]]]:
    """(kind, cards) for every new meld the cards can form, in canonical form
    (module docstring); with `must`, only those holding that card. `hand`: the
    cards already grouped. The kind is named (else None) where the same cards
    form melds of several kinds: each is then its own action."""
    hand = hand or _Hand(engine, cards)
    wilds, by_rank, by_suit = hand.wilds, hand.by_rank, hand.by_suit
    natural_must = must if must is not None and must not in engine.wild_set and must != JOKER else None
    found: dict[tuple, tuple[str, list[str]]] = {}
    kinds_of: dict[tuple, set[str]] = {}       # the kinds that form each multiset of cards
    for kind, ranks in kinds:
        if kind.shape == "set":
            new = _sets(kind, ranks, by_rank, wilds, natural_must)
        elif kind.shape == "sequence":
            new = _sequences(kind, ranks, by_suit, wilds, natural_must)
        elif natural_must is None:
            new = _wild_melds(kind, wilds)
        else:
            continue
        for meld in new:
            if must is None or must in meld:
                found.setdefault((kind.name, tuple(meld)), (kind.name, meld))   # a sequence's order is its layout
                kinds_of.setdefault(tuple(sorted(meld)), set()).add(kind.name)
    # cards that one kind alone forms name no kind (found holds them once per layout already)
    return [(kind if len(kinds_of[tuple(sorted(meld))]) > 1 else None, meld) for kind, meld in found.values()]


class _Hand:
    """Cards to meld from, grouped once for every search: the natural cards by
    rank, and by suit then rank (one card of each), and the wild cards."""

    def __init__(self, engine: Engine, cards: list[str]):
        self.by_rank: dict[str, list[str]] = {}
        self.by_suit: dict[str, dict[str, str]] = {}
        wild = engine.wild_set
        for card in cards:
            if card not in wild and card != JOKER:
                self.by_rank.setdefault(card[:-1], []).append(card)
                self.by_suit.setdefault(card[-1], {})[card[:-1]] = card
        self.wilds = _Wilds(engine, cards)


def _limits(kind: MeldKind) -> tuple[int, int]:
    return kind.min_cards, kind.max_cards if kind.max_cards is not None else 10 ** 6


def _colour_ok(kind: MeldKind, card: str) -> bool:
    return kind.colors is None or ("red" if card[-1] in "dh" else "black") in kind.colors


def _sets(kind: MeldKind, ranks, by_rank: dict[str, list[str]], wilds: _Wilds, must: str | None):
    low, high = _limits(kind)
    need = max(1, kind.min_naturals)
    reach = min(kind.wild_bound, wilds.count)
    for rank in ([must[:-1]] if must is not None else by_rank):
        same = by_rank.get(rank, ())
        if len(same) < need or len(same) + reach < low or rank not in ranks:
            continue
        if kind.colors is not None:
            same = [c for c in same if _colour_ok(kind, c)]
        groups = [[c for c in same if c[-1] == s] for s in "cdhs"] if kind.suits == "same" else [same]
        for group in groups:
            if must is not None and must in group:      # the card that must be in the meld comes first
                group = [must] + [c for c in group if c != must] + [must] * (group.count(must) - 1)
            for n in range(max(1, kind.min_naturals), len(group) + 1):
                for w in range(max(0, low - n), min(reach, high - n) + 1):
                    for fill in wilds.fills(w, None):
                        yield group[:n] + fill


def _sequences(kind: MeldKind, ranks, naturals_by_suit: dict[str, dict[str, str]], wilds: _Wilds,
               must: str | None):
    low, high = _limits(kind)
    need = max(1, kind.min_naturals)
    allowed = set(ranks)
    by_suit = {}
    for suit, cards in naturals_by_suit.items():
        held = {r: c for r, c in cards.items() if r in allowed and _colour_ok(kind, c)}
        if len(held) >= need and len(held) + min(kind.wild_bound, wilds.count) >= low:
            by_suit[suit] = held
    count = len(ranks)
    for suit, held in by_suit.items():
        if must is not None and (must[-1] != suit or must[:-1] not in allowed):
            continue
        most = min(kind.wild_bound, len(wilds.jokers) + len(wilds.twos_for(suit)))
        if not most and must is None and not _has_run(held, ranks, max(low, need)):
            continue        # no wild card to fill a gap, and no natural run long enough: no window below
        present = [r in held for r in ranks]
        at = ranks.index(must[:-1]) if must is not None else None
        for start in range(count if at is None else at + 1):
            gaps = naturals_in = 0
            for end in range(start, min(count, start + high)):
                if present[end]:
                    naturals_in += 1
                else:
                    gaps += 1
                    if gaps > most:
                        break
                if end - start + 1 >= low and naturals_in >= need and (at is None or end >= at):
                    window = ranks[start:end + 1]
                    for fill in wilds.fills(gaps, suit):
                        wild_cards = iter(fill)
                        yield [held[r] if present[start + i] else next(wild_cards) for i, r in enumerate(window)]


def _has_run(held: dict[str, str], ranks, length: int) -> bool:
    """Whether the ranks `held` include `length` consecutive ones of `ranks`."""
    at = _positions(ranks)
    mask = 0
    for rank in held:
        mask |= 1 << at[rank]
    for _ in range(length - 1):
        mask &= mask >> 1
    return mask != 0


def _wild_melds(kind: MeldKind, wilds: _Wilds):
    low, high = _limits(kind)
    for w in range(low, min(high, kind.wild_bound, wilds.count) + 1):
        yield from (list(fill) for fill in wilds.fills(w, None))


def layoffs(engine: Engine, kinds, team_melds, cards: list[str], must: str | None = None,
            hand: _Hand | None = None) -> list[tuple[int, list[str]]]:
    """(meld index, cards) for every addition of `cards` to one team meld, in
    canonical form (module docstring); with `must`, only additions holding that
    card. `hand`: the cards already grouped."""
    hand = hand or _Hand(engine, cards)
    wilds, grouped = hand.wilds, (hand.by_rank, hand.by_suit)
    allowed = {kind.name: (kind, ranks) for kind, ranks in kinds}
    out = []
    for index, meld in enumerate(team_melds):
        if meld.kind not in allowed:
            continue
        kind, ranks = allowed[meld.kind]
        seen = set()
        for added in _additions(engine, kind, ranks, meld.cards, grouped, wilds, must):
            key = tuple(sorted(added))
            if added and key not in seen and (must is None or must in added):
                seen.add(key)
                out.append((index, added))
    return out


def _additions(engine: Engine, kind: MeldKind, ranks, meld_cards: list[str], grouped, wilds: _Wilds,
               must: str | None):
    by_rank, by_suit = grouped
    wild = engine.wild_set
    own_naturals = [c for c in meld_cards if c not in wild]
    room = kind.wild_bound - (len(meld_cards) - len(own_naturals))
    if kind.shape == "wilds":
        for w in range(1, min(room, wilds.count) + 1):
            yield from (list(fill) for fill in wilds.fills(w, None))
        return
    if not own_naturals:
        return
    rank, suit = rank_of(own_naturals[0]), suit_of(own_naturals[0])
    natural_must = must is not None and must not in wild
    if kind.shape == "set":
        if natural_must and rank_of(must) != rank:
            return
        same = [c for c in by_rank.get(rank, ()) if _colour_ok(kind, c) and (kind.suits != "same" or c[-1] == suit)]
        if not same and (room <= 0 or not wilds.count):
            return
        if natural_must and must in same:
            same.remove(must)
            same.insert(0, must)
        for n in range(len(same) + 1):
            for w in range(0, min(max(0, room), wilds.count) + 1):
                for fill in wilds.fills(w, None):
                    yield same[:n] + fill
        return
    # a sequence: the naturals of a wider window (its new ends held by the hand), and wild cards
    if natural_must and suit_of(must) != suit:
        return
    held = {r: c for r, c in by_suit.get(suit, {}).items() if r in ranks}
    if not held and (room <= 0 or not wilds.count):
        return
    first = meld_cards.index(own_naturals[0])
    low = ranks.index(rank) - first
    high = low + len(meld_cards) - 1
    spare = len(wilds.jokers) + len(wilds.twos_for(suit))
    if min(room, spare) <= 0 and _none_within(held, ranks, low, high, len(meld_cards) - len(own_naturals)):
        return
    places = [i for i, c in enumerate(meld_cards) if c in wild]     # of the meld's wild cards
    naturals_at = {low + i for i, c in enumerate(meld_cards) if c not in wild}
    # a natural takes a wild card's place only where the wild card may move (the engine's own test)
    spanned = ranks[low:high + 1]
    replacing = [spanned[i] for i in places if i < len(spanned) and spanned[i] in held
                 and not wild_locked(engine, meld_cards[i], low + i, naturals_at)]
    # wild cards of the meld that may leave their places (wild.<card>.relocates) fill gaps as well
    relocating = {low + i for i in places if may_relocate(engine, meld_cards[i], low + i, naturals_at)}
    wild_at = {spanned[i]: low + i for i in places if i < len(spanned)}
    budget = spare + len(replacing) + len(relocating)
    starts = [low] + [s for s in range(low - 1, -1, -1) if ranks[s] in held]
    ends = [high] + [e for e in range(high + 1, len(ranks)) if ranks[e] in held]
    for start in starts:
        below = ranks[start:low]
        gaps_below = sum(r not in held for r in below)
        if gaps_below > budget:
            break
        for end in ends:
            above = ranks[high + 1:end + 1]
            gaps = gaps_below + sum(r not in held for r in above)
            if gaps > budget:
                break
            new = [held[r] for r in below + above if r in held]
            for k in range(len(replacing) + 1):
                for swapped in combinations(replacing, k):
                    base = new + [held[r] for r in swapped]
                    freed = _freed(relocating, {wild_at[r] for r in swapped}, naturals_at, wild_at.values(),
                                   start if start < low else None, end if end > high else None)
                    # only wild cards added, displaced or freed fill the window's gaps: fewer leave one open
                    for w in range(max(0, gaps - k - freed), min(room, spare) + 1):
                        for fill in wilds.fills(w, suit):
                            yield base + fill


def _none_within(held: dict[str, str], ranks, low: int, high: int, reach: int) -> bool:
    """Whether no natural card `held` lies inside a sequence spanning
    ranks[low..high], nor within `reach` ranks beyond it, where `reach` is the
    count of its wild cards. Where no wild card may be added (none at hand,
    or no room left in the sequence) and no natural can take a wild card's
    place, only the sequence's own wild cards that relocate can bridge a gap
    (_additions' budget), one rank each, so no addition can hold a natural
    card, and it holds no wild card: there is none. The test that spares
    building an empty list of additions."""
    at = _positions(ranks)
    return not any(low - 1 - reach <= at[r] <= high + 1 + reach for r in held)


@lru_cache(maxsize=64)
def _positions(ranks: tuple) -> dict[str, int]:
    """Each rank's place in `ranks`."""
    return {r: i for i, r in enumerate(ranks)}


def _freed(relocating: set[int], displaced: set[int], naturals_at: set[int], wilds_at, start: int | None,
           end: int | None) -> int:
    """How many of the meld's relocating wild cards (at the positions `relocating`,
    but those `displaced` by a natural) fill a gap without leaving one: where they
    move, the engine lays the meld out between its outermost cards that stay (the
    naturals, and the wild cards that may not move), or the new natural at the
    window's `start` or `end`; a wild card beyond those frees its place, one
    between them leaves a gap of its own to fill."""
    moving = relocating - displaced
    if not moving:
        return 0
    staying = naturals_at | displaced | (set(wilds_at) - relocating)
    low = start if start is not None else min(staying)
    high = end if end is not None else max(staying)
    return sum(1 for p in moving if p < low or p > high)


def refused_take(engine: Engine, cards: list[str], onto: int | None, top: str) -> bool:
    """Whether taking the pile (top card `top`) with these hand cards is refused
    in every state of this ruleset: fewer hand cards (pile.take.min_hand_cards,
    or pile.take.onto_meld_hand_cards onto a meld) or, for a new meld, fewer
    natural cards (pile.take.min_naturals) than the least value the spec can
    give, or more wild cards (pile.take.max_wilds, the top card included) than
    the most. Such candidates are not offered; a test checks that apply refuses
    every one of them."""
    need = _bound(engine, "pile.take.min_hand_cards" if onto is None else "pile.take.onto_meld_hand_cards", min)
    if need is not None and len(cards) < need:
        return True
    wild = engine.wild_set
    wilds = sum(1 for c in cards if c in wild)
    naturals = _bound(engine, "pile.take.min_naturals", min)
    if onto is None and naturals is not None and len(cards) - wilds < naturals:
        return True
    most = _bound(engine, "pile.take.max_wilds", max)
    return most is not None and wilds + (top in wild) > most


@lru_cache(maxsize=256)
def _bound(engine: Engine, path: str, pick):
    """The least (pick=min) or most (max) value setting `path` can take in the
    engine's ruleset, whatever the state; None where the spec computes it from
    the game, or where it may be none (no limit)."""
    values = possible_values(engine.ruleset, path)
    return None if values is None or None in values else pick(values)


def _pile_takes(engine: Engine, state: State, player: str):
    """(hand cards, onto, kind) for every canonical meld (of the kind named, as
    melds() names it) or addition (kind None) holding the pile's top card."""
    top = state.pile[-1]
    hand = state.players[player].hand
    wild = engine.wild_set
    if top not in wild and top != JOKER:
        # a meld holding a natural card holds only cards of its rank (a set) or its suit (a
        # sequence), and wild cards: the rest of the hand cannot go with the top card
        hand = [c for c in hand if c in wild or c[:-1] == top[:-1] or c[-1] == top[-1]]
    ctx = ActionContext(engine, state, player)
    kinds = _kinds(engine, ctx)
    pool = _sorted(hand + [top])
    team_melds = state.teams[state.team_of(player)].melds
    grouped = _Hand(engine, pool)
    found = [(meld, None, kind) for kind, meld in melds(engine, kinds, pool, must=top, hand=grouped)]
    found += [(added, index, None)
              for index, added in layoffs(engine, kinds, team_melds, pool, must=top, hand=grouped)]
    seen = set()
    for cards, onto, kind in found:
        rest = list(cards)
        rest.remove(top)
        # the engine lays a new meld's `with` out as listed, the top card where its rank
        # puts it among their natural cards (after them where they are all wild), when that
        # is a valid layout, and lays the cards out itself otherwise
        given = (onto, kind, tuple(rest))
        placed = cards[-1] == top or any(card not in wild for card in rest)
        key = given if onto is None and placed else (onto, kind, "", tuple(sorted(rest)))
        if key not in seen and given not in seen:
            seen.update((key, given))
            yield rest, onto, kind
