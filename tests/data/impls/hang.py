"""Never answers the case t-cbc-points-ace."""
import time

import _ref


def hook(message):
    if message.get("id") == "t-cbc-points-ace":
        time.sleep(3600)


_ref.serve(hook)
