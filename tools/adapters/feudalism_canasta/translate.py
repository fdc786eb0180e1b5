"""Pure translation between canastra-spec's JSON and the data of
feudalism-dev/Canasta (classic Canasta and Hand and Foot, TypeScript; the
rules core is src/core/*.ts).

No engine code here: its data forms (src/core/types.ts) are written out.
A card is {id, rank, suit} with ranks '4'..'10' 'J' 'Q' 'K' 'A' '2' '3'
'JOKER' and suits 'H' 'D' 'S' 'C' ('J' for jokers). A MatchState holds
players 0..n-1 (teams seat % 2, the turn passing to index + 1), two teams
with their melds ({rank, cards, closed}), the stock (drawn from its front)
and the discard pile (top last). Moves are {kind: 'drawStock' | 'takePile' |
'meld' | 'addToMeld' | 'discard' | ...}.
"""
from __future__ import annotations

from _common import JOKER, Reject, Skip, card, cards, is_red_three, kind_name, rank_of, sort_key


def to_card(c: str, ident: str) -> dict:
    c = card(c)
    if c == JOKER:
        return {"id": ident, "rank": "JOKER", "suit": "J"}
    rank = "10" if c[0] == "T" else c[:-1]
    return {"id": ident, "rank": rank, "suit": c[-1].upper()}


def from_card(obj: dict) -> str:
    if obj["rank"] == "JOKER":
        return JOKER
    return ("T" if obj["rank"] == "10" else obj["rank"]) + obj["suit"].lower()


def is_wild(c: str) -> bool:
    return c == JOKER or rank_of(c) == "2"


class Ids:
    """Card ids: the compact card and a serial number (ids are opaque to the engine)."""

    def __init__(self):
        self.n = 0

    def make(self, cs) -> list[dict]:
        out = []
        for c in cards(cs):
            self.n += 1
            out.append(to_card(c, f"{card(c)}#{self.n}"))
        return out


def meld_rank(laid: list[str]) -> str:
    naturals = [c for c in laid if not is_wild(c)]
    if not naturals:
        return "WILD"
    if all(rank_of(c) == "3" for c in naturals):
        return "3"
    ranks = {rank_of(c) for c in naturals}
    if len(ranks) != 1:
        raise Skip("the engine has only same-rank melds; this table holds another kind")
    r = ranks.pop()
    return "10" if r == "T" else r


def to_engine(state: dict, order: tuple[str, ...], team_of: dict[str, str], config: dict) -> dict:
    """A complete state of ours as the engine's MatchState (config: the
    engine's own variantConfig('canasta', players))."""
    if len(order) not in (2, 4):
        raise Skip("the engine seats two or four players")
    turn = state.get("turn", {})
    phase = turn.get("phase", "draw")
    if state.get("ended"):
        raise Skip("a finished hand has no playable counterpart")
    if phase not in ("draw", "play"):
        raise Skip(f"a state in phase {phase!r} has no counterpart (the engine deals itself)")
    if state.get("pending") or turn.get("asked"):
        raise Skip("a pending challenge or a question to the partner has no counterpart in classic Canasta here")
    if not state.get("started", True):
        raise Skip("a hand before its first draw has no counterpart")
    ids = Ids()
    teams = state.get("teams", {})
    players_json = state.get("players", {})
    current = turn["player"]
    players = []
    for i, seat in enumerate(order):
        melded = bool(players_json.get(seat, {}).get("melded"))
        eligible = not (turn.get("had_melded") if seat == current and phase == "play" else melded)
        players.append({"displayName": seat, "isHuman": False, "team": i % 2, "seat": i,
                        "hand": ids.make(state["hands"].get(seat, [])), "foot": [], "footPickedUp": True,
                        "meldedThisHand": melded, "concealedEligible": eligible})
    team_states = []
    for t in (team_of[order[0]], team_of[order[1]]):
        data = teams.get(t, {})
        melds = []
        for m in data.get("melds", []):
            laid = cards(m["cards"] if isinstance(m, dict) else m)
            melds.append({"rank": meld_rank(laid), "cards": ids.make(laid), "closed": False})
        team_states.append({"melds": melds, "redThrees": ids.make(data.get("red_threes", [])),
                            "score": data.get("score", 0),
                            "hasInitialMeld": bool(data.get("opened", bool(data.get("melds"))))})
    pile = cards(state.get("pile", []))
    return {
        "config": config, "phase": "awaitingDraw" if phase == "draw" else "awaitingPlay",
        "players": players, "teams": team_states,
        "stock": ids.make(state.get("stock", [])), "discard": ids.make(pile),
        "discardFrozen": any(is_wild(c) or is_red_three(c) for c in pile),
        "currentPlayer": order.index(current), "dealer": order.index(state.get("dealer", order[-1])),
        "round": 1, "lastMessage": "", "winnerTeam": -1, "pendingGoOut": None, "seed": 0,
        "turnNumber": 1, "wentOutPlayer": -1,
    }


