"""Spec text -> syntax tree (canastra_ref.dsl.ast), with syntax errors that name
file:line:column, show the line with a caret and say what was expected."""
from __future__ import annotations

import re
from functools import lru_cache

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..errors import SourcePosition, SpecError
from ..limits import MAX_EXPRESSION_DEPTH, MAX_INT
from ..paths import GRAMMAR
from . import ast

# How an expected terminal reads in an error message.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": 'a quoted string ("...")',
    "CITATION": "a citation such as @7",
    "ARTICLE_ID": "an article id such as 7 or basico.baralhos",
    "_NL": "the end of the line",
    "$END": "the end of the file",
    "COMPARE": "a comparison (== != < <= > >=)",
    "PLUS": "'+'", "MINUS": "'-'", "TIMES": "'*'", "DIVIDE": "'/'",
}


LARK_OPTIONS = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True, "maybe_placeholders": True}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # Not Lark's cache=True: it unpickles a file of the shared temp directory
    # that anyone can plant; building the parser costs about 0.05 s.
    return Lark(GRAMMAR.read_text(encoding="utf-8"), cache=False, **LARK_OPTIONS)


def _describe(names: set[str]) -> str:
    parser = _parser()
    words = set()
    for name in names:
        if name in _TERMINAL_WORDS:
            words.add(_TERMINAL_WORDS[name])
            continue
        term = parser.get_terminal(name) if name in {t.name for t in parser.terminals} else None
        if term is not None and term.pattern.type == "str":
            words.add(f"'{term.pattern.value}'")
        else:
            words.add(name.lower())
    ordered = sorted(words)
    if len(ordered) == 1:
        return ordered[0]
    return "one of: " + ", ".join(ordered)


