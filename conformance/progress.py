"""Progress of long work on stderr, one helper for every command that needs
it (conformance, profile, mutate, diff --behaviour).

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
    `group(name)` starts a new group (a ruleset) with its own total."""

    def __init__(self, stream, total: int, noun: str = "cases", *, label: str = "", tty: bool | None = None,
                 every: int | None = None, interval: float = 0.05, counted=()):
        self.stream, self.noun, self.label, self.interval = stream, noun, label, interval
        self.tty = _is_tty(stream) if tty is None else tty
        self.every_given = every
        self.counted = tuple(counted)
        self._last = 0.0
        self._start(total)

    def _start(self, total: int) -> None:
        self.total, self.done = total, 0
        self.counts = {key: 0 for key in self.counted}
        self.every = self.every_given or min(100, max(10, -(-total // 10)))

    def group(self, label: str, total: int) -> None:
        """A new group of work (a ruleset): its own label and count."""
        self._clear()
        self.label = label
        self._start(total)

    def update(self, item: str = "", tally: str | None = None) -> None:
        self.done += 1
        if tally is not None:
            self.counts[tally] = self.counts.get(tally, 0) + 1
        last = self.done >= self.total
        if self.tty:
            now = time.monotonic()
            if now - self._last >= self.interval or last:
                self._last = now
                columns = shutil.get_terminal_size((80, 20)).columns
                self.stream.write("\r\x1b[K" + f"{self.line()}  {item}"[:max(columns - 1, 10)])
                self.stream.flush()
        elif self.done % self.every == 0 or last:
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def line(self) -> str:
        width = len(str(self.total))
        head = f"{self.label}: " if self.label else ""
        tallies = ", ".join(f"{n} {key}" for key, n in self.counts.items())
        return f"{head}[{self.done:>{width}}/{self.total}] {self.noun}" + (f": {tallies}" if tallies else "")

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