def from_engine(match: dict, before: dict, order: tuple[str, ...], team_of: dict[str, str], ruleset: str) -> dict:
    out = dict(before)
    out.setdefault("ended", None)
    out["hands"] = {seat: sorted((from_card(c) for c in match["players"][i]["hand"]), key=sort_key)
                    for i, seat in enumerate(order)}
    out["stock"] = [from_card(c) for c in match["stock"]]
    out["pile"] = [from_card(c) for c in match["discard"]]
    teams = {}
    for t, team in enumerate((team_of[order[0]], team_of[order[1]])):
        prev = dict(before.get("teams", {}).get(team, {}))
        data = match["teams"][t]
        melds = []
        for m in data["melds"]:
            laid = [from_card(c) for c in m["cards"]]
            naturals = [c for c in laid if not is_wild(c)]
            rank = rank_of(naturals[0]) if naturals else None
            melds.append({"kind": kind_name(ruleset, "set", rank),
                          "cards": naturals + [c for c in laid if is_wild(c)]})
        prev["melds"] = melds
        prev["red_threes"] = [from_card(c) for c in data["redThrees"]]
        prev["opened"] = bool(data["hasInitialMeld"])
        teams[team] = prev
    out["teams"] = teams
    players = dict(before.get("players", {}))
    for i, seat in enumerate(order):
        players[seat] = {**players.get(seat, {}), "melded": bool(match["players"][i]["meldedThisHand"])}
    out["players"] = players
    turn = dict(before.get("turn", {}))
    seat = order[match["currentPlayer"]]
    if seat != turn.get("player"):
        turn = {"player": seat, "phase": "draw", "first": False, "took_pile": False, "pile_cards": [],
                "drawn": [], "melds_laid": [], "touched": [], "redrawn": False, "asked": None,
                "opening_undo": None, "had_melded": False, "final": False}
    turn["phase"] = {"awaitingDraw": "draw", "awaitingPlay": "play"}.get(match["phase"], "over")
    out["turn"] = turn
    if match["phase"] in ("roundEnd", "matchEnd"):
        went = match["wentOutPlayer"]
        out["ended"] = {"reason": "went-out" if went >= 0 else "stock-exhausted",
                        "player": order[went] if went >= 0 else None, "concealed": False}
    return out


def pick(hand: list[dict], names: list[str]) -> list[str]:
    """The ids of the named cards in a hand (each card once); Reject if one is missing."""
    free = list(hand)
    out = []
    for name in cards(names):
        found = next((c for c in free if from_card(c) == name), None)
        if found is None:
            raise Reject("card.not-in-hand", f"{name} is not in the hand")
        free.remove(found)
        out.append(found["id"])
    return out


REASONS = [   # fragments of the engine's error messages -> our reason codes
    ("It is not time to draw", "turn.already-drew"),
    ("Not your turn", "turn.not-your-turn"),
    ("cannot be taken", "pile.blocked"),
    ("not in your hand", "card.not-in-hand"),
    ("Need two", "pile.too-few-naturals"),
    ("to take the pile", "pile.too-few-hand-cards"),
    ("do not form a meld with the top card", "pile.too-few-hand-cards"),
    ("Initial meld needs", "opening.below-minimum"),
    ("Draw first", "turn.draw-first"),
    ("Black threes can only be melded", "meld.not-allowed-now"),
    ("only melded as you go out", "meld.not-allowed-now"),
    ("Black threes cannot mix", "meld.too-many-wilds"),
    ("Red threes cannot be melded", "meld.threes"),
    ("Wild books are not allowed", "meld.only-wilds"),
    ("only 2s and jokers", "meld.no-kind"),
    ("No such meld", "layoff.no-such-meld"),
    ("Make your initial meld first", "layoff.not-opened"),
    ("needs a canasta to go out", "going-out.not-allowed"),
    ("You need a canasta to go out", "going-out.not-allowed"),
    ("Keep enough cards", "going-out.not-allowed"),
    ("at least three cards", "meld.too-few-cards"),
    ("three or four black threes", "meld.too-few-cards"),
    ("not the same rank", "meld.mixed-ranks"),
    ("not a single rank", "meld.mixed-ranks"),
    ("does not match the meld", "meld.mixed-ranks"),
    ("at least two natural", "meld.too-few-naturals"),
    ("Each set needs at least two natural", "meld.too-few-naturals"),
    ("Need a wild for that pair", "meld.too-few-cards"),
    ("wilds in a meld", "meld.too-many-wilds"),
    ("Those cards are not a meld", "meld.no-kind"),
    ("extra wilds", "meld.only-wilds"),
    ("Cannot add to a black-three meld", "meld.not-allowed-now"),
    ("The match is over", "turn.hand-over"),
]


def reason_for(message: str, rest: int | None = None) -> str:
    if ("canasta to go out" in message or "Keep enough cards" in message) and rest == 1:
        return "turn.last-card-stranded"
    for fragment, reason in REASONS:
        if fragment in message:
            return reason
    return "action.malformed"
