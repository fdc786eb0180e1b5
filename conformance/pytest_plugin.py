"""pytest plugin: the conformance suite as test items, one per case, in any
repository (registered through the `pytest11` entry point).

    pytest --canastra-impl "python my_adapter.py"                 # the installed suite
    pytest --canastra-impl "./adapter" --canastra-ruleset cbc     # one ruleset (repeatable)
    pytest --canastra-impl "./adapter" --canastra-fixtures=DIR    # fixtures of your own
    pytest --canastra-impl "./adapter" --canastra-xfail known-failures.yaml
    pytest --canastra-impl "canastra serve" -m canastra --junitxml report.xml

Nothing is collected without --canastra-impl: the plugin stays out of the way
of a repository's own tests. With it, the suite is collected beside them,
from the fixtures installed with canastra-spec (or DIR, laid out as
DIR/<ruleset>/*.yaml), and run through the protocol of PROTOCOL.md against
the implementation's adapter, started once for the session. Items are named
canastra/<ruleset>/<file>::<fixture id> (JUnit: class canastra.<ruleset>.<file>,
test <fixture id>) and marked `canastra`. Behaviour failures and errors fail
the item; skipped cases skip it, and so do cases written under readings other
than those the implementation declares (other-reading); a citation miss is a
warning (a failure with --canastra-strict-cites). --canastra-xfail FILE marks
the cases an expected-failures file lists (the format of `canastra
conformance --xfail`, canastra_conformance/xfail.py) as strict xfail: a
listed case that fails is xfailed, one that passes fails the session
(XPASS(strict)) unless --canastra-xfail-non-strict. With PYTEST_DISABLE_PLUGIN_AUTOLOAD set, load it
with `-p canastra_conformance.pytest_plugin`; `-p no:canastra_conformance.pytest_plugin`
turns it off.
"""
from __future__ import annotations

import shlex
import warnings
from pathlib import Path

import pytest

from canastra_ref.errors import CanastraError, ErrorList

from .paths import FIXTURES_DIR
from .policy import DEFAULT_TIMEOUT

ROOT = "canastra"               # the first part of every node id, and the marker
_RUNNER = pytest.StashKey()
_XFAIL = pytest.StashKey()


class CitationWarning(UserWarning):
    """A case whose behaviour passed without citing the expected articles."""


class CaseFailed(Exception):
    """The case failed or errored; the message says how (no traceback shown)."""


