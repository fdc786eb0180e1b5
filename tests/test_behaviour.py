"""canastra diff --behaviour: situations two rulesets rule differently, a
witness (or the reason none exists) for every semantic difference."""
from __future__ import annotations

from pathlib import Path

import pytest

from canastra_cli.cli import main
from canastra_ref import protocol
from canastra_tools import behaviour, hybrid, situation
from canastra_tools.diff import compare
from canastra_tools.sides import parse_sides


@pytest.fixture(scope="module")
def searched(tmp_path_factory):
    """classica vs uruguaya found by the Hypothesis search alone (no fixtures)."""
    a, b = parse_sides("classica", "uruguaya")
    empty = tmp_path_factory.mktemp("no-fixtures")
    return behaviour.behaviour(a, b, budget=40, fixtures_dir=empty)


def test_every_difference_has_a_witness_or_a_reason(searched):
    diff = compare(*parse_sides("classica", "uruguaya"))
    assert [f.setting.path for f in searched.findings] == [s.path for s in diff.differences]
    for f in searched.findings:
        assert (f.witness is None) != (f.reason is None), f.setting.path
    reasons = {f.setting.path: f.reason for f in searched.findings if f.reason}
    assert "never consults" in reasons["deck.size"]
    assert "cannot apply at these tables" in reasons["going_out.allowed"]


def test_the_search_finds_small_witnesses(searched):
    found = {f.setting.path: f.witness for f in searched.findings if f.witness}
    for path in ("points.3.black", "(meld kinds)", "meld.black-threes.allowed",
                 "opening.single_meld", "pile.start", "stock.exhausted", "score.table"):
        assert path in found and found[path].strict, path
        assert found[path].origin.startswith("search")
    # uruguaya's five naturals of a canastra (canastra.2) limit its melds too under the default
    # reading canastra-naturals=meld-limit, so no meld shows canastra.suja.match alone
    assert "canastra.suja.match" in found and not found["canastra.suja.match"].strict
    assert found["points.3.black"].situation == {"query": {"points": "3c"}}
    assert found["(meld kinds)"].situation == {"query": {"meld": ["3c", "3c", "3c"]}}


def test_a_witness_is_ruled_differently_and_the_setting_alone_explains_it(searched):
    a, b = parse_sides("classica", "uruguaya")
    w = next(f.witness for f in searched.findings if f.setting.path == "opening.single_meld")
    ea, eb = hybrid.engine(a.model), hybrid.engine(b.model)
    oa, ob = situation.run(ea, w.situation), situation.run(eb, w.situation)
    assert oa.behaviour() != ob.behaviour()
    swapped = hybrid.engine(hybrid.swap(a.model, b.model, "opening.single_meld"))
    assert situation.run(swapped, w.situation).components() == {**ob.components()}


def test_witness_files_are_fixtures_that_pass(tmp_path):
    from canastra_conformance.fixtures import load_file
    from canastra_conformance.grading import PASSED, grade, message_for
    a, b = parse_sides("classica", "uruguaya")
    report = behaviour.behaviour(a, b, budget=10)
    written = behaviour.write_witnesses(report, tmp_path)
    assert written
    for path in written[:12]:
        cases = load_file(path)
        assert [c.ruleset for c in cases] == ["classica", "uruguaya"]
        for case in cases:
            result = grade(case, protocol.handle(message_for(case)))
            assert result.status == PASSED, (path, case.id, result.behaviour)
    assert any(f.witness and f.witness.file for f in report.findings)


def test_cites_only_and_table_differences():
    a, b = parse_sides("classica", "classica-2p")
    report = behaviour.behaviour(a, b, budget=30, fixtures_dir=Path("/nonexistent"))
    by_path = {f.setting.path: f for f in report.findings}
    going_out = by_path["going_out.allowed"]     # the same clauses, decided at tables of different size
    assert going_out.witness is not None, going_out.reason
    oa, ob = going_out.witness.a, going_out.witness.b
    assert oa.consulted()["going_out.allowed"] != ob.consulted()["going_out.allowed"]


def test_engine_reads():
    assert behaviour.engine_reads("meld.set.shape") and behaviour.engine_reads("points.3.black")
    assert not behaviour.engine_reads("deck.size")


def test_command(tmp_path, capsys):
    assert main(["diff", "classica", "uruguaya", "--behaviour", "--budget", "5", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "semantic differences" in out and "≠ canastra.suja.match" in out
    assert list(tmp_path.glob("classica-vs-uruguaya--*.yaml"))
    assert main(["diff", "classica", "uruguaya", "--behaviour", "--budget", "5", "--format", "json"]) == 0
    assert '"findings"' in capsys.readouterr().out
    assert main(["diff", "classica", "uruguaya", "--behaviour", "--budget", "0"]) == 2


def test_out_is_checked_before_the_search(tmp_path, capsys, monkeypatch):
    """--out EXISTING_FILE raised FileExistsError after the whole search."""
    out = tmp_path / "witnesses"
    out.write_text("x")
    monkeypatch.setattr(behaviour, "behaviour", lambda *a, **k: pytest.fail("the search started"))
    assert main(["diff", "classica", "uruguaya", "--behaviour", "--out", str(out)]) == 2
    assert f"--out {out}: not a directory" in capsys.readouterr().err


def test_witnesses_that_cannot_be_written_lose_no_search(searched, tmp_path, capsys, monkeypatch):
    def refuse(report, out):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(behaviour, "behaviour", lambda *a, **k: searched)
    monkeypatch.setattr(behaviour, "write_witnesses", refuse)
    assert main(["diff", "classica", "uruguaya", "--behaviour", "--out", str(tmp_path / "w")]) == 2
    captured = capsys.readouterr()
    assert "classica" in captured.out and "uruguaya" in captured.out          # the report, all the same
    assert "the witnesses could not be written: Permission denied" in captured.err
