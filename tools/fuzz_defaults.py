"""The fuzzer's default settings, apart from the fuzzer: `canastra`'s command
line shows them in `canastra fuzz --help` and so reads them at every start,
which must not import the fuzzer (and with it the conformance runner, the
engine and jsonschema) for a `canastra check`."""

NEAR_LEGAL = 0.2          # chance of a near-legal action before each of the agent's plans
MAX_CHECKS = 800          # candidates judged per finding at most, while shrinking
