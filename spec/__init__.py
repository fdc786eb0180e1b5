"""The spec of every ruleset (<ruleset>.canastra): a data package of canastra_ref."""
