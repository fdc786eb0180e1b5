"""The rules DSL: spec text -> syntax tree (parser, ast) -> typed ruleset model
(build, model, settings, facts, expr); loader finds and caches rulesets by id,
reference renders the settings reference of docs/dsl.md."""
