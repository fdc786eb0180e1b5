"""A defective implementation for the fuzzer's tests: the reference, except
that every canastra limpa on the table in its answers' states is named a
suja (a difference in a meld's canastra kind alone: its cards, the verdicts
and the scores are the reference's)."""
from __future__ import annotations

from _ref import serve

from canastra_ref import protocol


def hook(message):
    answer = protocol.handle(message)
    if message.get("cmd") == "start":
        answer["implementation"] = {"name": "renames-limpas", "version": "1", "language": "python"}
    for result in answer.get("results") or ():
        for team in result.get("state", {}).get("teams", {}).values():
            for meld in team["melds"]:
                if meld.get("canastra") == "limpa":
                    meld["canastra"] = "suja"
    return answer


serve(hook)
