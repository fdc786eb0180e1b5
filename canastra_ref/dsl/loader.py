"""Finding and loading rulesets by id, with caching.

A ruleset's id is its file name in the spec directory: spec/cbc.canastra holds
ruleset cbc. `load("cbc")` gives the Ruleset under default readings;
`load("cbc", {"aces-suit": "same-suit"})` under another reading.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..cache import cached, installed
from ..errors import ErrorList, InputError, SpecError
from ..files import read_text
from ..paths import GRAMMAR, SPEC_DIR, SPEC_SUFFIX
from . import ast
from . import settings as registry
from .build import build, chain
from .model import Ruleset


def available(directory: Path = SPEC_DIR) -> list[str]:
    """Ruleset ids in the spec directory, sorted."""
    return sorted(p.stem for p in Path(directory).glob("*" + SPEC_SUFFIX))


def _parse(path: str) -> ast.SpecFile:
    """The parsed file as its text is now: a file edited while the process runs
    is parsed again."""
    return _parsed(path, read_text(path, error=SpecError))


@lru_cache(maxsize=64)
def _parsed(path: str, text: str) -> ast.SpecFile:
    """A parse kept in memory by path and text, and on disk (canastra_ref.cache)
    by code, lark release, grammar, path and text."""
    inputs = (installed("lark"), GRAMMAR.read_text(encoding="utf-8"), path, text)
    return cached("spec", ("canastra_ref",), inputs, lambda: _parse_text(text, path),
                  encode=ast.to_json, decode=ast.from_json)


def _parse_text(text: str, path: str) -> ast.SpecFile:
    from .parser import parse_text  # lark loads only to parse: a parse found in the cache needs none
    return parse_text(text, path)


def spec_file(ruleset: str, directory: Path = SPEC_DIR) -> ast.SpecFile:
    path = Path(directory) / (ruleset + SPEC_SUFFIX)
    if not path.is_file():
        raise FileNotFoundError(str(path))
    return _named(_parse(str(path)), path)


def _named(spec: ast.SpecFile, path: Path) -> ast.SpecFile:
    """The spec of a file named after the ruleset it declares (its id is its file name)."""
    ruleset = path.name[:-len(SPEC_SUFFIX)] if path.name.endswith(SPEC_SUFFIX) else path.stem
    if spec.ruleset != ruleset:
        raise SpecError(f"file {path.name} declares ruleset '{spec.ruleset}'", position=spec.pos,
                        source_line=spec.line(spec.pos.line), expected=f"ruleset {ruleset} (the file's name)")
    return spec


def files_for(spec: ast.SpecFile, directory: Path = SPEC_DIR) -> list[ast.SpecFile]:
    return chain(spec, lambda rid: spec_file(rid, directory))


@lru_cache(maxsize=None)
def _load(ruleset: str, readings: tuple[tuple[str, str], ...], directory: str) -> Ruleset:
    if not Path(directory).is_dir():
        raise InputError(f"no spec directory at {directory}")
    known = available(Path(directory))
    if ruleset not in known:
        raise InputError(f"unknown ruleset '{ruleset}'",
                         expected="one of: " + ", ".join(known) if known else f"a {SPEC_SUFFIX} file in {directory}")
    return build(files_for(spec_file(ruleset, Path(directory)), Path(directory)), dict(readings))


def load(ruleset: str, readings: dict[str, str] | None = None, directory: Path = SPEC_DIR) -> Ruleset:
    """The composed ruleset; raises InputError, SpecError or ErrorList."""
    return _load(ruleset, tuple(sorted((readings or {}).items())), str(directory))


def check_file(path: Path, directory: Path | None = None, strict: bool = False) -> tuple[list[str], list]:
    """Validate one spec file under its default readings and under every other
    reading of every dispute; with `strict`, also demand that no setting the
    engine reads falls silently to its default (canastra_ref.dsl.strict).
    Returns (the readings checked, errors)."""
    errors: list = []
    checked: list[str] = []
    try:
        spec = _named(_parse(str(path)), Path(path))
        files = chain(spec, lambda rid: spec_file(rid, Path(directory or path.parent)))
    except (SpecError, ErrorList) as exc:
        return checked, _flatten(exc)
    variants: list[dict[str, str]] = [{}]
    try:
        base = build(files, {})
    except ErrorList as exc:
        return ["default"], list(exc.errors)
    checked.append("default")
    for name, dispute in base.disputes.items():
        for reading in dispute.readings:
            if reading.name != dispute.default:
                variants.append({name: reading.name})
    seen = {(str(e.position), e.message) for e in errors}
    built = [("default", base)]
    for variant in variants[1:]:
        label = ",".join(f"{d}={r}" for d, r in variant.items())
        checked.append(label)
        try:
            built.append((label, build(files, variant)))
        except ErrorList as exc:
            for e in exc.errors:
                if (str(e.position), e.message) not in seen:
                    seen.add((str(e.position), e.message))
                    errors.append(e)
    if strict:
        errors += _strict_errors(spec, built)
    return checked, errors


def _strict_errors(spec: ast.SpecFile, built: list[tuple[str, Ruleset]]) -> list[SpecError]:
    """Silent defaults over every reading checked (each error once, naming the
    readings it holds under when not all), and this file's `unstated` entries
    that no reading reads."""
    from . import strict

    def lines_of(pos):
        return spec.line(pos.line) if pos is not None and pos.file == spec.path else None
    found: dict[tuple[str, str], tuple[SpecError, list[str]]] = {}
    read: set[str] = set()
    for label, ruleset in built:
        read |= set(strict.read_settings(ruleset))
        for error in strict.silent_defaults(ruleset, spec.pos, lines_of):
            found.setdefault((str(error.position), error.message), (error, []))[1].append(label)
    errors = []
    for error, labels in found.values():
        if len(labels) < len(built):
            error.message += f" (under reading{'s' if len(labels) > 1 else ''} {'; '.join(labels)})"
        errors.append(error)
    for entry in spec.unstated:
        if entry.setting in read:
            continue
        setting = registry.find(entry.setting)
        why = f"it is read only {setting.read_text()}" if setting is not None and setting.read_when else \
            "this ruleset declares no kind or wild card it names" if setting is not None and "<" in setting.pattern \
            else "it is never read in play"
        errors.append(SpecError(f"'{entry.setting}' is listed unstated, but the engine never reads it while "
                                f"playing {spec.ruleset} under any reading: {why}", position=entry.setting_pos,
                                source_line=lines_of(entry.setting_pos),
                                expected="no entry for a setting that is not read"))
    return errors


def _flatten(exc) -> list:
    return list(exc.errors) if isinstance(exc, ErrorList) else [exc]
