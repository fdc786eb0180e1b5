"""One running implementation, seen as a line channel with deadlines.

The process is started in its own session (so killing it kills whatever it
spawned), with its three standard streams as non-blocking pipes served by one
selector in the caller's thread: stdin is written as the process reads, stdout
is split into lines, stderr is collected as it comes (never mixed with
stdout) and handed out with `take_stderr`. Nothing here blocks past a
deadline, whatever the process does.
"""
from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time

from .policy import MAX_LINE, STDERR_LIMIT

LINE, EOF, TIMEOUT, OVERFLOW = "line", "eof", "timeout", "overflow"
CHUNK, READ_AT_ONCE = 1 << 16, 1 << 20       # bytes


class ImplementationProcess:
    def __init__(self, argv: list[str], *, cwd=None, env=None):
        """Start the process; OSError when it cannot be run at all."""
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env, bufsize=0,
                                     start_new_session=True)
        self._fds = {"in": self.proc.stdin.fileno(), "out": self.proc.stdout.fileno(),
                     "err": self.proc.stderr.fileno()}
        for fd in self._fds.values():
            os.set_blocking(fd, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._fds["out"], selectors.EVENT_READ, "out")
        self._selector.register(self._fds["err"], selectors.EVENT_READ, "err")
        self._out = bytearray()
        self._err = bytearray()
        self._err_dropped = 0
        self._pending = bytearray()
        self._writing = False
        self.stdout_closed = self.stderr_closed = self.stdin_closed = False

    # ------------------------------------------------------------ state
    def describe_exit(self) -> str:
        """How the process ended: 'exited with status N', 'was killed by SIGSEGV'..."""
        code = self.proc.poll()
        if code is None:
            return "closed its stdout"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"was killed by {name}"
        return f"exited with status {code}"

    # ------------------------------------------------------------ I/O
    def send(self, data: bytes) -> None:
        """Queue bytes for the process's stdin; written as it reads them."""
        if self.stdin_closed:
            return
        self._pending += data
        self._write_some()

    def _write_some(self) -> None:
        while self._pending and not self.stdin_closed:
            try:
                n = os.write(self._fds["in"], self._pending)
            except BlockingIOError:
                break
            except (BrokenPipeError, OSError):
                self._close_stdin()
                return
            del self._pending[:n]
        want = bool(self._pending) and not self.stdin_closed
        if want != self._writing:
            if want:
                self._selector.register(self._fds["in"], selectors.EVENT_WRITE, "in")
            else:
                self._selector.unregister(self._fds["in"])
            self._writing = want

    def _close_stdin(self) -> None:
        if self._writing:
            self._selector.unregister(self._fds["in"])
            self._writing = False
        self._pending.clear()
        if not self.stdin_closed:
            self.stdin_closed = True
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    def _read(self, key: str) -> None:
        """Take in what the process has written on `key`, at most READ_AT_ONCE
        bytes: a process that writes without end never holds the caller past
        its deadline, nor stdout beyond a line too long to be an answer."""
        fd = self._fds[key]
        for _ in range(READ_AT_ONCE // CHUNK):
            try:
                chunk = os.read(fd, CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._selector.unregister(fd)
                if key == "out":
                    self.stdout_closed = True
                else:
                    self.stderr_closed = True
                return
            if key == "out":
                self._out += chunk
                if len(self._out) > MAX_LINE:       # enough to tell a line too long: read no more for now
                    return
            else:
                room = max(STDERR_LIMIT - len(self._err), 0)
                self._err += chunk[:room]
                self._err_dropped += len(chunk) - min(room, len(chunk))

    def _pump(self, timeout: float) -> None:
        for key, _ in self._selector.select(max(timeout, 0)):
            if key.data == "in":
                self._write_some()
            else:
                self._read(key.data)

    def read_line(self, deadline: float) -> tuple[str, bytes]:
        """(LINE, the line without its newline), (EOF, bytes written after the
        last newline), (TIMEOUT, b"") or (OVERFLOW, the start of the line).
        Blank lines are skipped. Output already written counts even when the
        deadline has passed."""
        late = False
        while True:
            cut = self._out.find(b"\n")
            while cut >= 0:
                if cut > MAX_LINE:            # a whole overlong line may arrive in one read
                    return OVERFLOW, bytes(self._out[:1000])
                line = bytes(self._out[:cut]).rstrip(b"\r")
                del self._out[:cut + 1]
                if line.strip():
                    return LINE, line
                cut = self._out.find(b"\n")
            if len(self._out) > MAX_LINE:
                return OVERFLOW, bytes(self._out[:1000])
            if self.stdout_closed:
                rest = bytes(self._out)
                self._out.clear()
                return EOF, rest
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if late:
                    return TIMEOUT, b""
                late = True
            self._pump(max(remaining, 0))

    def drain_stderr(self, wait: float = 0.0) -> None:
        """Collect the stderr already written; with `wait`, until stderr closes
        or `wait` seconds pass (for a process that has exited)."""
        end = time.monotonic() + wait
        while not self.stderr_closed:
            self._read("err")
            remaining = end - time.monotonic()
            if self.stderr_closed or remaining <= 0:
                return
            self._pump(min(remaining, 0.05))

    def take_stderr(self) -> str:
        """The stderr collected since the last call (decoded leniently)."""
        text = self._err.decode("utf-8", errors="replace")
        if self._err_dropped:
            text += f"\n[... {self._err_dropped} more bytes of stderr not kept]"
        self._err.clear()
        self._err_dropped = 0
        return text

    # ------------------------------------------------------------ ending
    def wait_exit(self, timeout: float) -> bool:
        try:
            self.proc.wait(timeout=max(timeout, 0))
            return True
        except subprocess.TimeoutExpired:
            return False

    def kill(self) -> None:
        """Kill the process and everything in its session; reap it. Only while
        it is not reaped yet: its process id (and group) cannot have been reused."""
        if self.proc.returncode is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
        self.wait_exit(5)
        self._close_stdin()

    def stop(self, message: bytes, grace: float) -> None:
        """Send the stop message, close stdin, give the process `grace` seconds
        to exit (reading what it still writes), then kill what is left."""
        if self.proc.poll() is None:
            self.send(message)
            end = time.monotonic() + grace
            while self._writing and time.monotonic() < end:
                self._pump(min(end - time.monotonic(), 0.05))
            self._close_stdin()
            while self.proc.poll() is None and time.monotonic() < end:
                self._pump(min(end - time.monotonic(), 0.02))
        self.kill()
        self.drain_stderr(wait=0.5)

    def close(self) -> None:
        """Release the pipes (after kill or stop)."""
        self.kill()
        self.drain_stderr(wait=0)
        self._selector.close()
        for stream in (self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