class _Builder(Transformer):
    """Parse tree -> ast nodes. Positions come from tokens or Lark's meta."""

    def __init__(self, filename: str):
        super().__init__()
        self.filename = filename

    # positions
    def _tok(self, token: Token) -> SourcePosition:
        return SourcePosition(self.filename, token.line, token.column, token.end_column)

    def _meta(self, meta) -> SourcePosition:
        end = meta.end_column if getattr(meta, "end_line", None) == getattr(meta, "line", None) else None
        return SourcePosition(self.filename, getattr(meta, "line", 1), getattr(meta, "column", 1), end)

    def _string(self, token: Token) -> str:
        """The text of a STRING token: \\" is a quote, \\\\ a backslash, no other escape."""
        def unescape(match: re.Match) -> str:
            if match.group(1) in '"\\':
                return match.group(1)
            column = token.column + 1 + match.start()
            raise SpecError(f"unknown escape '\\{match.group(1)}' in a string",
                            position=SourcePosition(self.filename, token.line, column, column + 2),
                            expected='\\" for a quote or \\\\ for a backslash (a string takes no other escape)')
        return _ESCAPE.sub(unescape, str(token)[1:-1])

    def _number(self, token: Token) -> int:
        """An INT token's value, refused beyond MAX_INT (before Python converts it)."""
        digits = str(token).lstrip("0")
        if len(digits) > len(str(MAX_INT)) or int(digits or "0") > MAX_INT:
            raise SpecError(f"the number {_shorten(str(token))} is too large", position=self._tok(token),
                            expected=f"a number of at most {MAX_INT:,}")
        return int(digits or "0")

    # expressions
    @v_args(meta=True)
    def int(self, meta, children):
        return ast.Int(self._meta(meta), self._number(children[0]))

    @v_args(meta=True)
    def true(self, meta, children):
        return ast.Bool(self._meta(meta), True)

    @v_args(meta=True)
    def false(self, meta, children):
        return ast.Bool(self._meta(meta), False)

    @v_args(meta=True)
    def path(self, meta, children):
        parts: list = []
        for child in children:
            parts.append(child if isinstance(child, tuple) else str(child))
        if any(isinstance(p, tuple) for p in parts):
            return ("path-with-range", self._meta(meta), tuple(parts))
        return ast.Name(self._meta(meta), tuple(parts))

    def segment_range(self, children):
        return ("range", str(children[0]), str(children[1]))

    @v_args(meta=True)
    def range(self, meta, children):
        return ast.Range(self._meta(meta), str(children[0]), str(children[1]))

    @v_args(meta=True)
    def list(self, meta, children):
        return ast.ListExpr(self._meta(meta), tuple(c for c in children if c is not None))

    @v_args(meta=True)
    def not_(self, meta, children):
        return ast.Unary(self._meta(meta), "not", children[0])

    @v_args(meta=True)
    def neg(self, meta, children):
        return ast.Unary(self._meta(meta), "-", children[1])

    @v_args(meta=True)
    def index(self, meta, children):
        return ast.Index(self._meta(meta), children[0], children[1])

    def _chain(self, meta, children, ops=None):
        # children alternate operand, operator token, operand ... (or plain operands
        # for and/or, whose keywords are filtered out by Lark)
        pos = self._meta(meta)
        if ops is not None:
            result = children[0]
            for child in children[1:]:
                result = ast.Binary(pos, ops, result, child)
            return result
        result = children[0]
        for i in range(1, len(children), 2):
            result = ast.Binary(pos, str(children[i]), result, children[i + 1])
        return result

    @v_args(meta=True)
    def or_expr(self, meta, children):
        return self._chain(meta, children, "or")

    @v_args(meta=True)
    def and_expr(self, meta, children):
        return self._chain(meta, children, "and")

    @v_args(meta=True)
    def comparison(self, meta, children):
        return self._chain(meta, children)

    @v_args(meta=True)
    def sum(self, meta, children):
        return self._chain(meta, children)

    @v_args(meta=True)
    def product(self, meta, children):
        return self._chain(meta, children)

    @v_args(meta=True)
    def ladder(self, meta, children):
        numbers = [self._number(c) for c in children if c.type == "INT"]
        has_then = any(c.type == "PLUS" for c in children)
        steps = tuple(numbers[:-1]) if has_then else tuple(numbers)
        return ast.Ladder(self._meta(meta), steps, numbers[-1] if has_then else None)

    # statements
    def citation(self, children):
        token = children[0]
        return ast.Citation(str(token)[1:], self._tok(token))

    @v_args(meta=True)
    def when(self, meta, children):
        return ast.Guard("when", children[0], pos=self._meta(meta))

    @v_args(meta=True)
    def unless(self, meta, children):
        return ast.Guard("unless", children[0], pos=self._meta(meta))

    @v_args(meta=True)
    def under(self, meta, children):
        return ast.Guard("under", dispute=str(children[0]), reading=str(children[1]), pos=self._meta(meta))

    def label(self, children):
        return ("label", children[0])

    def modifier(self, children):
        return ("modifier", children[0])

    @v_args(meta=True)
    def header(self, meta, children):
        extends = children[2] if len(children) > 2 else None
        return ("header", self._tok(children[0]), str(children[0]), self._string(children[1]), extends)

    def extends(self, children):
        return (str(children[0]), self._tok(children[0]))

    @v_args(meta=True)
    def source(self, meta, children):
        return ("source", self._string(children[0]))

    @v_args(meta=True)
    def source_section(self, meta, children):
        return ast.SourceSection(self._string(children[0]), self._string(children[1]), str(children[2]),
                                 self._tok(children[2]))

    @v_args(meta=True)
    def article(self, meta, children):
        return ast.Article(str(children[0]), self._string(children[1]), None, self._tok(children[0]))

    @v_args(meta=True)
    def informative(self, meta, children):
        return ast.Article(str(children[0]), self._string(children[1]), self._string(children[2]),
                           self._tok(children[0]))

    @v_args(meta=True)
    def reading(self, meta, children):
        return ast.Reading(str(children[0]), self._string(children[1]), self._tok(children[0]))

    @v_args(meta=True)
    def default(self, meta, children):
        return ("default", str(children[0]), self._string(children[1]), self._tok(children[0]))

    @v_args(meta=True)
    def dispute(self, meta, children):
        name, question, *rest = children
        articles = tuple(ast.Citation(str(t), self._tok(t)) for t in rest if isinstance(t, Token))
        readings = tuple(r for r in rest if isinstance(r, ast.Reading))
        _, default, reason, default_pos = next(r for r in rest if isinstance(r, tuple))
        return ast.Dispute(str(name), self._string(question), articles, readings, default, reason,
                           self._tok(name), default_pos)

    @v_args(meta=True)
    def definition(self, meta, children):
        name, expr, *rest = children
        return ast.Definition(str(name), expr,
                              tuple(r for r in rest if isinstance(r, ast.Guard)),
                              tuple(r for r in rest if isinstance(r, ast.Citation)),
                              self._tok(name))

    @v_args(meta=True)
    def unstated(self, meta, children):
        return ("unstated", children[0], self._string(children[1]), self._meta(meta))

    @v_args(meta=True)
    def clause(self, meta, children):
        rest = list(children)
        modifier = str(rest.pop(0)[1]) if _tagged(rest[0], "modifier") else None
        label = str(rest.pop(0)[1]) if _tagged(rest[0], "label") else None
        setting, value, *tail = rest
        guards = tuple(t for t in tail if isinstance(t, ast.Guard))
        cites = tuple(t for t in tail if isinstance(t, ast.Citation))
        return ("clause", label, modifier, setting, value, guards, cites, self._meta(meta))


