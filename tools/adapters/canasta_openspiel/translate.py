"""Pure translation between canastra-spec's JSON and the data of
jhtschultz/canasta-openspiel (a classic Canasta game for OpenSpiel).

No import of the engine: its data forms are written out here from its
`CanastaState.serialize()` format, so these functions are testable without
the checkout or the open_spiel wheel.

Their model: 108 physical cards, id = copy * 52 + suit * 13 + rank with
suits clubs, diamonds, hearts, spades = 0..3, ranks ace, two, ..., king =
0..12, copies 0 and 1; jokers are 104..107. Four players, teams player % 2
(0 and 2 against 1 and 3). The stock is drawn from its front, the discard
pile's top is its end. A meld is {rank, natural_cards, wild_cards}.
Actions are integers: draw 0, take pile 1, create meld 2 + rank*50 +
naturals*4 + wilds (the first cards of that kind in hand order), add to meld
1001 + meld*50 + (naturals | 10 + wilds | 20 + naturals*4 + wilds), skip to
the discard phase 2001, discard 2002 + card id, ask partner 2110, answer yes
2111 / no 2112, go out 2113.
"""
from __future__ import annotations

from _common import JOKER, Reject, Skip, card, cards, is_black_three, kind_name, rank_of, sort_key

SUITS = "cdhs"
RANK_IDS = {"A": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6, "8": 7, "9": 8, "T": 9,
            "J": 10, "Q": 11, "K": 12}
RANK_OF_ID = {v: k for k, v in RANK_IDS.items()}

DRAW_STOCK, TAKE_PILE, SKIP_MELD, ASK, YES, NO, GO_OUT = 0, 1, 2001, 2110, 2111, 2112, 2113
CREATE, ADD, DISCARD = 2, 1001, 2002


