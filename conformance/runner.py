"""Running cases against an implementation through the protocol
(conformance/PROTOCOL.md), with its policies: the start handshake, a
deadline for every answer, a restart after a crash, a hang or a protocol
violation, stderr kept per case, cases the implementation does not
support skipped, and cases written under readings it does not follow
(its declared readings, readings.py) reported other-reading, unsent.

    runner = Runner(argv, timeout=10)
    outcomes = runner.run_all(cases)    # never raises for anything the implementation does
    runner.close()
"""
from __future__ import annotations

import json
import sys
import time
import traceback
from collections import deque
from dataclasses import dataclass

from canastra_ref.errors import CanastraError, ErrorList
from canastra_ref.json_input import JSONInputError, loads
from canastra_ref.limits import MAX_MESSAGE_BYTES, MAX_NAME

from . import readings
from .fixtures import Case
from .grading import ERRORED, FAILED, OTHER_READING, PASSED, SKIPPED, XFAIL, XPASS, Grade, grade, message_for
from .messages import PROTOCOL_VERSION, problem_with, quote
from .policy import DEFAULT_START_TIMEOUT, DEFAULT_TIMEOUT, STDERR_LATE_LIMIT, STDERR_RUN_LIMIT, STOP_GRACE
from .process import EOF, LINE, OVERFLOW, TIMEOUT, ImplementationProcess


def reference_command() -> list[str]:
    """`canastra serve` for the Python running this: the reference, driven as
    any other implementation is."""
    return [sys.executable, "-m", "canastra_cli", "serve"]


