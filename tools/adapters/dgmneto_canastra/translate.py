"""Pure translation between canastra-spec's JSON and the serde forms of
dgmneto/canastra's engine crate (engine/crates/canastra-engine).

No engine code here: its wire forms are written out from the crate's serde
attributes. A card is a string, rank then suit, `"TH"`, `"2C"`, or `"JOKER"`
(card.rs). A `GameState` (state.rs) holds four hands in seat order (seat i
passes the turn to seat i + 1, partners are seats of the same parity), the
stock drawn from its end, the discard pile with its top last, two team tables
(`melds`, `red_threes`, `opened`), the scores, the dealer and turn seats, the
phase (`AwaitingDraw`, `AwaitingRefusalChoice`, `Melding`, `HandOver`,
`MatchOver`) and a `turn_context`. A meld (meld.rs) is `{"kind": "Sequence",
"suit", "cards": [{"card"} | {"card", "standingInRank"}]}` in rank order, or
`{"kind": "Aces", "aces": [...], "wild": card | null}`. An action (action.rs)
is `{"type": "Draw" | "KeepDrawnCard" | "RefuseDrawnCard" | "TakeDiscardPile"
| "LayMeld" | "AddToMeld" | "Discard" | "EndTurnWithoutDiscard", ...}`; a
refusal is a `RuleViolation` tagged by `"error"`.

Our seats become engine seats in our order of play (seat i of the order is
engine seat i), so the engine's "next seat" is the ruleset's next player and
its partnerships (seat % 2) are ours.
"""
from __future__ import annotations

from collections import Counter

from _common import JOKER, Reject, Skip, card, cards, rank_of, sort_key, suit_of

SUITS = {"c": "Clubs", "d": "Diamonds", "h": "Hearts", "s": "Spades"}
SUIT_CODES = {v: k for k, v in SUITS.items()}
SEQUENCE_RANKS = ("4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")   # Rank::sequence_index 0..10

PHASES_IN = {"draw": "AwaitingDraw", "play": "Melding"}


# ------------------------------------------------------------------ cards

def to_card(c: str) -> str:
    c = card(c)
    return "JOKER" if c == JOKER else c[:-1] + c[-1].upper()


def from_card(c: str) -> str:
    return JOKER if c == "JOKER" else c[:-1] + c[-1].lower()


def is_wild(c: str) -> bool:
    return c == JOKER or rank_of(c) == "2"


# ------------------------------------------------------------------ melds

def meld_to_engine(meld: dict) -> dict:
    """One of our table melds as the engine's Meld. Its kinds are sequences and
    aces melds only (meld.rs `Meld`); the engine checks the rest when it
    decodes the state."""
    kind = meld.get("kind") if isinstance(meld, dict) else None
    laid = cards(meld["cards"] if isinstance(meld, dict) else meld)
    naturals = [c for c in laid if not is_wild(c)]
    if kind == "aces" or (kind is None and naturals and all(rank_of(c) == "A" for c in naturals)):
        wilds = [c for c in laid if is_wild(c)]
        if len(wilds) > 1:
            raise Skip("the table holds an aces meld with more than one wild card, which the engine cannot hold")
        return {"kind": "Aces", "aces": [to_card(c) for c in naturals],
                "wild": to_card(wilds[0]) if wilds else None}
    if kind not in (None, "sequence"):
        raise Skip(f"the table holds a meld of kind {kind!r}; the engine has only sequences and aces melds")
    if not naturals:
        raise Skip("the table holds a meld without natural cards, which the engine cannot hold")
    # our sequences list their cards in rank order, each wild where it stands
    first = next(i for i, c in enumerate(laid) if not is_wild(c))
    if rank_of(laid[first]) not in SEQUENCE_RANKS:
        raise Skip(f"the table holds a sequence with {laid[first]}, outside the engine's 4..A")
    low = SEQUENCE_RANKS.index(rank_of(laid[first])) - first
    slots = []
    for i, c in enumerate(laid):
        slot = {"card": to_card(c)}
        if is_wild(c):
            if not 0 <= low + i < len(SEQUENCE_RANKS):
                raise Skip("the table holds a sequence whose wild stands outside the engine's 4..A")
            slot["standingInRank"] = SEQUENCE_RANKS[low + i]
        slots.append(slot)
    return {"kind": "Sequence", "suit": SUITS[suit_of(laid[first])], "cards": slots}


