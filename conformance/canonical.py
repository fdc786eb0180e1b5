"""The canonical form of what a run message carries (conformance/PROTOCOL.md):
every card in canonical spelling (`Ts`, never `10s` or `ts`), every list of
cards a JSON list (never one string), every meld an object {kind?, cards}, `started` explicit.
Fixtures may use the compact forms; implementations only ever see these."""
from __future__ import annotations

from canastra_ref.cards import parse_card


def cards(value) -> list[str]:
    items = value.split() if isinstance(value, str) else list(value)
    return [parse_card(c) for c in items]


def meld(value) -> dict:
    if isinstance(value, dict):
        out = dict(value)
        out["cards"] = cards(value.get("cards", []))
        return out
    return {"cards": cards(value)}


def state(full: dict) -> dict:
    """A completed state in canonical form; `started` (true unless the fixture
    says otherwise) always explicit."""
    out = dict(full)
    out.setdefault("started", True)
    for key in ("stock", "pile", "aside"):
        if key in out:
            out[key] = cards(out[key])
    if isinstance(out.get("hands"), dict):
        out["hands"] = {seat: cards(hand) for seat, hand in out["hands"].items()}
    if isinstance(out.get("turn"), dict):
        turn = dict(out["turn"])
        for key in ("pile_cards", "drawn"):
            if key in turn:
                turn[key] = cards(turn[key])
        out["turn"] = turn
    if isinstance(out.get("teams"), dict):
        teams = {}
        for name, team in out["teams"].items():
            team = dict(team)
            if "melds" in team:
                team["melds"] = [meld(m) for m in team["melds"]]
            if "red_threes" in team:
                team["red_threes"] = cards(team["red_threes"])
            teams[name] = team
        out["teams"] = teams
    return out


def action(given: dict) -> dict:
    out = {}
    for key, value in given.items():
        if key == "meld":
            value = [{**v, "cards": cards(v.get("cards", []))} if isinstance(v, dict) else cards(v) for v in value]
        elif key == "deal" and isinstance(value, dict) and "deck" in value:
            value = {**value, "deck": cards(value["deck"])}
        elif key == "take_pile":
            value = {k: (cards(v) if k == "with" else v) for k, v in value.items()}
        elif key == "layoff":
            items = value if isinstance(value, list) else [value]
            items = [{**i, "cards": cards(i["cards"])} for i in items]
            value = items if isinstance(value, list) else items[0]
        elif key in ("discard", "replace_red_three", "lay_down_red_three"):
            value = parse_card(value)
        out[key] = value
    return out


def query(given: dict) -> dict:
    out = dict(given)
    if "points" in out:
        out["points"] = parse_card(out["points"])
    if "meld" in out:
        out["meld"] = cards(out["meld"])
    return out
