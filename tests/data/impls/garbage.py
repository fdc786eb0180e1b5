"""Prints a line that is not JSON for the case t-cbc-points-ace."""
import _ref


def hook(message):
    if message.get("id") == "t-cbc-points-ace":
        return "this is not json {"


_ref.serve(hook)
