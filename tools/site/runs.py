"""The runs a report site is built from, read into one shape.

Two kinds of file are read:

- a conformance report (`canastra conformance --format json`, format
  "canastra-conformance-report"): every case with its status, message and
  mismatches (expected versus actual); its reading profile is computed here
  from the suite's cases (`canastra_conformance.profile`);
- a saved implementation run (docs/implementations/*.json, format
  "canastra-implementation-run", canastra_tools.saved_runs): the status and
  articles of every case sent, what the engine answered to those that did
  not pass (since its version 2), the engine's commit and its profile; the
  cases it does not list were not sent (skipped).

Everything a run says about the implementation (name, version, homepage,
messages, states) is the implementation's own text: pages escape it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from canastra_conformance.compare import checked_report, read_json
from canastra_conformance.grading import SKIPPED
from canastra_conformance.results import FORMAT as REPORT_FORMAT
from canastra_conformance.results import STATUSES
from canastra_ref.errors import CanastraError

from ..saved_runs import FORMAT as SAVED_FORMAT
from ..saved_runs import READABLE_VERSIONS as SAVED_VERSIONS
from ..saved_runs import case_records


@dataclass
class Run:
    path: str                       # the file it was read from
    kind: str                       # "report" | "saved"
    implementation: dict            # as the implementation declared it at start
    commit: str | None              # the implementation's commit, as it or the saved run declares it
    suite: dict                     # {version, digest, cases, commit?}
    date: str | None                # when it ran (ISO 8601), where the file says
    declared: dict                  # ruleset -> dispute -> reading, as declared at start
    rulesets: list[str]             # the rulesets it claims
    cases: dict                     # fixture id -> record {status, articles, message?, mismatches?, ...}
    detailed: bool                  # whether the records keep the answers (message, mismatches) of failures
    summary: dict
    profile: dict | None = None     # canastra_conformance.profile JSON form
    report: dict | None = field(default=None, repr=False)    # the conformance report itself, when it is one
    key: str = ""                   # its name in the site's URLs (unique)

    @property
    def name(self) -> str:
        return str(self.implementation.get("name") or "?")

    @property
    def version(self) -> str:
        return str(self.implementation.get("version") or "")

    @property
    def label(self) -> str:
        return f"{self.name} {self.version}".strip()

    def comparable(self) -> dict:
        """The run as `canastra_conformance.compare.compare` reads it."""
        return {"implementation": self.implementation, "suite": self.suite, "summary": self.summary,
                "cases": self.cases}


def expand(paths: list[str]) -> list[str]:
    """The run files given: a directory stands for the runs among its *.json files
    (docs/implementations/ holds runs and other files side by side)."""
    out = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = [str(p) for p in sorted(path.glob("*.json")) if _format(p) in (SAVED_FORMAT, REPORT_FORMAT)]
            if not found:
                raise CanastraError(f"{given} holds no run", expected="*.json conformance reports or saved runs")
            out += found
        else:
            out.append(given)
    return out


def _format(path: Path) -> str | None:
    try:
        data = read_json(str(path))
    except CanastraError:
        return None
    return data.get("format") if isinstance(data, dict) else None


def read(path: str) -> Run:
    data = read_json(path)
    kind = data.get("format") if isinstance(data, dict) else None
    if kind == SAVED_FORMAT:
        return _saved(path, data)
    if kind == REPORT_FORMAT:
        return _report(path, checked_report(data, path))
    raise CanastraError(f"{path} is neither a conformance report nor a saved implementation run",
                        expected="the output of 'canastra conformance --format json', or a file of "
                                 "docs/implementations/ (format canastra-implementation-run)")


def _report(path: str, data: dict) -> Run:
    implementation = _mapping(data.get("implementation"))
    declared = {str(r): {str(d): str(x) for d, x in _mapping(chosen).items()}
                for r, chosen in _mapping(data.get("readings")).items()}
    cases = {case_id: _record(record) for case_id, record in data["cases"].items()}
    report = {**data, "cases": cases, "readings": declared, "implementation": implementation}
    rulesets = data.get("rulesets") if isinstance(data.get("rulesets"), list) else []
    return Run(path=path, kind="report", implementation=implementation, commit=_text(implementation.get("commit")),
               suite=_mapping(data.get("suite")), date=_text(data.get("date")), declared=declared,
               rulesets=[str(r) for r in rulesets], cases=cases, detailed=True,
               summary=_mapping(data.get("summary")), report=report)


def _mapping(value) -> dict:
    return dict(value) if isinstance(value, dict) else {}


def _record(record: dict) -> dict:
    """A report's case record with only the parts the site reads, each of the
    shape it expects (a report is an implementation's run: its file may say anything)."""
    out = {"status": record["status"],
           "articles": [str(a) for a in record.get("articles", [])] if isinstance(record.get("articles"), list) else []}
    if record.get("outcome") in STATUSES:
        out["outcome"] = record["outcome"]
    for key in ("message", "stderr"):
        if record.get(key) is not None:
            out[key] = str(record[key])
    for key in ("mismatches", "citation_mismatches"):
        items = record.get(key)
        if isinstance(items, list):
            out[key] = [{"path": str(m.get("path")), "expected": m.get("expected"), "actual": m.get("actual")}
                        for m in items if isinstance(m, dict)]
    if isinstance(record.get("xfail"), dict):
        out["xfail"] = {k: str(v) for k, v in record["xfail"].items()}
    if isinstance(record.get("other_reading"), list):
        out["other_reading"] = [{k: str(c.get(k)) for k in ("dispute", "assumes", "declared")}
                                for c in record["other_reading"] if isinstance(c, dict)]
    return out


def _saved(path: str, data: dict) -> Run:
    version = data.get("format_version")
    if version not in SAVED_VERSIONS:
        raise CanastraError(f"{path} is a saved implementation run of format version {version!r}",
                            expected=f"version {' or '.join(map(str, SAVED_VERSIONS))}, the ones this canastra-spec "
                                     "reads (a later version needs a later canastra-spec)")
    try:
        engine, spec = data["engine"], data["canastra_spec"]
        cases = {case_id: _record(record) for case_id, record in case_records(data).items()}
        bad = next((i for i, r in cases.items() if r["status"] not in STATUSES), None)
        if bad is not None:
            raise ValueError(f"case {bad!r}: status {cases[bad]['status']!r}")
        profile = data["profile"]
    except KeyError as exc:
        raise CanastraError(f"{path}: not a valid saved implementation run: it has no {exc}") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise CanastraError(f"{path}: not a valid saved implementation run: {exc}") from None
    suite = {"version": spec.get("version") or (profile.get("suite") or {}).get("version"),
             "digest": spec.get("digest"), "cases": spec.get("cases"), "commit": spec.get("commit")}
    return Run(path=path, kind="saved", implementation=engine.get("implementation") or {},
               commit=_text(engine.get("commit")), suite=suite, date=_text(data.get("date")),
               declared=profile.get("declared") or {}, rulesets=list(engine.get("rulesets") or []),
               cases=cases, detailed=version >= 2, summary=data.get("summary") or {}, profile=profile)


def _text(value) -> str | None:
    return None if value is None else str(value)


def complete(run: Run, suite_cases: list) -> None:
    """Fill in what a run leaves out: the cases a saved run did not send are
    skipped; a report's profile is computed from the suite's cases."""
    for case in suite_cases:
        if case.id not in run.cases and run.kind == "saved":
            run.cases[case.id] = {"status": SKIPPED, "articles": list(case.articles), "unsent": True}
    if run.profile is None:
        from canastra_conformance.profile import profile
        run.profile = profile(run.report, suite_cases)


def slug(text: str) -> str:
    """A file-name-safe form of any text (an implementation's name may hold anything)."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")[:60] or "run"


def name_runs(runs: list[Run]) -> None:
    """Give every run a unique key for its pages: its name and version, made safe."""
    seen: dict[str, int] = {}
    for run in runs:
        base = slug(run.label)
        seen[base] = seen.get(base, 0) + 1
        run.key = base if seen[base] == 1 else f"{base}-{seen[base]}"
