"""The project's one error family and how its messages are rendered.

Every problem with user input (a spec, a fixture, a state, an action, a
protocol message) is raised as a CanastraError carrying where it happened
(file:line:column, or a JSON path) and what was expected. The CLI prints these
and never a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .display import printable

SHOWN_COLUMNS = 160          # of an offending line, around the column at fault


@dataclass(frozen=True)
class SourcePosition:
    """Where a piece of spec text sits: file, 1-based line and column, and the
    end of its span on the same line (for the caret underline)."""

    file: str
    line: int
    column: int
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class CanastraError(Exception):
    """Base of every error the project reports to a user."""

    def __init__(self, message: str, *, position: SourcePosition | None = None,
                 json_path: str | None = None, expected: str | None = None,
                 source_line: str | None = None):
        super().__init__(message)
        self.message = message
        self.position = position
        self.json_path = json_path
        self.expected = expected
        self.source_line = source_line

    def render(self) -> str:
        """file:line:column: message, the offending line, a caret, what was expected."""
        where = ""
        if self.position is not None:
            where = f"{self.position}: "
        elif self.json_path is not None:
            where = f"{self.json_path}: "
        lines = [f"{where}error: {self.message}"]
        if self.position is not None and self.source_line is not None:
            number = str(self.position.line)
            gutter = " " * len(number)
            text = printable(self.source_line.rstrip("\n").expandtabs(1), newlines=False)
            start = max(self.position.column - 1, 0)
            end = self.position.end_column or self.position.column + 1
            width = max(end - self.position.column, 1)
            if len(text) > SHOWN_COLUMNS:         # a long line: the part around the column
                first = max(min(start - SHOWN_COLUMNS // 2, len(text) - SHOWN_COLUMNS), 0)
                cut = ("..." if first else "") + text[first:first + SHOWN_COLUMNS] \
                    + ("..." if first + SHOWN_COLUMNS < len(text) else "")
                start, width = start - first + (3 if first else 0), min(width, SHOWN_COLUMNS)
                text = cut
            lines.append(f" {number} | {text}")
            lines.append(f" {gutter} | {' ' * start}{'^' * width}")
        if self.expected:
            lines.append(f"  expected {self.expected}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


class SpecError(CanastraError):
    """A syntax or semantic error in a rules DSL file."""


class RuleError(CanastraError):
    """A well-formed spec that cannot decide a question at run time: no clause
    applies, or two clauses (or two exceptions) both apply."""


class InputError(CanastraError):
    """Malformed state, action, fixture or protocol message (located by JSON path)."""


@dataclass
class ErrorList(Exception):
    """Several errors found in one pass; reported together, in source order."""

    errors: list[CanastraError] = field(default_factory=list)

    def render(self) -> str:
        return "\n\n".join(e.render() for e in self.errors)

    def __str__(self) -> str:
        return self.render()