def meld_from_engine(meld: dict) -> dict:
    """The engine's Meld as one of ours: a sequence in rank order with its wild
    where it stands; an aces meld, its aces then its wild."""
    if meld["kind"] == "Sequence":
        return {"kind": "sequence", "cards": [from_card(s["card"]) for s in meld["cards"]]}
    laid = [from_card(c) for c in meld["aces"]] + ([from_card(meld["wild"])] if meld.get("wild") else [])
    return {"kind": "aces", "cards": laid}


def meld_cards(meld: dict) -> list[str]:
    return meld_from_engine(meld)["cards"]


# Our canastra kind for the engine's CanastraKind, per ruleset, only where the
# two mean the same (meld.rs: Dirty = seven or more with a two; Clean = seven
# or more without a two, joker allowed; CleanAces = seven natural aces, no two).
CANASTRA_NAMES = {
    "cbc": {"Dirty": "suja"},   # cbc splits the engine's Clean into real and limpa, and a real of 8+ is suja (28)
    "ituiutaba": {"Dirty": "suja", "Clean": "limpa", "CleanAces": "limpa"},   # limpa: no two, 7+ (3, 4.2)
    "casa": {"Dirty": "suja", "Clean": "limpa", "CleanAces": "ases"},   # its own rulebook's three kinds (10)
}


def canastra_name(ruleset: str, kind: str) -> str | None:
    if kind in (None, "None"):
        return None
    return CANASTRA_NAMES.get(ruleset, {}).get(kind, f"engine:{kind}")


# ------------------------------------------------------------------ state

def to_engine(state: dict, order: tuple[str, ...], team_of: dict[str, str], points: dict[str, int]) -> dict:
    """A complete state of ours as the engine's GameState (Skip when it has no
    counterpart). Cards set aside (`aside`) are left out: the engine has no
    place for them, and its transitions never count the deck. `points`: the
    engine's own card points (engine card -> points), which restore the value
    an opening in progress has laid this turn."""
    if len(order) != 4:
        raise Skip("the engine seats four players")
    if order[0::2] != tuple(s for s in order if team_of[s] == team_of[order[0]]):
        raise Skip("partners do not alternate in the order of play")
    turn = state.get("turn", {})
    phase = turn.get("phase", "draw")
    if state.get("ended"):
        raise Skip("a finished hand has no playable counterpart (the engine's HandOver takes no action)")
    if phase not in PHASES_IN:
        raise Skip(f"a state in phase {phase!r} has no counterpart (the engine deals by itself)")
    if state.get("pending"):
        raise Skip("a short opening awaiting challenge has no counterpart")
    if turn.get("asked"):
        raise Skip("the engine has no asking the partner")
    teams = state.get("teams", {})
    team_names = (team_of[order[0]], team_of[order[1]])
    for name in team_names:
        data = teams.get(name, {})
        if data.get("carried_failures"):
            raise Skip("a failed-opening penalty carried from the previous hand has no counterpart "
                       "(the engine's penalty lasts one hand)")
        for key in ("exact_cuts", "misdeals", "unkept_answers"):
            if data.get(key):
                raise Skip(f"the engine has no counterpart of {key}")
    current = turn["player"]
    seat = order.index(current)
    hands = [[to_card(c) for c in cards(state["hands"].get(s, []))] for s in order]
    team_now = team_of[current]
    tables = []
    laid_value, laid_anything = 0, False
    for name in team_names:
        data = teams.get(name, {})
        melds = data.get("melds", [])
        opened = bool(data.get("opened", bool(melds)))
        if melds and not opened:
            if name != team_now or phase != "play":
                raise Skip("melds of a team that has not opened exist in the engine only during that team's "
                           "own turn (the opening is committed when the turn ends)")
            # everything an unopened team has down was laid in this turn
            laid_value = sum(points[to_card(c)] for m in melds for c in cards(m["cards"] if isinstance(m, dict) else m))
            laid_anything = True
        tables.append({"melds": [meld_to_engine(m) for m in melds],
                       "red_threes": [to_card(c) for c in cards(data.get("red_threes", []))],
                       "opened": opened})
    pile_cards = cards(turn.get("pile_cards", [])) if phase == "play" else []
    first = bool(turn.get("first")) and not turn.get("redrawn")
    context = {"laid_value": laid_value, "laid_anything": laid_anything,
               "frozen": [to_card(c) for c in pile_cards], "took_pile": bool(turn.get("took_pile")),
               "pile_core_meld": turn.get("pile_meld") if phase == "play" else None,
               "pending_refusal": None, "refusal_available": first and phase == "draw"}
    engine_phase = PHASES_IN[phase]
    drawn = cards(turn.get("drawn", []))
    if phase == "play" and first and len(drawn) == 1 and not turn.get("took_pile"):
        # the first player has seen the first card and may still refuse it (§3):
        # in the engine it is on offer, not yet in the hand
        hand = hands[seat]
        if to_card(drawn[0]) in hand:
            hand.remove(to_card(drawn[0]))
            context["pending_refusal"] = to_card(drawn[0])
            context["refusal_available"] = True
            engine_phase = "AwaitingRefusalChoice"
    scores = [int(teams.get(name, {}).get("score", 0)) for name in team_names]
    penalty = [bool(teams.get(name, {}).get("opening_failures")) for name in team_names]
    return {"stock": [to_card(c) for c in reversed(cards(state.get("stock", [])))],
            "discard": [to_card(c) for c in cards(state.get("pile", []))],
            "hands": hands, "tables": tables, "scores": scores,
            "dealer": order.index(state.get("dealer", order[-1])), "turn": seat, "phase": engine_phase,
            "turn_context": context, "hand_number": 1, "went_out": None, "opening_penalty": penalty, "seed": 0}



