"""Reading the YAML a person wrote (fixture files, situations, expected-failures
files): plain data (mappings, lists, strings, numbers, true/false, null), with
the line and column of every value, and nothing a file can do to the reader.

The one loader of the project's YAML input. It builds the data from the
parser's events itself, without recursion, and refuses with a CanastraError
at file:line:column:

- tags other than YAML's plain ones (`!!python/...`, `!!binary`, `!foo`), and
  values their tag does not fit (`!!int abc`, `!!bool 15`);
- integers beyond ±(2^53 − 1) (checked before Python converts them), NaN and
  infinities (not JSON, and no implementation is sent them);
- nesting deeper than MAX_DEPTH, more than MAX_ALIASES aliases, more than
  MAX_VALUES values once aliases are expanded (a "billion laughs" file stops
  there), an alias of a value that contains it;
- duplicate keys, keys that are not plain values, several documents in a file.

Dates stay strings (YAML 1.2, like JSON, has no timestamps), and `<<` is an
ordinary key. Paths in the positions map are JSON paths: `$`, `$[0].state`.
"""
from __future__ import annotations

import copy
import math
from pathlib import Path

import yaml

from canastra_ref.errors import CanastraError, SourcePosition
from canastra_ref.files import read_text
from canastra_ref.limits import MAX_ALIASES, MAX_DEPTH, MAX_INT, MAX_VALUES

# libyaml's parser when PyYAML has it: ten times faster, the same events and
# marks, and bounded on deep flow nesting where the pure-Python scanner is not.
_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_TAG = "tag:yaml.org,2002:"
_PLAIN_DATA = "plain data: mappings, lists, strings, numbers, true/false and null"


class _Resolver(yaml.resolver.Resolver):
    """YAML 1.1's implicit types as PyYAML's safe loader has them, but dates
    and the merge key: those stay strings."""


_Resolver.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in (_TAG + "timestamp", _TAG + "merge")]
    for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}

_RESOLVER = _Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def load(path: Path | str, what: str = "") -> tuple[object, dict[str, tuple[int, int]], list[str]]:
    """(data, positions, lines) of a YAML file (`what` names it in errors:
    "the skip file"); CanastraError on any problem."""
    text = read_text(path, what)
    data, positions = parse(text, str(path))
    return data, positions, text.splitlines()


def parse(text: str, filename: str) -> tuple[object, dict[str, tuple[int, int]]]:
    """(data, a map JSON path -> (line, column) of every value) of YAML text."""
    builder = _Builder(filename, text.splitlines())
    try:
        for event in yaml.parse(text, Loader=_FAST):
            builder.add(event)
    except yaml.YAMLError as exc:
        _syntax_error(exc, text, filename)
    return builder.result()


class _Frame:
    __slots__ = ("path", "value", "key", "key_mark", "anchor", "start")

    def __init__(self, path: str, value, anchor: str | None, start: int):
        self.path, self.value, self.anchor, self.start = path, value, anchor, start
        self.key = self.key_mark = None


