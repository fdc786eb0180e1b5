"""Every setting a spec may give a value, its type, the facts its expressions
may read, and what its absence means.

This table is the contract between the rulebooks and the engine: the engine
reads rules only through these names, and a rulebook that needs something
not listed here needs a new entry here (and its implementation in the
engine), never a branch on its name.

Patterns: "<kind>" stands for a name the spec chooses (a meld kind, a
canastra kind, a scoring term); "<card>" for a wild card (JK or 2); "<class>"
for a card class of the points table (JK, 2, 3.red, 3.black, 4 .. 10, J, Q, K, A).
A setting whose absent value is None is "off" when the spec does not give it.

Each setting also says when the engine reads it while playing a ruleset
(`read_when`): always, for every declared kind or wild card its pattern
names; or only when another setting may take some value (the redraw's
rejected card is read only where there is a redraw), that setting being itself
read (one read only when a third may take some value counts only there). `canastra check --strict`
uses this to demand that every setting read is stated, decided by a dispute,
or marked `unstated` (canastra_ref.dsl.strict).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..cards import CARD_CLASSES

# Value types.
INT, BOOL, RANKS, CARDS, COLORS, NAMES, LADDER = "int", "bool", "ranks", "cards", "colors", "names", "ladder"


def enum(*values: str) -> tuple[str, ...]:
    return values


@dataclass(frozen=True)
class ReadWhen:
    """One condition under which the engine reads a setting: another setting
    may take one of `values` (with `other_than`: a value outside them). In
    `setting`, <kind> and <card> stand for the same name as in the setting
    read, and "*" for any declared meld kind, canastra kind or wild card."""
    setting: str
    values: tuple
    other_than: bool = False

    def text(self) -> str:
        shown = " or ".join(_value_text(v) for v in self.values)
        return f"`{self.setting}` may be {'other than ' if self.other_than else ''}{shown}"


def _value_text(value) -> str:
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value == ():
        return "[]"
    return str(value)


# An opening can fail: it has a minimum, or must include a clean meld.
_OPENING_MAY_FAIL = (ReadWhen("opening.minimum", (0,), other_than=True), ReadWhen("turn.clean_meld", (True,)))
_OPENING_HAS_MINIMUM = (ReadWhen("opening.minimum", (0,), other_than=True),)
_SEQUENCES = (ReadWhen("meld.*.shape", ("sequence",)),)


@dataclass(frozen=True)
class Setting:
    pattern: str
    type: str | tuple[str, ...]   # a value type, or the tuple of an enumeration's values
    scope: str                    # which facts its expressions may read (facts.SCOPES)
    doc: str
    required: bool = False
    default: object = None        # the value when the spec gives none (None: feature off)
    read_when: tuple[ReadWhen, ...] = ()   # any of them (none: always read)
    not_for: tuple[str, ...] = ()          # wild cards or kinds for which it is never read
    in_play: bool = True                   # False: checked against other settings, never read in play

    @property
    def is_enum(self) -> bool:
        return isinstance(self.type, tuple)

    def default_text(self) -> str:
        """What the setting's absence means, as the reference table shows it."""
        if self.required:
            return "required"
        return _value_text(self.default)

    def read_text(self) -> str:
        """When the engine reads the setting, for the reference table."""
        if not self.in_play:
            return "never in play"
        parts = []
        if self.read_when:
            parts.append("when " + "; or ".join(w.text() for w in self.read_when))
        if self.not_for:
            parts.append("not for " + ", ".join(self.not_for))
        return ", ".join(parts) or "always"

    def type_text(self) -> str:
        if self.is_enum:
            return " | ".join(self.type)
        return {INT: "integer expression", BOOL: "condition (yes/no expression)",
                RANKS: "rank range or list of ranks", CARDS: "list of cards (JK, 2 .. A)",
                COLORS: "list of colours (red, black)", NAMES: "list of names",
                LADDER: "ladder: 75 -> 120 -> 150 then +30"}[self.type]


