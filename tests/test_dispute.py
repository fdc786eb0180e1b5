"""canastra dispute: a situation ruled under every ruleset and every reading
that bears on it, printed as a ruling."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from canastra_cli.cli import main
from canastra_tools.dispute import evaluate
from canastra_tools.situation_file import load_situation

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "aces-opening.yaml"


@pytest.fixture(scope="module")
def report():
    return evaluate(load_situation(EXAMPLE))


def test_every_fitting_ruleset_rules(report):
    assert [r.ruleset for r in report.rulings] == ["casa", "cbc", "classica", "ituiutaba", "treze", "uruguaya"]
    assert {r for r, _ in report.not_fitting} == {"classica-2p", "classica-3p", "classica-6p", "ituiutaba-2p"}
    verdicts = {r.ruleset: [s.verdict for s in r.ruling.outcome.steps] for r in report.rulings}
    assert verdicts["cbc"] == ["accepted", "accepted"]
    assert verdicts["casa"] == ["accepted", "accepted"]        # 45 + 30 = 75, the minimum below 2,500
    assert verdicts["ituiutaba"][-1] == "penalised"          # 75 points, 80 needed
    assert verdicts["classica"][0] == "rejected"              # no runs in classic canasta


def test_only_disputes_that_bear_on_it_are_listed(report):
    cbc = next(r for r in report.rulings if r.ruleset == "cbc")
    assert [d.name for d in cbc.disputes] == ["opening-points", "aces-suit"]
    # 45 + 30, both melds clean: short only where one clean meld must hold the 75 alone (7)
    (reading, _, alt), = cbc.disputes[0].readings
    assert reading == "one-clean-meld"
    assert alt.outcome.steps[-1].reason == "opening.pending-check" and "valor.27" in alt.cites
    (reading, _, alt), = cbc.disputes[1].readings
    assert reading == "same-suit"
    assert alt.outcome.steps[0].reason == "meld.mixed-suits" and "27" in alt.cites
    assert "7" in [a.id for a in cbc.ruling.articles]
    assert all(a.paraphrase for a in cbc.ruling.articles)


def test_markdown_reads_like_a_ruling(capsys):
    assert main(["dispute", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Ruling: ")
    assert "A♥ A♦ A♠ J♥ Q♥ K♥ 4♣ 9♦" in out                      # the cards as they lie
    assert "**Discard pile.** 5♦ on top" in out
    assert "1. N lays down A♥ A♦ A♠ and J♥ Q♥ K♥." in out
    assert "| **cbc** |" in out and "## cbc — " in out
    assert "under `same-suit`" in out


def test_sources_are_quoted(sources, capsys):
    assert main(["dispute", str(EXAMPLE), "--sources", str(sources)]) == 0
    out = capsys.readouterr().out
    assert "> • 7- Os jogadores só poderão descer/baixar" in out
    assert "> 9.3 - No início os jogos de cartas descidas devem somar 80 pontos" in out


def test_html_and_json(capsys):
    assert main(["dispute", str(EXAMPLE), "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and "<table>" in page and "A♥" in page
    assert main(["dispute", str(EXAMPLE), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    cbc = next(r for r in data["rulings"] if r["ruleset"] == "cbc")
    assert cbc["ruling"]["results"][1]["reason"] == "opening.made"
    assert [d["dispute"] for d in cbc["disputes"]] == ["opening-points", "aces-suit"]


def test_a_named_ruleset_and_reading(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text(EXAMPLE.read_text().replace("title:", "ruleset: cbc\nreading: {aces-suit: same-suit}\ntitle:"))
    assert main(["dispute", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["ruleset"] for r in data["rulings"]] == ["cbc"]
    ruling = data["rulings"][0]
    assert ruling["ruling"]["readings"] == {"aces-suit": "same-suit"}
    assert ruling["ruling"]["results"][0]["reason"] == "meld.mixed-suits"
    assert ruling["disputes"][0]["readings"][0]["reading"] == "any-suit"


def test_a_query_situation(tmp_path, capsys):
    path = tmp_path / "q.yaml"
    path.write_text("query: {meld: Qc Qd Qh Qs 2h 2c JK}\n")
    assert main(["dispute", str(path), "--ruleset", "classica", "--ruleset", "uruguaya"]) == 0
    out = capsys.readouterr().out
    assert '"canastra": "suja"' in out and '"canastra": null' in out


@pytest.mark.parametrize("text, where, message", [
    ("state:\n  turn: {player: N\nactions: []\n", ":3:8:", "not valid YAML"),
    ("state:\n  hands: {N: Ah Ad Zz}\nactions:\n  - {player: N, draw: stock}\n", ":2:14:", "unknown card 'Zz'"),
    ("ruleset: nope\nactions:\n  - {player: N, draw: stock}\n", ":1:10:", "unknown ruleset 'nope'"),
    ("actions:\n  - {player: N, draw: stock}\nexpect: []\n", ":3:9:", "states no expectations"),
    ("ruleset: cbc\nstate:\n  hands: {N: JK JK JK}\nactions:\n  - {player: N, draw: stock}\n", ":3:",
     "does not fit the table of cbc"),
    ("state:\n  hands: {X: 4c}\nactions:\n  - {player: N, draw: stock}\n", ":2:", "'X' is not one of"),
    ("actions:\n  - {player: N, fly: true}\n", ":2:", "(at $.actions[0])"),
    ("ruleset: cbc\nreading: {aces-suit: bogus}\nactions:\n  - {player: N, draw: stock}\n", ":2:",
     "no reading 'bogus'"),
    ("- {query: {setup: true}}\n- {query: {setup: true}}\n", ":1:1:", "holds one situation"),
    ("state:\n  hands: {N: [JK, JK, JK, JK, JK, JK, JK]}\nactions:\n  - {player: N, draw: stock}\n", ":1:1:",
     "fits the table of no ruleset"),
])
def test_malformed_situations_are_located(tmp_path, capsys, text, where, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert main(["dispute", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}{where}" in err and message in err and "Traceback" not in err


def test_missing_files_and_directories(capsys, tmp_path):
    assert main(["dispute", str(tmp_path / "none.yaml")]) == 2
    assert "no such situation file" in capsys.readouterr().err
    assert main(["dispute", str(EXAMPLE), "--sources", str(tmp_path / "none")]) == 2
    assert "--sources: no such directory" in capsys.readouterr().err


def test_sources_directory_without_the_rulebook(tmp_path, capsys):
    assert main(["dispute", str(EXAMPLE), "--sources", str(tmp_path)]) == 0
    assert "*No quotations: cbc.txt is not in" in capsys.readouterr().out


def _aces_opening_with(tmp_path, edit) -> Path:
    path = tmp_path / "s.yaml"
    text = EXAMPLE.read_text(encoding="utf-8")
    edited = edit(text)
    path.write_bytes(edited.encode("utf-8") if isinstance(edited, str) else edited)
    return path


@pytest.mark.parametrize("edit, where, message", [
    (lambda t: t.encode("utf-8").replace(b"Three aces", b"Tr\xeas aces"), ":4:10:", "not UTF-8 text"),
    (lambda t: t.replace("title: Three", "title: !!int abc\nx: Three"), ":4:8:", "'abc' is not an integer"),
    (lambda t: t.replace("pile: [7c, 5d]", "pile: &p [7c, *p]"), ":14:17:", "repeats a value that contains it"),
    (lambda t: t.replace("pile: [7c, 5d]", "pile: " + "[" * 5000 + "]" * 5000), ":14:1007:", "nesting depth"),
    (lambda t: t.replace("  dealer: W", "  dealer: W\n  ended: {player: N}"), ":11:10:",
     "'reason' is a required property"),
    (lambda t: t.replace("phase: play}", "phase: play, opening_undo: {x: 1}}"), ":11:48:",
     "'pile' is a required property"),
])
def test_situations_that_used_to_raise(tmp_path, capsys, edit, where, message):
    path = _aces_opening_with(tmp_path, edit)
    assert main(["dispute", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}{where}" in err and message in err and "Traceback" not in err


def test_a_billion_laughs_situation_is_refused(tmp_path, capsys):
    from test_yaml_input import LAUGHS
    path = tmp_path / "s.yaml"
    path.write_text(LAUGHS + "query: {setup: true}\n", encoding="utf-8")
    assert main(["dispute", str(path)]) == 1
    assert f"{path}:6:8: error: the file holds more than 100,000 values" in capsys.readouterr().err


def test_a_huge_failure_count_is_answered_at_once(tmp_path, capsys):
    """Ladder.after looped once per failure: 10^12 failures never answered."""
    path = tmp_path / "q.yaml"
    path.write_text("ruleset: cbc\nquery: {opening_minimum: {score: 100, failures: 1000000000000}}\n")
    assert main(["dispute", str(path), "--format", "json"]) == 0
    # cbc's ladder 75 -> 120 -> 150 -> 180 -> 210 then +30 (articles 13, 14): four steps, then +30 each
    assert json.loads(capsys.readouterr().out)["rulings"][0]["ruling"]["result"] == 210 + 30 * (10 ** 12 - 4)


def test_a_ruling_says_what_it_was_made_with(capsys):
    from canastra_cli.cli import main
    assert main(["dispute", str(EXAMPLE), "--format", "html"]) == 0
    page = capsys.readouterr().out
    provenance = page[page.index("<h2>Provenance</h2>"):]
    assert "canastra-spec 0." in provenance and "<code>cbc.canastra</code>" in provenance
    assert "aces-opening.yaml" in provenance and "digest <code>" in provenance
