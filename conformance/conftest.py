"""`pytest conformance/`: the YAML fixtures as test items, one per case named by
its id, against the reference in-process or `--canastra-impl "COMMAND"`
through the protocol (see pytest_plugin.py). `python -m pytest` alone runs
tests/ only (testpaths) and never loads this file."""
from canastra_conformance.pytest_plugin import (  # noqa: F401  (pytest hooks)
    pytest_addoption, pytest_configure, pytest_collect_file, pytest_report_header, pytest_unconfigure)
