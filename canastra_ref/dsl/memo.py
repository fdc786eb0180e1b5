"""Work remembered by the identity of the objects it was computed from.

Builds and strict checks see the same objects again and again: every reading
of a spec in `canastra check`, every mutant of `canastra mutate` (which shares
all clauses but one with the original spec). A Memo keeps a result under a key
made of object ids; the objects are kept in the entry, so that an id is never
reused while its entry lives. A SpecError raised by the computation is
remembered and raised again.
"""
from __future__ import annotations

from ..errors import SpecError


class Memo:
    LIMIT = 200_000          # entries; past it the memo starts afresh

    def __init__(self):
        self.entries: dict[tuple, tuple] = {}

    def get(self, key: tuple, keep: tuple, compute):
        entry = self.entries.get(key)
        if entry is None:
            if len(self.entries) > self.LIMIT:
                self.entries.clear()
            try:
                entry = (keep, compute(), None)
            except SpecError as exc:
                entry = (keep, None, exc)
            self.entries[key] = entry
        if entry[2] is not None:
            raise entry[2]
        return entry[1]
