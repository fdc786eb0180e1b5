"""deal.shuffle, written out for speed, orders the cards as random.Random(seed).shuffle does:
every seeded deal (fixtures, self-play, the protocol's {"deal": {"seed": n}}) depends on it."""
import random

from canastra_ref.cards import full_deck
from canastra_ref.engine.deal import shuffle


def test_shuffle_is_randoms():
    for decks, jokers in ((1, 0), (2, 4), (3, 6)):
        deck = sorted(full_deck(decks, jokers))
        for seed in range(300):
            mine, theirs = list(deck), list(deck)
            shuffle(mine, seed)
            random.Random(seed).shuffle(theirs)
            assert mine == theirs, (decks, jokers, seed)


def test_shuffle_of_one_card_or_none():
    for cards in ([], ["AH"]):
        before = list(cards)
        shuffle(cards, 1)
        assert cards == before
