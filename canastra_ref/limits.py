"""The limits every input is held to, whatever it arrives by (a protocol line,
a fixture or situation file, a spec): its size, its nesting and its numbers
are bounded, so that no input makes a command hang, exhaust memory or
overflow the stack. Going past one is an input error like any other, located
by file:line:column or JSON path.

The protocol's limits are documented in conformance/PROTOCOL.md ("Limits"),
the files' in conformance/README.md and docs/dsl.md; tests/test_limits.py
keeps the documents and these numbers in step.
"""
from __future__ import annotations

# Integers anywhere (scores, seeds, counts, failures, spec numbers): the range
# every JSON implementation represents exactly (RFC 8259, section 6).
MAX_INT = 2 ** 53 - 1

# Nesting of arrays and objects in a JSON message or a YAML file. The deepest
# legitimate value, a meld's cards in a fixture's expected state, is 10 deep.
MAX_DEPTH = 64

# Decks a ruleset may play with: eight are 416 cards, more than any rulebook
# uses and little for the engine.
MAX_DECKS = 8

# Nesting of a spec expression (operators, parentheses apart, and lists).
MAX_EXPRESSION_DEPTH = 64

# A run message, as one line of bytes (the runner never sends more; the
# reference refuses more), and its actions.
MAX_MESSAGE_BYTES = 1024 * 1024
MAX_ACTIONS = 1000

# Names an implementation echoes (ruleset, dispute, reading) and a case id.
MAX_NAME = 200

# A file a person writes (a spec, a fixture file, a situation): the largest of
# the project's is 28 KB.
MAX_FILE_BYTES = 1024 * 1024

# The aliases (*name) a YAML file may use, and the values it may hold once
# they are expanded: an alias costs the size of what it repeats, so aliases
# of aliases cannot grow into billions of values.
MAX_ALIASES = 100
MAX_VALUES = 100_000
