"""Pure translation between canastra-spec's JSON (state, actions, answers) and
the data of LuizFelipeBarbosa/canastra-thesis (the `buraco` package).

No import of the engine: its data forms are written out here from its
documented snapshot format (`buraco.engine.serialize.round_to_dict`), so these
functions are testable without the checkout.

Their model, in short: card types are ints, suit * 13 + rank with suits
clubs, diamonds, hearts, spades = 0..3 and ranks ace, two, ..., king = 0..12;
the joker is 52. Stock is drawn from its end, the trash's top is its end.
Players are 0..n-1, side = player % sides. A sequence occupies positions
1..14 (1 = ace low, 2..13 = two..king, 14 = ace high); a meld is a list of
slots [card, role] with role 0 natural, 1 wild. Melds are made by micro
actions: create a 3-card meld (sequence: suit, low position, wild choice;
set: rank, wild choice), then add one card at a time.
"""
from __future__ import annotations

from _common import (
    JOKER,
    Reject,
    Skip,
    card,
    cards,
    is_black_three,
    is_red_three,
    kind_name,
    rank_of,
    sort_key,
    suit_of,
)

SUITS = "cdhs"
RANK_IDS = {"A": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6, "8": 7, "9": 8, "T": 9,
            "J": 10, "Q": 11, "K": 12}
RANK_OF_ID = {v: k for k, v in RANK_IDS.items()}
JOKER_ID = 52

# wild choices of the create actions (buraco.engine.melds)
SEQ_WILD_NONE, SEQ_WILD_JOKER, SEQ_WILD_TWO_OF_SUIT, SEQ_WILD_OFF_SUIT_TWO = 0, 1, 2, 3
SET_WILD_NONE, SET_WILD_JOKER, SET_WILD_TWO = 0, 1, 2
NATURAL, WILD = 0, 1
PHASE_DRAW, PHASE_PLAY, PHASE_TERMINAL = 0, 1, 2


# -------------------------------------------------------------------- cards

def ct(c: str) -> int:
    """Card type id of a compact card."""
    c = card(c)
    if c == JOKER:
        return JOKER_ID
    return SUITS.index(c[-1]) * 13 + RANK_IDS[c[:-1]]


