"""Choosing the cases of a run (--ruleset, --article, --id, --skip) and
running them in order against one implementation."""
from __future__ import annotations

import fnmatch
import time
from pathlib import Path

from canastra_ref.dsl.loader import available
from canastra_ref.errors import CanastraError

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
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CanastraError(f"cannot read the skip file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CanastraError(f"the skip file {path} is not UTF-8 text") from None
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
              on_outcome=None) -> RunResult:
    """Start the implementation (unless already spawned), run every case
    (those of the skip list are skipped without being sent), stop it. Always
    completes; the outcomes keep the order of the cases."""
    began = time.monotonic()
    listed = {i: skip_reason(case, skip, skip_path) for i, case in enumerate(cases)}
    outcomes: dict[int, Outcome] = {}
    for i, reason in listed.items():
        if reason:
            outcomes[i] = Outcome(cases[i], Grade(SKIPPED, message=reason))
            if on_outcome:
                on_outcome(outcomes[i])
    to_run = [i for i, reason in listed.items() if not reason]
    try:
        if to_run:
            runner.start()
            for i, outcome in zip(to_run, runner.run_all([cases[i] for i in to_run], on_outcome)):
                outcomes[i] = outcome
    finally:
        runner.close()
    return RunResult(suite=suite, command=runner.argv, info=runner.info, start_error=runner.start_error,
                     outcomes=[outcomes[i] for i in range(len(cases))], restarts=runner.restarts,
                     stderr=runner.stderr, duration=time.monotonic() - began)
