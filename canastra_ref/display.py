"""Showing text that came from outside (what an implementation answers or
writes on stderr, a situation's title, a line of a file) without letting it
act on the reader's screen.

In a terminal or a CI log, a control character is an instruction: ESC starts
a sequence that can set the window title, move the cursor or clear the
screen, a carriage return overwrites the line, bidirectional overrides
reorder what is shown. `printable` spells each of them out (`\\x1b`,
`\\u202e`) so the text reads as what it is. `markdown_literal` also keeps
Markdown and HTML markup in such text from being rendered.
"""
from __future__ import annotations

import re

# C0 and C1 controls (tab and newline apart), the line and paragraph
# separators, and the bidirectional marks, embeddings, overrides and isolates.
_INVISIBLE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(f"[{_INVISIBLE}]")
_CONTROL_OR_NEWLINE = re.compile(f"[\n{_INVISIBLE}]")
# Markdown's inline marks, raw HTML and entities, and table cells: escaped wherever they are.
_MARKDOWN_INLINE = re.compile(r"([\\`*_\[\]<>&|~])")
# What makes a heading, a list, a quote or a rule at the start of a block; an
# ordered list needs its number's dot or parenthesis followed by a blank
# ("9. x" is one, "9.3 - x" is not).
_MARKDOWN_BLOCK = re.compile(r"^(\s*)([#>+=-]|[0-9]+(?=[.)](?:\s|$)))")


def _spell(match: re.Match) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def printable(text: str, *, newlines: bool = True) -> str:
    """The text with its control characters spelled out; newlines kept
    unless `newlines` is false (for a value shown on one line)."""
    return (_CONTROL if newlines else _CONTROL_OR_NEWLINE).sub(_spell, str(text))


def cut(text: str, limit: int = 200) -> str:
    """Text (a message quoting input) cut to `limit` characters."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def shown(value, limit: int = 40) -> str:
    """A value from input, quoted (repr) and cut to `limit` characters, for an
    error message: a message never repeats a whole megabyte it was sent."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def markdown_literal(text: str) -> str:
    """The text as Markdown that renders to exactly these characters: the
    characters of inline marks, raw HTML and table cells backslash-escaped
    (no emphasis, link, code span or HTML comes of it), and those that would
    start a heading, a list or a quote at its start; line breaks as spaces,
    control characters spelled out."""
    one_line = printable(re.sub(r"\r\n|[\r\n]", " ", str(text)), newlines=False)
    escaped = _MARKDOWN_INLINE.sub(r"\\\1", one_line)
    return _MARKDOWN_BLOCK.sub(lambda m: m.group(1) + (m.group(2) + "\\" if m.group(2).isdigit()
                                                       else "\\" + m.group(2)), escaped, count=1)
