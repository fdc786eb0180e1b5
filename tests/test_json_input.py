"""canastra_ref.json_input: the quickest nesting check (on the bytes, strings
as pairs of quotes) never passes a text that nests deeper than allowed, and
the depth found is the brackets' outside strings."""
from __future__ import annotations

import json
from itertools import accumulate

from hypothesis import given
from hypothesis import strategies as st

from canastra_ref import json_input
from canastra_ref.json_input import JSONInputError, loads

# Strings full of what confuses a bracket count: brackets, quotes, backslashes.
_TEXT = st.text(alphabet=st.sampled_from('ab[]{}"\\é'), max_size=6)
_VALUES = st.recursive(st.one_of(st.integers(-5, 5), _TEXT), lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=3)), max_leaves=40)


def _depth(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


def _scanned_depth(text: str) -> int:
    """The deepest nesting of the brackets outside strings, token by token (the slow, exact scan)."""
    steps = [json_input._STEP[m.group()] for m in json_input._TOKENS.finditer(text) if m.group() in json_input._STEP]
    return max(accumulate(steps), default=0)


@given(_VALUES, st.integers(0, 6), st.booleans())
def test_the_quickest_check_passes_only_what_is_shallow_enough(value, limit, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert _scanned_depth(text) == _depth(value)
    if json_input._shallow(text.encode("utf-8"), limit):
        assert _depth(value) <= limit
    if _depth(value) > limit:
        try:
            loads(text, max_depth=limit)
        except JSONInputError as exc:
            assert f"more than {limit} deep" in exc.message
        else:
            raise AssertionError(f"{text} nests {_depth(value)} deep and passed a limit of {limit}")
    else:
        assert loads(text, max_depth=limit) == value


def test_strings_holding_brackets_leave_the_quickest_check_unsure():
    # "]" in a string would make "[[" look closed; the check gives up and the exact scan decides
    assert not json_input._shallow(b'[["]"]]', 1)
    assert json_input._shallow(b'[["a"]]', 2) and not json_input._shallow(b'[["a"]]', 1)
    assert not json_input._shallow(b'["\\"", []]', 5)      # an escape: unsure
