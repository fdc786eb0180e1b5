"""Claims protocol 2 when started; with --refuse, refuses protocol 1 instead."""
import sys

import _ref


def hook(message):
    if message.get("cmd") == "start":
        if "--refuse" in sys.argv:
            return {"errored": True, "message": "I only speak protocol 2", "protocol": 2}
        return {"ready": True, "protocol": 2, "implementation": {"name": "future", "version": "9", "language": "x"},
                "rulesets": ["cbc"], "features": ["setup"]}


_ref.serve(hook)
