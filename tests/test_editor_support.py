"""Editor support as conformance/README.md documents it: the settings
snippet associates the fixture schema with every fixture file, and the
modeline's relative path reaches the schema from a fixture file."""
from __future__ import annotations

import json
import re

from conftest import ROOT

README = ROOT / "conformance" / "README.md"


def test_the_settings_snippet_covers_every_fixture_file():
    text = README.read_text(encoding="utf-8")
    snippet = re.search(r"<!-- yaml-schema-settings -->\n```json\n(.*?)```", text, re.S).group(1)
    ((schema, pattern),) = json.loads(snippet)["yaml.schemas"].items()
    assert (ROOT / schema).is_file() and json.loads((ROOT / schema).read_text())["title"]
    matched = set(ROOT.glob(pattern))
    every = set((ROOT / "conformance" / "fixtures").rglob("*.yaml"))
    assert every and matched == every


def test_the_modeline_reaches_the_schema_from_a_fixture_file():
    text = README.read_text(encoding="utf-8")
    relative = re.search(r"# yaml-language-server: \$schema=(\S+)`", text).group(1)
    for fixture in (ROOT / "conformance" / "fixtures").glob("*/*.yaml"):
        assert (fixture.parent / relative).resolve() == (ROOT / "conformance" / "schema" /
                                                         "fixture.schema.json").resolve()
