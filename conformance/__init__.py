"""canastra_conformance: the conformance suite of canastra-spec.

fixtures/   YAML scenario fixtures, one folder per ruleset
schema/     the JSON Schema of fixture files (and of protocol messages)
fixtures    loading and checking fixture files
grading     the message a case sends and how its answer is graded
inprocess   running the suite against the reference without a subprocess (tests)
coverage    which articles and dispute readings the fixtures cover
"""