def name(cid: int) -> str:
    if cid >= 104:
        return JOKER
    off = cid % 52
    return RANK_OF_ID[off % 13] + SUITS[off // 13]


def is_wild(c: str) -> bool:
    return c == JOKER or rank_of(c) == "2"


class Ids:
    """Gives each card of a state a physical id: the first copy of a card
    gets copy 0, the second copy 1; jokers 104..107 in turn."""

    def __init__(self):
        self.used: set[int] = set()

    def take(self, c: str) -> int:
        c = card(c)
        if c == JOKER:
            options = range(104, 108)
        else:
            base = SUITS.index(c[-1]) * 13 + RANK_IDS[c[:-1]]
            options = (base, base + 52)
        for cid in options:
            if cid not in self.used:
                self.used.add(cid)
                return cid
        raise Skip(f"more copies of {c} than the engine's 108-card deck holds")

    def many(self, cs) -> list[int]:
        return [self.take(c) for c in cards(cs)]


def meld_to_engine(ids: Ids, meld) -> dict:
    laid = cards(meld["cards"] if isinstance(meld, dict) else meld)
    naturals = [c for c in laid if not is_wild(c)]
    wilds = [c for c in laid if is_wild(c)]
    if not naturals or len({rank_of(c) for c in naturals}) != 1:
        raise Skip("the engine has only same-rank melds; this table holds another kind")
    return {"rank": RANK_IDS[rank_of(naturals[0])], "natural_cards": ids.many(naturals),
            "wild_cards": ids.many(wilds)}


def to_engine(state: dict, order: tuple[str, ...], team_of: dict[str, str]) -> dict:
    """A complete state of ours as the engine's serialize() dict."""
    if len(order) != 4:
        raise Skip("the engine plays with four players only")
    turn = state.get("turn", {})
    phase = turn.get("phase", "draw")
    ended = state.get("ended")
    if phase not in ("draw", "play") and not ended:
        raise Skip(f"a state in phase {phase!r} has no counterpart (the engine deals itself)")
    if state.get("pending"):
        raise Skip("a short opening awaiting challenge has no counterpart")
    if not state.get("started", True):
        raise Skip("a hand before its first draw has no counterpart")
    ids = Ids()
    ids.many(state.get("aside", []))      # out of play: numbered, never given to the engine
    team_names = [team_of[order[0]], team_of[order[1]]]
    teams = state.get("teams", {})
    hands = [ids.many(state["hands"].get(seat, [])) for seat in order]
    melds = [[meld_to_engine(ids, m) for m in teams.get(t, {}).get("melds", [])] for t in team_names]
    red = [ids.many(teams.get(t, {}).get("red_threes", [])) for t in team_names]
    stock = ids.many(state.get("stock", []))
    pile = ids.many(state.get("pile", []))
    if len(ids.used) != 108:
        raise Skip(f"the table holds {len(ids.used)} cards; the engine's deck is 108")
    pile_names = cards(state.get("pile", []))
    asked = turn.get("asked")
    return {
        "hands": hands, "stock": stock, "discard_pile": pile, "melds": melds,
        "canastas": [sum(1 for m in ms if len(m["natural_cards"]) + len(m["wild_cards"]) >= 7) for ms in melds],
        "red_threes": red, "cards_dealt": 44, "red_three_replacements_needed": [],
        "current_player": order.index(turn["player"]), "is_terminal": False, "returns": [0.0] * 4,
        "team_scores": [teams.get(t, {}).get("score", 0) for t in team_names], "hand_scores": [0, 0],
        "hand_number": 1, "target_score": 5000, "dealing_phase": False, "game_phase": "playing",
        "turn_phase": "draw" if phase == "draw" else "meld",
        "pile_frozen": any(is_wild(c) for c in pile_names),
        "initial_meld_made": [bool(teams.get(t, {}).get("opened", bool(teams.get(t, {}).get("melds"))))
                              for t in team_names],
        "black_three_blocks_next": phase == "draw" and bool(pile_names) and is_black_three(pile_names[-1]),
        "go_out_query_pending": asked == "asking",
        "go_out_query_asker": order.index(turn["player"]) if asked else -1,
        "go_out_approved": asked == "yes", "partner_asked_this_turn": asked is not None,
        "game_over": False, "winning_team": -1,
    }


def from_engine(data: dict, before: dict, order: tuple[str, ...], team_of: dict[str, str],
                ruleset: str) -> dict:
    """The engine's serialize() dict as our state JSON (fields it does not
    model are carried over from `before`)."""
    out = dict(before)
    out.setdefault("ended", None)
    team_names = [team_of[order[0]], team_of[order[1]]]
    out["hands"] = {seat: sorted((name(c) for c in data["hands"][i]), key=sort_key) for i, seat in enumerate(order)}
    out["stock"] = [name(c) for c in data["stock"]]
    out["pile"] = [name(c) for c in data["discard_pile"]]
    teams = {}
    for t, team in enumerate(team_names):
        prev = dict(before.get("teams", {}).get(team, {}))
        prev["melds"] = [{"kind": kind_name(ruleset, "set", RANK_OF_ID[m["rank"]]),
                          "cards": [name(c) for c in m["natural_cards"]] + [name(c) for c in m["wild_cards"]]}
                         for m in data["melds"][t]]
        prev["red_threes"] = [name(c) for c in data["red_threes"][t]]
        prev["opened"] = bool(data["initial_meld_made"][t])
        teams[team] = prev
    out["teams"] = teams
    turn = dict(before.get("turn", {}))
    player = order[data["current_player"]]
    if data.get("go_out_query_pending"):
        player = order[data["go_out_query_asker"]]
    if player != turn.get("player"):
        turn = {"player": player, "phase": "draw", "first": False, "took_pile": False, "pile_cards": [],
                "drawn": [], "melds_laid": [], "touched": [], "redrawn": False, "asked": None,
                "opening_undo": None, "had_melded": False, "final": False}
    turn["phase"] = "draw" if data["turn_phase"] == "draw" else "play"
    turn["asked"] = "asking" if data.get("go_out_query_pending") else (
        "yes" if data.get("go_out_approved") else turn.get("asked"))
    out["turn"] = turn
    return out


def create_id(rank: int, naturals: int, wilds: int) -> int:
    return CREATE + rank * 50 + naturals * 4 + wilds


def add_id(meld: int, naturals: int, wilds: int) -> int:
    if naturals and wilds:
        return ADD + meld * 50 + 20 + naturals * 4 + wilds
    if wilds:
        return ADD + meld * 50 + 10 + wilds
    return ADD + meld * 50 + naturals


def split_meld(given) -> tuple[str, list[str], list[str]]:
    """(rank, naturals, wilds) of cards meant as one same-rank meld; Reject if
    they have no such shape (the engine's action space has no other)."""
    given = cards(given)
    naturals = [c for c in given if not is_wild(c)]
    wilds = [c for c in given if is_wild(c)]
    if not naturals:
        raise Reject("meld.only-wilds", "a meld needs natural cards")
    if len({rank_of(c) for c in naturals}) > 1:
        raise Reject("meld.mixed-ranks", "the natural cards of a meld must share one rank")
    return rank_of(naturals[0]), naturals, wilds


def meld_reason(rank: str, naturals: int, wilds: int, already: bool, opened: bool) -> str:
    """Our reason code for a create-meld the engine does not offer, from the
    engine's own validity rules (melds.is_valid_meld, in its order)."""
    if naturals + wilds < 3:
        return "meld.too-few-cards"
    if naturals < 2:
        return "meld.too-few-naturals"
    if wilds > 3:
        return "meld.too-many-wilds"
    if rank == "3":
        return "meld.threes"
    if already:
        return "meld.rank-already-melded"
    if not opened:
        return "opening.below-minimum"
    return "meld.no-kind"