_S = Setting
SETTINGS: tuple[Setting, ...] = (
    # deck, seating and deal
    _S("deck.decks", INT, "static", "standard 52-card decks shuffled together", required=True),
    _S("deck.jokers", INT, "static", "jokers added to the decks", required=True),
    _S("deck.size", INT, "static", "the card count the rulebook states; must equal 52 x decks + jokers", in_play=False),
    _S("table.players", INT, "static", "players at the table", required=True),
    _S("table.team_size", INT, "static", "players per team; partners sit alternately", required=True),
    _S("play.direction", enum("clockwise", "counterclockwise"), "static",
       "direction of the deal and of play", required=True),
    _S("play.first_player", enum("after-dealer"), "static",
       "who plays first: the player next to the dealer in the direction of play", default="after-dealer"),
    _S("deal.first_dealer", enum("high-card", "agreed-or-drawn", "drawn"), "static",
       "how the dealer of the first hand is chosen"),
    _S("deal.cards", INT, "static", "cards dealt to each player", required=True),
    _S("deal.misdeal_redeal", enum("same-dealer", "next-player"), "static",
       "who deals again after a misdeal"),
    _S("deal.misdeal_claim", enum("before-play", "before-first-discard", "before-own-first-discard"), "static",
       "until when a misdeal may be claimed: by the dealer, before the first player's first draw, or until "
       "the first discard of the hand (the first player's turn included); or by any player who has not "
       "yet discarded in the hand (the claim is charged to the dealer's team)", default="before-play",
       read_when=(ReadWhen("deal.misdeal_redeal", (None,), other_than=True),)),
    _S("deal.next_dealer", enum("first-player"), "static",
       "who deals the next hand: the first player of the hand just played, that is the player next "
       "to its dealer in the direction of play (off: the rulebook does not say; self-play and the random "
       "walks, which must deal a next hand, then pass the deal as first-player does, a convention of those "
       "tools and no ruling)"),
    _S("deal.cutter", enum("left-of-dealer"), "static",
       "who cuts the deck before the deal, and so who alone may cut it exactly (exact_cut): the player at "
       "the dealer's left, the next seat clockwise (off: the rulebook names no cutter, and an exact cut is "
       "recorded for the player the action names)"),
    _S("draw.cards", INT, "static", "cards drawn from the stock each turn (one is discarded)",
       required=True),
    _S("draw.short_stock", enum("plays-on", "ends-hand"), "static",
       "when the stock runs out before the player has the cards his turn draws (it held fewer, or red threes "
       "laid down and replaced took its last cards; the first player's card in place of the one he turned "
       "down, draw.first_redraw, among them), or before he has the replacements of red threes laid "
       "down (it was empty, or held fewer cards): threes he took with the pile (red_three.with_pile = "
       "replace), dealt ones laid down as play starts (red_three.dealt = automatic) or exchanged by an action, "
       "before play starts or later on the holder's turn (red_three.late = replace-on-turn): the player keeps "
       "what he drew, if anything, and plays on (the threes laid down all the same); or the hand ends "
       "at once, as he must draw from an empty stock (the melds the turn laid judged as the last turn's are, "
       "turn.final)",
       default="plays-on", read_when=(ReadWhen("draw.cards", (1,), other_than=True),
                                      ReadWhen("red_three.last_card_ends_hand", (False,)),
                                      ReadWhen("red_three.with_pile", ("replace",)),
                                      ReadWhen("red_three.dealt", ("keep",), other_than=True),
                                      ReadWhen("red_three.late", ("replace-on-turn",)))),
    _S("draw.first_redraw", BOOL, "action",
       "the first player may reject the first card drawn and draw another in its place (judged as he "
       "rejects it: turn.first_card_red_three states that the card he holds replaced a red three drawn "
       "first)",
       default=False),
    _S("draw.rejected_card", enum("aside", "pile"), "static",
       "where that rejected card goes: set aside face up for the rest of the hand, or onto the pile "
       "as an ordinary discard", default="pile",
       read_when=(ReadWhen("draw.first_redraw", (True,)),)),

    # card values
    _S("points.<class>", INT, "static", "card points of one card class", required=True),

    # melds and wild cards
    _S("wild.cards", CARDS, "static", "the wild cards", required=True),
    _S("wild.<card>.suit", enum("any", "same-in-sequence"), "static",
       "whether a wild must match the suit of a sequence it stands in", default="any",
       read_when=_SEQUENCES, not_for=("JK",)),
    _S("wild.<card>.locked", enum("never", "between-naturals", "always"), "static",
       "when a wild in a sequence can no longer be moved to let the natural card it stands for in",
       default="always", read_when=_SEQUENCES),
    _S("wild.<card>.relocates", BOOL, "static",
       "a wild card in a sequence that is not locked (wild.<card>.locked) may move to another place of "
       "its sequence, a gap between its cards or an end, when the cards added need it there; it is "
       "left where it stands whenever the cards fit without moving it (off: it moves only to give way "
       "to the natural card it stands for)", default=False,
       read_when=(ReadWhen("wild.<card>.locked", ("always",), other_than=True),)),
    _S("wild.shift", enum("any-end", "far-end"), "action",
       "where a wild card goes when a natural card takes its place in a sequence: any-end, to either "
       "end of the sequence that has room; far-end, only to the end on the other side of its place "
       "from the cards added beyond that place in the same play (either end when none are), the "
       "addition being refused when that end has no room (it would pass the lowest or highest rank). "
       "Where both ends are open, the player names one (wild_end of the action, conformance/PROTOCOL.md)",
       default="any-end", read_when=(ReadWhen("wild.*.locked", ("always",), other_than=True),)),
    _S("wild.shift_both_sides", enum("either-end", "refused"), "action",
       "under wild.shift = far-end, where the cards added in one play lie beyond the place of the wild "
       "card that gives way on both sides, so that neither end is away from them: either-end, it goes "
       "to either end with room, the one the player names (wild_end); refused, it has no end to go to "
       "and the addition is refused (layoff.wild-locked), the cards being added in two plays instead",
       default="either-end", read_when=(ReadWhen("wild.shift", ("far-end",)),)),
    _S("meld.<kind>.shape", enum("sequence", "set", "wilds"), "static",
       "sequence: consecutive ranks of one suit; set: one rank; wilds: wild cards only", required=True),
    _S("meld.<kind>.ranks", RANKS, "action",
       "for a sequence, its ranks in order (4..A); for a set, the ranks it may be made of",
       required=True),
    _S("meld.<kind>.colors", COLORS, "static", "the suit colours a set may use (all when absent)",
       read_when=(ReadWhen("meld.<kind>.shape", ("wilds",), other_than=True),)),
    _S("meld.<kind>.suits", enum("same", "any"), "static",
       "whether the natural cards of a set must share a suit", default="any",
       read_when=(ReadWhen("meld.<kind>.shape", ("set",)),)),
    _S("meld.<kind>.min_cards", INT, "static", "the fewest cards the meld may have", required=True),
    _S("meld.<kind>.max_cards", INT, "static", "the most cards the meld may have"),
    _S("meld.<kind>.max_wilds", INT, "meld",
       "the most wild cards the meld may hold (its meld facts are those of the meld as it would be)",
       default=0),
    _S("meld.<kind>.min_naturals", INT, "static", "the fewest natural cards the meld needs", default=0,
       read_when=(ReadWhen("meld.<kind>.shape", ("wilds",), other_than=True),)),
    _S("meld.<kind>.allowed", BOOL, "action-meld",
       "when a meld of this kind may be laid down (its meld facts are those of the meld as it would be laid)",
       default=True),
    _S("meld.<kind>.penalised", BOOL, "action-meld",
       "a meld of this kind laid down, where meld.<kind>.allowed lets it be laid, is an offence whose "
       "consequence the rulebook sets: the meld stands, with what its cards make of it, and its verdict is "
       "penalised (meld.penalised); no: an ordinary play (its meld facts are those of the meld as laid; "
       "read only where cards added to a canastra may be such an offence, the offence a meld laid whole "
       "can repeat)",
       default=False, read_when=(ReadWhen("canastra.*.grows_penalised", (False,), other_than=True),)),
    _S("meld.<kind>.grows", BOOL, "action-meld",
       "when cards may be added to a meld of this kind that is no canastra before the addition; no: the "
       "addition is refused (layoff.not-allowed-now) (its meld facts are those of the meld as it would be "
       "after the addition; cards added to a canastra are canastra.<kind>.grows's; read only where cards "
       "added to a canastra may be refused, the refusal an addition that makes a canastra and more at once "
       "can repeat)",
       default=True, read_when=(ReadWhen("canastra.*.grows", (True,), other_than=True),)),
    _S("meld.<kind>.grows_penalised", BOOL, "action-meld",
       "cards added to a meld of this kind that is no canastra before the addition, where meld.<kind>.grows "
       "lets them in, are an offence whose consequence the rulebook sets: the addition stands, with what it "
       "makes of the meld, and its verdict is penalised (layoff.penalised); no: an ordinary play (its meld "
       "facts are those of the meld as it would be after the addition; read only where cards added to a "
       "canastra may be such an offence, the offence an addition that makes a canastra and more at once can "
       "repeat)",
       default=False, read_when=(ReadWhen("canastra.*.grows_penalised", (False,), other_than=True),)),
    _S("meld.<kind>.one_per_rank", BOOL, "static",
       "a team holds at most one meld of this kind per rank; more cards of the rank join it",
       default=False, read_when=(ReadWhen("meld.<kind>.shape", ("wilds",), other_than=True),)),
    _S("meld.<kind>.disjoint_ranks", BOOL, "static",
       "a team's melds of this kind hold no natural card (rank and suit) in common; a wild card counts as none",
       default=False, read_when=(ReadWhen("meld.<kind>.shape", ("sequence",)),)),
    _S("layoff.melds", BOOL, "action",
       "a player who adds cards of his hand to one of the team's melds already on the table (laid by his "
       "partner, or by him in an earlier turn), with the pile's top card or without it, has melded by it "
       "(player.melded; team.players_without_melds and team.hand_points_of_melders count him as a player "
       "who melded, and a later going out of his is not concealed); no: only a meld he lays down makes him "
       "one (a new meld that joins the team's meld of its rank, one_per_rank, among them); the pile's top "
       "card added alone is pile.take.top_card_alone_melds's", default=True),

    # canastras
    _S("canastra.<kind>.match", BOOL, "meld",
       "when a meld is a canastra of this kind (kinds are tried in the order the spec declares them)",
       required=True),
    _S("canastra.<kind>.value", INT, "meld", "the bonus a canastra of this kind is worth",
       required=True),
    _S("canastra.<kind>.counts", BOOL, "team",
       "when the bonus of this kind counts for the team that holds it", default=True),
    _S("canastra.<kind>.grows", BOOL, "action",
       "when cards may be added to a canastra of this kind (the kind it has before the addition); "
       "no: the addition is refused", default=True),
    _S("canastra.<kind>.grows_penalised", BOOL, "action",
       "cards added to a canastra of this kind, where canastra.<kind>.grows lets them in, are an offence "
       "whose consequence the rulebook sets: the addition stands, with what it makes of the canastra, and "
       "its verdict is penalised (layoff.canastra-penalised); no: an ordinary play",
       default=False, read_when=(ReadWhen("canastra.<kind>.grows", (False,), other_than=True),)),

    # opening
    _S("opening.minimum", INT, "action",
       "card points the team's first melds must reach (0: no minimum)", required=True),
    _S("turn.clean_meld", BOOL, "action",
       "the melds a player lays in a turn must include one without wild cards (checked when the "
       "turn ends)", default=False),
    _S("turn.clean_meld_returns_layoffs", BOOL, "static",
       "where a later turn's melds go back for want of the meld free of wild cards that turn.clean_meld "
       "asks (a team that had opened, judged when the turn ends, or claimed by the next player where "
       "opening.unclean_stands_unchallenged lets them stand until then), the cards that turn added to "
       "melds of earlier turns go back to the hand with them, and those melds are again what they were "
       "before the turn (turn.touched_before), and where the melds come back before the discard "
       "(opening.failure_discard = after-return) the discard may be one of those cards too; no: the "
       "additions stay on the table",
       default=False, read_when=(ReadWhen("turn.clean_meld", (True,)),)),
    _S("opening.counts", enum("all-melds", "clean-melds", "with-canastras"), "static",
       "what the turn's melds count towards the minimum: the card points of all of them; of only those "
       "without wild cards; or of all of them plus the value of each canastra among them whose bonus "
       "counts for the team (canastra.<kind>.counts)",
       default="all-melds", read_when=_OPENING_HAS_MINIMUM),
    _S("opening.pile_cards_count", BOOL, "static",
       "cards taken with the pile (other than the top card) count towards the minimum when melded in "
       "the same turn", default=True, read_when=_OPENING_HAS_MINIMUM),
    _S("opening.single_meld", BOOL, "action",
       "the minimum must be reached by one meld on its own", default=False,
       read_when=_OPENING_HAS_MINIMUM),
    _S("opening.ladder", LADDER, "static",
       "how the minimum rises after each failed opening", read_when=_OPENING_MAY_FAIL),
    _S("opening.failure_raises", BOOL, "action",
       "a failed opening moves the team up opening.ladder (and bars the player where "
       "opening.failure_bars_player says so); no: its melds only go back to the hand. Read when the "
       "turn that laid the melds ends, in its context, also for melds left standing until challenged "
       "(opening.short_stands_unchallenged): a challenge charges them as decided then. A later turn's melds "
       "that fail turn.clean_meld for a team that had opened are no failed opening: they go back as this "
       "says, but nothing moves up the ladder, which raises the minimum of an opening the team no longer has "
       "to make",
       default=True, read_when=(ReadWhen("opening.ladder", (None,), other_than=True),
                                ReadWhen("opening.failure_bars_player", (True,)))),
    _S("opening.penalty_applies", enum("this-hand", "next-hand", "next-round"), "static",
       "when a raised minimum applies: the rest of this hand; the team's next opening (in the next "
       "hand); or from the failing player's next turn, the team's other players opening meanwhile at "
       "the minimum that applied when he failed (nothing is carried to the next hand)",
       default="this-hand", read_when=_OPENING_MAY_FAIL),
    _S("opening.failure_bars_player", BOOL, "static",
       "a player whose opening failed may not try again this hand", default=False,
       read_when=_OPENING_MAY_FAIL),
    _S("opening.short_stands_unchallenged", BOOL, "action",
       "an opening below the minimum (its melds together, or, where opening.single_meld asks it, its "
       "largest meld) stands unless the next player challenges it before his claim lapses (opening.challenge_lapses) "
       "(judged when the turn ends, where turn.opening_shortfall says by how much it falls short, and "
       "turn.going_out whether the player goes out: where it stands then, the going out is made and the "
       "hand ends with the opening standing, as no turn is left in which to challenge it)",
       default=False, read_when=_OPENING_HAS_MINIMUM),
    _S("opening.unclean_stands_unchallenged", BOOL, "action",
       "an opening without the meld free of wild cards that turn.clean_meld requires stands unless "
       "the next player challenges it before his claim lapses (judged when the turn ends, at a going out too, "
       "as opening.short_stands_unchallenged is); so do a later turn's melds where turn.clean_meld "
       "asks it of them (turn.opening tells the two apart): a challenge takes back that turn's melds "
       "alone, the team's opening made before stands", default=False,
       read_when=(ReadWhen("turn.clean_meld", (True,)),)),
    _S("opening.challenge_lapses", enum("any-draw", "stock-draw"), "static",
       "what of the next player's turn ends his claim of melds left standing until challenged "
       "(opening.short_stands_unchallenged, opening.unclean_stands_unchallenged), so that they stand: "
       "any-draw, his draw from the stock or his take of the pile, whichever comes first (a question to "
       "the partner or a red three laid down before it leaves the claim open); stock-draw, only his draw "
       "from the stock (the draw that gives a taken pile back, opening.retry_with_stock_draw, too): after a "
       "take of the pile he may still challenge, through the plays of that turn, until its end (his "
       "discard, a turn ended without one, or a going out that ends the hand) settles the claim. Under "
       "either, his challenge in the rest of the turn in which his claim lapsed comes too late (the turn "
       "keeps the lapse, turn.claim_lapsed), and once his turn has ended nobody may challenge",
       default="any-draw",
       read_when=(ReadWhen("opening.short_stands_unchallenged", (False,), other_than=True),
                  ReadWhen("opening.unclean_stands_unchallenged", (False,), other_than=True))),
    _S("opening.short_last_discard", enum("going-out", "ordinary"), "static",
       "the order of judgement when a player who has not opened discards his last card after melds that "
       "fail the opening (a failure that stands unchallenged at a going out, opening.short_stands_unchallenged, "
       "is none): going-out, the discard is judged as a going out first, which a failed opening "
       "cannot make, so it is refused with the reason of that failure, and so is any play that would "
       "leave one card beside such melds (turn.last-card-stranded); ordinary, the opening is judged "
       "first, as at the end of a going out: its melds go back to the hand, with every "
       "consequence of a failed opening, and the discard is an ordinary one, of any card of the hand they come "
       "back to (not one that goes back with a pile taken for them), that leaves the player the others "
       "(opening.failure_discard orders a discard that is not his last card). "
       "Under either value, a going out without a discard (a meld or layoff that empties the hand) with "
       "melds that fail the opening is refused, with the reason of that failure, as no discard ends the turn "
       "there: the player keeps his cards and his turn, to complete the opening, give back a pile taken for "
       "it (opening.retry_with_stock_draw) or discard",
       default="going-out", read_when=_OPENING_MAY_FAIL),
    _S("opening.failure_restarts_turn", BOOL, "static",
       "a failed opening returns the turn to its start: besides the melds going back to the hand and "
       "the pile to the table, the cards kept from the stock go back on top of it and the player draws "
       "again, facing the raised minimum; red threes laid stay on the table, and a card the first player "
       "turned down is opening.restart_first_card's (off: the failed opening ends the turn with the "
       "player's discard, made once the melds are back or while they are on the table, as "
       "opening.failure_discard says)",
       default=False, read_when=_OPENING_MAY_FAIL),
    _S("opening.restart_first_card", enum("stays", "back"), "static",
       "where a failed opening starts the turn over (opening.failure_restarts_turn) in the first player's "
       "turn after he turned his first card down (draw.first_redraw): stays, the card stays where it went "
       "(the pile or aside) and the refusal is spent, the player drawing again the card he had kept; back, "
       "the turn goes back to before his first draw: the card he turned down (the pile's top card, or the "
       "last card set aside, as nothing else reaches them in his turn before its discard) goes back on top "
       "of the stock, above the cards he kept, and he may turn down the first card he draws again (a red "
       "three laid in the turn stays on the table, its replacement being what he draws first, as "
       "turn.first_card_red_three still says)",
       default="stays", read_when=(ReadWhen("opening.failure_restarts_turn", (True,)),)),
    _S("opening.failure_discard", enum("before-return", "after-return"), "static",
       "which cards may be discarded at the end of a turn whose melds fail the opening, where the turn "
       "does not start over (opening.failure_restarts_turn) and the discard leaves the player other "
       "cards: before-return, the discard is a card held while the melds are on the table (the failure "
       "is found once the player has discarded), and the melds come back to the hand after it; "
       "after-return, the melds come back first and the discard may be any card of the hand they come "
       "back to. Under either value a card that goes back with a pile taken for the melds "
       "(opening.failure_pile) may not be discarded. A discard of the player's last card is ordered by "
       "opening.short_last_discard instead (ordinary: the melds come back first, as under after-return; "
       "going-out: it is refused)",
       default="before-return", read_when=(ReadWhen("opening.failure_restarts_turn", (False,)),)),
    _S("opening.failure_pile", enum("returned", "kept"), "static",
       "a pile taken for an opening that fails, where the turn does not start over "
       "(opening.failure_restarts_turn) and the player has not given it back for a stock draw: returned, "
       "it goes back to the table, the player's discard on top of it, and he has had his draw; kept, only "
       "the melds go back to the hand, and the pile's cards stay there with them",
       default="returned", read_when=(ReadWhen("opening.failure_restarts_turn", (False,)),)),
    _S("opening.failure_pile_threes", enum("returned", "stay-laid"), "static",
       "the red threes a pile taken for an opening brought, laid down and replaced from the stock, when the "
       "opening fails in a turn the hand's end cut short (a replacement drew the stock's last card: "
       "red_three.last_card_ends_hand, stock.exhausted = last-card-ends; or was owed from an empty stock: "
       "draw.short_stock; the opening is judged then as at "
       "the end of the last turn of an exhausted stock, turn.final) and the pile goes back to the table "
       "(opening.failure_pile): returned, they go back to the pile with its other cards; stay-laid, they "
       "stay on the table for the team. Under either value the cards drawn in their place stay in the "
       "hand, as the hand has ended on the stock's last card (elsewhere a failed opening gives the "
       "exchange back: the threes to the pile, their replacements to the stock)",
       default="returned", read_when=(ReadWhen("red_three.with_pile", ("replace",)),)),
    _S("opening.retry_with_stock_draw", BOOL, "action",
       "a player whose opening with the pile falls short of the minimum (opening.minimum, "
       "opening.single_meld) may give the pile back and draw from the stock instead, in the same turn; "
       "not one whose count reaches it and that fails only for want of the clean meld of turn.clean_meld. "
       "Read as he gives the pile back, before the draw (stock.empty, stock.size: the stock as it is then; "
       "no: the pile stays his and the draw is refused); the clause that allowed the retry is kept in the "
       "state (turn.retried_by) and cited where the retried turn is judged",
       default=False, read_when=_OPENING_MAY_FAIL),
    _S("opening.retry_must_open", BOOL, "action",
       "after such a retry the turn must still end with an opening that reaches the minimum, or the "
       "opening has failed, even with nothing laid (the retry is a second chance at the count); no: the "
       "attempt is void and the turn goes on as an ordinary one. Read as the retried turn ends with "
       "nothing laid, in its context: turn.final where the stock's end cut it short (the draw, or a red "
       "three's replacement, took the stock's last card), the hand ending with it", default=False,
       read_when=(ReadWhen("opening.retry_with_stock_draw", (True,)),)),
    _S("opening.retry_keeps_hand_melds", BOOL, "static",
       "on such a retry, the melds of the turn that hand cards alone could make stay on the table, still "
       "counting towards the opening (only the meld with the pile's top card, and any holding the pile's "
       "cards, go back); no: every meld of the turn goes back to the hand", default=False,
       read_when=(ReadWhen("opening.retry_with_stock_draw", (True,)),)),

    # discard pile
    _S("pile.start", enum("first-discard", "upcard"), "static",
       "what starts the pile: the first player's first discard, or a card turned up from the stock",
       required=True),
    _S("pile.upcard_covered", BOOL, "card",
       "an upcard that is covered by another card turned from the stock", default=False,
       read_when=(ReadWhen("pile.start", ("upcard",)),)),
    _S("pile.blocked", BOOL, "action", "the pile may not be taken at all", default=False),
    _S("pile.take.min_hand_cards", INT, "action",
       "hand cards that must form a new meld with the top card", required=True),
    _S("pile.take.min_naturals", INT, "action",
       "natural hand cards that must go with the top card into a new meld", default=0),
    _S("pile.take.max_wilds", INT, "action",
       "wild cards allowed in the meld made with the top card (the meld's own limit applies too)"),
    _S("pile.take.onto_meld", BOOL, "action",
       "the top card may be laid off on one of the team's melds instead of starting a new one",
       default=False),
    _S("pile.take.onto_meld_hand_cards", INT, "action",
       "hand cards that must be laid with the top card when it is added to one of the team's melds "
       "instead of starting a new one (0: the top card may be added alone)", default=0,
       read_when=(ReadWhen("pile.take.onto_meld", (True,)),)),
    _S("pile.take.top_card_alone_melds", BOOL, "action",
       "a player who takes the pile by adding its top card alone to one of the team's melds, no card "
       "of his hand with it, has melded by that take (player.melded; team.players_without_melds and "
       "team.hand_points_of_melders count him as a player who melded, and a later going out of his is "
       "not concealed); no: only cards from his hand laid on the table make him one, as layoff.melds "
       "says (read only where the top card may be added alone)", default=True,
       read_when=(ReadWhen("pile.take.onto_meld_hand_cards", (0,)),)),
    _S("pile.take.block", BOOL, "action",
       "when the top card joins one of the team's melds, it and the hand cards laid with it must form "
       "on their own a meld of that meld's kind (an unbroken run, for a sequence), so that they are not "
       "spread around the meld's cards (read only where hand cards must go with the top card)", default=False,
       read_when=(ReadWhen("pile.take.onto_meld_hand_cards", (0,), other_than=True),)),
    _S("pile.take.wild_bridge", BOOL, "action",
       "when the top card extends a meld, a wild card may stand between it and the meld",
       default=True, read_when=(ReadWhen("pile.take.onto_meld", (True,)),)),
    _S("pile.meld_takes_wilds", BOOL, "action",
       "wild cards may be added, later in the same turn, to the meld made or extended with the top card",
       default=True),
    _S("pile.rest_usable", BOOL, "action",
       "the rest of the pile may be melded in the turn it is taken (no: a play is refused that would "
       "leave the hand fewer copies of a card than the pile gave it; copies are alike, docs/dsl.md)",
       default=True),
    _S("pile.discard_from_pile", BOOL, "action",
       "the player who took the pile may discard one of the pile's cards (no: a card of which the hand "
       "holds more copies than the pile gave it may still be discarded, the copy being the hand's)",
       default=True),
    _S("pile.frozen_hand_refused", BOOL, "static",
       "in the turn the pile is taken, a take, meld or layoff that would leave the player holding cards "
       "none of which he may discard is refused (no: turn.end_without_discard settles whether he ends "
       "the turn keeping them); a card a failed opening gives back before the discard counts as one he "
       "may discard, as it does for turn.end_without_discard", default=False,
       read_when=(ReadWhen("pile.discard_from_pile", (False,)),)),

    # threes
    _S("red_three.replace", BOOL, "static",
       "a red three dealt or drawn is laid down and replaced from the stock", required=True),
    _S("red_three.dealt", enum("exchange", "automatic", "keep"), "static",
       "a red three dealt: exchange, its holder lays it down and replaces it by an action before play "
       "starts (red_three.late governs one still held afterwards); automatic, every one is laid down and "
       "replaced when play starts, in the order of play from the first player, whether or not its holder "
       "exchanged it first; keep, it stays in the hand as an ordinary card", default="exchange",
       read_when=(ReadWhen("red_three.replace", (True,)),)),
    _S("red_three.with_pile", enum("keep", "lay-down", "replace"), "static",
       "a red three among the cards taken with the pile: stays in the taker's hand (red_three.late "
       "governs it); is laid down at once; or is laid down at once and replaced from the stock",
       default="keep", read_when=(ReadWhen("red_three.replace", (True,)),)),
    _S("red_three.exchange_in_order", BOOL, "static",
       "before play starts, dealt red threes are exchanged in the order of play, the dealer last",
       default=False, read_when=(ReadWhen("red_three.replace", (True,)),)),
    _S("red_three.late", enum("keep", "lay-down", "replace-on-turn"), "static",
       "a red three held once play has started: stays in hand; must be laid down without replacement "
       "on its holder's turn; or must be replaced on its holder's turn. Under either of the last two, "
       "the holder may not end the turn (nor discard the three) while holding it; under lay-down, a "
       "held three does not count as the card left to end the turn with (a meld leaving it and one "
       "card that could not go out, or it alone, is refused)", default="keep",
       read_when=(ReadWhen("red_three.replace", (True,)),)),
    _S("red_three.last_card_ends_hand", BOOL, "static",
       "drawing a red three as the last card of the stock ends the hand at once", default=False,
       read_when=(ReadWhen("red_three.replace", (True,)),)),
    _S("red_three.last_card_laid", BOOL, "static",
       "that last red three is laid down before the drawer's team like any other (no: it stays in the "
       "drawer's hand)", default=True,
       read_when=(ReadWhen("red_three.last_card_ends_hand", (True,)),)),

    # going out
    _S("going_out.allowed", BOOL, "action", "when the player's team may go out", required=True),
    _S("going_out.with_discard", BOOL, "action", "going out with a final discard", default=True),
    _S("going_out.without_discard", BOOL, "action", "going out by melding every card",
       default=True),
    _S("going_out.ask_partner", BOOL, "action",
       "when the player may ask the partner for permission to go out, and must then abide by the answer "
       "for the rest of the turn (judged as he asks, on his own turn, before or after its draw; a player "
       "without a partner "
       "never asks). The condition is all the engine checks: a question asked again replaces the "
       "answer, and a 'no' to a player left one card to discard leaves him no play unless "
       "turn.end_without_discard ends his turn (turn.asked_partner, turn.drew and player.hand_size state "
       "when the "
       "rulebook's question may come)",
       default=False, read_when=(ReadWhen("table.team_size", (1,), other_than=True),)),

    _S("turn.end_without_discard", BOOL, "static",
       "a player holding cards of which none may be discarded (each would be a going out the team may "
       "not make, or a card that may not be discarded this turn) ends the turn without a discard, "
       "keeping them (off: every turn ends with a discard or a going out). A card of the turn's melds "
       "that a failed opening gives back before the discard (opening.failure_discard = after-return) is "
       "one he may discard: he then has a discard, and must make it. It applies to a position the "
       "player is put in (a draw from an exhausted stock, a take as pile.frozen_hand_refused allows), not "
       "to one he would make himself: a meld or layoff that would leave him one card whose discard would "
       "be a going out the team may not make is refused whatever this says", default=False),

    # end of hand and scoring
    _S("stock.exhausted", enum("end", "pile-only", "final-pile-take", "last-card-ends"), "static",
       "when a player must draw and the stock is empty: the hand ends; or play goes on while each "
       "player takes the pile; or that player may take the pile one last time, meld, and the hand "
       "ends without a discard; or (last-card-ends) the hand ends as soon as the last card of the stock "
       "is drawn, by the turn's draw or by a red three's replacement, the player who draws it "
       "playing no more (neither melding nor discarding)", required=True),
    _S("score.<kind>", INT, "team",
       "one term of a team's hand score (terms add up; a term no clause applies to adds 0)",
       default=0),
    _S("scoring.counts", BOOL, "team", "when the team's hand score is recorded at all",
       default=True),
    _S("scoring.unrounded", NAMES, "static",
       "scoring terms left out of the rounding (it applies to the sum of the other terms)",
       default=(), read_when=(ReadWhen("scoring.round_fives", ("none",), other_than=True),)),
    _S("scoring.rounded_apart", NAMES, "static",
       "scoring terms each rounded on its own, apart from the sum of the other terms, which is "
       "rounded once", default=(), read_when=(ReadWhen("scoring.round_fives", ("none",), other_than=True),)),
    _S("scoring.round_fives", enum("none", "up", "away-from-zero", "positive-up"), "static",
       "how a hand total ending in 5 is rounded to a multiple of 10", default="none"),
    _S("game.target", INT, "static", "the score that ends the game at the end of a hand",
       required=True),
    _S("game.past_target", enum("higher-total", "shared"), "static",
       "when a hand ends with more than one team at or past the target: the team with the highest "
       "total wins (teams level at the top: game.tie); or every team past the target shares the win",
       default="higher-total"),
    _S("game.tie", enum("shared", "play-on"), "static",
       "when the teams with the highest score at the end of the game are level: they share the win, "
       "or another hand is played (and another, until one team leads)", default="shared",
       read_when=(ReadWhen("game.past_target", ("higher-total",)),)),
)

