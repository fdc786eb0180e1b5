"""A human-readable log of self-play (`canastra play --log`): each move as a
sentence a person can follow at the table, with the cards it moved shown as
4♥ Q♠ 🃏, and the score of each hand at its end.

`line(state, action, new, verdict)` is called with what self-play observes
(canastra_ref.engine.play): the state before, the action (its JSON form),
the state after and the engine's verdict. What the action does not say (the card drawn, the
pile taken) is read from the two states.
"""
from __future__ import annotations

from collections import Counter

from . import cardtext

JOKER = "🃏"


def _gained(state, new, seat: str) -> list[str]:
    """The cards a player's hand gained from one state to the next."""
    before = Counter(state.players[seat].hand)
    return sorted((Counter(new.players[seat].hand) - before).elements(), key=_order)


def _order(card: str):
    return (card == "JK", card[-1], "23456789TJQKA".find(card[0]))


def line(state, action: dict, new, verdict) -> str:
    seat = action.get("player", "?")
    verb = next((k for k in action if k != "player"), None)
    if verb == "deal":
        sentence = f"{seat} deals {len(new.players[seat].hand)} cards each."
    elif verb in ("draw", "redraw") and seat in new.players:
        shown = cardtext.cards(_gained(state, new, seat), joker=JOKER)
        if not shown:
            sentence = f"{seat} has nothing to draw: the stock is empty."
        elif verb == "draw":
            sentence = f"{seat} draws {shown} from the stock."
        else:
            sentence = f"{seat} rejects the first card and draws {shown}."
    elif verb == "take_pile" and seat in new.players:
        taken = len(state.pile)
        sentence = cardtext.action(action, joker=JOKER).rstrip(".") + f" ({taken} card{'s' if taken != 1 else ''})."
    elif verb == "replace_red_three" and seat in new.players:
        drawn = cardtext.cards(_gained(state, new, seat), joker=JOKER)
        sentence = cardtext.action(action, joker=JOKER).rstrip(".") + (f" and draws {drawn}." if drawn else ".")
    else:
        sentence = cardtext.action(action, joker=JOKER)
    if verdict.verdict != "accepted":
        sentence += f"  [{verdict.verdict}: {verdict.reason}]"
    elif verdict.reason in ("opening.made", "going-out.went-out", "challenge.upheld") or verdict.reason.startswith(
            ("hand.", "going-out.")):
        sentence += f"  [{verdict.reason}]"
    return sentence


def hand_end(record) -> list[str]:
    """How a hand ended and what each team scored (HandRecord of self-play)."""
    end = record.end
    how = end["reason"] + (f" by {end['player']}" if end.get("player") else "")
    lines = [f"hand {record.number} ends: {how}, after {record.actions} moves"]
    for team, score in record.scores.items():
        terms = ", ".join(f"{name} {term['value']:+d}" for name, term in score["terms"].items() if term["value"])
        extra = "" if score["counts"] else " (not counted)"
        rounding = f", rounding {score['rounding']:+d}" if score["rounding"] else ""
        lines.append(f"  {team:<3} {score['total']:+6d} = [{terms or 'nothing'}{rounding}]{extra}"
                     f"  -> {score['score_after']}")
    return lines
