"""Dies (status 70) on the case t-cbc-points-ace, saying why on stderr."""
import os
import sys

import _ref


def hook(message):
    if message.get("id") == "t-cbc-points-ace":
        sys.stderr.write("fatal: cannot count the points of an ace\n")
        sys.stderr.flush()
        os._exit(70)


_ref.serve(hook)
