"""The report site: `canastra report RUN.json... --out DIR` (build.py writes
it; runs.py reads the runs; matrix, rulebook, disputes, history and badges
compute what the pages show; templates/ and static/ are the pages' HTML,
style and filtering script)."""
