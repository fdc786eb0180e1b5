"""A one-line progress display on a terminal (stderr), for long runs. It
draws nothing when the stream is not a terminal, so logs and pipes stay clean."""
from __future__ import annotations

import shutil
import time

from .grading import ERRORED, FAILED, PASSED, SKIPPED


class Progress:
    def __init__(self, stream, total: int, enabled: bool | None = None, interval: float = 0.05):
        self.stream, self.total, self.interval = stream, total, interval
        self.enabled = _is_tty(stream) if enabled is None else enabled
        self.done_count = 0
        self.counts = {PASSED: 0, FAILED: 0, ERRORED: 0, SKIPPED: 0}
        self._last = 0.0

    def update(self, case_id: str, status: str) -> None:
        self.done_count += 1
        self.counts[status] = self.counts.get(status, 0) + 1
        now = time.monotonic()
        if not self.enabled or (now - self._last < self.interval and self.done_count < self.total):
            return
        self._last = now
        c = self.counts
        width = len(str(self.total))
        line = (f"[{self.done_count:>{width}}/{self.total}] {c[PASSED]} passed, {c[FAILED]} failed, "
                f"{c[ERRORED]} errored, {c[SKIPPED]} skipped  {case_id}")
        columns = shutil.get_terminal_size((80, 20)).columns
        self.stream.write("\r\x1b[K" + line[:max(columns - 1, 10)])
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled and self.done_count:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _is_tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
