"""The behavioural diff: table situations that two rulesets rule differently.

For every difference the semantic diff reports (tools.diff), look for a
*witness*: a situation that fits both tables, that the two sides rule
differently (verdict, reason, score, the table afterwards, or a query
result), and in which that setting is a cause: taking just that setting from
the other side (tools.hybrid) changes the ruling. Sources of situations:

1. the fixtures of each side (conformance/fixtures/<ruleset>/), run under the
   other ruleset where the state fits both tables;
2. a Hypothesis search over the families of tools.probes that reach the
   setting, shrunk to a minimal situation by `hypothesis.find`.

A difference without a witness gets the reason none can exist (only
citations differ; the clauses that differ cannot apply at these tables; the
engine never consults the setting) or, failing that, the size of the search
that found none. Witnesses can be written as fixture-shaped YAML
(tools.witness).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from canastra_conformance.paths import FIXTURES_DIR
from canastra_ref.errors import CanastraError, ErrorList
from canastra_ref.paths import package_dir

from . import hybrid, probes
from . import situation as situations
from . import witness as witness_files
from .diff import CITES_ONLY, DEAD_ONLY, Diff, SettingDiff, compare
from .sides import Side


@dataclass
class Witness:
    situation: dict
    origin: str                      # "fixture <id>" or "search (<family>)"
    family: str
    a: situations.Outcome
    b: situations.Outcome
    paths: list[str] = field(default_factory=list)     # differences it witnesses
    file: str | None = None
    strict: bool = True              # the setting alone accounts for the difference shown

    def to_json(self) -> dict:
        return {"origin": self.origin, "settings": self.paths, "alone": self.strict,
                "situation": self.situation, "differs_in": changed(self.a, self.b),
                "a": self.a.to_json(), "b": self.b.to_json(), "file": self.file}


@dataclass
class Finding:
    setting: SettingDiff
    witness: Witness | None = None
    reason: str | None = None

    def to_json(self) -> dict:
        return {"setting": self.setting.path, "concept": self.setting.concept, "status": self.setting.status,
                "witness": self.witness.origin if self.witness else None,
                "file": self.witness.file if self.witness else None, "reason": self.reason}


@dataclass
class Report:
    diff: Diff
    findings: list[Finding]
    witnesses: list[Witness]
    other: list[Witness]            # fixture situations ruled differently by no single setting
    fixtures_run: int = 0
    fixtures_skipped: int = 0
    budget: int = 0

    def to_json(self) -> dict:
        return {"a": self.diff.a.label, "b": self.diff.b.label, "budget": self.budget,
                "fixtures": {"run": self.fixtures_run, "did_not_fit": self.fixtures_skipped},
                "findings": [f.to_json() for f in self.findings],
                "witnesses": [w.to_json() for w in self.witnesses],
                "other": [w.to_json() for w in self.other]}


# ------------------------------------------------------------------ reasons

_ENGINE_SOURCES = [package_dir("canastra_ref.engine"), package_dir("canastra_ref") / "protocol.py"]


def engine_reads(path: str) -> bool:
    """Whether the reference engine consults a setting at all: its source
    names the path as a string, or its pattern as an f-string whose
    placeholders stand for the kind, card or class (f"meld.{kind.name}.shape")."""
    from canastra_ref.dsl import settings as registry
    text = _engine_text()
    if f'"{path}"' in text:
        return True
    setting = registry.find(path)
    if setting is None or "<" not in setting.pattern:
        return False
    literal = re.escape(setting.pattern)
    for placeholder in ("<kind>", "<card>", "<class>"):
        literal = literal.replace(re.escape(placeholder), r"\{[^}]+\}")
    return re.search(r'f"' + literal + '"', text) is not None


_TEXT: list[str] = []


def _engine_text() -> str:
    if not _TEXT:
        chunks = []
        for source in _ENGINE_SOURCES:
            files = sorted(source.glob("*.py")) if source.is_dir() else [source]
            chunks += [f.read_text(encoding="utf-8") for f in files]
        _TEXT.append("\n".join(chunks))
    return _TEXT[0]


def same_text(s: SettingDiff) -> bool:
    """Both sides write the setting alike: it differs only through the facts
    their tables fix (the size of the teams)."""
    if s.path.startswith("("):
        return False
    written = lambda v: sorted(c.written for c in v.clauses + v.dead)  # noqa: E731
    return bool(s.a.clauses or s.a.dead) and written(s.a) == written(s.b)


def _largest_meld(model, kind: str) -> int | None:
    """The most cards a meld of this kind can ever hold at this table, when the
    model says so without reading facts: a sequence one card per rank, a set
    every copy of its ranks plus its wild cards."""
    rules = model.settings.get(f"meld.{kind}.ranks")
    if rules is None or rules.constant is None:
        return None
    ranks, shape = rules.constant.value, model.value(f"meld.{kind}.shape")
    if shape == "sequence":
        return len(ranks)
    wilds = model.settings.get(f"meld.{kind}.max_wilds")
    if shape == "set" and (wilds is None or wilds.constant is not None):
        return 4 * model.value("deck.decks") * len(ranks) + (model.value(f"meld.{kind}.max_wilds") or 0)
    return None


def _limit_reason(s: SettingDiff, a, b) -> str | None:
    parts = s.path.split(".")
    if len(parts) != 3 or parts[0] != "meld" or parts[2] != "max_cards":
        return None
    kind = parts[1]
    if kind not in a.meld_kinds or kind not in b.meld_kinds:
        return None
    bounds = [_largest_meld(m, kind) for m in (a, b)]
    limits = [m.value(s.path) for m in (a, b)]
    if None in bounds:
        return None
    if all(limit is None or limit >= max(bounds) for limit in limits):
        return (f"the limit cannot bind: a '{kind}' meld holds at most {max(bounds)} cards at these tables "
                f"(its ranks, the copies in the deck and its wild cards), and neither side's limit is lower")
    return None


def static_reason(s: SettingDiff, a=None, b=None) -> str | None:
    if s.status == CITES_ONLY:
        return "only the citations differ: every situation gets the same ruling, citing other articles"
    if s.status == DEAD_ONLY:
        dead = [c.text for v in (s.a, s.b) for c in v.dead]
        return ("the clauses that differ cannot apply at these tables, so no situation reaches them: "
                + "; ".join(dead))
    if not s.path.startswith("(") and not engine_reads(s.path):
        return ("the engine never consults this setting (it is recorded for people, not decided at the "
                "table), so no situation of the protocol can show it")
    if a is not None and b is not None:
        return _limit_reason(s, a, b)
    return None


# ------------------------------------------------------------------- search

class Judge:
    """Runs situations under both sides and the hybrids, with caching."""

    def __init__(self, a: Side, b: Side):
        self.a, self.b = a, b
        self.ea, self.eb = hybrid.engine(a.model), hybrid.engine(b.model)
        self._hybrids: dict[tuple[str, str], object] = {}
        self._runs: dict[tuple, situations.Outcome] = {}
        self.same_text: set[str] = set()      # settings written alike, differing through the table

    def hybrid_engine(self, path: str, toward: str):
        key = (path, toward)
        if key not in self._hybrids:
            base, other = (self.a.model, self.b.model) if toward == "b" else (self.b.model, self.a.model)
            try:
                self._hybrids[key] = hybrid.engine(hybrid.swap(base, other, path))
            except (CanastraError, ErrorList, KeyError, ValueError, TypeError):
                self._hybrids[key] = None
        return self._hybrids[key]

    def run(self, engine, sit: dict, tag) -> situations.Outcome:
        key = (tag, json.dumps(sit, sort_keys=True))
        if key not in self._runs:
            if len(self._runs) > 50000:
                self._runs.clear()
            try:
                self._runs[key] = situations.run(engine, sit)
            except (CanastraError, ErrorList) as exc:
                self._runs[key] = situations.Outcome("actions", fits=False, error=str(exc))
        return self._runs[key]

    def sides(self, sit: dict):
        return self.run(self.ea, sit, "a"), self.run(self.eb, sit, "b")

    def differs(self, sit: dict) -> bool:
        oa, ob = self.sides(sit)
        if not (oa.fits and ob.fits) or oa.error or ob.error:
            return False
        return oa.behaviour() != ob.behaviour()

    def decided_differently(self, path: str, sit: dict) -> bool:
        """Both sides consulted the setting and decided it differently (for
        settings whose clauses read the same but apply to different tables)."""
        oa, ob = self.sides(sit)
        ca, cb = oa.consulted(), ob.consulted()
        return path in ca and path in cb and ca[path] != cb[path]

    def explains(self, path: str, sit: dict, strict: bool = True) -> bool:
        """Taking `path` alone from the other side changes a side's ruling;
        strictly: it changes it only in parts where the two sides differ, and
        into what the other side rules there (the setting alone accounts for
        that part of the difference)."""
        if path in self.same_text:
            return self.decided_differently(path, sit)
        oa, ob = self.sides(sit)
        for toward, base, other in (("b", oa, ob), ("a", ob, oa)):
            engine = self.hybrid_engine(path, toward)
            if engine is None:
                continue
            out = self.run(engine, sit, (path, toward))
            if not out.fits or out.error:
                continue
            moved = changed(base, out)
            if not moved:
                continue
            if not strict:
                return True
            target = other.components()
            mine = out.components()
            if all(mine.get(k) == target.get(k) for k in moved):
                return True
        return False

    def witnesses(self, path: str, sit: dict, strict: bool = True) -> bool:
        try:
            return self.differs(sit) and self.explains(path, sit, strict)
        except (CanastraError, ErrorList, KeyError, IndexError, ValueError, TypeError, AttributeError):
            return False


def changed(x: situations.Outcome, y: situations.Outcome) -> list[str]:
    """The parts of two rulings that differ."""
    cx, cy = x.components(), y.components()
    return [k for k in dict.fromkeys(list(cx) + list(cy)) if cx.get(k) != cy.get(k)]


def search(judge: Judge, path: str, family: str, budget: int, strict: bool = True) -> dict | None:
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample
    strategy = probes.FAMILIES[family]()
    config = settings(max_examples=budget, database=None, derandomize=True, deadline=None,
                      phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))
    try:
        return find(strategy, lambda sit: judge.witnesses(path, sit, strict), settings=config)
    except NoSuchExample:
        return None


# --------------------------------------------------------------- fixtures

def fixture_situations(side: Side, directory: Path = FIXTURES_DIR):
    """(case, situation) for each fixture case of the side's ruleset whose
    assumed readings are the side's readings. Files that do not load are skipped."""
    from canastra_conformance.fixtures import load_file
    folder = Path(directory) / side.ruleset
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
        try:
            cases = load_file(path)
        except (CanastraError, ErrorList, OSError):
            continue
        for case in cases:
            wanted = {d: side.model.readings.get(d) for d in case.reading}
            if case.ruleset != side.ruleset or wanted != dict(case.reading):
                continue
            if case.query is not None:
                yield case, {"query": case.query}
            else:
                yield case, {"state": case.state or {}, "actions": case.actions}


