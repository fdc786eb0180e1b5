"""The report site in a real browser: headless Chromium (the system's,
driven by Playwright; tools/site/browser.py). Skipped, with the reason, where
no browser can be driven. Every page visited must load without a console
error or an uncaught exception, its links must resolve, a matrix must show
the runs' counts, and the filters must change the visible rows."""
from __future__ import annotations

import pytest
from conftest import SAVED_RUNS
from site_pages import Page, expected_cells, internal_targets

from canastra_conformance.results import STATUSES
from canastra_tools.site.browser import browser_context, unavailable

REASON = unavailable()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"no browser: {REASON}")


class Visitor:
    """A browser tab that records console errors, uncaught exceptions and dialogs."""

    def __init__(self, context):
        self.page = context.new_page()
        self.problems: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        self.page.on("dialog", lambda d: (self.problems.append(f"dialog: {d.message}"), d.dismiss()))
        self.page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url}"))

    def visit(self, path, query: str = ""):
        self.page.goto(path.resolve().as_uri() + query)
        self.page.wait_for_load_state("load")
        assert not self.problems, f"{path}: {self.problems}"
        return self.page

    def links(self) -> list[str]:
        return self.page.eval_on_selector_all("a[href], link[href], script[src]",
                                              "els => els.map(e => e.getAttribute('href') || e.getAttribute('src'))")

    def visible_rows(self) -> list[dict]:
        return self.page.eval_on_selector_all(
            "#matrix tbody tr", "rows => rows.filter(r => !r.hidden && r.offsetParent !== null)"
                                ".map(r => ({article: r.dataset.article, features: r.dataset.features.split(' ')}))")


@pytest.fixture(scope="module")
def browser():
    with browser_context() as context:
        yield context


def _pages_to_visit(site):
    chosen = [site / "index.html"]
    for folder in ("matrix", "rulebook", "implementations", "history"):
        chosen += sorted((site / folder).glob("*.html"))
    chosen += sorted((site / "suite").glob("*.html"))[:2]
    chosen += [sorted(d.glob("*.html"))[0] for d in sorted((site / "cases").iterdir())]
    chosen += sorted((site / "disputes").rglob("*.html"))[:5]
    return chosen


@pytest.mark.parametrize("which", ["saved", "small"])
def test_pages_load_cleanly_and_links_resolve(browser, saved_site, small_site, which):
    site = saved_site if which == "saved" else small_site[0]
    tab = Visitor(browser)
    ids = {}
    for path in _pages_to_visit(site):
        tab.visit(path)
        assert tab.page.title().endswith("canastra-spec report")
        assert tab.page.locator("#provenance").count() == 1
        for target, fragment in internal_targets(site, path, tab.links()):
            assert target.is_file(), f"{path.relative_to(site)} links to missing {target}"
            if fragment:
                if target not in ids:
                    ids[target] = Page(target.read_text(encoding="utf-8")).ids
                assert fragment in ids[target], f"{path.relative_to(site)}: no #{fragment} in {target.name}"


@pytest.mark.parametrize("ruleset", ["cbc", "classica", "treze"])
def test_matrix_cells_equal_the_runs(browser, saved_site, ruleset):
    page = Visitor(browser).visit(saved_site / "matrix" / f"{ruleset}.html")
    cells = page.eval_on_selector_all(
        "#matrix tbody tr", "rows => rows.flatMap(r => Array.from(r.querySelectorAll('td[data-total]'))"
                            ".map((td, i) => [r.dataset.article, i, Object.fromEntries(Array.from(td.attributes)"
                            ".filter(a => a.name.startsWith('data-')).map(a => [a.name.slice(5), a.value]))]))")
    shown = {(article, column): {s: int(counts[s]) for s in STATUSES if int(counts[s])}
             for article, column, counts in cells}
    assert shown == {k: dict(+v) for k, v in expected_cells(SAVED_RUNS, ruleset).items()}


def test_filters_change_the_visible_rows(browser, saved_site):
    tab = Visitor(browser)
    page = tab.visit(saved_site / "matrix" / "classica.html")
    every = tab.visible_rows()
    assert len(every) > 20
    page.select_option("#feature", "frozen-pile")
    frozen = tab.visible_rows()
    assert 0 < len(frozen) < len(every) and all("frozen-pile" in r["features"] for r in frozen)
    assert page.text_content("#shown") == f"{len(frozen)} of {len(every)} articles shown"
    page.select_option("#article", frozen[0]["article"])
    assert [r["article"] for r in tab.visible_rows()] == [frozen[0]["article"]]
    page.select_option("#feature", "")
    page.select_option("#article", "")
    assert len(tab.visible_rows()) == len(every)
    linked = tab.visit(saved_site / "matrix" / "classica.html", "?feature=frozen-pile")   # a filtered matrix's address
    assert linked.input_value("#feature") == "frozen-pile" and tab.visible_rows() == frozen
    assert not tab.problems


def test_hostile_run_is_shown_as_text(browser, small_site):
    site, _ = small_site
    tab = Visitor(browser)
    for path in [site / "index.html", *(site / "implementations").glob("*.html"), *(site / "cases").rglob("cbc.html")]:
        page = tab.visit(path)
        assert page.locator("img").count() == 0 and page.locator("b").count() == 0
        assert page.evaluate("document.querySelectorAll('script').length") == 1       # site.js only
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{path}: too wide"
    assert "evil<script>alert('pwned')</script>" in page.text_content("body")
    assert not tab.problems
