"""Pure translation between canastra-spec's JSON and the data of jphd3v/anycard's
Canasta (backend/src/rules/impl/canasta.ts, a rules module of a card-game
framework).

No engine code here: its data forms (shared/schemas.ts, the canasta module)
are written out. A GameState holds a registry of 108 cards by numeric id
(`{id, rank, suit}`, ranks "2".."10" "J" "Q" "K" "A" "JOKER", suits
"clubs" "diamonds" "hearts" "spades", jokers "red"/"black"), piles of card
ids (`deck` drawn from its end, `discard` with its top last, `<P>-hand`,
`<T>-red3`, `<T>-meld-<rank>` one pile per rank and team, `<T>-black3-out`),
the current player and a `rulesState` (turn phase, scores, what the team had
melded when the turn began, the cards taken with the pile). Players are S, W,
N, E in the engine's order of play (clockwise), partners S & N (team A) and
W & E (team B). Moves are intents: `{type: "move", fromPileId, toPileId,
cardId | cardIds}` or `{type: "action", action: "go-out" |
"end-hand-empty-stock" | "start-game"}`.

Our seats become the engine's players in our order of play (seat i of the
order is the engine's i-th player), so its next player is the ruleset's and
its partnerships are ours.
"""
from __future__ import annotations

import copy
from collections import Counter

from _common import JOKER, Reject, Skip, card, cards, is_black_three, rank_of, sort_key

PLAYERS = ("S", "W", "N", "E")          # the engine's order of play (canasta.ts PLAYERS)
TEAM_OF_PLAYER = {"S": "A", "N": "A", "W": "B", "E": "B"}
MELD_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
SUIT_CODES = {v: k for k, v in SUITS.items()}


# ------------------------------------------------------------------ cards

def engine_rank(c: str) -> str:
    c = card(c)
    if c == JOKER:
        return "JOKER"
    return "10" if c[0] == "T" else c[:-1]


def from_entry(entry: dict) -> str:
    """Our spelling of a card of the engine's registry."""
    if entry["rank"] == "JOKER":
        return JOKER
    return ("T" if entry["rank"] == "10" else entry["rank"]) + SUIT_CODES[entry["suit"]]


def is_wild(c: str) -> bool:
    return c == JOKER or rank_of(c) == "2"


class Ids:
    """Our cards as ids of the engine's registry, each physical card once."""

    def __init__(self, registry: dict):
        self.free: dict[str, list[int]] = {}
        for key in sorted(registry, key=int):
            self.free.setdefault(from_entry(registry[key]), []).append(int(key))

    def take(self, c: str) -> int:
        pool = self.free.get(card(c))
        if not pool:
            raise Skip(f"the table holds more {c} than the engine's 108-card deck")
        return pool.pop(0)


def name(state: dict, card_id: int) -> str:
    return from_entry(state["cards"][str(card_id)])


def pile(state: dict, pile_id: str) -> list[str]:
    """The cards of a pile (none for a pile the engine does not have)."""
    return [name(state, i) for i in state["piles"].get(pile_id, {}).get("cardIds", [])]


# ------------------------------------------------------------------ seats

def players_of(order: tuple[str, ...]) -> dict[str, str]:
    """Our seat -> the engine's player."""
    if len(order) != 4:
        raise Skip("the engine seats four players")
    return dict(zip(order, PLAYERS))


def meld_rank(laid: list[str]) -> str | None:
    """The engine's meld pile rank of a set: the rank of its naturals."""
    ranks = {engine_rank(c) for c in laid if not is_wild(c)}
    return ranks.pop() if len(ranks) == 1 else None


# ------------------------------------------------------------------ state