def name(ct_: int) -> str:
    """Compact card of a card type id."""
    if ct_ == JOKER_ID:
        return JOKER
    return RANK_OF_ID[ct_ % 13] + SUITS[ct_ // 13]


def position(c: str) -> tuple[int, ...]:
    """Sequence positions a card's rank may occupy (ace: low 1 and high 14)."""
    r = rank_of(c)
    if r == "A":
        return (1, 14)
    return (RANK_IDS[r] + 1,)


def nat(pos: int, suit: str) -> str:
    """The natural card at a sequence position of a suit."""
    rank = "A" if pos in (1, 14) else RANK_OF_ID[pos - 1]
    return rank + suit


class Rules:
    """The few rule facts of a profile the translation needs (read from the
    engine's RulesConfig by the adapter; plain values here)."""

    def __init__(self, *, two_wild=True, jokers_wild=True, natural_two_in_suit=True, sequences=True,
                 sets=True, freeze=False, black_three_blocks=False, initial_meld=False,
                 thresholds=(), card_points=None, players=4, sides=2):
        self.two_wild = two_wild
        self.jokers_wild = jokers_wild
        self.natural_two_in_suit = natural_two_in_suit
        self.sequences = sequences
        self.sets = sets
        self.freeze = freeze
        self.black_three_blocks = black_three_blocks
        self.initial_meld = initial_meld
        self.thresholds = tuple(tuple(t) for t in thresholds)
        self.card_points = dict(card_points or {})
        self.players = players
        self.sides = sides

    def wild(self, c: str) -> bool:
        if c == JOKER:
            return self.jokers_wild
        return self.two_wild and rank_of(c) == "2"

    def natural_at(self, c: str, pos: int, suit: str) -> bool:
        if c != nat(pos, suit):
            return False
        return not self.wild(c) or self.natural_two_in_suit

    def points(self, c: str) -> int:
        key = "JOKER" if c == JOKER else ("10" if rank_of(c) == "T" else rank_of(c))
        return self.card_points.get(key, 0)

    def minimum(self, score: int) -> int:
        return max((pts for floor, pts in self.thresholds if score >= floor), default=0)


# ------------------------------------------------------------------- melds

def sequence_layout(rules: Rules, laid: list[str]) -> tuple[str, int, list[tuple[str, int]]]:
    """(suit, start position, [(card, role)]) of a sequence as our JSON lays
    it out (rank order, each wild where it stands); Reject if it is none."""
    anchors = [(i, c) for i, c in enumerate(laid) if c != JOKER and not rules.wild(c)]
    if not anchors:
        anchors = [(i, c) for i, c in enumerate(laid) if c != JOKER]
    if not anchors:
        raise Reject("meld.only-wilds", "a sequence needs a natural card")
    i, anchor = anchors[0]
    suit = suit_of(anchor)
    for pos in position(anchor):
        start = pos - i
        if start < 1 or start + len(laid) - 1 > 14:
            continue
        slots = []
        ok = True
        for j, c in enumerate(laid):
            p = start + j
            if rules.natural_at(c, p, suit):
                slots.append((c, NATURAL))
            elif rules.wild(c):
                slots.append((c, WILD))
            else:
                ok = False
                break
        if ok:
            return suit, start, slots
    raise Reject("meld.not-consecutive", "the cards do not stand in sequence")


def meld_to_engine(rules: Rules, meld: dict, owner: int, meld_id: int) -> dict:
    """One of our team melds as the engine's meld snapshot."""
    laid = cards(meld["cards"] if isinstance(meld, dict) else meld)
    kind = meld.get("kind", "") if isinstance(meld, dict) else ""
    shape = _shape_of_laid(rules, laid, kind)
    if shape == "sequence":
        if not rules.sequences:
            raise Skip("a sequence on the table: the profile has sets only")
        suit, start, slots = sequence_layout(rules, laid)
        return {"meld_id": meld_id, "owner": owner, "kind": 0, "suit": SUITS.index(suit), "rank": None,
                "start_pos": start, "slots": [[ct(c), role] for c, role in slots]}
    naturals = [c for c in laid if not rules.wild(c)]
    if not naturals:
        raise Skip("a meld of wild cards only has no form in this engine")
    rank = rank_of(naturals[0])
    slots = [[ct(c), NATURAL if not rules.wild(c) else WILD] for c in laid]
    return {"meld_id": meld_id, "owner": owner, "kind": 1, "suit": None, "rank": RANK_IDS[rank],
            "start_pos": None, "slots": slots}


def _shape_of_laid(rules: Rules, laid: list[str], kind: str) -> str:
    if kind == "sequence":
        return "sequence"
    naturals = [c for c in laid if not rules.wild(c)]
    if kind and kind != "sequence":
        return "set"
    ranks = {rank_of(c) for c in naturals}
    if len(ranks) == 1 and len(naturals) >= 2 or not rules.sequences:
        return "set"
    return "sequence"


def meld_from_engine(rules: Rules, meld: dict, ruleset: str) -> dict:
    """The engine's meld snapshot as one of our team melds."""
    laid = [name(c) for c, _ in meld["slots"]]
    if meld["kind"] == 0:
        return {"kind": kind_name(ruleset, "sequence", None), "cards": laid}
    # sets: naturals first, then wilds, as our engine lays a set out
    naturals = [name(c) for c, role in meld["slots"] if role == NATURAL]
    wilds = [name(c) for c, role in meld["slots"] if role == WILD]
    return {"kind": kind_name(ruleset, "set", RANK_OF_ID[meld["rank"]]), "cards": naturals + wilds}


# ------------------------------------------------------------------- state

def to_round(rules: Rules, state: dict, order: tuple[str, ...], team_of: dict[str, str]) -> dict:
    """A complete state of ours as the engine's round snapshot
    (buraco.engine.serialize.round_from_dict). Skip what has no counterpart."""
    turn = state.get("turn", {})
    phase = turn.get("phase", "draw")
    ended = state.get("ended")
    if ended and phase in ("draw", "play", "over"):
        phase = "play"
    elif phase not in ("draw", "play"):
        raise Skip(f"a state in phase {phase!r} has no counterpart (the engine deals itself)")
    if state.get("pending"):
        raise Skip("a short opening awaiting challenge has no counterpart")
    if turn.get("asked"):
        raise Skip("asking the partner has no counterpart")
    if not state.get("started", True):
        raise Skip("a hand before its first draw (first-card rules) has no counterpart")
    sides = rules.sides
    side_team = [team_of[order[s]] for s in range(sides)]
    hands = []
    for seat in order:
        counts: dict[int, int] = {}
        for c in cards(state["hands"].get(seat, [])):
            counts[ct(c)] = counts.get(ct(c), 0) + 1
        hands.append(sorted(counts.items()))
    melds = []
    for side, team in enumerate(side_team):
        for m in state.get("teams", {}).get(team, {}).get("melds", []):
            melds.append(meld_to_engine(rules, m, side, len(melds)))
    pile = cards(state.get("pile", []))
    player = order.index(turn["player"])
    side = player % sides
    team_state = state.get("teams", {}).get(side_team[side], {})
    teams = state.get("teams", {})
    opened = [bool(teams.get(t, {}).get("opened", bool(teams.get(t, {}).get("melds")))) for t in side_team]
    staged = 0
    if rules.initial_meld and not opened[side] and phase == "play":
        for index in turn.get("melds_laid", []):
            staged += sum(rules.points(c) for c in cards(team_state.get("melds", [])[index]["cards"]))
    frozen = rules.freeze and any(rules.wild(c) or is_red_three(c) for c in pile)
    blocked = (rules.black_three_blocks and phase == "draw" and bool(pile) and is_black_three(pile[-1]))
    went_out = None
    if ended and ended.get("reason") == "went-out" and ended.get("player") in order:
        went_out = order.index(ended["player"]) % sides
    return {
        "hands": hands,
        "stock": [ct(c) for c in reversed(cards(state.get("stock", [])))],
        "trash": [ct(c) for c in pile],
        "melds": melds,
        "morto": [],
        "morto_taken": [],
        "current_player": player,
        "phase": PHASE_DRAW if phase == "draw" else PHASE_PLAY,
        "turn_number": 1,
        "just_drawn_from_pile": None,
        "pile_blocked_for_next": blocked,
        "frozen": frozen,
        "initial_meld_done": [o or not rules.initial_meld for o in opened],
        "round_over": bool(ended),
        "went_out_side": went_out,
        "end_reason": None if not ended else (0 if went_out is not None else 1),
        "red_threes": [[ct(c) for c in cards(state.get("teams", {}).get(t, {}).get("red_threes", []))]
                       for t in side_team],
        "pending_pile_card": None,
        "pending_pile_pair_only": False,
        "staged_points": staged,
        "opened_on_turn": [1 if ended and ended.get("concealed") and s == went_out else None for s in range(sides)],
        "initial_meld_min": [rules.minimum(state.get("teams", {}).get(t, {}).get("score", 0)) for t in side_team],
    }


def from_round(rules: Rules, rnd: dict, before: dict, order: tuple[str, ...], team_of: dict[str, str],
               ruleset: str, ended_by_draw: bool = False) -> dict:
    """The engine's round snapshot as our state JSON; fields the engine does
    not model are carried over from `before` (the state sent)."""
    sides = rules.sides
    side_team = [team_of[order[s]] for s in range(sides)]
    out = {k: v for k, v in before.items()}
    out.setdefault("ended", None)
    out["hands"] = {seat: sorted((name(c) for c, n in rnd["hands"][i] for _ in range(n)), key=sort_key)
                    for i, seat in enumerate(order)}
    out["stock"] = [name(c) for c in reversed(rnd["stock"])]
    out["pile"] = [name(c) for c in rnd["trash"]]
    teams = {}
    for side, team in enumerate(side_team):
        prev = dict(before.get("teams", {}).get(team, {}))
        prev["melds"] = [meld_from_engine(rules, m, ruleset) for m in rnd["melds"] if m["owner"] == side]
        prev["red_threes"] = [name(c) for c in rnd["red_threes"][side]] if rnd["red_threes"] else []
        prev["opened"] = bool(rnd["initial_meld_done"][side]) if rules.initial_meld else bool(prev["melds"])
        teams[team] = prev
    out["teams"] = teams
    turn = dict(before.get("turn", {}))
    turn["player"] = order[rnd["current_player"]]
    turn["phase"] = {PHASE_DRAW: "draw", PHASE_PLAY: "play", PHASE_TERMINAL: "over"}[rnd["phase"]]
    out["turn"] = turn
    if rnd["round_over"] and not before.get("ended"):
        went = rnd["went_out_side"]
        reason = "went-out" if went is not None else ("red-three-last" if rnd["stock"] == [] and
                                                     before.get("turn", {}).get("phase") == "draw" and
                                                     rnd["end_reason"] == 1 and ended_by_draw else "stock-exhausted")
        out["ended"] = {"reason": reason, "player": order[rnd["current_player"]] if went is not None else None,
                        "concealed": False}
    return out


def fresh_turn(turn: dict) -> dict:
    """Our turn record at the start of a player's turn."""
    return {"player": turn["player"], "phase": turn["phase"], "first": False, "took_pile": False,
            "pile_cards": [], "drawn": [], "melds_laid": [], "touched": [], "redrawn": False, "asked": None,
            "opening_undo": None, "had_melded": False, "final": False}


# ----------------------------------------------------------------- actions

def meld_steps(rules: Rules, given: list[str]) -> list[tuple]:
    """Engine micro-steps that lay `given` as one new meld:
    ("seq", suit, start, wild_choice) or ("set", rank, wild_choice) for the
    3-card core, then ("add", card) for each further card, in an order the
    engine accepts. Reject when the cards form no meld shape of the engine."""
    given = cards(given)
    if len(given) < 3:
        raise Reject("meld.too-few-cards", "a meld has at least three cards")
    naturals = [c for c in given if not rules.wild(c)]
    wilds = [c for c in given if rules.wild(c)]
    ranks = {rank_of(c) for c in naturals}
    if rules.sets and (len(ranks) == 1 or not rules.sequences):
        return _set_steps(rules, naturals, wilds)
    if not rules.sequences:
        raise Reject("meld.mixed-ranks", "the natural cards of a set must share one rank")
    return _sequence_steps(rules, given)


def _set_steps(rules: Rules, naturals: list[str], wilds: list[str]) -> list[tuple]:
    if not naturals:
        raise Reject("meld.only-wilds", "a set needs natural cards")
    ranks = {rank_of(c) for c in naturals}
    if len(ranks) > 1:
        raise Reject("meld.mixed-ranks", "the natural cards of a set must share one rank")
    rank = RANK_IDS[rank_of(naturals[0])]
    if len(naturals) >= 3:
        steps = [("set", rank, SET_WILD_NONE, tuple(naturals[:3]))]
        rest = naturals[3:] + wilds
    elif len(naturals) == 2 and wilds:
        w = wilds[0]
        steps = [("set", rank, SET_WILD_JOKER if w == JOKER else SET_WILD_TWO, tuple(naturals + [w]))]
        rest = wilds[1:]
    else:
        raise Reject("meld.too-few-naturals", "a set needs two natural cards")
    return steps + [("add", c) for c in rest]


def _sequence_steps(rules: Rules, given: list[str]) -> list[tuple]:
    try:
        suit, start, slots = sequence_layout(rules, given)
    except Reject:
        suit, start, slots = _lay_out(rules, given)
    n = len(slots)
    wild_at = [j for j, (_, role) in enumerate(slots) if role == WILD]
    if wild_at:
        w = wild_at[0]
        k = next((k for k in (w - 2, w - 1, w) if 0 <= k and k + 2 < n
                  and all(slots[j][1] == NATURAL for j in range(k, k + 3) if j != w)), None)
        if k is None:
            raise Reject("meld.too-many-wilds", "no three consecutive cards hold two naturals around the wild")
        wc = slots[w][0]
        if wc == JOKER:
            choice = SEQ_WILD_JOKER
        elif suit_of(wc) == suit:
            choice = SEQ_WILD_TWO_OF_SUIT
        else:
            choice = SEQ_WILD_OFF_SUIT_TWO
    else:
        k, choice = 0, SEQ_WILD_NONE
    steps: list[tuple] = [("seq", SUITS.index(suit), start + k, choice, tuple(c for c, _ in slots[k:k + 3]))]
    for j in range(k - 1, -1, -1):          # outward: low side first, then high side
        if slots[j][1] == NATURAL:
            steps.append(("add", slots[j][0]))
    for j in range(k + 3, n):
        if slots[j][1] == NATURAL:
            steps.append(("add", slots[j][0]))
    steps += [("add", slots[j][0]) for j in wild_at if not k <= j < k + 3]
    return steps


def _lay_out(rules: Rules, given: list[str]) -> tuple[str, int, list[tuple[str, int]]]:
    """Lay unordered sequence cards out: naturals by position, wilds filling the
    gaps, any spare wild at the high end (low end if the high end is the ace)."""
    naturals = [c for c in given if not rules.wild(c)]
    wilds = [c for c in given if rules.wild(c)]
    if not naturals:
        raise Reject("meld.only-wilds", "a sequence needs natural cards")
    suits = {suit_of(c) for c in naturals}
    if len(suits) > 1:
        # a two of the suit may be a natural: retry counting twos as wild
        raise Reject("meld.mixed-suits", "the natural cards of a sequence must share one suit")
    suit = suits.pop()
    if len({rank_of(c) for c in naturals}) < len(naturals):
        raise Reject("meld.not-consecutive", "a sequence holds each rank once")
    best = None
    for ace in (14, 1):
        pos = sorted((ace if rank_of(c) == "A" else position(c)[0], c) for c in naturals)
        gaps = pos[-1][0] - pos[0][0] + 1 - len(pos)
        if gaps <= len(wilds) and (best is None or gaps < best[0]):
            best = (gaps, pos)
    if best is None:
        raise Reject("meld.not-consecutive", "the cards do not form consecutive ranks, even with the wild cards")
    _, pos = best
    spare = list(wilds)
    slots: list[tuple[str, int]] = []
    for (p, c), nxt in zip(pos, pos[1:] + [(None, None)]):
        slots.append((c, NATURAL))
        if nxt[0] is not None:
            for _ in range(nxt[0] - p - 1):
                slots.append((spare.pop(0), WILD))
    start = pos[0][0]
    while spare:
        if start + len(slots) - 1 < 14:
            slots.append((spare.pop(0), WILD))
        else:
            slots.insert(0, (spare.pop(0), WILD))
            start -= 1
    return suit, start, slots
