"""Well-formed but wrong: an ace is worth 14, and the opening never completes
(nor cites article 7). With --cites-only, only the citation is missing."""
import sys

import _ref

from canastra_ref import protocol

CITES_ONLY = "--cites-only" in sys.argv


def hook(message):
    if message.get("id") == "t-cbc-points-ace" and not CITES_ONLY:
        return {"id": message["id"], "result": 14}
    if message.get("id") == "t-cbc-opening-75":
        answer = protocol.handle(message)
        answer["results"][1]["cites"] = []
        if not CITES_ONLY:
            answer["results"][1]["reason"] = "opening.pending"
        return answer


_ref.serve(hook)
