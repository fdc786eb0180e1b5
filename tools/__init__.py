"""canastra_tools: tools built on the ruleset model and the reference engine.

diff          the semantic diff of two rulesets, concept by concept
behaviour     the behavioural diff: situations where two rulesets rule differently
dispute       the dispute report: one situation under every ruleset and reading
sources       article text by id from the user's copy of the rulebooks
exprtext      DSL expressions printed back as text
matrix        docs/rulesets.md, the pairwise comparison of the five rulebooks
implementations  docs/implementations.md, from the saved runs of the third-party engines

Their commands (`canastra diff`, `canastra dispute`) are canastra_cli.diff.
adapters/ holds scripts for third-party engines (run by path, not installed).
"""
