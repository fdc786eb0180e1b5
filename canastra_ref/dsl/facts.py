"""The game facts a condition or a value in a spec may read.

The engine supplies every fact named here; the spec decides what they mean
for the rules. A fact belongs to a group, and each setting declares which
groups its expressions may read (canastra_ref.dsl.settings): a canastra's
`match` reads meld facts, a scoring term reads team facts, a pile rule reads
the facts of the action being judged.

Fact types: "int", "bool", or "enum:<domain>" (see DOMAINS; the domains
"meld-kind" and "canastra-kind" are the kinds the ruleset itself declares).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..cards import RANKS, rank_label

DOMAINS: dict[str, tuple[str, ...]] = {
    "shape": ("sequence", "set", "wilds"),
    "shape-or-none": ("sequence", "set", "wilds", "none"),
    "hand-end": ("none", "went-out", "stock-exhausted", "red-three-last"),
    "rank": tuple(rank_label(r) for r in RANKS) + ("none",),
}


@dataclass(frozen=True)
class Fact:
    name: str           # may hold one "<canastra-kind>" placeholder segment
    type: str
    group: str
    doc: str


_TEAM_FACTS = [
    ("score", "int", "the team's cumulative score before this hand"),
    ("opened", "bool", "the team has made its opening (first melds) this hand"),
    ("melds", "int", "melds the team has on the table"),
    ("canastras", "int", "the team's melds that are canastras (match a canastra kind)"),
    ("canastras.<canastra-kind>", "int", "the team's canastras of that kind"),
    ("canastras_lost.<canastra-kind>", "int",
     "the team's canastras of that kind that cards added this hand turned into another kind"),
    ("red_threes", "int", "red threes the team has laid down"),
    ("red_three_points", "int", "card points of the red threes the team has laid down"),
    ("table_points", "int", "card points of every card in the team's melds"),
    ("canastra_bonus", "int", "the values of the team's canastras whose kind counts for it"),
    ("hand_points", "int", "card points of the cards left in the hands of the team's players"),
    ("hand_points_of_melders", "int", "hand points of those of its players who melded this hand (player.melded)"),
    ("players_without_melds", "int", "the team's players who melded nothing this hand (player.melded)"),
    ("black_threes_in_hand", "int", "black threes left in the hands of the team's players"),
    ("red_threes_in_hand", "int", "red threes left in the hands of the team's players"),
    ("went_out", "bool", "a player of the team went out"),
    ("went_out_concealed", "bool",
     "a player of the team went out in one turn, having melded nothing earlier in the hand"),
    ("went_out_took_pile", "bool",
     "a player of the team went out in a turn in which he took the discard pile"),
    ("went_out_concealed_canastras", "int",
     "canastras formed in the turn in which a player of the team went out concealed, by the melds "
     "he laid or the cards he added in it (0 when no player of the team went out concealed)"),
    ("went_out_concealed_own_canastras", "int",
     "those of team.went_out_concealed_canastras that are melds he started in that turn (not the "
     "team's earlier melds that his cards completed)"),
    ("unkept_answers", "int",
     "times a player of the team, told yes by the partner, ended the turn without going out"),
    ("exact_cuts", "int", "exact cuts credited to the team this hand"),
    ("misdeals", "int", "misdeals made by the team's players this hand"),
    ("opening_failures", "int", "failed openings charged to the team (ladder steps)"),
    ("size", "int", "players in the team"),
]

_FACTS: list[Fact] = []
for _side, _who in (("team", "the team in question"), ("opponents", "the other team(s), summed")):
    for _name, _type, _doc in _TEAM_FACTS:
        _FACTS.append(Fact(f"{_side}.{_name}", _type, "team",
                           _doc if _side == "team" else f"{_doc} — for {_who}"))

_FACTS += [
    Fact("hand.end", "enum:hand-end", "team", "how the hand ended (none while it is in progress)"),
    Fact("hand.went_out", "bool", "team", "some player went out"),

    Fact("player.melded", "bool", "action",
         "the acting player laid down a meld, or added cards to one, in an earlier turn of this hand "
         "(cards of his hand added counting as layoff.melds says, the pile's top card added alone as "
         "pile.take.top_card_alone_melds says)"),
    Fact("player.hand_size", "int", "action", "cards in the acting player's hand"),
    Fact("turn.took_pile", "bool", "action", "the acting player took the discard pile this turn"),
    Fact("turn.going_out", "bool", "action", "the action being judged leaves the player's hand empty"),
    Fact("turn.discarding", "bool", "action", "the player goes out with a final discard"),
    Fact("turn.last_card", "bool", "action",
         "the action being judged leaves the player one card, whose discard would be going out"),
    Fact("turn.first", "bool", "action", "this is the first turn of the hand"),
    Fact("turn.final", "bool", "action",
         "this is the last turn of a hand whose stock is exhausted, which ends without a discard "
         "(stock.exhausted), or one the stock's end cut short after its melds were laid (a draw or a red "
         "three's replacement took its last card: red_three.last_card_ends_hand, stock.exhausted = "
         "last-card-ends), where those melds are judged: the hand ends with it, no player drawing after it"),
    Fact("turn.first_card_red_three", "bool", "action",
         "the first card the acting player drew from the stock this turn was a red three, laid down and "
         "replaced (red_three.replace): the card he holds from that draw is its replacement"),
    Fact("turn.drew", "bool", "action",
         "the acting player has drawn from the stock or taken the pile this turn (his turn is past its draw)"),
    Fact("turn.asked_partner", "bool", "action",
         "the acting player has asked the partner about going out this turn (answered or not)"),
    Fact("turn.taking_pile", "bool", "action",
         "the meld being judged is the one made with the pile's top card as the pile is taken"),
    Fact("turn.opening_shortfall", "int", "action",
         "the points the melds of this turn lack to reach the opening minimum (where opening.single_meld "
         "asks one meld to reach it and none does, what the largest lacks), when a short opening is "
         "judged at the end of the turn (0 elsewhere)"),
    Fact("turn.retried", "bool", "action",
         "the player gave back the pile taken for the opening this turn and drew from the stock instead"),
    Fact("turn.opening", "bool", "action",
         "the player's team had not opened when this turn began (this turn's melds are its opening)"),
    Fact("turn.canastras_lost.<canastra-kind>", "int", "action",
         "the team's canastras of that kind that cards added this turn turned into another kind"),
    Fact("stock.size", "int", "action", "cards left in the stock"),
    Fact("stock.empty", "bool", "action", "the stock is exhausted"),
    Fact("pile.size", "int", "action", "cards in the discard pile"),
    Fact("pile.top.wild", "bool", "action", "the top card of the pile is a wild card"),
    Fact("pile.top.black_three", "bool", "action", "the top card of the pile is a black three"),
    Fact("pile.top.red_three", "bool", "action", "the top card of the pile is a red three"),
    Fact("pile.top.rank", "enum:rank", "action",
         "the rank of the pile's top card (none for a joker or an empty pile)"),
    Fact("pile.onto.shape", "enum:shape-or-none", "action",
         "the shape of the team meld the pile's top card is being added to (none when it starts a new meld)"),
    Fact("pile.contains.wild", "bool", "action", "a wild card lies anywhere in the pile"),
    Fact("pile.contains.red_three", "bool", "action", "a red three lies anywhere in the pile"),
    Fact("pile.contains.black_three", "bool", "action", "a black three lies anywhere in the pile"),
    # the batch: the new melds of the turn (turn.melds_laid: started this turn, the one the pile's
    # top card started included, and one being laid now), each with every card it holds now; not a
    # meld of an earlier turn, nor the one the pile's top card joined, whatever was added to it
    Fact("batch.clean_points", "int", "action",
         "card points of the new melds of this turn (started in it, as they stand now) that hold no wild card"),
    Fact("batch.points", "int", "action",
         "card points of the new melds of this turn (with the pile's top card where it started one)"),
    Fact("batch.melds", "int", "action", "new melds started in this turn"),
    Fact("batch.clean_melds", "int", "action", "new melds of this turn that hold no wild card"),
    Fact("batch.best_meld_points", "int", "action", "card points of the richest single new meld of this turn"),
    Fact("batch.canastras", "int", "action",
         "new melds of this turn that are canastras now, of the kind the table records (what cards added "
         "later in the turn made of them: a kind may depend on the one before, meld.previous_kind); not a "
         "meld of an earlier turn completed in this one"),
    Fact("batch.canastras.<canastra-kind>", "int", "action",
         "new melds of this turn that are canastras of that kind now (as batch.canastras counts them)"),
    Fact("batch.canastras_from_hand.<canastra-kind>", "int", "action",
         "those of batch.canastras.<canastra-kind> not started with the pile's top card"),

    Fact("meld.size", "int", "meld", "cards in the meld"),
    Fact("meld.naturals", "int", "meld", "natural (non-wild) cards in the meld"),
    Fact("meld.wilds", "int", "meld", "wild cards in the meld"),
    Fact("meld.jokers", "int", "meld", "jokers in the meld"),
    Fact("meld.twos", "int", "meld", "twos in the meld (all twos are wild where 2 is a wild card)"),
    Fact("meld.shape", "enum:shape", "meld", "sequence, set or wilds (a meld made only of wilds)"),
    Fact("meld.kind", "enum:meld-kind", "meld", "the meld kind (as the ruleset names its meld kinds)"),
    Fact("meld.rank", "enum:rank", "meld", "the rank of a set (none for sequences and all-wild melds)"),
    Fact("meld.natural_run", "int", "meld",
         "the most natural cards of the meld that stand together with no wild card among them: in a sequence, "
         "its longest run of natural cards of consecutive ranks (a wild card stands at the place of the rank it "
         "takes); in a set, its natural cards; 0 for a meld of wild cards only"),
    Fact("meld.previous_kind", "enum:canastra-kind-or-none", "meld",
         "the canastra kind the meld had before the cards just added (none for a new meld or a meld that "
         "was no canastra)"),

    Fact("card.wild", "bool", "card", "the card is a wild card"),
    Fact("card.red_three", "bool", "card", "the card is a red three"),
    Fact("card.black_three", "bool", "card", "the card is a black three"),
]

FACTS: dict[str, Fact] = {f.name: f for f in _FACTS}

# Which fact groups each evaluation scope may read.
SCOPES: dict[str, frozenset[str]] = {
    "static": frozenset(),
    "card": frozenset({"card"}),
    "meld": frozenset({"meld"}),
    "team": frozenset({"team"}),
    "action": frozenset({"team", "action"}),
    # an action that lays a meld: its facts, and the meld's as it would be laid
    "action-meld": frozenset({"team", "action", "meld"}),
}


def lookup(name: str, canastra_kinds: tuple[str, ...]) -> Fact | None:
    """The fact a dotted name denotes, resolving a canastra-kind segment."""
    if name in FACTS:
        return FACTS[name]
    head, _, last = name.rpartition(".")
    if last in canastra_kinds:
        return FACTS.get(f"{head}.<canastra-kind>")
    return None


def facts_in(scope: str) -> list[Fact]:
    groups = SCOPES[scope]
    return [f for f in _FACTS if f.group in groups]
