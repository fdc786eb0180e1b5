"""What an implementation sends, and what a situation file says, is shown and
never obeyed: no control character reaches a text, JUnit or Markdown report
raw, and no Markdown or HTML markup of a situation is rendered."""
from __future__ import annotations

import re

import pytest
from test_conformance_runner import conformance, impl

from canastra_cli.cli import main
from canastra_ref.display import markdown_literal, printable

# Any C0/C1 control but newline and tab, and the bidirectional overrides.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return tmp_path_factory.mktemp("untrusted")


@pytest.mark.parametrize("fmt", ["text", "junit"])
def test_reports_spell_out_what_an_implementation_sends(out, fmt):
    code, text = conformance(out, "--impl", impl("escapes"), fmt=fmt)
    assert code == 1
    assert not RAW.search(text)
    assert "\\x1b]0;PWNED\\x07\\x1b[2J\\u202e\\x9b31m\\r" in text
    if fmt == "text":
        header = text.splitlines()[0]
        assert header.startswith("implementation: x\\x1b]0;PWNED") and "\\r" in header


def test_compare_spells_out_names_and_messages(out):
    conformance(out)
    conformance(out, "--impl", impl("escapes"))
    good, bad = sorted(out.glob("report-*.json"), key=lambda p: p.stat().st_mtime)[-2:]
    shown = out / "compare.txt"
    assert main(["conformance", "--compare", str(good), str(bad), "--output", str(shown)]) == 1
    text = shown.read_text(encoding="utf-8")
    assert "boom\\x1b]0;PWNED" in text and "(x\\x1b]0;PWNED" in text
    assert not RAW.search(text)


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_a_reading_card_spells_out_the_name(out, capsys, fmt):
    """canastra profile prints the implementation's name and version in text and Markdown."""
    from test_conformance_runner import FIXTURES
    conformance(out, "--impl", impl("escapes"))
    saved = max(out.glob("report-*.json"), key=lambda p: p.stat().st_mtime)
    capsys.readouterr()
    assert main(["profile", "--report", str(saved), "--fixtures", str(FIXTURES), "--format", fmt]) == 0
    card = capsys.readouterr().out
    assert not RAW.search(card)
    first = card.splitlines()[0]
    if fmt == "md":          # spelled out, then its backslashes and brackets kept from Markdown
        assert first.startswith("## Reading card of x\\\\x1b\\]0;PWNED\\\\x07\\\\x1b\\[2J\\\\u202e")
    else:
        assert first.startswith("reading card of x\\x1b]0;PWNED\\x07\\x1b[2J\\u202e\\x9b31m\\r ")


def test_printable():
    assert printable("a\x1b[2Jb\nc\td") == "a\\x1b[2Jb\nc\td"
    assert printable("a\nb\u2028c", newlines=False) == "a\\nb\\u2028c"
    assert printable("café ♥") == "café ♥"


@pytest.mark.parametrize("text, shown", [
    ("<script>alert(1)</script>", "\\<script\\>alert(1)\\</script\\>"),
    ("*bold* _em_ `code` [link](x) a|b ~~s~~ &amp;",
     "\\*bold\\* \\_em\\_ \\`code\\` \\[link\\](x) a\\|b \\~\\~s\\~\\~ \\&amp;"),
    ("# heading", "\\# heading"), ("- item", "\\- item"), ("12. item", "12\\. item"), ("> quote", "\\> quote"),
    ("two\nlines", "two lines"), ("bell\x07", "bell\\\\x07"),
    ("7- Os jogadores só poderão descer/baixar", "7- Os jogadores só poderão descer/baixar"),
    ("9.3 - No início", "9.3 - No início"), ("3) item", "3\\) item"), ("4.", "4\\."),
])
def test_markdown_literal(text, shown):
    assert markdown_literal(text) == shown


def test_dispute_markdown_and_html_render_no_markup_of_the_situation(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text('title: "<img src=x onerror=alert(1)> **loud** \\x1b]0;T\\x07"\n'
                    'description: "<script>alert(1)</script>\\n# not a heading"\n'
                    "ruleset: cbc\nquery: {setup: true}\n", encoding="utf-8")
    assert main(["dispute", str(path)]) == 0
    md = capsys.readouterr().out
    assert not RAW.search(md)
    assert not re.search(r"(?<!\\)[<*]", md.split("\n## ")[0].replace("**Stock.**", ""))
    assert md.startswith("# Ruling: \\<img src=x onerror=alert(1)\\> \\*\\*loud\\*\\* \\\\x1b\\]0;T\\\\x07\n")
    assert "\\<script\\>alert(1)\\</script\\> # not a heading" in md
    assert main(["dispute", str(path), "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert "<img" not in page and "<script>" not in page and "<strong>loud" not in page
    assert "<h1>Ruling: &lt;img src=x onerror=alert(1)&gt; **loud** \\x1b]0;T\\x07</h1>" in page