def from_engine(gs: dict, before: dict, order: tuple[str, ...], team_of: dict[str, str],
                canastras: list[list[str | None]] | None = None) -> dict:
    """The engine's GameState as a state of ours, keeping what the engine has
    no notion of from `before`. `canastras`: our kind names of each team's melds."""
    out = dict(before)
    out.setdefault("ended", None)
    out["pending"] = None           # the engine has no short opening awaiting challenge
    ctx = gs["turn_context"]
    hands = {s: [from_card(c) for c in gs["hands"][i]] for i, s in enumerate(order)}
    offered = ctx.get("pending_refusal")
    if offered:     # on offer to the first player: in our model it is in the hand
        hands[order[gs["turn"]]].append(from_card(offered))
    out["hands"] = {s: sorted(h, key=sort_key) for s, h in hands.items()}
    out["stock"] = [from_card(c) for c in reversed(gs["stock"])]
    out["pile"] = [from_card(c) for c in gs["discard"]]
    teams = {}
    for t, name in enumerate((team_of[order[0]], team_of[order[1]])):
        prev = dict(before.get("teams", {}).get(name, {}))
        table = gs["tables"][t]
        melds = [meld_from_engine(m) for m in table["melds"]]
        if canastras is not None:
            for m, kind in zip(melds, canastras[t]):
                m["canastra"] = kind
        prev["melds"] = melds
        prev["red_threes"] = [from_card(c) for c in table["red_threes"]]
        prev["opened"] = bool(table["opened"])
        prev["score"] = gs["scores"][t]
        prev["opening_failures"] = int(bool(gs.get("opening_penalty", [False, False])[t]))
        teams[name] = prev
    out["teams"] = teams
    turn = dict(before.get("turn", {}))
    seat = order[gs["turn"]]
    if seat != turn.get("player"):
        turn = {"player": seat, "first": False, "took_pile": False, "pile_cards": [], "drawn": [],
                "melds_laid": [], "touched": [], "redrawn": False, "asked": None, "pile_meld": None}
    phases = {"AwaitingDraw": "draw", "AwaitingRefusalChoice": "play", "Melding": "play"}
    turn["phase"] = phases.get(gs["phase"], "over")
    if gs["phase"] in ("AwaitingDraw", "AwaitingRefusalChoice", "Melding"):
        turn["took_pile"] = bool(ctx.get("took_pile"))
        turn["pile_cards"] = sorted((from_card(c) for c in ctx.get("frozen", [])), key=sort_key)
        turn["pile_meld"] = ctx.get("pile_core_meld")
    out["turn"] = turn
    if gs["phase"] in ("HandOver", "MatchOver"):
        went = gs.get("went_out")
        out["ended"] = {"reason": "went-out" if went is not None else "stock-exhausted",
                        "player": order[went] if went is not None else None}
    return out


# ------------------------------------------------------------------ actions

def take_pile_plans(arg: dict) -> list[tuple[list[str], list[str]]]:
    """The ways to express our pile take in the engine's terms: a core of two
    hand cards that goes down with the top card (action.rs TakeDiscardPile:
    `core: [Card; 2]`), then the other named cards laid off on the meld the
    core went into. Every pair of the named cards, in the order named."""
    named = cards(arg.get("with", []))
    if len(named) < 2:
        raise Reject("pile.too-few-hand-cards",
                     "the engine takes the pile only with two cards from the hand (action.rs TakeDiscardPile, "
                     "core: [Card; 2]; rulebook §5: the core is always three cards)")
    plans = []
    for i in range(len(named)):
        for j in range(i + 1, len(named)):
            rest = [c for k, c in enumerate(named) if k not in (i, j)]
            plans.append(([named[i], named[j]], rest))
    return plans


