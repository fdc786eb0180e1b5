"""canastra_ref: the reference implementation of canastra-spec.

dsl/     the rules DSL: parser, typed ruleset model, validation
cards    card notation and decks
cli      the `canastra` command
"""
__version__ = "0.1.0"
