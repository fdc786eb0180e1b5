"""Shortcuts of the engine against the slower forms they stand for: each must
give exactly what the slow form gives."""
from __future__ import annotations

import random
from collections import Counter

from canastra_ref.cards import full_deck
from canastra_ref.engine.pile import _grouped
from canastra_ref.engine.state import Turn


def test_a_starting_turn_is_the_one_the_dataclass_makes():
    # Turn.starting fills the fields one by one: equality reads them all
    for had_melded in (False, True):
        assert Turn.starting("N", had_melded) == Turn(player="N", phase="draw", had_melded=had_melded)


def test_the_pile_cards_grouped_as_a_counter_groups_them():
    deck = full_deck(2, 2)
    rng = random.Random(5)
    for size in range(0, 40):
        for _ in range(20):
            cards = rng.sample(deck, size)
            assert _grouped(cards) == list(Counter(cards).elements())
    assert _grouped(["4h", "Ks", "4h", "JK", "Ks"]) == ["4h", "4h", "Ks", "Ks", "JK"]