def layoff_orders(given: list[str], limit: int = 720) -> list[list[str]]:
    """Orders in which to feed a lay-off to the engine, which adds the cards one
    at a time (AddToMeld): as named, by rank up, by rank down, then every other
    permutation (up to `limit`). Our lay-off is a set of cards; the engine's
    order matters only for which intermediate runs it will accept."""
    from itertools import islice, permutations

    def rank(c: str) -> int:
        return SEQUENCE_RANKS.index(rank_of(c)) if not is_wild(c) and rank_of(c) in SEQUENCE_RANKS else -1

    seen, out = set(), []
    firsts = [list(given), sorted(given, key=rank), sorted(given, key=rank, reverse=True)]
    for order in firsts + [list(p) for p in islice(permutations(given), limit)]:
        key = tuple(order)
        if key not in seen:
            seen.add(key)
            out.append(order)
    return out


# ------------------------------------------------------------------ reasons

MELD_REASONS = {   # meld.rs MeldError -> our reason code, where the meaning is the same
    "TooFewCards": "meld.too-few-cards",
    "TooManyWilds": "meld.too-many-wilds",
    "MixedSuits": "meld.mixed-suits",
    "NotASequence": "meld.not-consecutive",
    "TooLong": "meld.too-many-cards",
    "WildLocked": "layoff.wild-locked",
    "WrongSuitForTwo": "meld.wild-suit",
    "NotAnAce": "meld.mixed-ranks",
}

VIOLATION_REASONS = {   # action.rs RuleViolation -> our reason code, where the meaning is the same
    "NotYourTurn": "turn.not-your-turn",
    "HandIsOver": "turn.hand-over",
    "CardNotInHand": "card.not-in-hand",
    "NoSuchMeld": "layoff.no-such-meld",
    "OpeningMinimumNotMet": "opening.below-minimum",
    "DiscardPileEmpty": "pile.empty",
    "DiscardPileBlocked": "pile.blocked",
    "WildInDiscardCore": "pile.too-many-wilds",
    "WildInPileCoreMeld": "pile.too-many-wilds",
    "CardFrozen": "card.from-pile-not-usable",
    "NoCleanCanastra": "going-out.not-allowed",
    "MustDiscard": "turn.discard-required",
    "WouldStrandLastCard": "turn.last-card-stranded",
}

DRAW_VERBS = ("draw", "take_pile", "redraw")


def reason_for(violation: dict, verb: str, named: list[str] = ()) -> str:
    """Our reason code for the engine's refusal of our action `verb`, or
    `engine:<Variant>` where no code of ours means the same."""
    kind = violation.get("error", "")
    if kind == "InvalidMeld":
        meld_error = violation.get("reason", {}).get("reason", "")
        if meld_error == "NotASequence" and any(rank_of(c) == "3" for c in named):
            return "meld.threes"        # the variant's own doc: 3s have no place in a sequence
        return MELD_REASONS.get(meld_error, f"engine:InvalidMeld.{meld_error}")
    if kind == "WrongPhase":
        phase = violation.get("phase")
        if verb == "redraw":
            return "redraw.not-allowed"     # RefuseDrawnCard outside the first player's choice (§3)
        if phase == "Melding" and verb in DRAW_VERBS:
            return "turn.already-drew"
        if phase == "AwaitingDraw" and verb not in DRAW_VERBS:
            return "turn.draw-first"
        return f"engine:WrongPhase.{phase}"
    return VIOLATION_REASONS.get(kind, f"engine:{kind}")


def named_cards(verb: str, arg) -> list[str]:
    if verb == "meld":
        return [c for m in arg for c in cards(m)]
    if verb == "layoff":
        return [c for item in (arg if isinstance(arg, list) else [arg]) for c in cards(item["cards"])]
    if verb == "take_pile":
        return cards(arg.get("with", []))
    if verb == "discard":
        return [card(arg)]
    return []


def cards_in(gs: dict) -> Counter:
    """Every card of an engine state, the one on offer to the first player included."""
    have = Counter()
    for hand in gs["hands"]:
        have.update(map(from_card, hand))
    have.update(map(from_card, gs["stock"] + gs["discard"]))
    for table in gs["tables"]:
        have.update(map(from_card, table["red_threes"]))
        for m in table["melds"]:
            have.update(meld_cards(m))
    offered = gs["turn_context"].get("pending_refusal")
    if offered:
        have[from_card(offered)] += 1
    return have