def encode(message: dict) -> bytes:
    """A message as one protocol line; ValueError when it cannot be one (not
    JSON data, or larger than the protocol allows)."""
    line = (json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")
    if len(line) > MAX_MESSAGE_BYTES + 1:
        raise ValueError(f"the message is {len(line):,} bytes, more than the protocol allows "
                         f"({MAX_MESSAGE_BYTES:,})")
    return line


def not_claimed(info: dict, ruleset: str, requires) -> str | None:
    """Why an implementation that answered `start` with `info` (its implementation,
    rulesets and features) does not take a case of this ruleset needing these
    feature tags, which is then skipped unsent (or a fuzzing step left unsent); or None."""
    name = (info.get("implementation") or {}).get("name", "the implementation")
    if ruleset not in info["rulesets"]:
        return f"ruleset {ruleset!r} is not supported by {name}"
    missing = [tag for tag in requires if tag not in info["features"]]
    if missing:
        return f"needs features {name} does not support: {', '.join(missing)}"
    return None


@dataclass
class Outcome:
    """What happened to one case. `xfail`: the expected-failures entry listing
    it (xfail.py), which turns a failure into xfail and a pass into xpass."""
    case: Case
    grade: Grade
    stderr: str = ""
    duration: float = 0.0
    xfail: object = None

    @property
    def status(self) -> str:
        if self.xfail is not None:
            if self.grade.status in (FAILED, ERRORED):
                return XFAIL
            if self.grade.status == PASSED:
                return XPASS
        return self.grade.status


INTERRUPTED = "the run was interrupted"


class Broken(Exception):
    """The implementation broke the protocol or died while answering."""


@dataclass
class _Sent:
    case: Case
    sent: float          # when it was sent (the answer's deadline runs from here)
    index: int


class Runner:
    """`judge_by_readings`: report the cases written under readings other than
    those the implementation declares as other-reading, without sending them
    (False: send and grade every case, as `canastra profile` needs)."""

    def __init__(self, argv: list[str], *, timeout: float = DEFAULT_TIMEOUT,
                 start_timeout: float = DEFAULT_START_TIMEOUT, cwd=None, env=None, judge_by_readings: bool = True):
        self.argv = list(argv)
        self.timeout, self.start_timeout = timeout, start_timeout
        self.judge_by_readings = judge_by_readings
        self.cwd, self.env = cwd, env
        self.process: ImplementationProcess | None = None
        self.info: dict | None = None          # the answer to the first successful start
        self.start_error: str | None = None    # why the implementation cannot (or no longer) start
        self.starts = 0
        self.restarts = 0
        self.stderr = ""                       # stderr written outside any case (start, stop)
        self.stopped: str | None = None        # why run_all stopped before the last case, if it did
        self._stderr_kept = 0                  # bytes of stderr kept in the outcomes so far
        self._dead_stderr = ""                 # stderr of a process just killed, for the case at fault
        self._spawned_at = 0.0

    # ------------------------------------------------------------- start
    def spawn(self) -> None:
        """Launch the implementation and send start, without waiting for the answer
        (so that its start-up overlaps the caller's work until start())."""
        if self.process is not None or self.start_error is not None:
            return
        if self.starts:
            self.restarts += 1
        self.starts += 1
        self._spawned_at = time.monotonic()
        try:
            self.process = ImplementationProcess(self.argv, cwd=self.cwd, env=self.env)
        except OSError as exc:
            self.start_error = f"the implementation did not start: cannot run {' '.join(self.argv)!r}: " \
                               f"{exc.strerror or exc}"
            return
        self.process.send(encode({"cmd": "start", "protocol": PROTOCOL_VERSION}))

    def start(self) -> bool:
        """Spawn if needed and complete the handshake; False, with start_error set, when it fails."""
        if self.process is None:
            self.spawn()
        if self.start_error is not None:
            return False
        try:
            answer = self._receive(self._spawned_at + self.start_timeout, "started", "start",
                                   self.start_timeout)
            if answer.get("errored"):
                raise Broken(f"it refused to start: {answer.get('message')}"
                             + (f" (it speaks protocol {answer['protocol']})" if "protocol" in answer else ""))
            if answer["protocol"] != PROTOCOL_VERSION:
                raise Broken(f"it speaks protocol {answer['protocol']}; this runner speaks protocol "
                             f"{PROTOCOL_VERSION}")
            problems = readings.declaration_problems(answer.get("readings", {}), answer["rulesets"])
            if problems:
                raise Broken("its declared readings name what the suite does not have: " + "; ".join(problems))
        except Broken as exc:
            self._discard()
            self._file_stderr()
            again = "could not be restarted" if self.restarts else "did not start"
            self.start_error = f"the implementation {again}: {exc}"
            return False
        except KeyboardInterrupt:
            self._discard()
            self.stopped = INTERRUPTED
            self.start_error = f"{INTERRUPTED} before the implementation started"
            return False
        self._file_stderr()
        declared = answer.get("readings", {})
        if self.info is None:
            # what the report shows of the implementation: its strings, each of a bounded length
            implementation = {k: v if len(v) <= MAX_NAME else v[:MAX_NAME] + "..."
                              for k, v in answer["implementation"].items() if isinstance(v, str)}
            self.info = {"protocol": answer["protocol"], "implementation": implementation,
                         "rulesets": answer["rulesets"], "features": answer["features"], "readings": declared}
        else:
            self.info.update(rulesets=answer["rulesets"], features=answer["features"], readings=declared)
        return True

    def _file_stderr(self) -> None:
        """File the stderr written during start under the run, not under a case."""
        text = self._take_stderr()
        if text:
            self.stderr += text if text.endswith("\n") else text + "\n"

    def _take_stderr(self) -> str:
        """The stderr of the running process since the last call, or of the one just killed."""
        if self.process is not None:
            self.process.drain_stderr()
            return self.process.take_stderr()
        text, self._dead_stderr = self._dead_stderr, ""
        return text

    # ------------------------------------------------------------- cases
    def unsupported(self, case: Case) -> str | None:
        """Why the implementation cannot take this case (it declared so at start), or None."""
        return self.unsupported_for(case.ruleset, case.requires)

    def unsupported_for(self, ruleset: str, requires) -> str | None:
        """Why the implementation cannot take a case of this ruleset needing
        these feature tags (it declared so at start), or None."""
        return None if self.info is None else not_claimed(self.info, ruleset, requires)

    def other_reading(self, case: Case) -> Grade | None:
        """The other-reading grade of a case whose expectations do not hold
        under the readings the implementation declares for its ruleset, or None."""
        if not self.judge_by_readings or self.info is None:
            return None
        found = readings.conflicts(case, self.info["readings"].get(case.ruleset, {}))
        if not found:
            return None
        return Grade(OTHER_READING, conflicts=found,
                     message="written under " + ", ".join(f"{c.dispute}={c.assumes}" for c in found)
                             + "; the implementation declares " + ", ".join(f"{c.dispute}={c.declared}" for c in found))

    def run(self, case: Case) -> Outcome:
        return self.run_all([case])[0]

    def exchange(self, message: dict) -> tuple[dict, str]:
        """Send one run message of the caller's own (a fuzzer's) and return
        (the answer, the stderr written for it), under the same policies as
        cases: the answer checked against run-answer.schema.json and its id;
        a hang, a crash, garbage or a failed start answered as
        {"id": ..., "errored": true, "message": why} (the process is
        restarted for the next message)."""
        case_id = message.get("id")
        if self.process is None and not self.start():
            return {"id": case_id, "errored": True, "message": self.start_error}, ""
        try:
            data = encode(message)
        except ValueError as exc:
            raise CanastraError(f"the message cannot be sent: {exc}") from None
        self.process.send(data)
        sent = time.monotonic()
        try:
            answer = self._parse(self._read(sent + self.timeout, "this message", self.timeout), "run-answer")
            if answer["id"] != case_id:
                raise self._broken(f"the answer is for id {answer['id']!r}, not {case_id!r}")
        except Broken as exc:
            return {"id": case_id, "errored": True, "message": str(exc)}, self._take_stderr()
        return answer, self._take_stderr()

    def run_all(self, cases, on_outcome=None) -> list[Outcome]:
        """Run the cases in order, one message at a time; every failure of the
        implementation becomes an errored outcome of the case it was answering.
        Nothing loses the outcomes already settled: should the runner itself
        fail, or the run be interrupted, the cases not run are errored with the
        reason, which `stopped` keeps for the report.

        One message is in flight at a time, but the runner's own work overlaps
        the implementation's: as soon as an answer line arrives (and the stderr
        written before it is taken), the next message goes out; the answer is
        then parsed, checked and graded, and the message after prepared, while
        the implementation works. If that answer proves to break the protocol,
        the process is killed and the message in flight goes to a new one."""
        outcomes: dict[int, Outcome] = {}
        todo = deque(enumerate(cases))
        prepared: dict[int, bytes] = {}
        flight: _Sent | None = None               # the message sent and not answered yet
        arrived = None                            # (sent, raw line, stderr, duration) not yet graded
        emitted = 0

        stopping = False                          # once stopping, a failing hook stops nothing more

        def settle(index: int, outcome: Outcome) -> None:
            nonlocal emitted
            outcome.stderr = self._kept_stderr(outcome.stderr)
            outcomes[index] = outcome
            while emitted in outcomes:
                emitted += 1
                if on_outcome and not stopping:
                    on_outcome(outcomes[emitted - 1])
                elif on_outcome:
                    try:
                        on_outcome(outcomes[emitted - 1])
                    except (Exception, KeyboardInterrupt):
                        pass

        def message(index: int, case: Case) -> bytes | None:
            """The encoded message of a case, or None once settled without one."""
            if index not in prepared:
                try:
                    prepared[index] = encode(message_for(case))
                except (CanastraError, ErrorList, TypeError, ValueError) as exc:
                    settle(index, Outcome(case, Grade(ERRORED, message="the fixture cannot be turned into a "
                                                                       f"message (a fault of the suite): {exc}")))
                    return None
            return prepared[index]

        try:
            while todo or flight or arrived:
                while flight is None and todo:                       # send the next case
                    index, case = todo.popleft()
                    if self.process is None and not self.start():
                        settle(index, Outcome(case, Grade(ERRORED, message=self.start_error)))
                        continue
                    reason = self.unsupported(case)
                    if reason:
                        settle(index, Outcome(case, Grade(SKIPPED, message=reason)))
                        continue
                    other = self.other_reading(case)
                    if other:
                        settle(index, Outcome(case, other))
                        continue
                    data = message(index, case)
                    if data is not None:
                        prepared.pop(index)                          # prepared again if it must be sent again
                        self.process.send(data)
                        flight = _Sent(case, time.monotonic(), index)
                if arrived is not None:                              # grade the last answer meanwhile
                    sent, raw, stderr, duration = arrived
                    arrived = None
                    try:
                        answer = self._parse(raw, "run-answer")
                        if answer["id"] != sent.case.id:
                            raise self._broken(f"the answer is for id {answer['id']!r}, not {sent.case.id!r}")
                        result = _grade(sent.case, answer)
                    except Broken as exc:
                        result = Grade(ERRORED, message=str(exc))
                        stderr += self._take_stderr()                # what the killed process wrote last
                        if flight is not None:                       # it went to a process we no longer trust
                            todo.appendleft((flight.index, flight.case))
                            flight = None
                    settle(sent.index, Outcome(sent.case, result, stderr, duration))
                    continue
                if flight is None:
                    continue
                if todo and todo[0][0] not in prepared and self.unsupported(todo[0][1]) is None \
                        and self.other_reading(todo[0][1]) is None:
                    message(*todo[0])                                # prepare the next message meanwhile
                    if todo[0][0] in outcomes:
                        todo.popleft()
                sent, flight = flight, None
                try:
                    raw = self._read(sent.sent + self.timeout, "this case", self.timeout)
                except Broken as exc:
                    settle(sent.index, Outcome(sent.case, Grade(ERRORED, message=str(exc)), self._take_stderr(),
                                               time.monotonic() - sent.sent))
                    continue
                arrived = (sent, raw, self._take_stderr(), time.monotonic() - sent.sent)
        except (Exception, KeyboardInterrupt) as exc:      # a fault of the runner, or an interrupt
            stopping = True
            self.stopped = INTERRUPTED if isinstance(exc, KeyboardInterrupt) \
                else f"the runner failed: {type(exc).__name__}: {exc}"
            if not isinstance(exc, KeyboardInterrupt):
                traceback.print_exc(file=sys.stderr)
            self._discard()
            for index, case in enumerate(cases):          # the outcomes so far stand; the rest are errored
                if index not in outcomes:
                    settle(index, Outcome(case, Grade(ERRORED, message=f"not run: {self.stopped}")))
        return [outcomes[i] for i in range(len(cases))]

    def _kept_stderr(self, text: str) -> str:
        """A case's stderr as the report keeps it: past STDERR_RUN_LIMIT in all,
        only its last STDERR_LATE_LIMIT characters."""
        if self._stderr_kept + len(text) > STDERR_RUN_LIMIT and len(text) > STDERR_LATE_LIMIT:
            text = f"[... {len(text) - STDERR_LATE_LIMIT:,} characters not kept: the run has kept " \
                   f"{STDERR_RUN_LIMIT // (1024 * 1024)} MiB of stderr]\n" + text[-STDERR_LATE_LIMIT:]
        self._stderr_kept += len(text)
        return text

    # ------------------------------------------------------------- lines
    def _receive(self, deadline: float, kind: str, what: str, timeout: float) -> dict:
        """The next answer line, parsed and checked against its schema."""
        return self._parse(self._read(deadline, what, timeout), kind)

    def _broken(self, message: str) -> Broken:
        """Kill the process (it no longer follows the protocol) and say why."""
        self._discard()
        return Broken(message)

    def _read(self, deadline: float, what: str, timeout: float) -> bytes:
        """The next line the implementation writes; Broken (and the process
        killed) when it hangs, dies or writes an endless line."""
        process = self.process
        status, raw = process.read_line(deadline)
        if status == TIMEOUT:
            raise self._broken(f"no answer to {what} within {timeout:g} s: the implementation was killed "
                               "(it is restarted for the next case)")
        if status == OVERFLOW:
            raise self._broken(f"an answer line longer than the protocol allows: "
                               f"{quote(raw.decode('utf-8', 'replace'))}")
        if status == EOF:
            process.wait_exit(1.0)
            ended = process.describe_exit()
            self._discard(wait=1.0)
            partial = f", after writing an incomplete line {quote(raw.decode('utf-8', 'replace'))}" \
                if raw.strip() else ""
            raise Broken(f"the implementation {ended} before answering {what}{partial}"
                         + _stderr_tail(self._dead_stderr))
        assert status == LINE
        return raw

    def _parse(self, raw: bytes, kind: str) -> dict:
        """An answer line as JSON of the shape of its schema; Broken (and the
        process killed) otherwise, quoting the line."""
        try:
            answer = loads(raw, "the answer")
        except JSONInputError as exc:
            raise self._broken(f"{exc.message}: {quote(raw.decode('utf-8', 'replace'))}") from None
        problem = problem_with(kind, answer)
        if problem:
            raise self._broken(f"the answer does not have the shape of {kind}.schema.json: {problem}; "
                               f"the line was {quote(raw.decode('utf-8'))}")
        return answer

    def _discard(self, wait: float = 0.2) -> None:
        """Kill the process (it is restarted on demand), keeping its last stderr."""
        process, self.process = self.process, None
        if process is None:
            return
        process.kill()
        process.drain_stderr(wait=wait)
        self._dead_stderr = process.take_stderr()
        process.close()

    # ------------------------------------------------------------- end
    def close(self) -> None:
        """Send stop and let the implementation exit (killing it after STOP_GRACE)."""
        process, self.process = self.process, None
        if process is None:
            return
        try:
            process.stop(b'{"cmd":"stop"}\n', STOP_GRACE)
        except KeyboardInterrupt:               # no more waiting: the report is still written
            self.stopped = self.stopped or INTERRUPTED
        text = process.take_stderr()
        if text:
            self.stderr += text
        process.close()


def _grade(case: Case, answer: dict) -> Grade:
    try:
        return grade(case, answer)
    except Exception as exc:  # an answer of the right shape that grading cannot make sense of
        return Grade(ERRORED, message=f"the answer cannot be graded ({type(exc).__name__}: {exc})")


def _stderr_tail(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return f"; its stderr ends with {quote(lines[-1], 200)}" if lines else ""