def to_engine(state: dict, order: tuple[str, ...], team_of: dict[str, str], template: dict) -> dict:
    """A complete state of ours as the engine's GameState, on the engine's own
    template (its card registry and piles). Cards set aside are left out."""
    turn = state.get("turn", {})
    phase = turn.get("phase", "draw")
    if state.get("ended"):
        raise Skip("a finished hand has no playable counterpart (the engine gathers the cards at once)")
    if phase not in ("draw", "play"):
        raise Skip(f"a state in phase {phase!r} has no counterpart (the engine deals by itself)")
    if state.get("pending") or turn.get("asked"):
        raise Skip("the engine has no short-opening challenge and no asking the partner")
    if not state.get("started", True):
        raise Skip("a hand before its first draw has no counterpart (the engine flips the first upcard itself)")
    who = players_of(order)
    team_name = {TEAM_OF_PLAYER[who[s]]: team_of[s] for s in order}      # engine team -> ours
    for ours in team_name.values():
        data = state.get("teams", {}).get(ours, {})
        for key in ("opening_failures", "carried_failures", "exact_cuts", "misdeals", "unkept_answers"):
            if data.get(key):
                raise Skip(f"the engine has no counterpart of {key}")
    gs = copy.deepcopy(template)
    ids = Ids(gs["cards"])
    for p in gs["piles"].values():
        p["cardIds"] = []
    current = turn["player"]
    for seat in order:
        gs["piles"][f"{who[seat]}-hand"]["cardIds"] = [ids.take(c) for c in cards(state["hands"].get(seat, []))]
    gs["piles"]["deck"]["cardIds"] = [ids.take(c) for c in reversed(cards(state.get("stock", [])))]
    gs["piles"]["discard"]["cardIds"] = [ids.take(c) for c in cards(state.get("pile", []))]
    had_meld = {}
    for team, ours in team_name.items():
        data = state.get("teams", {}).get(ours, {})
        melds = data.get("melds", [])
        ranks_seen = set()
        for meld in melds:
            laid = cards(meld["cards"] if isinstance(meld, dict) else meld)
            if laid and all(is_black_three(c) for c in laid):
                raise Skip("the table holds a meld of black threes, which the engine keeps only for going out")
            rank = meld_rank(laid)
            if rank is None or rank not in MELD_RANKS:
                raise Skip(f"the table holds a meld ({' '.join(laid)}) that is no set of one rank 4..A, "
                           "the engine's only meld piles")
            if rank in ranks_seen:
                raise Skip(f"the table holds two melds of {rank}s; the engine has one pile per rank")
            ranks_seen.add(rank)
            gs["piles"][f"{team}-meld-{rank}"]["cardIds"] = [ids.take(c) for c in laid]
        gs["piles"][f"{team}-red3"]["cardIds"] = [ids.take(c) for c in cards(data.get("red_threes", []))]
        had_meld[team] = bool(data.get("opened", bool(melds)))
    pile_cards = cards(turn.get("pile_cards", [])) if phase == "play" else []
    hand = gs["piles"][f"{who[current]}-hand"]["cardIds"]
    taken = []
    for c in pile_cards:
        match = next((i for i in hand if name(gs, i) == c and i not in taken), None)
        if match is None:
            raise Skip(f"a card taken with the pile ({c}) is not in the hand")
        taken.append(match)
    # cards set aside are out of this hand: out of the engine's registry too, whose
    # own invariant check (state.ts assertInvariants) wants every card in a pile
    placed = {i for p in gs["piles"].values() for i in p["cardIds"]}
    gs["cards"] = {k: v for k, v in gs["cards"].items() if int(k) in placed}
    dealer = state.get("dealer", order[-1])
    gs["currentPlayer"] = who[current]
    gs["winner"] = None
    gs["gameId"] = "canastra-spec"
    gs["rulesState"] = {
        **template.get("rulesState", {}),
        "phase": "playing", "hasDealt": True, "dealNumber": 1, "dealerIndex": PLAYERS.index(who[dealer]),
        "players": list(PLAYERS), "turnPhase": "must-draw" if phase == "draw" else "meld-or-discard",
        "turnStartTeamHadMeld": had_meld, "tookDiscardThisTurn": bool(turn.get("took_pile")) and phase == "play",
        "pickedUpFromDiscardCardIds": taken, "cardsPlayedToMeldsThisTurn": [], "meldHistory": {},
        "gameScore": {t: int(state.get("teams", {}).get(ours, {}).get("score", 0)) for t, ours in team_name.items()},
        "lastHandScore": {"A": 0, "B": 0}, "result": None, "recap": []}
    return gs


def put_first(gs: dict, pile_id: str, named: list[str]) -> None:
    """Reorder a hand so the named cards come first: the engine takes the
    pile with the first matching cards of the hand (canasta.ts, naturals.slice)."""
    ids = gs["piles"][pile_id]["cardIds"]
    front = []
    for c in cards(named):
        match = next((i for i in ids if name(gs, i) == c and i not in front), None)
        if match is None:
            raise Reject("card.not-in-hand", f"{c} is not in the hand")
        front.append(match)
    gs["piles"][pile_id]["cardIds"] = front + [i for i in ids if i not in front]