# ------------------------------------------------------------------ driver

def behaviour(a: Side, b: Side, budget: int = 150, fixtures_dir: Path = FIXTURES_DIR,
              progress=None) -> Report:
    diff = compare(a, b)
    judge = Judge(a, b)
    judge.same_text = {s.path for s in diff.differences if same_text(s)}
    findings = [Finding(s) for s in diff.differences]
    for f in findings:
        f.reason = static_reason(f.setting, a.model, b.model)
    report = Report(diff, findings, [], [], budget=budget)
    open_ = lambda: [f for f in findings if f.witness is None and f.reason is None]  # noqa: E731

    def attach(w: Witness, strict: bool = True) -> bool:
        for f in open_():
            if judge.explains(f.setting.path, w.situation, strict):
                f.witness = w
                w.paths.append(f.setting.path)
        w.strict = strict
        if w.paths:
            report.witnesses.append(w)
        return bool(w.paths)

    differing = []
    for side in (a, b):
        for case, sit in fixture_situations(side, fixtures_dir):
            oa, ob = judge.sides(sit)
            if not (oa.fits and ob.fits):
                report.fixtures_skipped += 1
                continue
            report.fixtures_run += 1
            if oa.error or ob.error or oa.behaviour() == ob.behaviour():
                continue
            differing.append(Witness(sit, f"fixture {case.id}", "fixture:" + ",".join(case.requires), oa, ob))
    differing.sort(key=lambda w: len(json.dumps(w.situation)))     # the smallest situations witness first
    leftover = [w for w in differing if not attach(w)]
    for strict in (True, False):
        pending = open_()
        for done, f in enumerate(pending, 1):
            if progress:
                progress(f.setting.path, done, len(pending), strict)
            if f.witness is not None:
                continue
            for family in probes.families_for(f.setting.path):
                found = search(judge, f.setting.path, family, budget, strict)
                if found is not None:
                    oa, ob = judge.sides(found)
                    attach(Witness(found, f"search ({family})", family, oa, ob), strict)
                    break
        if strict:
            leftover = [w for w in leftover if not attach(w, strict=False)]
    for w in leftover:
        w.paths = [f.setting.path for f in findings if f.witness and judge.explains(f.setting.path, w.situation, False)]
        w.strict = False
    report.other = leftover
    for f in open_():
        tried = ", ".join(probes.families_for(f.setting.path))
        f.reason = (f"no witness found: {budget} generated situations per family ({tried}), twice, were all "
                    f"ruled alike wherever this setting alone could change a ruling")
    return report


