"""The controlled vocabulary of feature tags.

A fixture lists the features it `requires`; an implementation declares the
ones it supports at `start`, and cases needing others are reported as
skipped, not failed.
"""
FEATURES: dict[str, str] = {
    "setup": "deck composition, seating, cards dealt, direction, target (setup query)",
    "card-points": "card point values (points query)",
    "sequences": "melds of consecutive ranks of one suit",
    "same-rank-sets": "melds of one rank (sets), including restricted ones like ace sets",
    "wild-sets": "melds made only of wild cards",
    "black-three-sets": "black threes meldable when going out",
    "wilds": "wild cards in melds and their limits",
    "wild-positions": "where wild cards stand in a sequence and when they can move",
    "wild-end": "the player naming the end of a sequence a wild card goes to (wild_end of a layoff or pile take)",
    "meld-kind": "the player naming the kind of a new meld whose cards form several (kind of a meld or pile take)",
    "canastras": "canastra kinds and their bonuses",
    "opening-minimum": "the points a team's first melds must reach",
    "opening-ladder": "the minimum rising after a failed opening",
    "clean-meld": "a meld without wild cards required",
    "short-opening-challenge": "a short opening standing unless challenged",
    "pile-take": "taking the discard pile",
    "pile-onto-meld": "taking the pile by adding its top card to a meld on the table",
    "blocked-pile": "the pile blocked by a black three or a wild card",
    "frozen-pile": "the pile frozen for a team or for everyone",
    "pile-cards-usable": "when the rest of a taken pile may be melded or discarded",
    "red-threes": "red threes laid down, replaced and scored",
    "black-threes": "black threes as discards and in scoring",
    "first-card-redraw": "the first player rejecting the first card drawn",
    "going-out": "going out with or without a final discard",
    "concealed-going-out": "going out in one turn without earlier melds",
    "ask-partner": "asking the partner for permission to go out",
    "scoring": "the score of a finished hand",
    "rounding": "rounding of counts ending in 5",
    "re": "ré: the penalty for a team without a canastra when the other goes out",
    "stock-exhaustion": "the end of the stock",
    "exact-cut": "the bonus for an exact cut",
    "misdeal": "misdeals and who deals again",
    "game-end": "the target score and the end of the game",
    "two-players": "a two-player game",
    "three-players": "a three-player game",
    "six-players": "a six-player game",
}
