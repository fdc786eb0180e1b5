"""canastra_conformance: the conformance suite of canastra-spec.

fixtures/   YAML scenario fixtures, one folder per ruleset
schema/     the JSON Schema of fixture files (and of protocol messages)
fixtures    loading and checking fixture files
grading     the message a case sends and how its answer is graded
inprocess   running the suite against the reference without a subprocess (tests)
coverage    which articles and dispute readings the fixtures cover
readings    which readings a case's expectations hold under; declared readings

The runner (`canastra conformance`, protocol in PROTOCOL.md):
messages    the protocol version and the JSON Schemas of its messages
canonical   the canonical form of what a run message carries
rulesets    the ruleset a case runs under, built once per reading choice
policy      the numbers of the runner's policies (timeouts, limits)
process     one running implementation: lines with deadlines, stderr apart
runner      start, run, restart, timeouts, skips: a case's outcome
suite       choosing the cases (filters, skip list) and running them
xfail       the expected-failures file (--xfail)
results     a run's results and their JSON report
report      text and JSON output (junit: JUnit XML; progress: the terminal line)
compare     what changed between two JSON reports
profile     the readings an implementation follows, inferred from a report (profile_report: the card)
paths       where the fixtures, the schemas and the other data files are
pytest_plugin         the suite as pytest items (`pytest --canastra-impl COMMAND`)

Its command (`canastra conformance`) is canastra_cli.conformance.
"""
