"""canastra report: the static site, read back as files (test_site_browser.py
loads it in a real browser)."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import ROOT, SAVED_RUNS, SMALL_FIXTURES
from site_pages import Page, expected_cells, internal_targets

from canastra_cli.cli import main
from canastra_conformance.results import STATUSES


def pages(site):
    return sorted(site.rglob("*.html"))


def test_every_page_of_the_saved_runs(saved_site):
    names = {p.relative_to(saved_site).as_posix() for p in pages(saved_site)}
    assert {"index.html", "matrix/cbc.html", "rulebook/classica.html", "suite/uruguaya.html",
            "disputes/cbc/aces-suit.html"} <= names
    keys = {p.stem for p in (saved_site / "implementations").glob("*.html")}
    assert len(keys) == len(SAVED_RUNS)
    for key in keys:
        assert (saved_site / "cases" / key / "classica.html").is_file()
        badge = json.loads((saved_site / "badges" / f"{key}.json").read_text())
        assert set(badge) == {"schemaVersion", "label", "message", "color"} and badge["schemaVersion"] == 1


def test_fixture_files_are_named_as_in_the_repository(saved_site):
    text = (saved_site / "suite" / "cbc.html").read_text(encoding="utf-8")
    assert 'class="where">conformance/fixtures/cbc/01-03-deal.yaml:4 ' in text
    assert str(ROOT / "conformance") not in text


def test_badges_are_the_profiles_rates(saved_site):
    for path in SAVED_RUNS:
        run = json.loads(path.read_text())
        (key,) = [p.stem for p in (saved_site / "implementations").glob("*.html")     # the page "from" the file
                  if f"<code>{path}</code>" in p.read_text(encoding="utf-8").split("<h2>")[0]]
        for ruleset, card in run["profile"]["rulesets"].items():
            under = card["under"]["profile"]
            badge = json.loads((saved_site / "badges" / key / f"{ruleset}.json").read_text())
            assert badge["label"] == f"canastra {ruleset}"
            assert badge["message"] == (f"{under['passed']}/{under['graded']} passed" if under["graded"]
                                        else "no graded case")


@pytest.mark.parametrize("ruleset", ["cbc", "classica", "uruguaya"])
def test_matrix_counts_are_the_runs(saved_site, ruleset):
    page = Page((saved_site / "matrix" / f"{ruleset}.html").read_text(encoding="utf-8"))
    expected = expected_cells(SAVED_RUNS, ruleset)
    shown = {(article, column): Counter({s: n for s, n in counts.items() if s in STATUSES and n})
             for article, column, counts in page.cells}
    assert shown == {k: +v for k, v in expected.items()}
    assert all(counts["total"] == sum(counts[s] for s in STATUSES) for _, _, counts in page.cells)


def test_index_rates_are_the_profiles(saved_site):
    text = (saved_site / "index.html").read_text(encoding="utf-8")
    for path in SAVED_RUNS:
        profile = json.loads(path.read_text())["profile"]
        for ruleset, card in profile["rulesets"].items():
            under = card["under"]["profile"]
            if under["graded"]:
                assert f"{under['passed']}/{under['graded']} ({round(100 * under['passed'] / under['graded'])}%)" \
                    in text


def test_every_internal_link_resolves(saved_site, small_site):
    for site in (saved_site, small_site[0]):
        ids = {}
        for path in pages(site):
            page = Page(path.read_text(encoding="utf-8"))
            for target, fragment in internal_targets(site, path, page.links):
                assert target.is_file(), f"{path.relative_to(site)} links to missing {target}"
                if fragment and target.suffix == ".html":
                    if target not in ids:
                        ids[target] = Page(target.read_text(encoding="utf-8")).ids
                    assert fragment in ids[target], f"{path.relative_to(site)}: no #{fragment} in {target.name}"


def test_provenance_on_every_page(small_site):
    site, _ = small_site
    for path in pages(site):
        text = path.read_text(encoding="utf-8")
        assert 'id="provenance"' in text and "canastra-spec 0" in text.replace("canastra-spec report", "")
        assert "fixtures digest" in text


def test_hostile_strings_are_shown_never_obeyed(small_site):
    site, runs = small_site
    seen_name = seen_long = False
    for path in list(pages(site)) + list(site.rglob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<img" not in text and "<b>bold" not in text, path
        assert 'href="javascript:' not in text.lower(), path
        page = Page(text) if path.suffix == ".html" else None
        if page:
            assert all(not link.lower().startswith("javascript:") for link in page.links), path
            assert all(attrs.get("src", "").startswith(("../", "static/")) for attrs in page.scripts), path
        seen_name |= "evil&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;" in text
        seen_long |= "W" * 2000 in text              # as much as the report keeps of it
    assert seen_name and seen_long           # shown, as text


def test_a_failure_shows_expected_and_actual(small_site):
    site, _ = small_site
    text = (site / "cases" / "canastra-ref-0-1-0-2" / "cbc.html").read_text(encoding="utf-8")
    assert "t-cbc-points-ace" in text and "<pre>15</pre>" in text and "<pre>14</pre>" in text


def test_history_between_runs_of_one_implementation(small_site):
    site, _ = small_site
    (history,) = (site / "history").glob("*.html")
    text = history.read_text(encoding="utf-8")
    assert "regressed (2)" in text and "t-cbc-points-ace" in text and "t-cbc-opening-75" in text


def test_a_rebuild_drops_the_pages_it_no_longer_writes(tmp_path, small_site):
    _, runs = small_site
    site = tmp_path / "site"
    site.mkdir()
    (site / "notes.txt").write_text("mine")
    assert main(["report", str(runs["ref"]), str(runs["hostile"]), "--out", str(site),
                 "--fixtures", str(SMALL_FIXTURES)]) == 0
    both = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert main(["report", str(runs["ref"]), "--out", str(site), "--fixtures", str(SMALL_FIXTURES)]) == 0
    one = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    gone = both - one
    assert gone and all(name.startswith(("cases/", "implementations/", "badges/")) for name in gone)
    assert not any(part.is_dir() and not any(part.iterdir()) for part in site.rglob("*"))
    assert "notes.txt" in one                         # a file the site never wrote is kept
    index = (site / "index.html").read_text(encoding="utf-8")
    assert all(f"implementations/{name.split('/')[1]}" not in index for name in gone if name.startswith("cases/"))


def test_sources_are_quoted_beside_the_article(tmp_path, sources, small_site):
    _, runs = small_site
    assert main(["report", str(runs["ref"]), "--out", str(tmp_path), "--fixtures", str(SMALL_FIXTURES),
                 "--sources", str(sources)]) == 0
    text = (tmp_path / "rulebook" / "cbc.html").read_text(encoding="utf-8")
    assert text.count('<blockquote class="source" lang="pt">') > 100
    assert "Baralhos" in text or "baralhos" in text


def test_situations_are_ruled_on_the_disputes_they_bear_on(tmp_path, small_site):
    _, runs = small_site
    situation = ROOT / "docs" / "examples" / "aces-opening.yaml"
    assert main(["report", str(runs["ref"]), "--out", str(tmp_path), "--fixtures", str(SMALL_FIXTURES),
                 "--situation", str(situation)]) == 0
    page = (tmp_path / "disputes" / "cbc" / "aces-suit.html").read_text(encoding="utf-8")
    ruled = page[page.index("Situation Three aces of three suits"):]
    assert "any-suit" in ruled and "same-suit" in ruled and "meld.mixed-suits" in ruled
    assert "Situation Three aces" not in (tmp_path / "disputes" / "cbc" / "payment.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("args, message", [
    (["nothing.json"], "cannot read nothing.json"),
    (["--sources", "/no/such/dir"], "is not a directory"),
])
def test_usage_errors(tmp_path, capsys, small_site, args, message):
    _, runs = small_site
    argv = ["report", *(args if args[0] == "nothing.json" else [str(runs["ref"]), *args]), "--out", str(tmp_path)]
    assert main(argv) != 0
    assert message in capsys.readouterr().err


def test_not_a_run(tmp_path, capsys):
    bogus = tmp_path / "x.json"
    bogus.write_text('{"format": "something else"}')
    assert main(["report", str(bogus), "--out", str(tmp_path / "site")]) == 2
    assert "neither a conformance report nor a saved implementation run" in capsys.readouterr().err


def test_a_mangled_report_gives_pages_or_a_clear_error(tmp_path, capsys, small_site):
    _, runs = small_site
    data = json.loads(runs["wrong"].read_text())
    data["readings"] = ["not", "a", "mapping"]
    data["implementation"] = "just a string"
    for record in data["cases"].values():
        record["mismatches"] = ["not a mismatch", {"path": 3}]
        record["outcome"] = "exploded"
        record["articles"] = "7"
    mangled = tmp_path / "mangled.json"
    mangled.write_text(json.dumps(data))
    assert main(["report", str(mangled), "--out", str(tmp_path / "site"), "--fixtures", str(SMALL_FIXTURES)]) == 0
    assert (tmp_path / "site" / "matrix" / "cbc.html").is_file()


def test_outputs_are_checked_before_the_site_is_built(tmp_path, capsys, monkeypatch):
    """--out or --screenshots naming a file: said before the runs are read and the site built."""
    import canastra_tools.site.build as site
    monkeypatch.setattr(site, "build", lambda *a, **k: pytest.fail("the site was built"))
    (tmp_path / "file").write_text("")
    run = str(SAVED_RUNS[0])
    assert main(["report", run, "--out", str(tmp_path / "file")]) == 2
    assert f"--out {tmp_path / 'file'}: not a directory" in capsys.readouterr().err
    assert main(["report", run, "--out", str(tmp_path / "site"), "--screenshots", str(tmp_path / "file")]) == 2
    assert f"--screenshots {tmp_path / 'file'}: not a directory" in capsys.readouterr().err


def test_a_run_of_other_fixtures_is_warned_of(tmp_path, capsys, small_site):
    _, runs = small_site
    data = json.loads(runs["ref"].read_text())
    data["suite"]["digest"] = "0123456789abcdef"
    older = tmp_path / "older.json"
    older.write_text(json.dumps(data))
    assert main(["report", str(older), "--out", str(tmp_path / "site"), "--fixtures", str(SMALL_FIXTURES)]) == 0
    assert "older.json ran other fixtures (digest 0123456789abcdef" in capsys.readouterr().err


def test_a_dispute_the_spec_no_longer_has_is_named_unlinked(tmp_path):
    """A run saved before a dispute was dropped from a spec still renders: its
    reading card names the dispute, with no link to a page that is not built;
    a dispute that bears on nothing under the engine's other readings says so."""
    old = {"question": "?", "default": "a", "declared": "b", "readings": {}, "verdict": "untested",
           "reading": None, "declaration": "unknown"}
    kept = dict(old, verdict="follows", reading="any-suit")
    moot = dict(old, verdict="inapplicable", inapplicable_under={"joker-moves": "fixed"})
    run = {"format": "canastra-implementation-run", "format_version": 1,
           "canastra_spec": {"commit": "0000000", "digest": "0123456789abcdef", "cases": 0},
           "engine": {"implementation": {"name": "older-engine", "version": "1"}, "rulesets": ["cbc"]},
           "summary": {}, "cases": {},
           "profile": {"format": "canastra-profile", "format_version": 1, "suite": {}, "declared": {},
                       "closest": None,
                       "rulesets": {"cbc": {"disputes": {"dropped-long-ago": old, "aces-suit": kept,
                                                          "free-two": moot},
                                            "profile": {}, "under": {}}}}}
    saved = tmp_path / "older.json"
    saved.write_text(json.dumps(run))
    site = tmp_path / "site"
    assert main(["report", str(saved), "--out", str(site), "--fixtures", str(SMALL_FIXTURES)]) == 0
    (page,) = (site / "implementations").glob("*.html")
    text = page.read_text(encoding="utf-8")
    assert "dropped-long-ago <small>(not a dispute of the current spec" in text
    assert "disputes/cbc/dropped-long-ago.html" not in text
    assert "disputes/cbc/aces-suit.html" in text
    assert '<td class="verdict inapplicable">not applicable under joker-moves=fixed</td>' in text


def test_a_directory_of_runs_passes_over_json_beyond_the_limits(tmp_path):
    """A directory given to canastra report stands for the runs among its *.json:
    a file nested 100,000 deep raised RecursionError while they were looked for."""
    import shutil

    from canastra_tools.site.runs import expand
    shutil.copy(SAVED_RUNS[0], tmp_path / "run.json")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    assert expand([str(tmp_path)]) == [str(tmp_path / "run.json")]
