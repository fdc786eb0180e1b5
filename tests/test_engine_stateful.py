"""Stateful properties of the engine under every reading of every ruleset:
the cards are exactly the deck (as a multiset) after every transition,
rejected actions change nothing, states survive a JSON round trip, a
finished hand's score is the sum of its breakdown, and replay from a seed
is deterministic.

Hands must end for scoring to be tested at all: a hand may start late (most
of its stock set aside, out of play), a rule plays whole turns, and each new
hand is dealt from a seed of its own. tests/fuzzing.py sets how many
examples run (more with --fuzz-long)."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from fuzzing import bounded, examples
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from canastra_ref.cards import RANKS, SUITS, full_deck
from canastra_ref.dsl.loader import available, load
from canastra_ref.engine.actions import apply
from canastra_ref.engine.agent import RandomAgent
from canastra_ref.engine.deal import new_hand, next_hand
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for
from canastra_ref.engine.scoring import score_hand
from canastra_ref.engine.verdict import REJECTED
from canastra_ref.errors import InputError

RULESETS = available()
# Every ruleset under its default readings, and under each other reading of each dispute.
READINGS = [(ruleset, ()) for ruleset in RULESETS] + [
    (ruleset, ((name, reading.name),))
    for ruleset in RULESETS for name, dispute in load(ruleset).disputes.items()
    for reading in dispute.readings if reading.name != dispute.default]
CARDS = [r + s for r in RANKS for s in SUITS] + ["JK"]
card = st.sampled_from(CARDS)
cards = st.lists(card, min_size=0, max_size=5)
seeds = st.integers(0, 2 ** 31)
# How many stock cards a hand keeps in play: few, so that it ends within a run's steps; or all.
stock_lefts = st.one_of(st.none(), st.integers(0, 12), st.integers(0, 4))


def junk_action(seat):
    return st.one_of(
        st.builds(lambda c: {"player": seat, "discard": c}, card),
        st.builds(lambda cs: {"player": seat, "meld": [cs]}, st.lists(card, min_size=1, max_size=8)),
        st.builds(lambda i, cs: {"player": seat, "layoff": {"meld": i, "cards": cs}}, st.integers(-1, 6), cards),
        st.builds(lambda cs: {"player": seat, "take_pile": {"with": cs}}, cards),
        st.builds(lambda i: {"player": seat, "take_pile": {"onto": i, "with": []}}, st.integers(0, 6)),
        st.just({"player": seat, "draw": "stock"}),
        st.just({"player": seat, "redraw": True}),
        st.just({"player": seat, "end_turn": True}),
        st.just({"player": seat, "ask_partner": True}),
        st.just({"player": seat, "challenge": True}),
        st.builds(lambda c: {"player": seat, "replace_red_three": c}, card),
        st.builds(lambda c: {"player": seat, "lay_down_red_three": c}, card),
    )


def make_machine(ruleset: str, readings: tuple):
    engine = engine_for(ruleset, readings)
    deck = Counter(full_deck(*engine.deck))

    class HandMachine(RuleBasedStateMachine):
        def _deal(self, seed: int, stock_left: int | None):
            """Deal a hand from `seed`; with `stock_left`, set all but that many
            stock cards aside (out of play this hand): a late start."""
            self.state, verdict = apply(engine, self.state, {"player": self.state.dealer, "deal": {"seed": seed}})
            assert verdict.verdict == "accepted"
            if stock_left is not None and len(self.state.stock) > stock_left:
                late = self.state.copy()
                late.aside = late.aside + late.stock[stock_left:]
                late.stock = late.stock[:stock_left]
                self.state = late

        @initialize(seed=seeds, stock_left=stock_lefts)
        def deal(self, seed, stock_left):
            self.agent = RandomAgent(engine, random.Random(seed))
            self.state = new_hand(engine)
            self._deal(seed, stock_left)

        def _step(self, action):
            before = json.dumps(self.state.to_json(), sort_keys=True)
            try:
                new, verdict = apply(engine, self.state, action)
            except InputError:
                return
            assert json.dumps(self.state.to_json(), sort_keys=True) == before, "apply changed its input"
            if verdict.verdict == REJECTED:
                assert new is self.state
            else:
                self.state = new
            assert verdict.reason and isinstance(verdict.cites, list)

        def _end_of_hand(self, seed: int, stock_left: int | None):
            event("a hand ended")
            scores = score_hand(engine, self.state)
            for team, result in scores.items():
                assert result.subtotal == sum(t["value"] for t in result.terms.values())
                assert result.total == (result.subtotal + result.rounding if result.counts else 0)
                assert result.score_after == result.score_before + result.total
                self.state.teams[team].score = result.score_after
            self.state = next_hand(engine, self.state)
            self._deal(seed, stock_left)

        @rule(seed=seeds, stock_left=stock_lefts)
        def agent_plays(self, seed, stock_left):
            with bounded():
                if self.state.ended is not None:
                    self._end_of_hand(seed, stock_left)
                    return
                for action in self.agent.next_actions(self.state):
                    self._step(action)

        @rule(seed=seeds, stock_left=stock_lefts)
        def agent_plays_a_whole_turn(self, seed, stock_left):
            player = self.state.turn.player
            with bounded():
                for _ in range(30):
                    if self.state.ended is not None:
                        self._end_of_hand(seed, stock_left)
                        return
                    if self.state.turn.player != player:
                        return
                    steps = self.agent.step(self.state)
                    if not steps:
                        return
                    for action, _, _ in steps:
                        self._step(action)

        @rule(data=st.data())
        def anyone_tries_anything(self, data):
            seat = data.draw(st.sampled_from(list(engine.table.seats)))
            action = data.draw(junk_action(seat))
            with bounded():
                self._step(action)

        @invariant()
        def the_cards_are_the_deck(self):
            assert self.state.all_cards() == deck

        @invariant()
        def json_round_trip(self):
            data = self.state.to_json()
            again = load_state(engine, json.loads(json.dumps(data)))
            assert again.to_json() == data

    name = "_".join([ruleset] + [f"{d}_{r}" for d, r in readings]).replace("-", "_")
    HandMachine.__name__ = f"HandMachine_{name}"
    return HandMachine


@pytest.mark.parametrize("ruleset, readings", READINGS,
                         ids=[r + "".join(f":{d}={v}" for d, v in rs) for r, rs in READINGS])
def test_stateful(ruleset, readings):
    machine = make_machine(ruleset, readings)
    runs = examples(12 if not readings else 2, long=1000)
    machine.TestCase.settings = settings(max_examples=runs, stateful_step_count=30, deadline=None)
    machine.TestCase().runTest()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_late_start_ends_the_hand(ruleset):
    """What makes the stateful test score hands: a hand started with six stock
    cards ends (the agents go out or the stock runs out), its score adds up."""
    engine = engine_for(ruleset)
    for seed in range(3):
        agent = RandomAgent(engine, random.Random(seed))
        fresh = new_hand(engine)
        state, _ = apply(engine, fresh, {"player": fresh.dealer, "deal": {"seed": seed}})
        state = state.copy()
        state.aside, state.stock = state.aside + state.stock[6:], state.stock[:6]
        for _ in range(500):
            if state.ended is not None:
                break
            steps = agent.step(state)
            assert steps, "no legal action"
            state = steps[-1][1]
        assert state.ended is not None, f"seed {seed}: the hand did not end"
        assert state.all_cards() == Counter(full_deck(*engine.deck))
        for result in score_hand(engine, state).values():
            assert result.subtotal == sum(t["value"] for t in result.terms.values())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_replay_is_deterministic(ruleset):
    engine = engine_for(ruleset)
    first = [r if isinstance(r, dict) else r.to_json() for r in self_play(engine, 11, 3)]
    second = [r if isinstance(r, dict) else r.to_json() for r in self_play(engine, 11, 3)]
    assert json.dumps(first) == json.dumps(second)


def test_a_set_laid_without_the_pile_loads_where_its_ranks_depend_on_the_pile():
    """Found by test_stateful: under treze's set-ranks=pile-only a team without a
    canastra may set down sevens, but not with the pile's top card (regras.8).
    load_state read turn.taking_pile, a fact of the laying that a state does not
    record, and raised KeyError on a position reached in play; a meld now stands
    when some way of laying it allows its ranks, judged as the state is."""
    from canastra_ref.engine.completion import complete
    sevens = {"teams": {"NS": {"melds": [{"cards": ["7h", "7c", "7s"]}]}}, "turn": {"player": "N", "phase": "play"}}
    for readings, loads in (((("set-ranks", "pile-only"),), True), ((("set-ranks", "by-canastra"),), False)):
        engine = engine_for("treze", readings)
        data = complete(engine.table, engine.deck, sevens)
        if loads:
            assert load_state(engine, data).teams["NS"].melds[0].cards == ["7h", "7c", "7s"]
        else:                   # by-canastra: no set of sevens before the team's first canastra
            with pytest.raises(InputError, match="not a meld of this ruleset"):
                load_state(engine, data)
