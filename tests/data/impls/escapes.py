"""Everything it says carries terminal escape sequences: its name, version,
language and homepage (set the window title, clear the screen, a
bidirectional override, an 8-bit CSI), a wrong answer, an error message and
a skip reason. A report must show them, never obey them."""
import _ref

TRAP = "\x1b]0;PWNED\x07\x1b[2J\u202e\x9b31m\r"


def hook(message):
    if message.get("cmd") == "start":
        return {"ready": True, "protocol": 1,
                "implementation": {"name": "x" + TRAP, "version": TRAP, "language": TRAP, "homepage": TRAP},
                "rulesets": ["cbc", "treze"], "features": ["setup", "card-points", "sequences", "opening-minimum"]}
    if message.get("id") == "t-cbc-points-ace":
        return {"id": message["id"], "result": TRAP}
    if message.get("id") == "t-cbc-setup":
        return {"id": message["id"], "errored": True, "message": "boom" + TRAP}
    if message.get("id") == "t-treze-setup":
        return {"id": message["id"], "skipped": True, "message": "no" + TRAP}
    if message.get("id") == "t-cbc-opening-75":
        answer = _ref.protocol.handle(message)
        answer["results"][1]["cites"] = [TRAP]
        return answer


_ref.serve(hook)
