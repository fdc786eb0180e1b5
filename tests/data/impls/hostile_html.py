"""Everything it says is markup or a script: its name, version, language,
homepage (a javascript: link), commit, a wrong answer, an error message, a
skip reason, stderr, and a very long line. The report site must show it all
as text, and never run or link it."""
import sys

import _ref

SCRIPT = "<script>alert('pwned')</script>"
ATTR = "\"'><img src=x onerror=alert(1)>"
LONG = "W" * 20000


def hook(message):
    if message.get("cmd") == "start":
        return {"ready": True, "protocol": 1,
                "implementation": {"name": "evil" + SCRIPT, "version": ATTR, "language": "<b>bold</b>",
                                   "homepage": "javascript:alert(1)", "commit": SCRIPT + ATTR},
                "rulesets": ["cbc", "treze"], "features": ["setup", "card-points", "sequences", "opening-minimum"]}
    if message.get("id") == "t-cbc-points-ace":
        return {"id": message["id"], "result": {"points": SCRIPT, "long": LONG}}
    if message.get("id") == "t-cbc-setup":
        print(SCRIPT + LONG, file=sys.stderr, flush=True)
        return {"id": message["id"], "errored": True, "message": "boom " + SCRIPT + ATTR + LONG}
    if message.get("id") == "t-treze-setup":
        return {"id": message["id"], "skipped": True, "message": "no " + SCRIPT}


_ref.serve(hook)
