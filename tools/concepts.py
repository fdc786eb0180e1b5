"""The concepts every rulebook legislates, and which settings belong to each.

The diff, the behavioural diff and the matrix of docs/rulesets.md group
settings (canastra_ref.dsl.settings) under these concepts, in this order.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Concept:
    id: str
    title: str
    prefixes: tuple[str, ...]        # setting paths starting with one of these


CONCEPTS: tuple[Concept, ...] = (
    Concept("deck", "Deck", ("deck.",)),
    Concept("deal", "Seating and deal", ("table.", "play.", "deal.", "draw.")),
    Concept("values", "Card values", ("points.",)),
    Concept("melds", "Melds", ("meld.",)),
    Concept("wilds", "Wild cards", ("wild.",)),
    Concept("canastras", "Canastras", ("canastra.",)),
    Concept("opening", "Opening", ("opening.", "turn.clean_meld")),
    Concept("pile", "Discard pile", ("pile.",)),
    Concept("threes", "Threes", ("red_three.",)),
    Concept("going-out", "Going out", ("going_out.",)),
    Concept("end", "End of hand", ("stock.", "turn.end_without_discard")),
    Concept("scoring", "Scoring", ("score.", "scoring.")),
    Concept("game", "Game end", ("game.",)),
    Concept("other", "Other rules", ()),          # settings added since this list was written
)

BY_ID = {c.id: c for c in CONCEPTS}


def concept_of(path: str) -> Concept:
    for concept in CONCEPTS:
        if any(path == p or path.startswith(p) for p in concept.prefixes):
            return concept
    return BY_ID["other"]
