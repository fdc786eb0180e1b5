"""canastra mutate runs each mutant only against the cases whose recorded
decisions read a setting it changes, in a process pool: the kills must be
exactly those of running every case against every mutant in one process."""
from __future__ import annotations

from canastra_conformance.fixtures import load_all
from canastra_conformance.mutation import run_all


def outcomes(reports):
    return [(m.id, m.status, m.killed_by) for r in reports for m in r.mutants]


def test_selected_cases_in_a_pool_kill_exactly_what_every_case_kills():
    cases = load_all()
    exhaustive = outcomes(run_all(["uruguaya"], cases, jobs=1, select=False))
    selected = outcomes(run_all(["uruguaya"], cases, jobs=2, select=True))
    assert selected == exhaustive
    statuses = {status for _, status, _ in exhaustive}
    assert {"killed", "survived", "stillborn"} <= statuses     # the comparison covers every outcome


def test_jobs_must_be_positive(capsys):
    from canastra_cli.cli import main
    assert main(["mutate", "uruguaya", "--jobs", "0"]) != 0
    assert "--jobs 0" in capsys.readouterr().err