def from_engine(gs: dict, before: dict, order: tuple[str, ...], team_of: dict[str, str],
                meld_order: dict[str, list[str]]) -> dict:
    """The engine's GameState as a state of ours. `meld_order`: per engine team,
    the ranks of its melds in our order (new ones are appended)."""
    who = players_of(order)
    out = dict(before)
    out.setdefault("ended", None)
    out["pending"] = None
    rs = gs["rulesState"]
    out["hands"] = {s: sorted(pile(gs, f"{who[s]}-hand"), key=sort_key) for s in order}
    out["stock"] = list(reversed(pile(gs, "deck")))
    out["pile"] = pile(gs, "discard")
    teams = {}
    current = gs.get("currentPlayer")
    playing = rs.get("turnPhase") == "meld-or-discard" and current is not None
    for team in ("A", "B"):
        ours = team_of[next(s for s in order if TEAM_OF_PLAYER[who[s]] == team)]
        prev = dict(before.get("teams", {}).get(ours, {}))
        ranks = meld_order.setdefault(team, [])
        for rank in MELD_RANKS:
            if gs["piles"][f"{team}-meld-{rank}"]["cardIds"] and rank not in ranks:
                ranks.append(rank)
        melds = []
        for rank in ranks:
            laid = pile(gs, f"{team}-meld-{rank}")
            if laid:
                melds.append({"kind": "set", "cards": [c for c in laid if not is_wild(c)] +
                              [c for c in laid if is_wild(c)]})
        black = pile(gs, f"{team}-black3-out")
        if black:
            melds.append({"kind": "set", "cards": black})
        prev["melds"] = melds
        prev["red_threes"] = pile(gs, f"{team}-red3")
        has_meld = bool(melds)
        if playing and TEAM_OF_PLAYER[current] == team:
            # in the engine a team's opening stands once its turn ends; until
            # then it is the team that had melds when the turn began
            prev["opened"] = bool(rs.get("turnStartTeamHadMeld", {}).get(team))
        else:
            prev["opened"] = has_meld
        prev["score"] = int(rs.get("gameScore", {}).get(team, 0))
        teams[ours] = prev
    out["teams"] = teams
    turn = dict(before.get("turn", {}))
    if current is not None:
        seat = order[PLAYERS.index(current)]
        if seat != turn.get("player"):
            turn = {"player": seat, "first": False, "took_pile": False, "pile_cards": [], "drawn": [],
                    "melds_laid": [], "touched": [], "redrawn": False, "asked": None}
        turn["phase"] = "draw" if rs.get("turnPhase") == "must-draw" else "play"
        if turn["phase"] == "play":
            turn["took_pile"] = bool(rs.get("tookDiscardThisTurn"))
            turn["pile_cards"] = sorted((name(gs, i) for i in rs.get("pickedUpFromDiscardCardIds", [])),
                                        key=sort_key)
    else:
        turn["phase"] = "over"
    out["turn"] = turn
    return out


# ------------------------------------------------------------------ reasons

REASONS = [   # fragments of the engine's refusals -> our reason codes, where the meaning is the same
    ("It is not your turn", "turn.not-your-turn"),
    ("Game has not started", "turn.hand-over"),
    ("Discard pile is empty", "pile.empty"),
    ("cannot take the discard pile on a wild card or black three", "pile.blocked"),
    ("Top discard cannot be melded", "pile.blocked"),
    ("Discard is frozen: you need two natural cards", "pile.too-few-naturals"),
    ("to meld the top discard and take the pile", "pile.too-few-hand-cards"),
    ("Initial meld minimum is", "opening.below-minimum"),
    ("All melds must have at least three cards", "meld.too-few-cards"),
    ("Black threes can only be melded as 3 or 4", "meld.too-few-cards"),
    ("Black threes meld may not contain wild cards", "meld.too-many-wilds"),
    ("can only be melded (sets of 3 or 4) when you are going out", "meld.not-allowed-now"),
    ("Black threes can only be melded when going out", "meld.not-allowed-now"),
    ("must contain at least two natural cards", "meld.too-few-naturals"),
    ("Melds of only wild cards are not allowed", "meld.only-wilds"),
    ("more than three wild cards", "meld.too-many-wilds"),
    ("more wild cards than natural cards", "meld.too-many-wilds"),
    ("Threes cannot be melded", "meld.threes"),
    ("contains wrong rank", "meld.mixed-ranks"),
    ("All natural cards must be", "meld.mixed-ranks"),
    ("natural cards in the meld", "meld.too-few-naturals"),
    ("to start a meld", "meld.too-few-naturals"),
    ("cannot start with a wild card", "meld.too-few-naturals"),
    ("must have a canasta to go out", "going-out.not-allowed"),
    ("must keep a card to discard unless your partnership has a canasta", "going-out.not-allowed"),
    ("During the draw phase", "turn.draw-first"),
    ("After drawing, you may meld", "turn.already-drew"),
]

ENGINE_REASONS = [   # the engine's refusals that no code of ours means: named after the engine's message
    ("do not meet the initial meld minimum to start melding", "engine:initial-meld-out-of-reach"),
    ("You must take the discard pile if you are able", "engine:must-take-pile"),
    ("are laid out automatically", "engine:red-threes-automatic"),
    ("Stock is empty", "engine:stock-empty"),
]


def reason_for(message: str) -> str:
    for fragment, reason in REASONS + ENGINE_REASONS:
        if fragment in message:
            return reason
    return "engine:" + message.strip().rstrip(".")[:80]


def cards_in(gs: dict) -> Counter:
    """Every card in the engine's piles."""
    return Counter(name(gs, i) for p in gs["piles"].values() for i in p["cardIds"])
