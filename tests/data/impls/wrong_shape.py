"""Answers t-cbc-points-ace with no results/result key, and t-cbc-minimum-2490
with another case's id."""
import _ref


def hook(message):
    if message.get("id") == "t-cbc-points-ace":
        return {"id": message["id"], "verdict": "accepted"}
    if message.get("id") == "t-cbc-minimum-2490":
        return {"id": "someone-else", "result": 75}


_ref.serve(hook)
