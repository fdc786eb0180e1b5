"""Hypothesis strategies of small table situations, by the settings they reach.

Each family generates fixture-shaped situations (tools.situation) that put
one part of the rules to work: meld queries, opening melds, taking the pile,
going out, drawing, dealing, asking the partner, a finished hand's score.
`families_for(path)` names the families worth searching for a setting, most
direct first. Situations name teams by a seat (`@N`: the team of N; `@next`: the seat
after N, an opponent), so the same situation fits tables of different sizes;
`situation.resolve` turns them into each table's seats and team names.

Strategies are built so that Hypothesis shrinks towards few, low cards:
lists shrink to fewer items and `sampled_from` to its first choices, so a
witness found with `hypothesis.find` is a small one.
"""
from __future__ import annotations

from hypothesis import strategies as st

RANKS = ("4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("c", "d", "h", "s")
WILDS = ("JK", "2c", "2d", "2h", "2s")

natural = st.builds(lambda r, s: r + s, st.sampled_from(RANKS), st.sampled_from(SUITS))
wild = st.sampled_from(WILDS)
three = st.sampled_from(("3c", "3s", "3d", "3h"))
any_card = st.one_of(natural, wild, three)


_COPIES = tuple(s for s in SUITS for _ in range(2))        # two decks: two copies of each card


@st.composite
def set_meld(draw, low: int = 2, high: int = 8, wilds: int = 3):
    rank = draw(st.sampled_from(RANKS))
    picks = draw(st.lists(st.integers(0, len(_COPIES) - 1), min_size=low, max_size=high, unique=True))
    cards = [rank + _COPIES[i] for i in sorted(picks)]
    return cards + draw(st.lists(wild, max_size=wilds))


@st.composite
def run_meld(draw, low: int = 3, high: int = 8):
    suit = draw(st.sampled_from(SUITS))
    length = draw(st.integers(low, high))
    start = draw(st.integers(0, len(RANKS) - length))
    cards = [RANKS[i] + suit for i in range(start, start + length)]
    holes = draw(st.lists(st.integers(0, length - 1), max_size=2, unique=True))
    for i in holes:
        cards[i] = draw(wild)
    return cards


black_threes = st.lists(st.sampled_from(("3c", "3s")), min_size=3, max_size=4)
wild_meld = st.lists(st.sampled_from(("2c", "2d", "2h", "2s", "JK")), min_size=3, max_size=8)
canastra_meld = st.one_of(set_meld(low=5, high=8, wilds=2), run_meld(low=7, high=9))
meld = st.one_of(set_meld(), run_meld(), canastra_meld, black_threes, wild_meld,
                 st.lists(any_card, min_size=3, max_size=8))
scores = st.one_of(st.sampled_from((0, -100, 1500, 2000, 2490, 2495, 2500, 3000, 4995)),
                   st.integers(-40, 1000).map(lambda n: n * 5))


# ------------------------------------------------------------------- families

def setup():
    return st.just({"query": {"setup": True}})


def points():
    return st.one_of(any_card, st.just("JK")).map(lambda c: {"query": {"points": c}})


def meld_query():
    return meld.map(lambda cards: {"query": {"meld": cards}})


def opening_minimum():
    return st.builds(lambda s, f: {"query": {"opening_minimum": {"score": s, "failures": f}}},
                     scores, st.integers(0, 3))


@st.composite
def opening(draw):
    """A team that has not opened lays melds (perhaps going out with them),
    then discards what is left."""
    melds = draw(st.lists(st.one_of(set_meld(low=2, high=4), run_meld(high=5), canastra_meld),
                          min_size=1, max_size=3))
    extra = draw(st.lists(natural, max_size=2))
    score = draw(scores)
    failures = draw(st.sampled_from((0, 0, 1)))
    hand = [c for m in melds for c in m] + extra
    actions = [{"player": "N", "meld": melds}] + ([{"player": "N", "discard": extra[0]}] if extra else [])
    return {"state": {"turn": {"player": "N", "phase": "play"},
                      "teams": {"@N": {"score": score, "opening_failures": failures}},
                      "hands": {"N": hand}},
            "actions": actions}


@st.composite
def take_pile(draw):
    """Taking the pile with cards from the hand, or onto a meld on the table."""
    top = draw(st.one_of(natural, wild, three))
    below = draw(st.lists(st.one_of(natural, wild, three), max_size=3))
    opened = draw(st.booleans())
    melds = draw(st.lists(st.one_of(set_meld(low=3, high=4, wilds=1), run_meld(high=5)), max_size=1)) \
        if opened else []
    rank = top[:-1] if top != "JK" else "A"
    suit = top[-1] if top != "JK" else "h"
    choices = [[rank + "c", rank + "d"], [rank + "s", "JK"], [rank + "d", "2c"]]
    if rank in RANKS:
        i = RANKS.index(rank)
        if i + 2 < len(RANKS):
            choices.append([RANKS[i + 1] + suit, RANKS[i + 2] + suit])
        if i >= 1:
            choices.append([RANKS[i - 1] + suit, "JK"])
    with_cards = draw(st.sampled_from(choices))
    onto = draw(st.sampled_from((None, 0))) if melds else None
    if onto is not None:
        with_cards = draw(st.sampled_from(([], with_cards[:1], with_cards)))
    extra = draw(st.lists(natural, min_size=1, max_size=2))
    stock_size = draw(st.sampled_from((None, None, 0)))
    state = {"turn": {"player": "N", "phase": "draw"}, "pile": below + [top],
             "teams": {"@N": {"opened": opened, "melds": melds}}, "hands": {"N": with_cards + extra}}
    if stock_size is not None:
        state["stock_size"] = stock_size
    arg = {"with": with_cards} if onto is None else {"onto": onto, "with": with_cards}
    return {"state": state, "actions": [{"player": "N", "take_pile": arg}]}


@st.composite
def going_out(draw):
    """A team that has melded (a canastra perhaps) empties the hand: by a last
    discard, by melding the rest, or by adding it to a meld."""
    melds = draw(st.lists(st.one_of(canastra_meld, set_meld(low=3, high=4, wilds=1), run_meld(high=5)),
                          min_size=1, max_size=2))
    how = draw(st.sampled_from(("discard", "meld", "layoff")))
    if how == "discard":
        hand = [draw(st.one_of(natural, three))]
        actions = [{"player": "N", "discard": hand[0]}]
    elif how == "meld":
        hand = draw(st.one_of(set_meld(low=3, high=3, wilds=0), black_threes, wild_meld))
        actions = [{"player": "N", "meld": [hand]}]
    else:
        hand = [draw(st.one_of(natural, wild))]
        actions = [{"player": "N", "layoff": {"meld": 0, "cards": hand}}]
    had = draw(st.booleans())
    return {"state": {"turn": {"player": "N", "phase": "play", "had_melded": had},
                      "players": {"N": {"melded": had}},
                      "teams": {"@N": {"opened": True, "melds": melds}}, "hands": {"N": hand}},
            "actions": actions}


@st.composite
def draw_card(draw):
    """Drawing from a short stock: red threes on top, the last card, an empty stock."""
    stock = draw(st.lists(st.one_of(st.sampled_from(("3h", "3d")), natural), max_size=2))
    size = draw(st.sampled_from((None, 0, 1, 2, 3)))
    if size is not None:
        stock = stock[:size]
    hand = draw(st.lists(natural, min_size=1, max_size=3))
    state = {"turn": {"player": "N", "phase": "draw"}, "stock": stock, "hands": {"N": hand}}
    if size is not None:
        state["stock_size"] = size
    return {"state": state, "actions": [{"player": "N", "draw": "stock"}]}


@st.composite
def first_turn(draw):
    """The first player, having drawn the first card, rejects it."""
    card = draw(natural)
    hand = draw(st.lists(natural, min_size=1, max_size=3))
    return {"state": {"turn": {"player": "N", "phase": "play", "first": True, "drawn": [card]},
                      "hands": {"N": [card] + hand}, "pile": []},
            "actions": [{"player": "N", "redraw": True}]}


@st.composite
def deal(draw):
    """Dealing a fresh hand with a seed (and a misdeal or an exact cut)."""
    seed = draw(st.integers(0, 500))
    then = draw(st.sampled_from(("deal", "misdeal", "cut")))
    actions = [{"player": "S", "deal": {"seed": seed}}]
    if then == "misdeal":
        actions.append({"player": "S", "misdeal": True})
    elif then == "cut":
        actions.insert(0, {"player": "N", "exact_cut": True})
    return {"state": {"dealer": "S", "turn": {"phase": "deal", "first": True}, "started": False},
            "actions": actions}


@st.composite
def ask_partner(draw):
    melds = draw(st.lists(st.one_of(canastra_meld, set_meld(low=3, high=4, wilds=1)), min_size=1, max_size=2))
    hand = draw(st.lists(natural, min_size=2, max_size=3))
    return {"state": {"turn": {"player": "N", "phase": "play"},
                      "teams": {"@N": {"opened": True, "melds": melds}}, "hands": {"N": hand}},
            "actions": [{"player": "N", "ask_partner": True}]}


@st.composite
def score(draw):
    """The count of a finished hand."""
    def team():
        return {"melds": draw(st.lists(st.one_of(canastra_meld, set_meld(low=3, high=4, wilds=1),
                                                 run_meld(high=5), wild_meld), max_size=2)),
                "red_threes": draw(st.lists(st.sampled_from(("3h", "3d")), max_size=4, unique=False)),
                "score": draw(st.sampled_from((0, 0, 2500, -200))),
                "exact_cuts": draw(st.sampled_from((0, 0, 1))), "misdeals": draw(st.sampled_from((0, 0, 1)))}
    us, them = team(), team()
    reason = draw(st.sampled_from(("went-out", "went-out", "stock-exhausted")))
    player = draw(st.sampled_from(("N", "@next"))) if reason == "went-out" else None
    concealed = draw(st.booleans()) if player else False
    ended = {"reason": reason, "player": player, "concealed": concealed}
    if concealed:
        ended["concealed_canastras"] = draw(st.integers(0, 1))
    hands = {"N": [] if player == "N" else draw(st.lists(st.one_of(natural, wild, three), max_size=3)),
             "@next": [] if player == "@next" else draw(st.lists(st.one_of(natural, wild, three), max_size=3))}
    melded = draw(st.booleans())
    return {"query": {"score": {"teams": {"@N": us, "@next": them}, "hands": hands, "ended": ended,
                                "players": {"N": {"melded": melded or bool(us["melds"])},
                                            "@next": {"melded": bool(them["melds"])}},
                                "turn": {"player": "N", "phase": "over"}}}}


FAMILIES = {
    "setup": setup, "points": points, "meld": meld_query, "opening-minimum": opening_minimum,
    "opening": opening, "take-pile": take_pile, "going-out": going_out, "draw": draw_card,
    "first-turn": first_turn, "deal": deal, "ask-partner": ask_partner, "score": score,
}

# Which families reach which settings (by path prefix), most direct first.
_REACH = (
    ("deck.", ("setup", "deal")), ("table.", ("setup",)), ("play.", ("setup", "deal")),
    ("deal.", ("deal", "setup")), ("draw.cards", ("setup", "draw")), ("draw.", ("first-turn",)),
    ("points.", ("points", "score", "opening")),
    ("wild.cards", ("setup", "meld", "points")), ("wild.", ("meld", "take-pile", "going-out")),
    ("meld.", ("meld", "opening", "going-out", "take-pile")),
    ("(meld kinds)", ("meld", "opening", "going-out")),
    ("canastra.", ("meld", "score", "going-out", "opening")),
    ("(canastra kinds", ("meld", "score")),
    ("opening.minimum", ("opening-minimum", "opening")), ("opening.ladder", ("opening-minimum", "opening")),
    ("opening.", ("opening",)), ("turn.clean_meld", ("opening",)),
    ("pile.start", ("deal",)), ("pile.upcard_covered", ("deal",)), ("pile.", ("take-pile",)),
    ("red_three.", ("draw", "deal")),
    ("going_out.ask_partner", ("ask-partner",)), ("going_out.", ("going-out", "opening")),
    ("stock.", ("draw", "take-pile")),
    ("score.", ("score",)), ("scoring.", ("score",)), ("game.", ("setup",)),
)


def families_for(path: str) -> tuple[str, ...]:
    for prefix, names in _REACH:
        if path.startswith(prefix):
            return names
    return tuple(FAMILIES)
