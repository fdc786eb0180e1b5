"""Reading JSON another program wrote (a protocol message, an adapter's
answer) within bounds: its nesting, its integers and its numbers are checked
before Python builds anything from them, so no line makes the reader
overflow the stack (json recurses), spend its time converting a number of
thousands of digits, or pass NaN on.

    loads(text, "the answer") -> the value, or JSONInputError:
        "the answer is not JSON (Expecting value at column 1)"
"""
from __future__ import annotations

import json
import math
import re
from itertools import accumulate

from .errors import CanastraError
from .limits import MAX_DEPTH, MAX_INT


class JSONInputError(CanastraError):
    """Text that is not JSON, or JSON beyond the limits."""


class _Refused(Exception):
    """Raised inside json's hooks; carries the message without what is read."""


# A string, or one bracket outside strings.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_INT_DIGITS = len(str(MAX_INT))


def loads(text: str | bytes, what: str = "the text", *, max_depth: int = MAX_DEPTH):
    """The JSON value of `text`; JSONInputError naming `what` otherwise."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONInputError(f"{what} is not UTF-8 (byte {exc.start + 1})") from None
    depth = _too_deep(text, max_depth)
    if depth is not None:
        raise JSONInputError(f"{what} nests arrays and objects more than {max_depth} deep (at column {depth})",
                             expected=f"at most {max_depth} levels")
    try:
        return json.loads(text, parse_int=_integer, parse_float=_number, parse_constant=_constant)
    except _Refused as exc:
        raise JSONInputError(f"{what} holds {exc.args[0]}", expected=exc.args[1]) from None
    except json.JSONDecodeError as exc:
        raise JSONInputError(f"{what} is not JSON ({exc.msg} at column {exc.pos + 1})") from None


# The same strings, matched faster (for the check that needs no position); what is not a bracket.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"\[\]|\{\}")


def _too_deep(text: str, max_depth: int) -> int | None:
    """The column where nesting first goes past `max_depth`, or None."""
    if text.count("[") + text.count("{") <= max_depth:      # cheap: it cannot be too deep
        return None
    if _shallow(text.encode("utf-8", "surrogatepass"), max_depth) or not _may_be_too_deep(text, max_depth):
        return None
    brackets = [m for m in _TOKENS.finditer(text) if m.group() in _STEP]
    for match, depth in zip(brackets, accumulate(_STEP[m.group()] for m in brackets)):
        if depth > max_depth:
            return match.start() + 1
    return None


# What the quickest check keeps of the text: quotes, brackets and backslashes.
_KEPT = b'"[]{}\\'
_UNKEPT = bytes(b for b in range(256) if b not in _KEPT)
_BYTE_PAIR = re.compile(rb"\[\]|\{\}")


def _shallow(data: bytes, max_depth: int) -> bool:
    """True when the brackets outside strings surely nest at most `max_depth`
    deep; False when this quickest check cannot tell. It keeps only the
    quotes, brackets and backslashes (UTF-8 puts no such byte inside another
    character), and needs a text without escapes whose every string holds no
    bracket: each string is then an adjacent pair of quotes, removed in one
    pass from the left (a string holding a bracket leaves a quote, and the
    check gives up), and what is left are the brackets outside strings."""
    kept = data.translate(None, _UNKEPT)
    if b"\\" in kept:
        return False
    brackets = kept.replace(b'""', b"")
    if b'"' in brackets:
        return False
    for _ in range(max_depth):
        if not brackets:
            return True
        brackets = _BYTE_PAIR.sub(b"", brackets)
    return not brackets


def _may_be_too_deep(text: str, max_depth: int) -> bool:
    """False when the brackets outside strings are balanced and nest at most
    `max_depth` deep; a fast check, in C regular expressions, before the
    scan that finds the column. Each pass removes the innermost pairs, so a
    balanced nesting of depth d is gone after d passes."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(max_depth):
        if not brackets:
            return False
        brackets = _PAIR.sub("", brackets)
    return bool(brackets)


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > _INT_DIGITS or abs(int(text)) > MAX_INT:
        shown = text if len(text) <= 20 else f"{text[:20]}... ({len(text)} digits)"
        raise _Refused(f"the integer {shown}, too large", f"integers between -{MAX_INT:,} and {MAX_INT:,}")
    return int(text)


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {text[:20]}, too large", "finite numbers")
    return value


def _constant(name: str):
    raise _Refused(f"{name}, which is not JSON", "numbers (NaN and infinities are not JSON)")
