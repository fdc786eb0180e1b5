"""Cards, melds and actions in words, for rulings a referee can print.

Cards are shown with suit symbols (4♥, 10♠, A♣) and the joker as "Joker"
(`joker=` names it otherwise, such as 🃏 in a move log); `plain=True` keeps
the compact notation (4h, Ts, JK) for terminals that lack the symbols.
"""
from __future__ import annotations

from canastra_ref.cards import parse_card

SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card(text: str, plain: bool = False, joker: str = "Joker") -> str:
    c = parse_card(text)
    if c == "JK":
        return "JK" if plain else joker
    rank, suit = c[:-1], c[-1]
    rank = "10" if rank == "T" else rank
    return rank + (suit if plain else SYMBOLS[suit])


def cards(value, plain: bool = False, joker: str = "Joker") -> str:
    items = value.split() if isinstance(value, str) else list(value or [])
    return " ".join(card(c, plain, joker) for c in items)


def meld_cards(meld) -> list:
    return meld.get("cards", []) if isinstance(meld, dict) else meld


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _wild_end(addition: dict) -> str:
    end = addition.get("wild_end")
    return "" if end is None else f", a wild card going to its {'lower' if end == 'low' else 'upper'} end"


def action(a: dict, team_of=None, joker: str = "Joker") -> str:
    """One action of a situation as a sentence."""
    def many(value) -> str:
        return cards(value, joker=joker)

    def one(value) -> str:
        return card(value, joker=joker)
    who = a.get("player", "?")
    verb = next((k for k in a if k != "player"), None)
    arg = a.get(verb)
    if verb == "meld":
        return f"{who} lays down " + _join([f"{many(m['cards'])} as a {m['kind']}" if isinstance(m, dict) else many(m)
                                            for m in arg]) + "."
    if verb == "layoff":
        items = arg if isinstance(arg, list) else [arg]
        return f"{who} adds " + _join([f"{many(i['cards'])} to meld {i['meld'] + 1}{_wild_end(i)}"
                                       for i in items]) + "."
    if verb == "take_pile":
        with_cards = many(arg.get("with", []))
        if arg.get("onto") is not None:
            extra = f" with {with_cards}" if with_cards else ""
            return f"{who} takes the pile, adding its top card{extra} to meld {arg['onto'] + 1} of the " \
                   f"team{_wild_end(arg)}."
        kind = f" as a {arg['kind']}" if "kind" in arg else ""
        return f"{who} takes the pile, laying its top card down with {with_cards or 'no card'} from the hand{kind}."
    if verb == "discard":
        return f"{who} discards {one(arg)}."
    phrases = {
        "draw": "draws from the stock", "redraw": "rejects the first card drawn and draws another",
        "exact_cut": "cut exactly the cards to be dealt", "misdeal": "misdealt",
        "end_turn": "ends the last turn without a discard", "ask_partner": "asks the partner: may I go out?",
        "challenge": "challenges the previous opening",
    }
    if verb in phrases:
        return f"{who} {phrases[verb]}."
    if verb == "deal":
        return f"{who} deals (shuffle seed {arg.get('seed')})."
    if verb == "answer":
        return f"{who} answers {arg}."
    if verb in ("replace_red_three", "lay_down_red_three"):
        how = "exchanges" if verb == "replace_red_three" else "lays down"
        return f"{who} {how} the red three {one(arg)}."
    return f"{who}: {verb} {arg}"


def query(q: dict) -> str:
    (kind, arg), = q.items()
    if kind == "meld":
        return f"Do {cards(arg)} form a meld, and which canastra would it be?"
    if kind == "points":
        return f"What is {card(arg)} worth?"
    if kind == "setup":
        return "How is the game set up (deck, players, deal, target)?"
    if kind == "opening_minimum":
        extra = f" after {arg.get('failures')} failed opening(s)" if arg.get("failures") else ""
        return f"What must the first melds of a team with {arg.get('score')} points reach{extra}?"
    if kind == "score":
        return "What does each team score for this finished hand?"
    return f"{kind}: {arg}"
