"""The command line: check and articles, in text and JSON, and bad input."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from canastra_cli.cli import main


def test_check_passes_on_the_specs(capsys):
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert "ok   " in out and "cbc.canastra" in out


def test_check_reports_errors_with_position(tmp_path, minimal_text, capsys):
    bad = tmp_path / "minimal.canastra"
    bad.write_text(minimal_text.replace("deck.jokers = 2 @1", "deck.jokerz = 2 @1"))
    assert main(["check", str(bad)]) == 1
    captured = capsys.readouterr()
    assert f"{bad}:20:1: error: unknown setting 'deck.jokerz'" in captured.err
    assert "FAIL" in captured.out


def test_check_json(tmp_path, minimal_text, capsys):
    bad = tmp_path / "minimal.canastra"
    bad.write_text(minimal_text.replace("@8\n", "@88\n", 1))
    assert main(["check", str(bad), "--format", "json"]) == 1
    [record] = json.loads(capsys.readouterr().out)
    assert record["ok"] is False
    assert record["errors"][0]["message"].startswith("citation of article '88'")
    assert {"file", "line", "column", "expected"} <= set(record["errors"][0])


def test_check_a_missing_path(capsys):
    assert main(["check", "no/such/file.canastra"]) == 2
    assert "no such file or directory" in capsys.readouterr().err


def test_articles_json_lists_every_article():
    import contextlib
    import io

    from canastra_ref.dsl.loader import load
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["articles", "cbc", "--format", "json"]) == 0
    record = json.loads(buffer.getvalue())
    assert record["ruleset"] == "cbc" and isinstance(record["unstated"], list)
    rows = record["articles"]
    assert [r["id"] for r in rows] == list(load("cbc").articles)
    for row in rows:
        assert {"id", "status", "paraphrase", "clauses"} <= set(row)
        assert row["status"] in ("normative", "informative")
        if row["status"] == "normative":
            assert row["clauses"], row["id"]
    art7 = next(r for r in rows if r["id"] == "7")
    assert {c["setting"] for c in art7["clauses"]} >= {"opening.minimum", "turn.clean_meld"}
    art27 = next(r for r in rows if r["id"] == "27")
    assert art27["disputes"] == ["ace-melds", "aces-suit"]


def test_articles_text(capsys):
    assert main(["articles", "cbc"]) == 0
    out = capsys.readouterr().out
    assert "112 articles" in out and "disputes: ace-melds, aces-suit" in out


def test_articles_unknown_ruleset(capsys):
    assert main(["articles", "nope"]) == 2
    assert "unknown ruleset 'nope'" in capsys.readouterr().err


def test_articles_bad_reading(capsys):
    assert main(["articles", "cbc", "--reading", "aces-suit=whatever"]) == 2
    assert "has no reading 'whatever'" in capsys.readouterr().err
    assert main(["articles", "cbc", "--reading", "oops"]) == 2


def test_help_explains_every_command(capsys):
    import pytest
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "check" in out and "articles" in out


def test_a_missing_spec_directory_is_not_an_unknown_ruleset(tmp_path):
    env = {**os.environ, "CANASTRA_SPEC_DIR": str(tmp_path / "nowhere")}
    done = subprocess.run([sys.executable, "-m", "canastra_cli", "play", "--ruleset", "cbc"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: no spec directory at {tmp_path / 'nowhere'}"


def test_python_dash_m_canastra_cli():
    done = subprocess.run([sys.executable, "-m", "canastra_cli", "--version"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("canastra-spec ")


def test_a_warm_check_loads_no_other_commands_machinery(tmp_path):
    """`canastra check` of specs checked before answers from the cache: the
    command line's start imports no fuzzer, engine, conformance runner, parser
    or schema validator (each command imports its own when it runs)."""
    heavy = ("canastra_tools.fuzz", "canastra_ref.engine.actions", "canastra_conformance.runner", "lark",
             "jsonschema")
    script = ("import contextlib, io, sys; from canastra_cli.cli import main\n"
              "with contextlib.redirect_stdout(io.StringIO()): code = main(['check'])\n"
              f"print(code, sorted(m for m in {heavy!r} if m in sys.modules))")
    env = {**os.environ, "CANASTRA_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120,
                           check=True).stdout for _ in range(2)]
    assert runs[0].startswith("0 ") and "'lark'" in runs[0]
    assert runs[1] == "0 []\n"
