"""canastra_ref.strategies: every value is what it says, in the protocol's
JSON form, on every ruleset: cards of the deck, hands within one deck, melds
the reference recognises, tables it loads, states reached by play of the
phase asked for, plays it can run, legal actions it accepts and near-legal
ones it parses."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import position

from canastra_ref import protocol
from canastra_ref import strategies as cs
from canastra_ref.cards import full_deck
from canastra_ref.dsl.loader import available
from canastra_ref.engine.actions import apply
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.verdict import REJECTED

RULESETS = available()
SOME = settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("ruleset", RULESETS)
@SOME
@given(data=st.data())
def test_cards_hands_melds_and_tables(ruleset, data):
    engine = cs.engine(ruleset)
    deck = Counter(full_deck(*engine.deck))
    assert data.draw(cs.cards(ruleset)) in deck
    hand = data.draw(cs.hands(ruleset, min_size=2, max_size=20))
    assert 2 <= len(hand) <= 20 and not Counter(hand) - deck
    meld = data.draw(cs.melds(ruleset))
    assert protocol.meld(engine, meld["cards"])["meld"] == meld["kind"]
    table = data.draw(cs.tables(ruleset))
    assert set(table) == set(engine.table.teams)
    partial = {"teams": {team: {"melds": melds} for team, melds in table.items()}}
    state = position(engine, partial)
    assert [[m.cards for m in state.teams[t].melds] for t in table] == [[m["cards"] for m in table[t]] for t in table]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("phase", ["deal", "draw", "play", "over"])
@SOME
@given(data=st.data())
def test_states_of_every_phase(ruleset, phase, data):
    engine = cs.engine(ruleset)
    state = load_state(engine, data.draw(cs.states(ruleset, phase=phase, max_steps=60)))
    if phase == "over":
        assert state.ended is not None
    else:
        assert state.ended is None and state.turn.phase == phase
    assert sum(state.all_cards().values()) == engine.deck_size


@pytest.mark.parametrize("ruleset", RULESETS)
@SOME
@given(data=st.data())
def test_plays_legal_and_near_legal_actions(ruleset, data):
    engine = cs.engine(ruleset)
    state, actions = data.draw(cs.plays(ruleset, max_actions=8))
    answer = protocol.handle({"cmd": "run", "id": "p", "ruleset": ruleset, "state": state, "actions": actions})
    assert len(answer["results"]) == len(actions)
    loaded = load_state(engine, state)
    legal = data.draw(cs.legal_actions(ruleset, state))
    assert apply(engine, loaded, legal)[1].verdict != REJECTED
    apply(engine, loaded, data.draw(cs.near_legal_actions(ruleset, loaded)))      # parses: no InputError
    apply(engine, loaded, data.draw(cs.actions(ruleset, state)))


def test_near_legal_actions_are_mostly_refused():
    """What they are for: of a hundred near-legal actions, most are refused."""
    engine = cs.engine("cbc")
    refused = []

    @settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def probe(data):
        state = load_state(engine, data.draw(cs.states("cbc", max_steps=40)))
        if state.ended is None and state.turn.phase != "deal":
            refused.append(apply(engine, state, data.draw(cs.near_legal_actions("cbc", state)))[1].verdict == REJECTED)
    probe()
    assert len(refused) > 50 and sum(refused) > len(refused) / 2


def test_readings_are_honoured():
    """Under cbc's aces-suit = same-suit, a set of aces of several suits is no meld
    (it is one by default), and the melds drawn follow that reading."""
    same = {"aces-suit": "same-suit"}
    assert protocol.meld(cs.engine("cbc"), ["Ac", "Ad", "Ah"])["meld"] == "aces"
    assert protocol.meld(cs.engine("cbc", same), ["Ac", "Ad", "Ah"])["meld"] is None
    engine = cs.engine("cbc", same)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(cs.melds("cbc", same))
    def probe(meld):
        if meld["kind"] == "aces":
            assert len({c[-1] for c in meld["cards"] if c not in engine.wild_set}) == 1
    probe()