# ------------------------------------------------------------------- files

def write_witnesses(report: Report, out: Path) -> list[Path]:
    a, b = report.diff.a, report.diff.b
    judge_engines = (hybrid.engine(a.model), hybrid.engine(b.model))
    written = []
    pair = f"{witness_files.slug(a.label)}-vs-{witness_files.slug(b.label)}"
    for w in report.witnesses + report.other:
        extra = w in report.other
        topic = witness_files.slug(w.origin.replace("fixture ", "")) if extra else witness_files.slug(w.paths[0])
        name = f"{pair}--{topic}"
        settings = ", ".join(w.paths) or "(no single setting)"
        description_a = f"{a.label} rules {_ruling(w.a, w.b)}; {b.label} rules {_ruling(w.b, w.a)} ({settings})"
        requires = _requires(w)
        fallback = {side: [c for p in w.paths for s in report.diff.settings if s.path == p
                           for c in getattr(s, side).cites] for side in ("a", "b")}
        cases = [witness_files.case(side, engine, w.situation, outcome,
                                    ident=f"{name}--{witness_files.slug(side.label)}",
                                    description=f"behavioural diff witness: {description_a}",
                                    requires=requires, fallback_cites=fallback[key])
                 for side, engine, outcome, key in ((a, judge_engines[0], w.a, "a"), (b, judge_engines[1], w.b, "b"))]
        header = (f"Witness of the behavioural diff `canastra diff {a.label} {b.label} --behaviour`\n"
                  f"settings: {settings}\norigin: {w.origin}\n\n"
                  "The expectations are what the reference engine rules. Check them against the article\n"
                  "text before moving a case into conformance/fixtures/<ruleset>/.")
        folder = Path(out) / "fixtures-ruled-differently" if extra else Path(out)
        path = witness_files.write(folder / f"{name}.yaml", cases, header)
        w.file = str(path)
        written.append(path)
    return written


