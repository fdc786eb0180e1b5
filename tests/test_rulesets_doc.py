"""docs/rulesets.md is what the matrix generator prints (regenerate it with
`python -m canastra_tools.matrix --write` or `canastra diff --matrix --write`)."""
from __future__ import annotations

from pathlib import Path

from canastra_cli.cli import main
from canastra_tools import matrix

ROOT = Path(__file__).resolve().parents[1]


def test_rulesets_doc_is_current():
    assert (ROOT / matrix.DOC).read_text(encoding="utf-8") == matrix.render(), \
        "docs/rulesets.md is stale: run python -m canastra_tools.matrix --write"


def test_the_matrix_has_the_fifteen_pairs():
    text = matrix.render()
    pairs = [line for line in text.splitlines() if line.startswith("### ")]
    assert len(pairs) == 15
    assert "| classica / uruguaya |" in text and "| cbc / ituiutaba |" in text and "| cbc / casa |" in text


def test_matrix_command(capsys, monkeypatch):
    assert main(["diff", "--matrix"]) == 0
    assert capsys.readouterr().out == matrix.render()
    monkeypatch.chdir(ROOT)
    assert matrix.main(["--check"]) == 0
