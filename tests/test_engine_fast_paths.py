"""Shortcuts of the engine against the slower forms they stand for: each must
give exactly what the slow form gives."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from canastra_ref.cards import full_deck
from canastra_ref.dsl.loader import available
from canastra_ref.dsl.model import SettingRules
from canastra_ref.engine.act import Act
from canastra_ref.engine.deal import new_hand
from canastra_ref.engine.melds import split
from canastra_ref.engine.opening import _failures
from canastra_ref.engine.pile import _grouped
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import MeldInfo, engine_for
from canastra_ref.engine.state import Turn


def test_a_started_turn_is_shared_and_changed_only_as_a_copy():
    # State.start_turn gives states that start the same turn one Turn, which none of them owns:
    # a change goes through turn_w, which copies it, and the shared one stays as the dataclass made it
    state, other = new_hand(engine_for("classica")), new_hand(engine_for("classica"))
    for had_melded in (False, True):
        state.start_turn("N", had_melded)
        other.start_turn("N", had_melded)
        assert state.turn is other.turn
        state.turn_w().phase = "play"
        assert state.turn is not other.turn
        assert other.turn == Turn(player="N", phase="draw", had_melded=had_melded)
    state.turn_w()
    state.start_turn("E", False)        # a turn owned before is not owned once another starts
    state.turn_w().asked = "asking"
    other.start_turn("E", False)
    assert other.turn == Turn(player="E")


def test_the_pile_cards_grouped_as_a_counter_groups_them():
    deck = full_deck(2, 2)
    rng = random.Random(5)
    for size in range(0, 40):
        for _ in range(20):
            cards = rng.sample(deck, size)
            assert _grouped(cards) == list(Counter(cards).elements())
    assert _grouped(["4h", "Ks", "4h", "JK", "Ks"]) == ["4h", "4h", "Ks", "Ks", "JK"]


def _described_card_by_card(engine, kind: str, cards: list[str]) -> MeldInfo:
    """Engine.describe as it counts a meld holding wild cards, for every meld."""
    wilds = [c for c in cards if engine.is_wild(c)]
    naturals = [c for c in cards if not engine.is_wild(c)]
    shape = engine.meld_kind(kind).shape if engine.meld_kind(kind) else "set"
    rank = "none"
    if shape == "set" and naturals:
        rank = "10" if naturals[0][:-1] == "T" else naturals[0][:-1]
    twos = sum(1 for c in wilds if c != "JK" and c[0] == "2")
    run = len(naturals)
    if shape == "sequence":
        runs = "".join("w" if engine.is_wild(c) else "n" for c in cards).split("w")
        run = max(len(r) for r in runs)
    return MeldInfo(kind, shape, len(cards), len(naturals), len(wilds), wilds.count("JK"), twos, rank, run, "none")


@pytest.mark.parametrize("ruleset", ["classica", "ituiutaba-2p"])
def test_a_meld_without_wild_cards_is_split_and_described_as_card_by_card(ruleset):
    # split and describe skip the walk over the cards where none is wild
    engine = engine_for(ruleset)
    deck = full_deck(2, 2)
    rng = random.Random(7)
    for size in range(0, 12):
        for _ in range(30):
            cards = rng.sample(deck, size)
            clean = [c for c in cards if not engine.is_wild(c)]
            for some in (cards, clean):
                assert split(engine, some) == ([c for c in some if not engine.is_wild(c)],
                                               [c for c in some if engine.is_wild(c)])
                for kind in engine.meld_kinds:
                    assert engine.describe(kind.name, some) == _described_card_by_card(engine, kind.name, some)


@pytest.mark.parametrize("ruleset", available())
def test_a_turn_without_melds_nor_retry_has_no_opening_to_judge(ruleset):
    # opening.judge returns None at once for such a turn: _failures must find nothing, consulting nothing
    engine = engine_for(ruleset)
    seen = []
    for record in self_play(engine, 3, 2, lambda before, *_: seen.append(before)):
        if isinstance(record, dict):
            break
    quiet = [s for s in seen if s.turn.phase == "play" and not s.turn.melds_laid and not s.turn.retried]
    assert quiet
    for state in quiet:
        for going_out, discarding in ((False, True), (True, True), (False, False), (True, False)):
            act = Act(engine, state, state.turn.player)
            assert _failures(act, going_out, discarding) == ([], 0) and not act.trace


@pytest.mark.parametrize("ruleset", available())
def test_a_decision_found_by_the_facts_it_read_is_the_one_the_clauses_make(ruleset, monkeypatch):
    # SettingRules.decide finds a decision made before by reading the same facts again; every
    # decision of a few hands of self-play (agents' trials included) is checked against the clauses
    found = []
    original = SettingRules.decide

    def checked(rules, ctx):
        decision = original(rules, ctx)
        if ctx is not None and rules.constant is None:
            assert rules._evaluate(ctx) is decision, rules.path
            found.append(rules.path)
        return decision
    monkeypatch.setattr(SettingRules, "decide", checked)
    engine = engine_for(ruleset)
    for record in self_play(engine, 7, 3):
        if isinstance(record, dict):
            break
    assert len(found) > len(set(found))      # decisions were found again, not only made
