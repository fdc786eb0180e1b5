"""Choosing the cases of a run (--ruleset, --article, --id, --skip) and
running them in order against one implementation, with the expected
failures of an --xfail file."""
from __future__ import annotations

import fnmatch
import time
from datetime import datetime, timezone

from canastra_ref.dsl.loader import available
from canastra_ref.errors import CanastraError
from canastra_ref.files import read_text

from . import xfail as xfail_file
from .fixtures import Case
from .grading import SKIPPED, Grade
from .results import RunResult
from .runner import Outcome, Runner


def select(cases: list[Case], rulesets=None, articles=None, ids=None) -> list[Case]:
    """The cases of any of the rulesets, citing any of the articles (A, or A.x
    below it), whose id matches any of the globs; every filter optional."""
    if rulesets:
        known = set(available()) | {c.ruleset for c in cases}
        for r in rulesets:
            if r not in known:
                raise CanastraError(f"unknown ruleset '{r}'", expected="one of: " + ", ".join(sorted(known)))
        cases = [c for c in cases if c.ruleset in rulesets]
    if articles:
        cases = [c for c in cases if any(a == want or a.startswith(want + ".") for a in c.articles
                                         for want in articles)]
    if ids:
        cases = [c for c in cases if any(fnmatch.fnmatchcase(c.id, g) for g in ids)]
    return cases


def read_skip_file(path: str) -> list[tuple[str, int]]:
    """(glob, line) of every entry of a skip file: one fixture id or glob a line, # comments."""
    text = read_text(path, "the skip file")
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.split("#", 1)[0].strip()
        if entry:
            entries.append((entry, number))
    return entries


def skip_reason(case: Case, entries, path: str) -> str | None:
    for glob, number in entries:
        if fnmatch.fnmatchcase(case.id, glob):
            return f"listed in {path}:{number}"
    return None


def run_suite(runner: Runner, cases: list[Case], suite: dict, *, skip=(), skip_path: str = "",
              xfail: list | None = None, xfail_path: str = "", strict: bool = True, suite_ids=None,
              on_outcome=None) -> RunResult:
    """Start the implementation (unless already spawned), run every case
    (those of the skip list are skipped without being sent), stop it. Always
    completes, interrupted or not (`stopped` then says why); the outcomes keep
    the order of the cases. `xfail`: the entries
    of an expected-failures file (xfail.py), None without one; those matching
    none of `suite_ids` (default: the cases run) are reported unused."""
    began, date = time.monotonic(), datetime.now(timezone.utc).isoformat(timespec="seconds")
    listed = {i: skip_reason(case, skip, skip_path) for i, case in enumerate(cases)}
    outcomes: dict[int, Outcome] = {}

    def expect(outcome: Outcome) -> Outcome:
        never_sent = runner.start_error and outcome.grade.message == runner.start_error
        if xfail and not never_sent:
            outcome.xfail = xfail_file.entry_for(outcome.case.id, xfail)
        if on_outcome:
            on_outcome(outcome)
        return outcome
    for i, reason in listed.items():
        if reason:
            outcomes[i] = expect(Outcome(cases[i], Grade(SKIPPED, message=reason)))
    to_run = [i for i, reason in listed.items() if not reason]
    try:
        if to_run:
            runner.start()
            for i, outcome in zip(to_run, runner.run_all([cases[i] for i in to_run], expect)):
                outcomes[i] = outcome
    finally:
        runner.close()
    expected = None if xfail is None else {"file": xfail_path, "strict": strict,
                                           "unused": xfail_file.unused(xfail, suite_ids or [c.id for c in cases])}
    return RunResult(suite=suite, command=runner.argv, info=runner.info, start_error=runner.start_error,
                     outcomes=[outcomes[i] for i in range(len(cases))], restarts=runner.restarts,
                     stderr=runner.stderr, duration=time.monotonic() - began,
                     judged_by_readings=runner.judge_by_readings, xfail=expected, stopped=runner.stopped,
                     date=date)
