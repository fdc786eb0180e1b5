"""Writing the report site: every page from the runs, the suite and the specs.

Pages (relative to the output directory):

    index.html                          implementations x rulesets, rates under their own readings
    matrix/<ruleset>.html               articles x implementations, filterable by feature and article
    cases/<run>/<ruleset>.html          one run's cases of a ruleset: expected versus actual
    suite/<ruleset>.html                the fixtures of a ruleset as written
    rulebook/<ruleset>.html             the literate rulebook
    disputes/<ruleset>/<dispute>.html   a dispute: readings, engines' readings, rulings
    implementations/<run>.html          a run: provenance, its reading card, its badges
    history/<name>.html                 what changed between the runs of one implementation
    badges/<run>/<ruleset>.json         shields.io endpoint badges (and badges/<run>.json)
    static/                             the style sheet and the filtering script
    .canastra-report                    the files the last build wrote

Rebuilt into the same directory, the site loses the pages of the last build
that this one did not write (a run left out, a dispute renamed); files it
never wrote are left alone. Every page ends with the provenance of the runs it shows. Links are relative,
so the site opens from the file system as from any static host.
"""
from __future__ import annotations

import json
import shutil
from datetime import datetime, timezone
from pathlib import Path

import yaml
from jinja2 import Environment, PackageLoader, StrictUndefined, TemplateError, select_autoescape

from canastra_conformance.fixtures import load_all
from canastra_conformance.paths import FIXTURES_DIR
from canastra_conformance.profile_report import verdict
from canastra_conformance.results import STATUSES, suite_info
from canastra_ref import __version__
from canastra_ref.display import printable
from canastra_ref.dsl.loader import available, load
from canastra_ref.errors import CanastraError

from . import badges, disputes, history, matrix, rulebook
from .runs import Run, complete, expand, name_runs, read, slug

STATIC = Path(__file__).parent / "static"
MANIFEST = ".canastra-report"


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("canastra_tools.site", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      extensions=["jinja2.ext.do"])
    env.filters["shown"] = lambda value: printable("" if value is None else value)
    env.filters["slug"] = slug
    env.filters["verdict"] = verdict           # a dispute's card: "follows R", "not applicable under E=R", ...
    env.filters["yaml"] = lambda value: yaml.safe_dump(value, allow_unicode=True, sort_keys=False,
                                                       default_flow_style=None, width=100).rstrip()
    env.filters["repr"] = lambda value: printable(json.dumps(value, ensure_ascii=False))
    env.filters["safe_url"] = safe_url
    env.globals["STATUSES"] = STATUSES
    return env


def fixture_file(file: str, fixtures: Path) -> str:
    """A fixture file as the site names it: conformance/fixtures/<ruleset>/<file> for the suite's own,
    else relative to the directory given (no path of the machine that built the site)."""
    try:
        relative = Path(file).resolve().relative_to(Path(fixtures).resolve()).as_posix()
    except ValueError:
        return Path(file).name
    return ("conformance/fixtures/" if Path(fixtures).resolve() == FIXTURES_DIR.resolve()
            else f"{Path(fixtures).name}/") + relative


def safe_url(value) -> str | None:
    """A link the implementation gave, only when it is http(s): never javascript: or data:."""
    text = str(value or "").strip()
    return text if text.lower().startswith(("https://", "http://")) and not any(c in text for c in "\"'<> ") else None


