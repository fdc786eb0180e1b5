"""Answers like the reference, but says it does not compute the deck size (it
leaves it out of the setup result) nor any team in a state; with
--wrong-deal, it also deals 14 cards instead of 15."""
import sys

import _ref

from canastra_ref import protocol

WRONG = "--wrong-deal" in sys.argv


def hook(message):
    if message.get("cmd") != "run":
        return None
    answer = protocol.handle(message)
    if message["id"] == "t-cbc-setup":
        del answer["result"]["deck_size"]
        if WRONG:
            answer["result"]["cards_dealt"] = 14
        answer["unsupported"] = ["result.deck_size"]
    if message["id"] == "t-cbc-opening-75":
        for result in answer["results"]:
            del result["state"]["teams"]
        answer["unsupported"] = ["results[*].state.teams"]
    return answer


_ref.serve(hook)
