"""canastra_cli: the `canastra` command line, the top layer of canastra-spec.

cli          the entry point: the parser, error handling, exit codes
common       what several commands share: exit codes, JSON output, --reading
spec         canastra check, canastra articles
play         canastra play
reasons      canastra reasons
serve        canastra serve (the reference adapter of the conformance protocol)
conformance  canastra conformance
coverage     canastra coverage
mutate       canastra mutate
diff         canastra diff, canastra dispute

Nothing in canastra_ref, canastra_conformance or canastra_tools imports it.
"""
