"""The reason codes of verdicts: a stable, documented vocabulary.

Codes never change meaning once published; new situations get new codes.
`canastra reasons` prints this table (`--format json` too); a verdict's
`reason` is one of its keys, and conformance/README.md explains their use.
"""
from __future__ import annotations

REASONS: dict[str, str] = {
    # accepted
    "deal.dealt": "the hand was dealt from a seeded shuffle",
    "deal.exact-cut": "an exact cut was recorded for the cutter's team",
    "draw.stock": "the player drew from the stock",
    "draw.redraw": "the first player rejected the first card drawn and drew another",
    "draw.stock-instead-of-pile": "a pile taken for a short opening was given back and the player drew instead",
    "pile.taken": "the player took the discard pile",
    "meld.laid": "new melds were laid down",
    "meld.laid-off": "cards were added to the team's melds",
    "opening.pending": "melds laid towards the opening, which is checked when the turn ends",
    "discard.made": "the player discarded and the turn passed",
    "opening.made": "the team's opening was completed and the player discarded",
    "opening.pending-check": "the player discarded after an opening (or a later turn's melds) that breaks a rule "
                             "only the next player may claim; it stands unless he challenges it before his claim "
                             "lapses (opening.challenge_lapses)",
    "opening.short-unchallenged": "a short opening stood because the next player's claim lapsed unused",
    "going-out.direct": "the player went out by melding every card (where that meld or layoff is an offence "
                        "the rulebook prices, the verdict is penalised with the offence's reason, and the going "
                        "out is this event)",
    "going-out.with-discard": "the player went out with a final discard",
    "red-three.replaced": "a red three was laid down and replaced from the stock",
    "red-three.laid-down": "a red three was laid down without replacement",
    "partner.asked": "the player asked the partner for permission to go out",
    "partner.answered": "the partner answered",
    "going-out.answer-not-followed":
        "the partner said yes but the player discarded without going out (counted for scoring)",
    "hand.ended.stock-exhausted": "the hand ended because the stock was exhausted",
    "hand.ended.red-three-last": "the hand ended because the last stock card was a red three",
    "hand.ended.turn-ended": "the player ended the last turn of the hand without a discard",
    "turn.ended-without-discard": "the player, free to discard none of his cards, ended the turn keeping them",
    "challenge.upheld": "the challenged opening was short; its melds went back to the hand",
    "opening.taken-back": "the turn ended with an opening that failed; the melds went back to the hand, and the "
                          "team's minimum did not rise",

    # penalised; the three opening failures are also the reason a going out is rejected where it would
    # end the turn with that failure (a meld, layoff or last discard that empties the hand)
    "opening.below-minimum":
        "the turn ended with an opening below the minimum; the melds went back and the team's minimum rose "
        "(rejected: a going out would end the turn with it)",
    "opening.no-clean-meld": "the turn ended with an opening lacking the required meld without wild cards "
                             "(rejected: a going out would end the turn with it)",
    "opening.single-meld-below-minimum": "no single meld of the opening reached the minimum on its own "
                                         "(rejected: a going out would end the turn with it)",
    "layoff.canastra-penalised": "cards were added to a canastra where the rulebook forbids it and sets the "
                                 "consequence: the addition stands at that price",
    "meld.penalised": "a meld was laid down whole where the rulebook forbids it and sets the consequence: "
                      "the meld stands at that price",
    "layoff.penalised": "cards were added to a meld that was no canastra, making a meld the rulebook forbids "
                        "and whose consequence it sets: the addition stands at that price",
    "deal.misdeal": "the dealer misdealt: the cards were gathered and dealt again",

    # rejected: turn order and shape of the action
    "action.malformed": "the action is not one the protocol defines, or a field is missing or wrong",
    "turn.not-your-turn": "it is not this player's turn",
    "turn.draw-first": "the player must draw (or take the pile) first",
    "turn.already-drew": "the player has already drawn this turn",
    "turn.hand-over": "the hand is over",
    "turn.not-dealt": "the hand has not been dealt yet",
    "turn.already-dealt": "the hand has already been dealt",
    "turn.must-answer-challenge": "the previous opening awaits a challenge or play",
    "turn.no-discard-now": "no discard is allowed in this turn (the hand ends without one)",
    "turn.discard-required": "the turn must end with a discard",
    "turn.last-card-stranded": "the action would leave one card whose discard would be a forbidden going out",
    "turn.nothing-to-discard": "the action would leave only red threes that must be laid down, no card to end the "
                               "turn with",
    "card.not-in-hand": "a card named is not in the player's hand",
    "card.from-pile-not-usable": "cards received from the pile may not be melded in the turn they are taken",
    "card.not-a-red-three": "the card is not a red three",

    # rejected: melds
    "meld.too-few-cards": "the meld has fewer cards than its kind allows",
    "meld.too-many-cards": "the meld has more cards than its kind allows",
    "meld.mixed-suits": "the natural cards of the meld are not all of one suit",
    "meld.mixed-ranks": "the natural cards of the set are not all of one rank",
    "meld.not-consecutive": "the cards do not form consecutive ranks, even with the wild cards",
    "meld.rank-not-allowed": "a rank cannot be used in a meld of this kind (now)",
    "meld.colour-not-allowed": "a card's colour cannot be used in a meld of this kind",
    "meld.too-many-wilds": "the meld holds more wild cards than allowed",
    "meld.too-few-naturals": "the meld holds fewer natural cards than required",
    "meld.wild-suit": "a wild card does not match the suit its place in the sequence requires",
    "meld.only-wilds": "a meld made only of wild cards is not allowed here",
    "meld.not-allowed-now": "the ruleset does not let this meld be laid down: it forbids it for its cards "
                            "alone, or in the present situation (meld.<kind>.allowed)",
    "meld.rank-already-melded": "the team already has a meld of this rank; the cards must join it",
    "meld.rank-in-other-run": "another meld of the team's, of this kind, holds a natural card of that rank and suit",
    "meld.no-kind": "the cards form no meld of this ruleset",
    "meld.threes": "threes cannot be melded (except where a ruleset allows black threes)",
    "layoff.no-such-meld": "the team has no meld with that index",
    "layoff.wild-locked": "the card would displace a wild card that can no longer move",
    "layoff.wild-end-full": "the end the action names for a wild card has no room: it would pass the lowest or "
                            "highest rank",
    "layoff.wild-end-refused": "the rules send the wild card that gives way to the other end than the one the "
                               "action names",
    "layoff.canastra-closed": "the canastra takes no more cards now",
    "layoff.not-allowed-now": "the meld, no canastra before, may not take these cards: the ruleset forbids the meld "
                              "they would make, for its cards alone or in the present situation (meld.<kind>.grows)",
    "layoff.not-opened": "the team has not opened and has no melds to add to",
    "opening.barred": "this player may not take part in an opening for the rest of the hand",

    # rejected: discard pile
    "pile.empty": "there is no discard pile to take",
    "pile.blocked": "the discard pile may not be taken now",
    "pile.too-few-hand-cards": "too few cards from the hand go with the top card",
    "pile.too-few-naturals": "too few natural cards from the hand go with the top card",
    "pile.too-many-wilds": "too many wild cards in the meld made with the top card",
    "pile.onto-meld-not-allowed": "the top card may not be added to a meld on the table here",
    "pile.wild-bridge": "a wild card may not bridge the top card to the meld it extends",
    "pile.block-not-a-meld": "the top card and the hand cards laid with it onto a meld do not make a meld of their own",
    "pile.discard-not-allowed": "a card taken with the pile may not be discarded this turn",
    "pile.frozen-hand": "the action would leave the player only cards he may not discard this turn",
    "pile.no-retry": "giving the pile back to draw instead is not allowed here",

    # rejected: threes, going out, stock, irregularities
    "red-three.window-closed": "red threes can no longer be exchanged",
    "red-three.not-your-turn": "a late red three may only be dealt with on its holder's turn",
    "red-three.must-lay-down": "a red three in the hand must be laid down before the turn ends",
    "red-three.out-of-order":
        "red threes are exchanged in the order of play and a player before this one still has one",
    "red-three.must-exchange":
        "the player holds a red three he must exchange before ending his turn (or discarding it)",
    "red-three.kept": "a dealt red three stays in the hand: this ruleset neither lays it down nor replaces it",
    "going-out.not-allowed": "the team may not go out yet",
    "going-out.with-discard-not-allowed": "going out with a final discard is not allowed",
    "going-out.without-discard-not-allowed": "going out without a final discard is not allowed",
    "going-out.partner-said-no": "the partner said no to going out",
    "going-out.ask-not-allowed": "asking the partner is not part of this ruleset, or not now",
    "stock.exhausted": "the stock is exhausted and the pile cannot be taken",
    "redraw.not-allowed": "only the first player, right after drawing the first card, may reject it",
    "challenge.nothing-to-challenge": "there is no short opening to challenge",
    "challenge.not-yours": "only the next player may challenge",
    "challenge.too-late": "the next player's claim has lapsed (opening.challenge_lapses): the opening stands",
    "misdeal.not-dealer": "only the dealer can misdeal",
    "misdeal.too-late": "a misdeal can no longer be claimed: the first discard has been made",
    "deal.already-cut": "the deck is cut once a deal, and an exact cut is already recorded",
    "deal.not-the-cutter": "the rules name another player as the one who cuts the deck",
}