_ESCAPE = re.compile(r"\\(.)")


def _shorten(text: str, limit: int = 20, unit: str = "digits") -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} {unit})"


def _tagged(item, tag: str) -> bool:
    return isinstance(item, tuple) and item[0] == tag


def _expand_setting(setting) -> list[tuple[str, ast.Name | tuple]]:
    """A setting path with a rank range (points.4..7) -> one path per rank."""
    from ..cards import RANKS, dsl_rank, rank_label
    if isinstance(setting, ast.Name):
        return [(setting.dotted, setting.pos)]
    _, pos, parts = setting
    paths = [[]]
    for part in parts:
        if isinstance(part, tuple):
            low, high = dsl_rank(part[1]), dsl_rank(part[2])
            if low is None or high is None or RANKS.index(low) > RANKS.index(high):
                raise SpecError(f"'{part[1]}..{part[2]}' is not a rank range", position=pos,
                                expected="a low rank and a higher rank, such as 4..7 or 8..K")
            span = [rank_label(r) for r in RANKS[RANKS.index(low):RANKS.index(high) + 1]]
            paths = [p + [r] for p in paths for r in span]
        else:
            paths = [p + [part] for p in paths]
    return [(".".join(p), pos) for p in paths]


def parse_text(text: str, filename: str = "<spec>") -> ast.SpecFile:
    """Parse spec text; raise SpecError (with position and caret) on bad syntax."""
    lines = tuple(text.splitlines())
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, filename, lines) from None
    _check_nesting(tree, filename, lines)
    try:
        items = _Builder(filename).transform(tree).children
    except VisitError as exc:
        if isinstance(exc.orig_exc, SpecError):
            raise _with_line(exc.orig_exc, lines) from None
        raise
    header = next(i for i in items if isinstance(i, tuple) and i[0] == "header")
    _, header_pos, ruleset, title, extends = header
    articles, disputes, definitions, clauses, unstated, source_sections = [], [], [], [], [], []
    source = None
    for item in items:
        if isinstance(item, ast.Article):
            articles.append(item)
        elif isinstance(item, ast.Dispute):
            disputes.append(item)
        elif isinstance(item, ast.Definition):
            definitions.append(item)
        elif isinstance(item, tuple) and item[0] == "source":
            source = item[1]
        elif isinstance(item, ast.SourceSection):
            source_sections.append(item)
        elif isinstance(item, tuple) and item[0] == "unstated":
            _, setting, reason, pos = item
            try:
                expanded = _expand_setting(setting)
            except SpecError as exc:
                raise _with_line(exc, lines) from None
            unstated += [ast.Unstated(path, reason, pos, setting_pos, ruleset) for path, setting_pos in expanded]
        elif isinstance(item, tuple) and item[0] == "clause":
            _, label, modifier, setting, value, guards, cites, pos = item
            try:
                expanded = _expand_setting(setting)
            except SpecError as exc:
                raise _with_line(exc, lines) from None
            for path, setting_pos in expanded:
                clauses.append(ast.Clause(path, value, guards, cites, pos, label, modifier,
                                          ruleset, setting_pos))
    return ast.SpecFile(filename, ruleset, title, extends[0] if extends else None, source,
                        tuple(articles), tuple(disputes), tuple(definitions), tuple(clauses),
                        header_pos, extends[1] if extends else None, lines, tuple(unstated),
                        tuple(source_sections))


