"""What the site tests read back from the pages and the runs, computed
independently of the site's own code: the cell counts a matrix must show,
the links and ids of a page."""
from __future__ import annotations

import json
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

from canastra_conformance.fixtures import load_all


class Page(HTMLParser):
    """The links, ids and matrix cells of an HTML page."""

    def __init__(self, text: str):
        super().__init__()
        self.links, self.ids, self.cells, self.scripts = [], set(), [], []
        self._row = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if key in attrs:
                self.links.append(attrs[key])
        if tag == "script":
            self.scripts.append(attrs)
        if tag == "tr" and "data-article" in attrs:
            self._row, self._column = attrs["data-article"], 0
        if tag == "td" and "data-total" in attrs and self._row is not None:
            counts = {k[5:]: int(v) for k, v in attrs.items() if k.startswith("data-")}
            self.cells.append((self._row, self._column, counts))
            self._column += 1

    def handle_endtag(self, tag):
        if tag == "tbody":
            self._row = None


def expected_cells(run_paths: list[Path], ruleset: str, fixtures=None) -> dict[tuple[str, int], Counter]:
    """(article, index of the run) -> the statuses of the run's cases citing the article, straight
    from the run files: a conformance report lists every case; a saved run lists the cases it sent,
    the others were skipped."""
    cases = [c for c in (load_all(fixtures) if fixtures else load_all()) if c.ruleset == ruleset]
    articles = sorted({a for c in cases for a in c.articles})
    runs = [json.loads(path.read_text(encoding="utf-8")) for path in run_paths]
    out = {}
    for article in articles:
        for column, data in enumerate(runs):
            statuses = Counter()
            for case in cases:
                if article not in case.articles:
                    continue
                record = data["cases"].get(case.id)
                if data["format"] == "canastra-implementation-run":
                    statuses[record[0] if record else "skipped"] += 1
                elif record:
                    statuses[record["status"]] += 1
            out[(article, column)] = statuses
    return out


def internal_targets(site: Path, page: Path, links: list[str]) -> list[tuple[Path, str]]:
    """(file, fragment) of every link of a page that stays inside the site."""
    out = []
    for link in links:
        if link.startswith(("http://", "https://", "data:")):
            continue
        target, _, fragment = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        out.append((path, fragment))
    return out