class Site:
    def __init__(self, out: Path, runs: list[Run], cases: list, sources: Path | None, situations: list,
                 fixtures: Path = FIXTURES_DIR):
        self.out, self.runs, self.cases, self.sources, self.situations = out, runs, cases, sources, situations
        self.env = _environment()
        self.env.filters["fixture_file"] = lambda file: fixture_file(file, fixtures)
        self.built = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        self.rulesets = [r for r in available() if any(c.ruleset == r for c in cases)]
        self.by_ruleset = {r: [c for c in cases if c.ruleset == r] for r in self.rulesets}
        self.models = {r: load(r) for r in self.rulesets}
        self.histories = history.histories(runs)
        self.pages: list[str] = []

    # ----------------------------------------------------------- writing

    def write(self, path: str, template: str, **context) -> None:
        depth = path.count("/")
        try:
            page = self._render(template, depth, path, context)
        except (TemplateError, TypeError, KeyError, AttributeError) as exc:
            raise CanastraError(f"cannot write {path}: {exc!r}", expected="runs as canastra writes them (is one "
                                "of the files edited by hand?)") from None
        self._save(path, page)

    def _save(self, path: str, text: str) -> None:
        target = self.out / path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CanastraError(f"cannot write {target}: {exc.strerror or exc}") from None
        self.pages.append(path)

    def _render(self, template: str, depth: int, path: str, context: dict) -> str:
        return self.env.get_template(template).render(
            root="../" * depth, path=path, runs=self.runs, built=self.built, version=__version__,
            rulesets=self.rulesets, histories=self.histories, suite=self.suite(), **context)

    def suite(self) -> dict:
        digests = sorted({str(r.suite.get("digest")) for r in self.runs})
        return {"cases": len(self.cases), "digests": digests}

    def build(self) -> list[str]:
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            shutil.copytree(STATIC, self.out / "static", dirs_exist_ok=True)
        except OSError as exc:
            raise CanastraError(f"cannot write the site to {self.out}: {exc.strerror or exc}") from None
        self._save("static/dsl.css", rulebook.stylesheet())
        self.pages.remove("static/dsl.css")
        self.write("index.html", "index.html", rows=matrix.index_rows(self.runs, self.rulesets),
                   models=self.models)
        for ruleset in self.rulesets:
            self.ruleset_pages(ruleset)
        for run in self.runs:
            self.run_pages(run)
        for name, entry in self.histories.items():
            self.write(f"history/{entry['key']}.html", "history.html", name=name, steps=entry["steps"],
                       kinds=history.KINDS)
        self._forget_stale()
        return self.pages

    def _forget_stale(self) -> None:
        """Remove what the last build into this directory wrote and this one did not, then list this
        one's files for the next."""
        manifest = self.out / MANIFEST
        try:
            before = manifest.read_text(encoding="utf-8").splitlines() if manifest.is_file() else []
        except (OSError, UnicodeDecodeError):
            before = []
        root = self.out.resolve()
        for name in sorted(set(before) - set(self.pages)):
            target = (self.out / name).resolve()
            if root not in target.parents or not target.is_file():
                continue                              # only files inside the site, as listed
            target.unlink()
            for folder in target.parents:
                if folder == root or any(folder.iterdir()):
                    break
                folder.rmdir()
        try:
            manifest.write_text("".join(f"{page}\n" for page in sorted(self.pages)), encoding="utf-8")
        except OSError as exc:
            raise CanastraError(f"cannot write {manifest}: {exc.strerror or exc}") from None

    def ruleset_pages(self, ruleset: str) -> None:
        model, cases = self.models[ruleset], self.by_ruleset[ruleset]
        self.write(f"matrix/{ruleset}.html", "matrix.html", ruleset=ruleset, model=model,
                   matrix=matrix.ruleset_matrix(model, cases, self.runs))
        self.write(f"suite/{ruleset}.html", "suite.html", ruleset=ruleset, model=model, cases=cases)
        quotes, note = rulebook.source_quotes(self.sources, model)
        self.write(f"rulebook/{ruleset}.html", "rulebook.html", ruleset=ruleset, model=model,
                   entries=rulebook.entries(model, cases, quotes), unstated=rulebook.unstated(model),
                   sources=self.sources, source_note=note)
        for name, dispute in model.disputes.items():
            on = [c.article for c in dispute.articles]
            self.write(f"disputes/{ruleset}/{slug(name)}.html", "dispute.html", ruleset=ruleset, model=model,
                       dispute=dispute, on=on, quotes={a: quotes.get(a) for a in on},
                       readings=disputes.readings_of(model, name),
                       written={r.name: disputes.written_under(cases, name, r.name) for r in dispute.readings},
                       engines=disputes.engines(self.runs, ruleset, name),
                       rulings=disputes.rulings(model, cases, name),
                       situations=disputes.situation_rulings(self.situations, ruleset, name))

    def run_pages(self, run: Run) -> None:
        cards = (run.profile or {}).get("rulesets", {})
        for ruleset in self.rulesets:
            cases = self.by_ruleset[ruleset]
            order = matrix.article_order(self.models[ruleset], cases)
            groups = [(a, [c for c in cases if a in c.articles]) for a in order]
            self.write(f"cases/{run.key}/{ruleset}.html", "cases.html", run=run, ruleset=ruleset,
                       model=self.models[ruleset], cases=cases, groups=groups,
                       total=matrix.cell([run.cases[c.id] for c in cases if c.id in run.cases]))
            rate = matrix.rate(cards.get(ruleset, {}).get("under", {}).get("profile"))
            self._badge(f"badges/{run.key}/{ruleset}.json", badges.badge(f"canastra {ruleset}", rate))
        near = (run.profile or {}).get("closest")
        overall = badges.badge(f"canastra {near['ruleset']}" if near else "canastra",
                               matrix.rate(cards[near["ruleset"]]["under"]["profile"]) if near else None)
        self._badge(f"badges/{run.key}.json", overall)
        self.write(f"implementations/{run.key}.html", "implementation.html", run=run, cards=cards,
                   rates={r: matrix.rate(cards.get(r, {}).get("under", {}).get("profile")) for r in self.rulesets},
                   models=self.models)

    def _badge(self, path: str, data: dict) -> None:
        self._save(path, json.dumps(data, ensure_ascii=False) + "\n")


def build(paths: list[str], out: Path, *, sources: Path | None = None, situations: list[str] = (),
          fixtures: Path = FIXTURES_DIR, warn=lambda message: None) -> list[str]:
    """Read the runs, build the site in `out`; the paths of the files written.
    `warn(message)` hears of runs made with other fixtures than these."""
    if not paths:
        raise CanastraError("no run given", expected="one or more JSON reports or saved runs")
    if sources is not None and not Path(sources).is_dir():
        raise CanastraError(f"--sources {sources} is not a directory")
    runs = [read(p) for p in expand(paths)]
    cases = load_all(fixtures)
    digest = suite_info(Path(fixtures), len(cases))["digest"]
    for run in runs:
        if run.suite.get("digest") != digest:
            warn(f"{run.path} ran other fixtures (digest {run.suite.get('digest')}; these are {digest}): its "
                 "cases are shown as the fixtures are now, and those it did not run as skipped")
        complete(run, cases)
    name_runs(runs)
    reports = []
    if situations:
        from ..dispute import evaluate, load_situation
        reports = [evaluate(load_situation(Path(p)), sources=sources) for p in situations]
    return Site(Path(out), runs, cases, Path(sources) if sources else None, reports, Path(fixtures)).build()


