"""The reference, except on run messages holding an action of a chosen verb:
`--skip VERB` answers them skipped, `--error VERB` answers them errored (as an
adapter does for what its engine cannot take, or crashes on). For the
fuzzer's tests: it must narrow such an answer down to the action at fault."""
import sys

from _ref import serve

MODE, VERB = sys.argv[1], sys.argv[2]


def hook(message):
    if message.get("cmd") != "run" or not any(VERB in action for action in message.get("actions") or []):
        return None
    if MODE == "--skip":
        return {"id": message["id"], "skipped": True, "message": f"{VERB}: not in this engine"}
    return {"id": message["id"], "errored": True, "message": f"engine raised on {VERB}"}


serve(hook)
