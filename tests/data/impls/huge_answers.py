"""Every answer carries 4 MB it should not: a query's result is a huge list, and
each action's state and message are padded. A run keeps what grading needs,
not whole answers."""
import _ref

from canastra_ref import protocol

PAD = ["Ah"] * 1_000_000


def hook(message):
    if message.get("cmd") != "run":
        return None
    answer = protocol.handle(message)
    if "result" in answer:
        return {"id": answer["id"], "result": PAD}
    for result in answer.get("results", []):
        result["state"]["hands"]["N"] = PAD
        result["message"] = "x" * 1_000_000
    return answer


_ref.serve(hook)
