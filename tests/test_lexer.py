"""The Pygments lexer of the rules DSL (tools/lexer.py): every spec lexes
without an error token and round-trips; every keyword of the grammar is
highlighted as a keyword; Pygments finds it by name and by file name."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Keyword, Name, Operator, String

from canastra_ref.paths import GRAMMAR, SPEC_DIR
from canastra_tools.lexer import CanastraLexer

SPECS = sorted(Path(SPEC_DIR).glob("*.canastra"))


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.name)
def test_every_spec_lexes_cleanly(path):
    text = path.read_text(encoding="utf-8")
    tokens = list(CanastraLexer().get_tokens(text))
    assert [v for t, v in tokens if t in Error] == []
    assert "".join(v for _, v in tokens) == text


def test_every_grammar_keyword_is_a_keyword():
    grammar = Path(GRAMMAR).read_text(encoding="utf-8")
    words = set(re.findall(r'"([a-z]+)"', grammar)) | set(re.findall(r'^\w+: "([a-z]+)"$', grammar, re.M))
    assert {"ruleset", "article", "dispute", "when", "under", "and", "yes", "override"} <= words
    for word in sorted(words):
        kinds = [t for t, v in CanastraLexer().get_tokens(f"x = {word} y") if v == word]
        assert kinds and (kinds[0] in Keyword or kinds[0] in Operator.Word), word


def test_what_it_highlights():
    line = 'opening.minimum = 75 when team.score <= 2490 @7 under opening-points.all-melds  # why'
    tokens = [(t, v) for t, v in CanastraLexer().get_tokens(line) if v.strip()]
    assert ("Token.Name.Label", "@7") in [(str(t), v) for t, v in tokens]
    assert (Keyword, "when") in tokens and (Keyword, "under") in tokens
    assert tokens[-1][0] in Comment and tokens[-1][1].strip() == "# why"
    text = 'dispute aces-suit "must the aces share a suit?" on 27'
    kinds = {v: t for t, v in CanastraLexer().get_tokens(text)}
    assert kinds["aces-suit"] in Name.Entity and kinds['"must the aces share a suit?"'] in String


def test_pygments_finds_it():
    assert isinstance(get_lexer_by_name("canastra"), CanastraLexer)
    assert isinstance(get_lexer_for_filename("spec/cbc.canastra"), CanastraLexer)
