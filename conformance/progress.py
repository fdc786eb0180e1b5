"""Progress of long work on stderr, one helper for every command that needs
it (conformance, profile, mutate, diff --behaviour, fuzz).

On a terminal, one line redrawn in place as items are done. Anywhere else (a
CI log, a pipe, a file), a plain line every `every` items (a tenth of the
work, at most one in 100 items and at least 10 between lines) and at the end of each group, so a log
shows the work moving without a line per item or a control character.
"""
from __future__ import annotations

import shutil
import time


class Progress:
    """`update(item, tally)` after each item: `item` names it (shown on a
    terminal), `tally` is a key counted in the line ("passed", "killed", ...).
    `group(name)` starts a new group (a ruleset) with its own total. Work
    measured otherwise than in items (seconds, hands played) is shown with
    `at(done, detail)`: how much is done so far, and a detail in words."""

    def __init__(self, stream, total: int, noun: str = "cases", *, label: str = "", tty: bool | None = None,
                 every: int | None = None, interval: float = 0.05, counted=()):
        self.stream, self.noun, self.label, self.interval = stream, noun, label, interval
        self.tty = _is_tty(stream) if tty is None else tty
        self.every_given = every
        self.counted = tuple(counted)
        self._last = 0.0
        self._start(total)

    def _start(self, total: int) -> None:
        self.total, self.done, self.detail, self._logged = total, 0, "", 0
        self.counts = {key: 0 for key in self.counted}
        self.every = self.every_given or min(100, max(10, -(-total // 10)))

    def group(self, label: str, total: int, noun: str | None = None) -> None:
        """A new group of work (a ruleset): its own label and count (and unit, if given)."""
        self._clear()
        self.label, self.noun = label, noun or self.noun
        self._start(total)

    def update(self, item: str = "", tally: str | None = None) -> None:
        self.done += 1
        if tally is not None:
            self.counts[tally] = self.counts.get(tally, 0) + 1
        self._show(item)

    def at(self, done: float, detail: str = "") -> None:
        """The work done so far (of `total`, in the group's unit) and a detail
        shown after the count ("8,845 steps, 0 differences")."""
        self.done, self.detail = done, detail
        self._show("")

    def _show(self, item: str) -> None:
        last = self.done >= self.total
        if self.tty:
            now = time.monotonic()
            if now - self._last >= self.interval or last:
                self._last = now
                columns = shutil.get_terminal_size((80, 20)).columns
                self.stream.write("\r\x1b[K" + f"{self.line()}  {item}"[:max(columns - 1, 10)])
                self.stream.flush()
        elif self.done // self.every > self._logged // self.every or (last and self._logged < self.total):
            self._logged = self.done
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def line(self) -> str:
        width = len(str(self.total))
        head = f"{self.label}: " if self.label else ""
        tallies = self.detail or ", ".join(f"{n} {key}" for key, n in self.counts.items())
        return f"{head}[{int(self.done):>{width}}/{self.total}] {self.noun}" + (f": {tallies}" if tallies else "")

    def _clear(self) -> None:
        if self.tty and self.done:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def finish(self) -> None:
        """Leave the terminal line clean (a log keeps its lines)."""
        self._clear()


def _is_tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
