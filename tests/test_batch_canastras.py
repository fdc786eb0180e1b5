"""batch.canastras* counts the turn's new melds by the canastra kind the table
records for them, which the cards added later in the turn made of them (a kind
may depend on the one before, meld.previous_kind), not by the kind their cards
would make were they laid at once. cbc under limpa-eighth-card=stays-limpa: a
joker laid on a canastra real makes it a suja (the limpa clause excludes a
former real), where the same eight cards laid at once would be a limpa."""
from __future__ import annotations

from positions import position

from canastra_ref.dsl.loader import load
from canastra_ref.engine.act import Act
from canastra_ref.engine.actions import apply
from canastra_ref.engine.context import ActionContext
from canastra_ref.engine.rules import Engine

READING = {"limpa-eighth-card": "stays-limpa", "real-eighth-card": "dirties"}


def test_a_real_grown_in_the_turn_counts_as_what_it_became():
    engine = Engine(load("cbc", READING))
    partial = {"turn": {"player": "N", "phase": "play"},
               "hands": {"N": "8h 9h Th Jh Qh Kh Ah JK 4c 5c", "E": 15, "S": 15, "W": 15}}
    state = position(engine, partial)
    state, verdict = apply(engine, state, {"player": "N", "meld": [["8h", "9h", "Th", "Jh", "Qh", "Kh", "Ah"]]})
    assert verdict.verdict == "accepted", verdict.reason
    state, verdict = apply(engine, state, {"player": "N", "layoff": {"meld": 0, "cards": ["JK"]}})
    assert verdict.verdict != "rejected", verdict.reason
    meld = state.teams["NS"].melds[0]
    assert meld.canastra == "suja"
    # the same cards laid at once would make a limpa: the fact must not count it so
    assert engine.canastra_kind(meld.kind, meld.cards) == "limpa"
    ctx = ActionContext(engine, state, "N", batch=Act(engine, state, "N").batch())
    assert (ctx.fact("batch.canastras"), ctx.fact("batch.canastras.suja"), ctx.fact("batch.canastras.limpa"),
            ctx.fact("batch.canastras.real")) == (1, 1, 0, 0)
    assert ctx.fact("batch.canastras_from_hand.suja") == 1