WILD_CARDS = ("JK", "2")      # the cards a wild.<card> setting may name


def _compile(pattern: str) -> re.Pattern:
    text = re.escape(pattern)
    text = text.replace(re.escape("<kind>"), r"[A-Za-z_][A-Za-z0-9_-]*")
    text = text.replace(re.escape("<card>"), "(?:" + "|".join(WILD_CARDS) + ")")
    text = text.replace(re.escape("<class>"), "(?:" + "|".join(re.escape(c) for c in CARD_CLASSES) + ")")
    return re.compile(text + r"\Z")


_MATCHERS = [(s, _compile(s.pattern)) for s in SETTINGS]


@lru_cache(maxsize=4096)        # bounded: a spec may name any path
def find(path: str) -> Setting | None:
    for setting, matcher in _MATCHERS:
        if matcher.match(path):
            return setting
    return None


@lru_cache(maxsize=None)
def entity(path: str) -> tuple[str, str] | None:
    """('meld', 'aces') for meld.aces.ranks; ('canastra', 'real') ...; ('score', 'table')."""
    parts = path.split(".")
    if parts[0] in ("meld", "canastra") and len(parts) == 3:
        return parts[0], parts[1]
    if parts[0] == "score" and len(parts) == 2:
        return "score", parts[1]
    return None


@lru_cache(maxsize=256)         # every build asks, with the few kind tuples of the specs
def required_paths(meld_kinds: tuple[str, ...], canastra_kinds: tuple[str, ...]) -> tuple[str, ...]:
    """Every concrete setting path a complete ruleset must give."""
    paths = []
    for s in SETTINGS:
        if not s.required:
            continue
        if "<class>" in s.pattern:
            paths += [s.pattern.replace("<class>", c) for c in CARD_CLASSES]
        elif s.pattern.startswith("meld.<kind>"):
            paths += [s.pattern.replace("<kind>", k) for k in meld_kinds]
        elif s.pattern.startswith("canastra.<kind>"):
            paths += [s.pattern.replace("<kind>", k) for k in canastra_kinds]
        elif "<" not in s.pattern:
            paths.append(s.pattern)
    return tuple(paths)


def similar(path: str) -> list[str]:
    """Known setting patterns that share the first segment of `path` (for hints)."""
    head = path.split(".")[0]
    return [s.pattern for s in SETTINGS if s.pattern.split(".")[0] == head]
