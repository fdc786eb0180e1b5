"""The on-disk cache (canastra_ref/cache.py) holds verified data, never pickles:
whatever sits in its place (a corruption, another entry, a FIFO, a symlink, a
planted pickle) is ignored and the value computed again, with no error and no
hang; a change of code gives new keys. Lark's own pickle cache is not used."""
from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from lark import Lark

from canastra_ref import cache
from canastra_ref.dsl import ast, check_cache, loader, parser
from canastra_ref.paths import GRAMMAR, SPEC_DIR

CODE = ("canastra_ref",)


class Counter:
    def __init__(self, value):
        self.value, self.calls = value, 0

    def __call__(self):
        self.calls += 1
        return self.value


class Planted:
    """Unpickling this touches a file: the proof that a pickle was loaded."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


@pytest.fixture
def where(tmp_path, monkeypatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("CANASTRA_CACHE_DIR", str(directory))
    monkeypatch.delenv("CANASTRA_CACHE", raising=False)
    return directory


def entries(directory: Path, kind: str = "k") -> list[Path]:
    return sorted((directory / kind).glob("*.json"))


def test_a_value_is_stored_once_and_read_back(where):
    compute = Counter({"a": [1, 2, "é"]})
    assert cache.cached("k", CODE, ("x",), compute) == {"a": [1, 2, "é"]}
    assert cache.cached("k", CODE, ("x",), compute) == {"a": [1, 2, "é"]}
    assert compute.calls == 1
    [entry] = entries(where)
    assert entry.read_bytes().split(b"\n", 1)[1] == '{"a":[1,2,"é"]}'.encode()
    assert cache.cached("k", CODE, ("y",), compute) and compute.calls == 2        # other inputs, other key


def test_turned_off(where, monkeypatch):
    monkeypatch.setenv("CANASTRA_CACHE", "0")
    compute = Counter([1])
    cache.cached("k", CODE, ("x",), compute)
    cache.cached("k", CODE, ("x",), compute)
    assert compute.calls == 2 and not where.exists()


def test_a_value_that_is_not_json_is_returned_unstored(where):
    compute = Counter({"when": object()})
    assert cache.cached("k", CODE, ("x",), compute) is compute.value
    assert cache.cached("k", CODE, ("x",), compute) is compute.value
    assert compute.calls == 2 and not entries(where)


def _corruptions(data: bytes) -> dict[str, bytes]:
    header, payload = data.split(b"\n", 1)
    return {"empty": b"", "random": os.urandom(200), "truncated": data[: len(data) // 2],
            "no header": payload, "payload changed": header + b"\n" + payload.replace(b"1", b"7"),
            "header changed": header.replace(b'"key":"', b'"key":"0') + b"\n" + payload,
            "not utf-8": header + b"\n" + b"\xff\xfe" + payload}


@pytest.mark.parametrize("corruption", list(_corruptions(b"h\np")))
def test_a_corrupted_entry_is_ignored(where, corruption):
    compute = Counter([1, 2, 3])
    cache.cached("k", CODE, ("x",), compute)
    [entry] = entries(where)
    entry.write_bytes(_corruptions(entry.read_bytes())[corruption])
    assert cache.cached("k", CODE, ("x",), compute) == [1, 2, 3]
    assert compute.calls == 2
    assert cache.cached("k", CODE, ("x",), compute) == [1, 2, 3] and compute.calls == 2   # written anew


def test_an_entry_that_does_not_decode_is_ignored(where):
    compute = Counter({"x": 1})

    def decode(data):
        if decode.broken:
            raise KeyError("y")
        return data
    decode.broken = False
    cache.cached("k", CODE, ("x",), compute, decode=decode)
    decode.broken = True
    assert cache.cached("k", CODE, ("x",), compute, decode=decode) == {"x": 1}
    assert compute.calls == 2


def test_an_entry_swapped_for_another_is_ignored(where):
    cache.cached("k", CODE, ("a",), lambda: "value of a")
    [a] = entries(where)
    cache.cached("k", CODE, ("b",), lambda: "value of b")
    [b] = [e for e in entries(where) if e != a]
    shutil.copyfile(a, b)
    assert cache.cached("k", CODE, ("b",), lambda: "value of b") == "value of b"


def test_a_swapped_spec_entry_does_not_change_check(where):
    """The reproducer of issue 17: cbc's parse copied over classica's key."""
    def check(name):
        loader._parsed.cache_clear()
        return loader.check_file(SPEC_DIR / f"{name}.canastra")
    readings = {name: check(name)[0] for name in ("cbc", "classica")}
    assert len(readings["cbc"]) != len(readings["classica"])
    by_ruleset = {}
    for entry in entries(where, "spec"):
        ruleset = "cbc" if b'"ruleset":"cbc"' in entry.read_bytes() else "other"
        by_ruleset.setdefault(ruleset, []).append(entry)
    for other in by_ruleset["other"]:
        shutil.copyfile(by_ruleset["cbc"][0], other)
    assert check("classica") == (readings["classica"], [])


@pytest.fixture
def checks(monkeypatch) -> list:
    """The checks the loader really makes (the others came from the cache)."""
    made = []
    real = loader.check_file

    def counting(path, directory=None, strict=False):
        made.append((Path(path).name, strict))
        return real(path, directory, strict)
    monkeypatch.setattr(loader, "check_file", counting)
    return made


def test_a_passed_check_is_answered_from_the_cache(where, checks, tmp_path):
    for name in ("classica", "classica-2p"):
        shutil.copyfile(SPEC_DIR / f"{name}.canastra", tmp_path / f"{name}.canastra")
    child = tmp_path / "classica-2p.canastra"
    first = check_cache.check_file(child)
    assert first[1] == [] and len(first[0]) > 1
    assert check_cache.check_file(child) == first
    assert checks == [("classica-2p.canastra", False)]
    check_cache.check_file(child, strict=True)                 # another flag: checked
    assert checks[-1] == ("classica-2p.canastra", True)


@pytest.mark.parametrize("changed", ["classica-2p", "classica"])
def test_a_changed_spec_or_ancestor_is_checked_again(where, checks, tmp_path, changed):
    for name in ("classica", "classica-2p"):
        shutil.copyfile(SPEC_DIR / f"{name}.canastra", tmp_path / f"{name}.canastra")
    child = tmp_path / "classica-2p.canastra"
    check_cache.check_file(child)
    with open(tmp_path / f"{changed}.canastra", "a", encoding="utf-8") as handle:
        handle.write("\n# an edit\n")
    check_cache.check_file(child)
    assert len(checks) == 2


def test_a_spec_edited_while_the_process_runs_is_parsed_again(where, tmp_path):
    spec = tmp_path / "classica.canastra"
    shutil.copyfile(SPEC_DIR / "classica.canastra", spec)
    assert loader.check_file(spec)[1] == []
    spec.write_text(spec.read_text(encoding="utf-8") + "\nnot a clause\n", encoding="utf-8")
    assert loader.check_file(spec)[1], "the edit was not read"


def test_a_failed_check_is_not_stored(where, checks, tmp_path):
    broken = tmp_path / "classica.canastra"
    broken.write_text((SPEC_DIR / "classica.canastra").read_text(encoding="utf-8")
                      .replace("meld.set.min_cards = 3", "meld.set.min_cards = yes"), encoding="utf-8")
    results = [check_cache.check_file(broken) for _ in range(2)]
    assert results[0][1] and [str(e) for e in results[0][1]] == [str(e) for e in results[1][1]]
    assert len(checks) == 2
    assert not entries(where, "check")


def test_a_fifo_in_place_of_an_entry_neither_hangs_nor_fails(where):
    compute = Counter([1])
    cache.cached("k", CODE, ("x",), compute)
    [entry] = entries(where)
    entry.unlink()
    os.mkfifo(entry)
    result = []
    reader = threading.Thread(target=lambda: result.append(cache.cached("k", CODE, ("x",), compute)), daemon=True)
    reader.start()
    reader.join(30)
    assert result == [[1]], "the cache blocked on a FIFO"
    assert entry.is_file()                    # replaced by a real entry


def test_a_symlink_in_place_of_an_entry_is_ignored(where, tmp_path):
    compute = Counter([1])
    cache.cached("k", CODE, ("x",), compute)
    [entry] = entries(where)
    elsewhere = tmp_path / "elsewhere.json"
    shutil.copyfile(entry, elsewhere)
    entry.unlink()
    entry.symlink_to(elsewhere)
    assert cache.cached("k", CODE, ("x",), compute) == [1] and compute.calls == 2


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("CANASTRA_CACHE_DIR", str(blocker / "cache"))
    compute = Counter([1])
    assert cache.cached("k", CODE, ("x",), compute) == [1]
    assert cache.cached("k", CODE, ("x",), compute) == [1] and compute.calls == 2


def test_a_planted_pickle_is_never_loaded(where, tmp_path):
    marker = tmp_path / "pickle-was-loaded"
    compute = Counter([1])
    cache.cached("k", CODE, ("x",), compute)
    [entry] = entries(where)
    entry.write_bytes(pickle.dumps(Planted(marker)))
    assert cache.cached("k", CODE, ("x",), compute) == [1]
    assert not marker.exists()


def test_a_change_of_code_changes_the_key(where, tmp_path, monkeypatch):
    package = tmp_path / "src" / "cachedpackage"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(package.parent))
    compute = Counter("v")
    cache.cached("k", ("cachedpackage",), ("x",), compute)
    cache.cached("k", ("cachedpackage",), ("x",), compute)
    assert compute.calls == 1
    (package / "__init__.py").write_text("VALUE = 2\n")
    cache.code_digest.cache_clear()
    cache.cached("k", ("cachedpackage",), ("x",), compute)
    assert compute.calls == 2
    sys.modules.pop("cachedpackage", None)


def test_a_cached_parse_loads_no_parser(where):
    """lark is imported to parse a spec, not to read its parse from the cache."""
    script = ("import sys; from canastra_ref.dsl.loader import load; load('classica-2p'); "
              "print('lark' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert runs == ["True\n", "False\n"]


def test_the_parser_reads_no_lark_pickle(tmp_path, monkeypatch):
    """Lark's cache=True keeps a pickle at a predictable name in the shared temp
    directory: plant one there and build the parser."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    grammar = GRAMMAR.read_text(encoding="utf-8")
    Lark(grammar, cache=True, **parser.LARK_OPTIONS)           # where Lark would look
    [planted] = tmp_path.glob(".lark*")
    marker = tmp_path / "pickle-was-loaded"
    checksum = planted.read_bytes().split(b"\n", 1)[0]          # Lark checks this line, then unpickles
    planted.write_bytes(checksum + b"\n" + pickle.dumps(Planted(marker)))
    for turned_off in ("1", "0"):
        monkeypatch.setenv("CANASTRA_CACHE", turned_off)
        parser._parser.cache_clear()
        try:
            parser.parse_text((SPEC_DIR / "cbc.canastra").read_text(encoding="utf-8"), "cbc.canastra")
        finally:
            parser._parser.cache_clear()
        assert not marker.exists()
    assert list(tmp_path.glob(".lark*")) == [planted]


@pytest.mark.parametrize("path", sorted(SPEC_DIR.glob("*.canastra")), ids=lambda p: p.stem)
def test_every_spec_tree_survives_its_json_form(path):
    spec = parser.parse_text(path.read_text(encoding="utf-8"), str(path))
    data = ast.to_json(spec)
    back = ast.from_json(json.loads(json.dumps(data)))
    assert back == spec
    assert ast.to_json(back) == data          # positions and lines too, which == does not compare