# Rules whose nodes are levels of an expression; the operators of a chain
# (a + b - c) nest their operands left to right: ((a + b) - c).
_EXPRESSIONS = {"or_expr", "and_expr", "not_", "comparison", "sum", "product", "neg", "index", "list",
                "range", "int", "true", "false", "path"}
_CHAINS = {"or_expr", "and_expr", "comparison", "sum", "product"}


def _check_nesting(tree: Tree, filename: str, lines: tuple[str, ...]) -> None:
    """Refuse an expression nested deeper than MAX_EXPRESSION_DEPTH, before
    anything walks the tree recursively. Iterative: any depth is measured."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data in _EXPRESSIONS:
            depth += 1
            if depth > MAX_EXPRESSION_DEPTH:
                line, column = node.meta.line, node.meta.column
                raise SpecError(f"this expression is nested more than {MAX_EXPRESSION_DEPTH} levels deep",
                                position=SourcePosition(filename, line, column),
                                source_line=lines[line - 1] if 1 <= line <= len(lines) else None,
                                expected="a shallower expression (name its parts with def)")
        operands = [child for child in node.children if isinstance(child, Tree)]
        chained = node.data in _CHAINS
        for i, child in reversed(list(enumerate(operands))):      # the leftmost first
            stack.append((child, depth + (len(operands) - 1 - max(i, 1) if chained else 0)))


def _with_line(error: SpecError, lines: tuple[str, ...]) -> SpecError:
    if error.position is not None and error.source_line is None and 1 <= error.position.line <= len(lines):
        error.source_line = lines[error.position.line - 1]
    return error


def _syntax_error(exc: UnexpectedInput, text: str, filename: str, lines: tuple[str, ...]) -> SpecError:
    line = getattr(exc, "line", None) or 1
    column = getattr(exc, "column", None) or 1
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "$END":
            line, column = max(len(lines), 1), len(lines[-1]) + 1 if lines else 1
            found = "the end of the file"
            end = None
        else:
            found = _found(token)
            end = token.end_column if token.end_line == token.line else None
        message = f"unexpected {found}"
        expected = _describe(set(exc.expected)) if exc.expected else None
        if token.type == "_NL" and exc.expected and "CITATION" in exc.expected:
            message = "unexpected end of the line"
    elif isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        message = f"unexpected character {char!r}"
        expected = _describe(set(exc.allowed)) if exc.allowed else None
        end = None
    elif isinstance(exc, UnexpectedEOF):
        message = "unexpected end of the file"
        expected = _describe(set(exc.expected)) if exc.expected else None
        line, column, end = max(len(lines), 1), 1, None
    else:  # pragma: no cover - Lark's three subclasses are handled above
        message, expected, end = str(exc), None, None
    pos = SourcePosition(filename, line, column, end)
    source_line = lines[line - 1] if 1 <= line <= len(lines) else ""
    return SpecError(message, position=pos, expected=expected, source_line=source_line)


def _found(token: Token) -> str:
    if token.type == "_NL":
        return "end of the line"
    if token.type == "INT":
        return f"number {_shorten(str(token))}"
    # a token may be as long as the file: the message shows its start (the caret marks it all)
    text = _shorten(str(token), 40, "characters")
    if token.type == "STRING":
        return f"string {text}"
    return f"'{text}'"
