"""The limits every input is held to (canastra_ref/limits.py, and the
runner's in conformance/policy.py) are the ones the documents state:
PROTOCOL.md for messages, conformance/README.md for YAML files, docs/dsl.md
for spec files. A changed number fails here until its document follows."""
from __future__ import annotations

from pathlib import Path

import pytest

from canastra_conformance import policy
from canastra_ref import limits

ROOT = Path(__file__).resolve().parents[1]


def _mib(n: int) -> str:
    assert n % (1024 * 1024) == 0
    return f"{n // (1024 * 1024)} MiB"


def _words(path: str) -> str:
    """The document with its lines joined, so a phrase may cross a line break."""
    return " ".join((ROOT / path).read_text(encoding="utf-8").split())


@pytest.mark.parametrize("document, phrase", [
    ("conformance/PROTOCOL.md", f"| a `run` message | {_mib(limits.MAX_MESSAGE_BYTES)} "
                                f"({limits.MAX_MESSAGE_BYTES:,} bytes)"),
    ("conformance/PROTOCOL.md", f"| an answer line | {_mib(policy.MAX_LINE)} "),
    ("conformance/PROTOCOL.md", f"| nesting of arrays and objects | {limits.MAX_DEPTH} levels"),
    ("conformance/PROTOCOL.md", "| integers | between −(2^53 − 1) and 2^53 − 1"),
    ("conformance/PROTOCOL.md", f"| actions in a case | {limits.MAX_ACTIONS:,} |"),
    ("conformance/PROTOCOL.md", f"a dispute or reading name | {limits.MAX_NAME} characters |"),
    ("conformance/PROTOCOL.md", f"Up to {policy.STDERR_LIMIT // 1024} KiB per case are kept, and up to "
                                f"{_mib(policy.STDERR_RUN_LIMIT)} in all: past that, a case keeps the last "
                                f"{policy.STDERR_LATE_LIMIT // 1024} KiB it wrote"),
    ("conformance/PROTOCOL.md", f"when that is at most {policy.KEPT_VALUE // 1024} KiB of JSON"),
    ("conformance/PROTOCOL.md", f"and at most {policy.MESSAGE_LIMIT // 1024} KiB of an `errored` or `skipped` "
                                "answer's `message`"),
    ("conformance/PROTOCOL.md", f"homepage are kept up to {limits.MAX_NAME} characters each"),
    ("conformance/README.md", f"a UTF-8 text file of at most {_mib(limits.MAX_FILE_BYTES)}"),
    ("conformance/README.md", "integers between −(2^53 − 1) and 2^53 − 1"),
    ("conformance/README.md", f"at most {limits.MAX_DEPTH} levels of nested lists and mappings, at most "
                              f"{limits.MAX_ALIASES} aliases (`*name`), at most {limits.MAX_VALUES:,} values"),
    ("docs/dsl.md", f"A file is UTF-8 text of at most {_mib(limits.MAX_FILE_BYTES)}"),
    ("docs/dsl.md", f"A number is at most {limits.MAX_INT:,} (2^53 − 1)"),
    ("docs/dsl.md", f"an expression nests at most {limits.MAX_EXPRESSION_DEPTH} levels"),
    ("docs/dsl.md", f"(1 to {limits.MAX_DECKS} decks"),
])
def test_documented(document, phrase):
    assert phrase in _words(document)


def test_the_integer_limit_is_2_to_the_53_minus_1():
    assert limits.MAX_INT == 2 ** 53 - 1
