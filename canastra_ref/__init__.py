"""canastra_ref: the reference implementation of canastra-spec.

dsl/      the rules DSL: parser, typed ruleset model, validation
engine/   the game engine: state, actions, verdicts, scoring
cards     card notation and decks
protocol  the conformance protocol's messages, answered by the engine
paths     where the grammar and the specs (data packages grammar/, specs/) are

It is the bottom layer: it imports no other package of this project
(tests/test_layers.py checks the import graph).
"""
__version__ = "0.1.0"
