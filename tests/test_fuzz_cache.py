"""Fuzzing cache entries (canastra_ref/cache.py): a real entry of each kind
(a parsed spec, a validated fixture file) with bytes flipped, cut, added,
swapped for another entry's, or rewritten as JSON that carries its own
correct digest. An entry that does not verify is ignored and the value
computed again, the same as ever; one that verifies but does not decode is
ignored too; nothing raises or hangs."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

from fuzzing import bounded, fuzz_settings, values
from hypothesis import given
from hypothesis import strategies as st

from canastra_conformance.fixtures import _decode_validated, _validated, fixture_files
from canastra_ref import cache
from canastra_ref.dsl import ast
from canastra_ref.dsl.parser import parse_text
from canastra_ref.paths import SPEC_DIR

SPEC = SPEC_DIR / "classica-2p.canastra"
FIXTURE = fixture_files()[0]
PLACE = Path(tempfile.mkdtemp(prefix="canastra-fuzz-cache-"))

# kind -> (cached() arguments, the value computed afresh)
KINDS = {
    "spec": (dict(kind="spec", code=("canastra_ref",), inputs=(SPEC.read_text(encoding="utf-8"),),
                  compute=lambda: parse_text(SPEC.read_text(encoding="utf-8"), str(SPEC)),
                  encode=ast.to_json, decode=ast.from_json)),
    "fixture": (dict(kind="fixture", code=("canastra_ref", "canastra_conformance"),
                     inputs=(FIXTURE.read_text(encoding="utf-8"),),
                     compute=lambda: _validated(FIXTURE, FIXTURE.read_text(encoding="utf-8")),
                     decode=_decode_validated)),
}


@contextmanager
def cache_at(directory: Path):
    before = os.environ.get("CANASTRA_CACHE_DIR"), os.environ.get("CANASTRA_CACHE")
    os.environ["CANASTRA_CACHE_DIR"] = str(directory)
    os.environ.pop("CANASTRA_CACHE", None)
    try:
        yield
    finally:
        for name, value in zip(("CANASTRA_CACHE_DIR", "CANASTRA_CACHE"), before):
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _call(kind: str):
    arguments = dict(KINDS[kind])
    return cache.cached(arguments.pop("kind"), arguments.pop("code"), arguments.pop("inputs"),
                        arguments.pop("compute"), **arguments)


FRESH = {}
with cache_at(PLACE):
    for name in KINDS:
        FRESH[name] = _call(name)          # computes and stores the entry
ENTRIES = {name: next((PLACE / name).glob("*.json")) for name in KINDS}
ORIGINAL = {name: path.read_bytes() for name, path in ENTRIES.items()}


def _header(key: str, payload: bytes) -> bytes:
    return json.dumps({"format": cache.FORMAT, "key": key, "sha256": hashlib.sha256(payload).hexdigest()},
                      separators=(",", ":")).encode("ascii") + b"\n"


@st.composite
def corrupted(draw, kind: str) -> tuple[bytes, bool]:
    """(the entry's new bytes, whether they still verify)."""
    data = ORIGINAL[kind]
    how = draw(st.sampled_from(["flip", "cut", "add", "other", "random", "payload", "header"]))
    if how == "flip":
        data = bytearray(data)
        for _ in range(draw(st.integers(1, 5))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= draw(st.integers(1, 255))
        return bytes(data), False
    if how == "cut":
        return data[:draw(st.integers(0, len(data) - 1))], False
    if how == "add":
        return data + draw(st.binary(min_size=1, max_size=50)), False
    if how == "other":                      # another entry put in this one's place
        return ORIGINAL[draw(st.sampled_from([k for k in KINDS if k != kind]))], False
    if how == "random":
        return draw(st.binary(max_size=300)), False
    key = json.loads(data.partition(b"\n")[0])["key"]
    if how == "header":                     # the right payload under a header naming another key
        return _header(hashlib.sha256(b"other").hexdigest(), data.partition(b"\n")[2]), False
    payload = json.dumps(draw(values)).encode("utf-8")   # any JSON, with its own correct digest
    return _header(key, payload) + payload, True


@fuzz_settings(200)
@given(data=st.data(), kind=st.sampled_from(sorted(KINDS)))
def test_a_corrupted_entry_is_ignored(data, kind):
    content, verifies = data.draw(corrupted(kind))
    ENTRIES[kind].write_bytes(content)
    with cache_at(PLACE), bounded():
        value = _call(kind)
    if not verifies:
        assert value == FRESH[kind]
    ENTRIES[kind].write_bytes(ORIGINAL[kind])
