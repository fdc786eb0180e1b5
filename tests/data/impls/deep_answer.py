"""Answers t-cbc-points-ace with JSON nested 100,000 deep (which overflowed
the runner's stack and lost the run); the rest like the reference."""
import _ref


def hook(message):
    if message.get("id") == "t-cbc-points-ace":
        return '{"id": "t-cbc-points-ace", "result": ' + "[" * 100_000 + "]" * 100_000 + "}"


_ref.serve(hook)