def pytest_addoption(parser) -> None:
    group = parser.getgroup("canastra", "canastra-spec conformance suite")
    group.addoption("--canastra-impl", metavar="COMMAND", default=None,
                    help="run the conformance suite against the adapter this command starts (split like a "
                         "shell would; the reference is 'canastra serve'); without it nothing is collected")
    group.addoption("--canastra-ruleset", action="append", metavar="R", default=None,
                    help="only the cases of this ruleset (repeatable)")
    group.addoption("--canastra-fixtures", metavar="DIR", default=None,
                    help="the fixture directory, DIR/<ruleset>/*.yaml (default: the suite installed with "
                         "canastra-spec)")
    group.addoption("--canastra-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                    help=f"seconds allowed for each answer (default {DEFAULT_TIMEOUT:g})")
    group.addoption("--canastra-strict-cites", action="store_true",
                    help="fail a case whose answer does not cite the expected articles")
    group.addoption("--canastra-xfail", metavar="FILE", default=None,
                    help="expected failures: a YAML mapping of fixture id (or glob) to the reason (the format "
                         "of 'canastra conformance --xfail'); listed cases are strict xfail")
    group.addoption("--canastra-xfail-non-strict", action="store_true",
                    help="with --canastra-xfail: a listed case that passes does not fail the session")


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", f"{ROOT}: a case of the canastra-spec conformance suite")
    if config.getoption("canastra_impl") is None:
        used = [name for name in ("--canastra-ruleset", "--canastra-fixtures", "--canastra-xfail")
                if config.getoption(name.lstrip("-").replace("-", "_"))]
        if used:
            raise pytest.UsageError(f"{used[0]} goes with --canastra-impl COMMAND (the implementation to run)")
        return
    if config.getoption("canastra_ruleset"):
        _check_rulesets(config.getoption("canastra_ruleset"), _fixtures_dir(config))
    path = config.getoption("canastra_xfail")
    if not path:
        if config.getoption("canastra_xfail_non_strict"):
            raise pytest.UsageError("--canastra-xfail-non-strict needs --canastra-xfail FILE")
        return
    from .xfail import read
    try:
        config.stash[_XFAIL] = read(path)
    except (CanastraError, ErrorList) as exc:
        raise pytest.UsageError(exc.render()) from None


def pytest_report_header(config) -> str | None:
    impl = config.getoption("canastra_impl")
    if impl is None:
        return None
    return f"canastra implementation: {impl}; fixtures: {_fixtures_dir(config)}"


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """The suite joins whatever else the session collects."""
    report = yield
    if isinstance(collector, pytest.Session) and report.passed and collector.config.getoption("canastra_impl"):
        report.result.append(Suite.from_parent(collector, name=ROOT, nodeid=ROOT))
    return report


def pytest_unconfigure(config) -> None:
    runner = config.stash.get(_RUNNER, None)
    if runner is not None:
        runner.close()


def _fixtures_dir(config) -> Path:
    given = config.getoption("canastra_fixtures")
    return Path(given) if given else FIXTURES_DIR


class Suite(pytest.Collector):
    """The fixture files, one collector each."""

    def collect(self):
        directory = _fixtures_dir(self.config)
        if not directory.is_dir():
            raise self.CollectError(f"no fixture directory at {directory}")
        for path in sorted(directory.rglob("*.yaml")):
            relative = path.relative_to(directory).with_suffix("").as_posix()
            yield FixtureFile.from_parent(self, path=path, name=relative, nodeid=f"{ROOT}/{relative}")


def _check_rulesets(rulesets: list[str], directory: Path) -> None:
    from canastra_ref.dsl.loader import available
    known = set(available()) | ({p.name for p in directory.iterdir() if p.is_dir()} if directory.is_dir() else set())
    unknown = [r for r in rulesets if r not in known]
    if unknown:
        raise pytest.UsageError(f"--canastra-ruleset: unknown ruleset '{unknown[0]}'; "
                                f"expected one of: {', '.join(sorted(known))}")


class FixtureFile(pytest.File):
    def collect(self):
        from .fixtures import load_file
        try:
            cases = load_file(self.path)
        except (ErrorList, CanastraError) as exc:
            raise self.CollectError(exc.render()) from None
        from .xfail import entry_for
        rulesets = self.config.getoption("canastra_ruleset")
        entries = self.config.stash.get(_XFAIL, [])
        strict = not self.config.getoption("canastra_xfail_non_strict")
        for case in cases:
            if rulesets and case.ruleset not in rulesets:
                continue
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
        self.add_marker(ROOT)
        for tag in case.requires:
            self.user_properties.append(("requires", tag))
        self.user_properties.append(("ruleset", case.ruleset))
        self.user_properties.append(("articles", " ".join(case.articles)))

    def runtest(self) -> None:
        from .grading import ERRORED, FAILED, OTHER_READING, SKIPPED
        outcome = self._runner().run(self.case)
        grade = outcome.grade
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
            if outcome.stderr.strip():
                lines += ["  stderr:"] + [f"  | {line}" for line in outcome.stderr.rstrip().splitlines()]
            raise CaseFailed("\n".join(lines))
        if grade.citations:
            text = f"{self.case.id}: " + "; ".join(map(str, grade.citations))
            if self.config.getoption("canastra_strict_cites"):
                raise CaseFailed(f"citations: {text}")
            warnings.warn(CitationWarning(text), stacklevel=1)

    def _runner(self):
        """The implementation, started at the first case and kept for the session."""
        from .runner import Runner
        runner = self.config.stash.get(_RUNNER, None)
        if runner is None:
            command = self.config.getoption("canastra_impl")
            try:
                argv = shlex.split(command)
            except ValueError as exc:
                raise pytest.UsageError(f"--canastra-impl is not a valid command line: {exc}") from None
            if not argv:
                raise pytest.UsageError("--canastra-impl is empty; give the command starting your adapter")
            runner = Runner(argv, timeout=self.config.getoption("canastra_timeout"))
            self.config.stash[_RUNNER] = runner
        return runner

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, self.case.line - 1, f"{self.case.ruleset}: {self.case.id}"
