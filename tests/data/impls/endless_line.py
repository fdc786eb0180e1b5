"""Answers t-cbc-points-ace with a line longer than the protocol allows (17
MiB, more than the runner reads as one answer); the rest like the reference."""
import _ref


def hook(message):
    if message.get("id") == "t-cbc-points-ace":
        return '{"id": "t-cbc-points-ace", "result": "' + "x" * (17 * 1024 * 1024) + '"}'


_ref.serve(hook)
