"""meld.<kind>.grows and meld.<kind>.grows_penalised: cards added to a meld that
is no canastra, judged by the meld they make. An addition of several cards can
make at once a canastra and more, which a canastra's own rules judge card by card
(canastra.<kind>.grows, .grows_penalised): cbc reads them for a meld of six given
two cards at once (28, dispute real-laid-whole). They are read where those
canastra rules may refuse or penalise an addition, nowhere else."""
from __future__ import annotations

from canastra_ref.dsl.build import build
from canastra_ref.dsl.parser import parse_text
from canastra_ref.dsl.strict import read_settings
from canastra_ref.engine.rules import engine_for

GROWS = {"meld.run.grows", "meld.aces.grows"}
PENALISED = {"meld.run.grows_penalised", "meld.aces.grows_penalised"}


def _read(text: str) -> set[str]:
    return set(read_settings(build([parse_text(text)])))


def test_not_read_where_every_canastra_grows_freely(minimal_text):
    assert not (GROWS | PENALISED) & _read(minimal_text)


def test_read_where_a_canastra_may_refuse_cards(minimal_text):
    read = _read(minimal_text + "canastra.clean.grows = turn.going_out @2\n")
    assert GROWS <= read and not PENALISED & read


def test_read_where_cards_added_to_a_canastra_may_be_penalised(minimal_text):
    read = _read(minimal_text + "canastra.clean.grows_penalised = yes @2\n")
    assert PENALISED <= read and not GROWS & read


def test_cbc_states_them_under_each_reading_of_real_laid_whole():
    for reading in ("suja", "as-eighth-card"):
        engine = engine_for("cbc", (("real-eighth-card", "going-out-only"), ("real-laid-whole", reading)))
        rules = engine.ruleset.settings["meld.sequence.grows"]
        assert any("meld.natural_run" in str(c) for c in rules.clauses) == (reading == "as-eighth-card")
