"""pytest plugin: the YAML fixtures as test items, one per case, named by its id.

    pytest conformance/                                        # the reference, in-process
    pytest conformance/ --canastra-impl "python my_adapter.py" # any implementation, through the protocol
    pytest conformance/ -k opening --canastra-strict-cites
    pytest conformance/ --canastra-impl "..." --canastra-xfail known-failures.yaml

conformance/conftest.py loads it for `pytest conformance/`; elsewhere use
`pytest -p canastra_conformance.pytest_plugin DIR`. The YAML files collected
are those under the fixture directory (conformance/fixtures, or
$CANASTRA_FIXTURES_DIR). Behaviour failures and errors fail the item,
skipped cases skip it, and so do cases written under readings other than
those the implementation declares (other-reading); a citation miss is a
warning (a failure with --canastra-strict-cites). --canastra-xfail FILE marks
the cases an expected-failures file lists (the format of `canastra
conformance --xfail`, canastra_conformance/xfail.py) as strict xfail: a
listed case that fails is xfailed, one that passes fails the session
(XPASS(strict)) unless --canastra-xfail-non-strict.
"""
from __future__ import annotations

import shlex
import warnings
from pathlib import Path

import pytest

from canastra_ref.errors import CanastraError, ErrorList

from .grading import ERRORED, FAILED, OTHER_READING, SKIPPED, Grade
from .paths import FIXTURES_DIR
from .policy import DEFAULT_TIMEOUT

__all__ = ["pytest_addoption", "pytest_configure", "pytest_collect_file", "pytest_report_header",
           "pytest_unconfigure"]

_RUNNER = pytest.StashKey()
_XFAIL = pytest.StashKey()


class CitationWarning(UserWarning):
    """A case whose behaviour passed without citing the expected articles."""


class CaseFailed(Exception):
    """The case failed or errored; the message says how (no traceback shown)."""


def pytest_addoption(parser) -> None:
    group = parser.getgroup("canastra", "canastra-spec conformance fixtures")
    group.addoption("--canastra-impl", metavar="COMMAND", default=None,
                    help="run the fixtures against this implementation's adapter, through the protocol "
                         "(default: the reference, in-process)")
    group.addoption("--canastra-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                    help=f"seconds allowed for each answer with --canastra-impl (default {DEFAULT_TIMEOUT:g})")
    group.addoption("--canastra-strict-cites", action="store_true",
                    help="fail a case whose answer does not cite the expected articles")
    group.addoption("--canastra-xfail", metavar="FILE", default=None,
                    help="expected failures: a YAML mapping of fixture id (or glob) to the reason (the format "
                         "of 'canastra conformance --xfail'); listed cases are strict xfail")
    group.addoption("--canastra-xfail-non-strict", action="store_true",
                    help="with --canastra-xfail: a listed case that passes does not fail the session")


def pytest_configure(config) -> None:
    path = config.getoption("canastra_xfail", None)
    if not path:
        if config.getoption("canastra_xfail_non_strict", False):
            raise pytest.UsageError("--canastra-xfail-non-strict needs --canastra-xfail FILE")
        return
    from .xfail import read
    try:
        config.stash[_XFAIL] = read(path)
    except (CanastraError, ErrorList) as exc:
        raise pytest.UsageError(exc.render()) from None


def pytest_report_header(config) -> str:
    impl = config.getoption("canastra_impl", None)
    return f"canastra implementation: {impl or 'the reference, in-process'}; fixtures: {FIXTURES_DIR}"


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == ".yaml" and _within(file_path, FIXTURES_DIR):
        return FixtureFile.from_parent(parent, path=file_path)
    return None


def pytest_unconfigure(config) -> None:
    runner = config.stash.get(_RUNNER, None)
    if runner is not None:
        runner.close()


def _within(path: Path, directory: Path) -> bool:
    try:
        path.resolve().relative_to(Path(directory).resolve())
        return True
    except ValueError:
        return False


class FixtureFile(pytest.File):
    def collect(self):
        from .fixtures import load_file
        try:
            cases = load_file(self.path)
        except ErrorList as exc:
            raise self.CollectError(exc.render()) from None
        except CanastraError as exc:
            raise self.CollectError(exc.render()) from None
        from .xfail import entry_for
        entries = self.config.stash.get(_XFAIL, [])
        strict = not self.config.getoption("canastra_xfail_non_strict")
        for case in cases:
            item = CaseItem.from_parent(self, name=case.id, case=case)
            entry = entry_for(case.id, entries)
            if entry is not None:
                item.add_marker(pytest.mark.xfail(reason=f"{entry.reason} ({entry.where})", strict=strict,
                                                  raises=CaseFailed))
            yield item


class CaseItem(pytest.Item):
    def __init__(self, *, case, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        for tag in case.requires:
            self.user_properties.append(("requires", tag))
        self.user_properties.append(("ruleset", case.ruleset))

    def runtest(self) -> None:
        grade, stderr = self._grade()
        if grade.status == SKIPPED:
            pytest.skip(grade.message or "skipped")
        if grade.status == OTHER_READING:
            pytest.skip(f"other reading: {grade.message}")
        if grade.status in (FAILED, ERRORED):
            lines = [f"{grade.status}: {self.case.id} ({self.case.where()})"]
            lines += [f"  {line}" for line in self.case.description.strip().splitlines()]
            lines += [f"  {m}" for m in grade.behaviour]
            if grade.message:
                lines.append(f"  {grade.message}")
            if stderr.strip():
                lines += ["  stderr:"] + [f"  | {line}" for line in stderr.rstrip().splitlines()]
            raise CaseFailed("\n".join(lines))
        if grade.citations:
            text = f"{self.case.id}: " + "; ".join(map(str, grade.citations))
            if self.config.getoption("canastra_strict_cites"):
                raise CaseFailed(f"citations: {text}")
            warnings.warn(CitationWarning(text))

    def _grade(self) -> tuple[Grade, str]:
        command = self.config.getoption("canastra_impl")
        if not command:
            from .inprocess import run_case
            return run_case(self.case)[1], ""
        outcome = self._runner(command).run(self.case)
        return outcome.grade, outcome.stderr

    def _runner(self, command: str):
        from .runner import Runner
        runner = self.config.stash.get(_RUNNER, None)
        if runner is None:
            try:
                argv = shlex.split(command)
            except ValueError as exc:
                raise pytest.UsageError(f"--canastra-impl is not a valid command line: {exc}") from None
            runner = Runner(argv, timeout=self.config.getoption("canastra_timeout"))
            self.config.stash[_RUNNER] = runner
        return runner

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, self.case.line - 1, f"{self.case.ruleset}: {self.case.id}"