class _Builder:
    def __init__(self, filename: str, lines: list[str]):
        self.filename, self.lines = filename, lines
        self.stack: list[_Frame] = []
        self.positions: dict[str, tuple[int, int]] = {}
        self.anchors: dict[str, tuple[object, int]] = {}     # name -> (value, values it holds)
        self.values = 0
        self.aliases = 0
        self.documents = 0
        self.root = None

    def fail(self, message: str, mark, expected: str | None = None):
        line = mark.line + 1
        raise CanastraError(message, position=SourcePosition(self.filename, line, mark.column + 1),
                            source_line=self.lines[line - 1] if line <= len(self.lines) else None,
                            expected=expected)

    def result(self):
        return self.root, self.positions

    # ------------------------------------------------------------ events
    def add(self, event) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self.fail("a second YAML document in the file", event.start_mark, "one document per file")
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            self._open(event)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            frame = self.stack.pop()
            if frame.anchor:
                self.anchors[frame.anchor] = (frame.value, self.values - frame.start)
            self._place(frame.value, event.start_mark, opened=frame)
        elif isinstance(event, yaml.ScalarEvent):
            self._scalar(event)
        elif isinstance(event, yaml.AliasEvent):
            self._alias(event)

    def _path(self) -> str:
        """The JSON path of the value about to be placed (the next key is no value)."""
        if not self.stack:
            return "$"
        frame = self.stack[-1]
        if isinstance(frame.value, list):
            return f"{frame.path}[{len(frame.value)}]"
        return f"{frame.path}.{frame.key}"

    def _wants_key(self) -> bool:
        return bool(self.stack) and isinstance(self.stack[-1].value, dict) and self.stack[-1].key is None

    def _count(self, n: int, mark) -> None:
        self.values += n
        if self.values > MAX_VALUES:
            self.fail(f"the file holds more than {MAX_VALUES:,} values (aliases expanded)", mark,
                      "a smaller file, or fewer aliases of large values")

    def _open(self, event) -> None:
        mapping = isinstance(event, yaml.MappingStartEvent)
        if self._wants_key():
            self.fail("a key must be a plain value, not a " + ("mapping" if mapping else "list"), event.start_mark)
        if event.tag not in (None, "!", _TAG + ("map" if mapping else "seq")):
            self.fail(f"the tag {event.tag} is not allowed", event.start_mark, _PLAIN_DATA)
        if len(self.stack) >= MAX_DEPTH:
            self.fail(f"lists and mappings nested more than {MAX_DEPTH} deep", event.start_mark,
                      f"at most {MAX_DEPTH} levels")
        self._count(1, event.start_mark)
        path = self._path()
        self.positions[path] = (event.start_mark.line + 1, event.start_mark.column + 1)
        self.stack.append(_Frame(path, {} if mapping else [], event.anchor, self.values))

    def _place(self, value, mark, opened: _Frame | None = None) -> None:
        if not opened:
            self.positions[self._path()] = (mark.line + 1, mark.column + 1)
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        if isinstance(frame.value, list):
            frame.value.append(value)
        else:
            frame.value[frame.key] = value
            frame.key = None

    def _scalar(self, event) -> None:
        if self._wants_key():
            frame = self.stack[-1]
            if event.tag not in (None, "!") and not event.tag.startswith(_TAG):
                self.fail(f"the tag {event.tag} is not allowed", event.start_mark, _PLAIN_DATA)
            if event.value in frame.value:
                self.fail(f"duplicate key {event.value!r}", event.start_mark)
            if event.anchor:
                self.anchors[event.anchor] = (event.value, 1)
            frame.key, frame.key_mark = event.value, event.start_mark
            return
        self._count(1, event.start_mark)
        value = self._construct(event)
        if event.anchor:
            self.anchors[event.anchor] = (value, 1)
        self._place(value, event.start_mark)

    def _alias(self, event) -> None:
        if self._wants_key():
            self.fail("a key must be a plain value, not an alias", event.start_mark)
        if any(frame.anchor == event.anchor for frame in self.stack):
            self.fail(f"the alias *{event.anchor} repeats a value that contains it", event.start_mark,
                      "an alias of a value that is complete")
        if event.anchor not in self.anchors:
            self.fail(f"no anchor &{event.anchor} before this alias", event.start_mark)
        self.aliases += 1
        if self.aliases > MAX_ALIASES:
            self.fail(f"more than {MAX_ALIASES} aliases in the file", event.start_mark,
                      f"at most {MAX_ALIASES} aliases (*name)")
        value, size = self.anchors[event.anchor]
        self._count(size, event.start_mark)
        self._place(copy.deepcopy(value), event.start_mark)

    # ------------------------------------------------------------ scalars
    def _construct(self, event):
        tag = event.tag
        if tag in (None, "!"):
            tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)
        kind = tag[len(_TAG):] if tag.startswith(_TAG) else None
        if kind not in ("str", "null", "bool", "int", "float"):
            self.fail(f"the tag {tag} is not allowed", event.start_mark, _PLAIN_DATA)
        if kind == "str":
            return event.value
        if kind == "null":
            return None
        text = event.value.strip()
        if kind == "bool":
            value = _CONSTRUCTOR.bool_values.get(text.lower())
            if value is None:
                self.fail(f"{event.value!r} is not a boolean", event.start_mark, "true or false")
            return value
        if kind == "int":
            digits = text.lstrip("+-").replace("_", "")
            if len(digits) > len(str(MAX_INT)) + 2:          # a prefix (0x, 0o, 0b) at most
                self.fail(f"the number {_shorten(text)} is too large", event.start_mark,
                          f"an integer between -{MAX_INT:,} and {MAX_INT:,}")
        try:
            value = getattr(_CONSTRUCTOR, f"construct_yaml_{kind}")(yaml.ScalarNode(tag, event.value))
        except (ValueError, TypeError, KeyError, IndexError, yaml.YAMLError):
            self.fail(f"{event.value!r} is not {'an integer' if kind == 'int' else 'a number'}", event.start_mark)
        if kind == "int" and abs(value) > MAX_INT:
            self.fail(f"the number {_shorten(text)} is too large", event.start_mark,
                      f"an integer between -{MAX_INT:,} and {MAX_INT:,}")
        if kind == "float" and not math.isfinite(value):
            self.fail(f"{event.value!r} is not a finite number", event.start_mark,
                      "a number (NaN and infinities are not JSON)")
        return value


def _shorten(text: str, limit: int = 20) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _syntax_error(exc: yaml.YAMLError, text: str, filename: str):
    lines = text.splitlines()
    if isinstance(exc, yaml.reader.ReaderError):          # a character YAML does not allow
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise CanastraError(f"not valid YAML: the character {chr(exc.character)!r} is not allowed",
                            position=SourcePosition(filename, line, column),
                            source_line=lines[line - 1] if line <= len(lines) else None,
                            expected="printable characters (in a double-quoted string, write a control "
                                     "character as an escape such as \\x1b)") from None
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    raise CanastraError(f"not valid YAML: {problem}" + (f" ({context})" if context else ""),
                        position=SourcePosition(filename, mark.line + 1, mark.column + 1) if mark else None,
                        source_line=lines[mark.line] if mark and mark.line < len(lines) else None) from None
