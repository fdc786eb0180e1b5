"""opening.counts = with-canastras adds a canastra's bonus to the opening count
only where canastra.<kind>.counts says the bonus counts for the team: a bonus
the score would not add does not open either. Checked on treze's with-bonus
reading, and on a variant of it whose limpa bonus never counts."""
from __future__ import annotations

from positions import position

from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import SPEC_DIR, files_for
from canastra_ref.dsl.parser import parse_text
from canastra_ref.engine.actions import apply
from canastra_ref.engine.rules import Engine

READING = {"abertura-canastra-value": "with-bonus"}


def _engine(tmp_path, override: str = "") -> Engine:
    (tmp_path / "treze.canastra").write_text((SPEC_DIR / "treze.canastra").read_text(encoding="utf-8"))
    variant = parse_text('ruleset variant "treze, limpa bonus aside" extends treze\n' + override, "variant.canastra")
    return Engine(build(files_for(variant, tmp_path), READING))


def _open_with_a_limpa(engine: Engine):
    # 4 to 10 of hearts: 4 x 5 + 3 x 10 = 50 card points, a limpa of 7 worth 200 (valor.12);
    # the Abertura needs 150 from 2,000 points (regras.18)
    partial = {"turn": {"player": "N", "phase": "play"}, "teams": {"NS": {"score": 2000}},
               "hands": {"N": "4h 5h 6h 7h 8h 9h Th Kc Kd", "E": 13, "S": 13, "W": 13}}
    state = position(engine, partial)
    state, _ = apply(engine, state, {"player": "N", "meld": [["4h", "5h", "6h", "7h", "8h", "9h", "Th"]]})
    return apply(engine, state, {"player": "N", "discard": "Kc"})


def test_a_counted_limpa_bonus_opens(tmp_path):
    state, verdict = _open_with_a_limpa(_engine(tmp_path))
    assert verdict.reason == "opening.made"          # 50 + 200 >= 150
    assert state.teams["NS"].opened


def test_a_limpa_bonus_that_does_not_count_does_not_open(tmp_path):
    state, verdict = _open_with_a_limpa(_engine(tmp_path, "override canastra.limpa.counts = no @valor.12\n"))
    assert verdict.reason != "opening.made"          # 50 alone < 150
    assert not state.teams["NS"].opened
    assert "valor.12" in verdict.cites
