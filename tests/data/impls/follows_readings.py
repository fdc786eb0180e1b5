"""Answers like the reference, but always under the readings given as JSON in
argv[1] (ruleset -> dispute -> reading), whatever reading a case names: an
engine that follows one reading of each of those disputes. With --declare,
its start answer declares them; with --declare-json JSON, it declares that
instead (right or wrong). With --patch JSON (case id -> keys), the result of
those query cases gets the keys given."""
import json
import sys

import _ref

from canastra_ref import protocol

FORCED = json.loads(sys.argv[1])
DECLARED = FORCED if "--declare" in sys.argv else None
if "--declare-json" in sys.argv:
    DECLARED = json.loads(sys.argv[sys.argv.index("--declare-json") + 1])
PATCH = json.loads(sys.argv[sys.argv.index("--patch") + 1]) if "--patch" in sys.argv else {}


def hook(message):
    if message.get("cmd") == "start":
        answer = protocol.handle(message)
        answer["implementation"]["name"] = "follows-readings"
        if DECLARED is not None:
            answer["readings"] = DECLARED
        return answer
    if message.get("cmd") == "run":
        forced = FORCED.get(message["ruleset"], {})
        answer = protocol.handle({**message, "reading": {**message.get("reading", {}), **forced}})
        if message["id"] in PATCH:
            answer["result"] = {**answer["result"], **PATCH[message["id"]]}
        return answer


_ref.serve(hook)
