"""canastra_tools: tools built on the ruleset model and the reference engine.

diff          the semantic diff of two rulesets, concept by concept
behaviour     the behavioural diff: situations where two rulesets rule differently
dispute       the dispute report: one situation under every ruleset and reading
sources       article text by id from the user's copy of the rulebooks
exprtext      DSL expressions printed back as text
matrix        docs/rulesets.md, the pairwise comparison of the six rulebooks
implementations  docs/implementations.md, from the saved runs of the third-party engines
site          the report site (canastra report): matrix, literate rulebooks, disputes, history, badges
lexer         the Pygments lexer of the rules DSL
cardtext      cards, melds and actions in words; movelog: the move log of canastra play --log

Their commands are in canastra_cli (diff, dispute, report, play --log).
adapters/ holds scripts for third-party engines (run by path, not installed).
"""