def _requires(w: Witness) -> list[str]:
    if w.family.startswith("fixture:"):
        return [t for t in w.family[len("fixture:"):].split(",") if t]
    return witness_files.tags_for(w.family, w.situation)


def _ruling(o: situations.Outcome, other: situations.Outcome | None = None) -> str:
    """One line: the verdicts, the score, and (given the other side's ruling)
    the parts of the table afterwards that differ from it."""
    if not o.fits:
        return f"does not fit: {o.error}"
    if o.error:
        return f"error: {o.error}"
    if o.kind == "query" and o.score is None:
        result = o.result
        if other is not None and isinstance(result, dict) and isinstance(other.result, dict):
            result = {k: v for k, v in result.items() if other.result.get(k) != v}   # what differs
        return json.dumps(result, ensure_ascii=False, sort_keys=True)
    parts = [f"{s.verdict} {s.reason}" for s in o.steps]
    if o.score:
        def terms(s):
            nonzero = ", ".join(f"{n} {v:+d}" for n, v in s["terms"].items() if v)
            return f" ({nonzero})" if nonzero and o.kind == "query" else ""
        parts.append("score " + ", ".join(f"{t} {s['total']:+d}{terms(s)}" for t, s in o.score.items()))
    if other is not None and o.table and _same_rulings(o, other):
        for key in changed(o, other):
            if key.startswith("table "):
                parts.append(f"{key[6:]}: {json.dumps(o.table.get(key[6:]), ensure_ascii=False)}")
    return "; ".join(parts)


def _same_rulings(x: situations.Outcome, y: situations.Outcome) -> bool:
    scores = lambda o: {k: v for k, v in o.components().items() if k.startswith("score ")}  # noqa: E731
    return [(s.verdict, s.reason) for s in x.steps] == [(s.verdict, s.reason) for s in y.steps] and \
        scores(x) == scores(y)


ruling = _ruling
