"""Answers start and two cases, then exits quietly (status 0) at the third."""
import sys

import _ref

runs = 0


def hook(message):
    global runs
    if message.get("cmd") == "run":
        runs += 1
        if runs == 3:
            sys.exit(0)


_ref.serve(hook)
