"""Supports only cbc and a few features, and skips t-cbc-setup itself. With
--readings JSON, its start answer declares those readings."""
import json
import sys

import _ref

READINGS = json.loads(sys.argv[sys.argv.index("--readings") + 1]) if "--readings" in sys.argv else None


def hook(message):
    if message.get("cmd") == "start":
        answer = {"ready": True, "protocol": 1,
                  "implementation": {"name": "partial", "version": "0.1", "language": "python"},
                  "rulesets": ["cbc"], "features": ["setup", "card-points", "sequences"]}
        if READINGS is not None:
            answer["readings"] = READINGS
        return answer
    if message.get("id") == "t-cbc-setup":
        return {"id": message["id"], "skipped": True, "message": "no setup query here"}


_ref.serve(hook)
