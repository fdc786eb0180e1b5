"""A Pygments lexer for the rules DSL (`.canastra` files, grammar/canastra.lark).

Used by the report site to show clauses highlighted, and by any tool that
speaks Pygments once canastra-spec is installed (`pygmentize -l canastra
spec/cbc.canastra`; the `pygments.lexers` entry point registers it). The
keywords are those of the grammar; a test checks that every keyword the
grammar has is highlighted as one, and that every spec lexes without an
error token.
"""
from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

# Words that open a statement, or stand inside one.
STATEMENTS = ("ruleset", "extends", "source", "article", "informative", "dispute", "reading", "default",
              "unstated", "def")
CLAUSE_WORDS = ("because", "on", "when", "unless", "under", "override", "exception", "then", "section", "as")
OPERATOR_WORDS = ("and", "or", "not", "in")
CONSTANTS = ("yes", "no")

_ID = r"[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*"
_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*"


class CanastraLexer(RegexLexer):
    name = "Canastra rules DSL"
    aliases = ["canastra"]
    filenames = ["*.canastra"]
    url = "https://github.com/canastra-spec"

    tokens = {
        "root": [
            (r"[ \t]*#[^\n]*", Comment.Single),
            (r"\s+", Whitespace),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            (rf"@{_ID}", Name.Label),                                   # a citation: @7, @basico.baralhos
            (rf"\b(article|informative)(\s+)({_ID})", bygroups(Keyword.Declaration, Whitespace, Name.Label)),
            (rf"\b(dispute|reading|default|ruleset|extends|def)(\s+)({_NAME})",
             bygroups(Keyword.Declaration, Whitespace, Name.Entity)),
            (words(STATEMENTS, prefix=r"\b", suffix=r"\b(?!-)"), Keyword.Declaration),
            (words(CLAUSE_WORDS, prefix=r"\b", suffix=r"\b(?!-)"), Keyword),
            (words(OPERATOR_WORDS, prefix=r"\b", suffix=r"\b(?!-)"), Operator.Word),
            (words(CONSTANTS, prefix=r"\b", suffix=r"\b(?!-)"), Keyword.Constant),
            (rf"({_NAME})(\s*)(:)(?!=)", bygroups(Name.Label, Text, Punctuation)),   # a clause's label
            (r"->|\.\.|==|!=|<=|>=|[<>=+*/-]", Operator),
            (r"[0-9]+", Number.Integer),
            (_NAME, Name),
            (r"[.\[\](),:]", Punctuation),
        ],
    }
