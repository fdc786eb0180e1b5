"""Starts once: dies on t-cbc-points-ace, and every later start fails (the
file given as argument remembers the first start)."""
import os
import sys
from pathlib import Path

import _ref

marker = Path(sys.argv[1])
if marker.exists():
    sys.stderr.write("cannot start twice\n")
    sys.exit(5)
marker.write_text("started")


def hook(message):
    if message.get("id") == "t-cbc-points-ace":
        os._exit(70)


_ref.serve(hook)
