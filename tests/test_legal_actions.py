"""legal_actions agrees with apply, on every ruleset, in states reached by self-play:

- every action it lists is accepted (or penalised), and none is listed twice;
- a random action that apply rejects is not listed;
- a random action that apply accepts, in the canonical form of
  canastra_ref.engine.legal (one meld; a wild card only where the hand holds
  no natural card of its place), has an equivalent listed: the same verb and
  reason, and the same meld on the table up to the equivalence the module
  documents (which copies of a set's naturals, which wild card of a class).
"""
from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import position

from canastra_ref.cards import JOKER
from canastra_ref.dsl.loader import available, load
from canastra_ref.engine.actions import Action, apply
from canastra_ref.engine.agent import RandomAgent
from canastra_ref.engine.deal import new_hand
from canastra_ref.engine.legal import _ends, _pile_takes, legal, legal_actions, options, refused_take
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for
from canastra_ref.engine.verdict import REJECTED
from canastra_ref.errors import InputError

RULESETS = available()
# Every ruleset under its default readings, and under each other reading of each dispute.
READINGS = [(ruleset, ()) for ruleset in RULESETS] + [
    (ruleset, ((name, reading.name),))
    for ruleset in RULESETS for name, dispute in load(ruleset).disputes.items()
    for reading in dispute.readings if reading.name != dispute.default]


def reached_state(engine, seed: int, steps: int):
    """A state `steps` agent plans into a hand dealt from `seed`."""
    rng = random.Random(seed)
    agent = RandomAgent(engine, rng)
    state = new_hand(engine)
    for _ in range(steps):
        plan = agent.step(state)
        if not plan or plan[-1][1].ended is not None:
            break
        state = plan[-1][1]
    return state


def meld_signature(engine, meld) -> tuple:
    """A meld up to the documented equivalence: its kind, each place natural
    (rank, and suit where it matters) or wild, and its counts of jokers and twos."""
    kind = engine.meld_kind(meld.kind)
    keep_suit = kind is not None and (kind.shape == "sequence" or kind.suits == "same")
    places = tuple("W" if c in engine.wild_set else (c if keep_suit else c[:-1]) for c in meld.cards)
    if kind is not None and kind.shape != "sequence":
        places = tuple(sorted(places))
    jokers = sum(1 for c in meld.cards if c == JOKER and c in engine.wild_set)
    twos = sum(1 for c in meld.cards if c in engine.wild_set) - jokers
    return meld.kind, places, jokers, twos


def outcome(engine, state, action) -> tuple | None:
    """What an accepted action did, up to equivalence (None when rejected)."""
    new, verdict = apply(engine, state, action)
    if verdict.verdict == REJECTED:
        return None
    team = state.team_of(action["player"])
    melds = tuple(meld_signature(engine, m) for m in new.teams[team].melds)
    verb = next(k for k in action if k != "player")
    detail = action[verb] if verb in ("discard", "answer", "replace_red_three", "lay_down_red_three") else None
    return action["player"], verb, verdict.reason, detail, melds


def canonical(engine, state, action) -> bool:
    """Whether an accepted meld, layoff or pile take is in the canonical form:
    no wild card stands where the player's hand (after it) holds the natural."""
    new, _ = apply(engine, state, action)
    player = action["player"]
    hand = set(new.players[player].hand)
    for meld in new.teams[state.team_of(player)].melds:
        kind = engine.meld_kind(meld.kind)
        if kind is None or kind.shape != "sequence":
            continue
        naturals = [c for c in meld.cards if c not in engine.wild_set]
        first = meld.cards.index(naturals[0])
        ranks = engine.value(f"meld.{kind.name}.ranks")
        start = ranks.index(naturals[0][:-1]) - first
        for i, card in enumerate(meld.cards):
            if card in engine.wild_set and 0 <= start + i < len(ranks) and ranks[start + i] + naturals[0][-1] in hand:
                return False
    return True


def _related(rng: random.Random, cards: list[str], anchor: str, k: int) -> list[str]:
    """Up to k cards like `anchor` (its rank, or its suit within three ranks), or
    wild-looking cards, shuffled: random, yet often near a meld."""
    from canastra_ref.cards import RANKS
    def near(c):
        if c == JOKER or c[0] == "2" or anchor == JOKER:
            return True
        if c[:-1] == anchor[:-1]:
            return True
        return c[-1] == anchor[-1] and abs(RANKS.index(c[:-1]) - RANKS.index(anchor[:-1])) <= 3
    pool = [c for c in cards if near(c)]
    rng.shuffle(pool)
    return pool[:k]


def random_action(rng: random.Random, state) -> dict:
    """An action of the player to move, built from the cards at hand: most are
    rejected, and many melds, layoffs and pile takes are accepted."""
    player = state.turn.player
    hand = list(state.players[player].hand)
    melds = state.teams[state.team_of(player)].melds
    choice = rng.randrange(7)
    if choice == 0 or not hand:
        return {"player": player, "discard": rng.choice(hand) if hand else "4h"}
    if choice == 1:
        anchor = rng.choice(hand)
        rest = list(hand)
        rest.remove(anchor)
        return {"player": player, "meld": [[anchor] + _related(rng, rest, anchor, rng.randrange(2, 6))]}
    # a wild card going to an end of a sequence goes to the end named, or where apply puts it
    end = rng.choice([{}, {}, {"wild_end": "low"}, {"wild_end": "high"}])
    if choice == 2 and melds:
        index = rng.randrange(len(melds))
        anchor = rng.choice(melds[index].cards)
        return {"player": player, "layoff": {"meld": index, "cards": _related(rng, hand, anchor, rng.randrange(1, 4)),
                                             **end}}
    if choice == 3 and state.pile:
        return {"player": player, "take_pile": {"with": _related(rng, hand, state.pile[-1], rng.randrange(1, 4))}}
    if choice == 4 and melds:
        return {"player": player, "take_pile": {"onto": rng.randrange(len(melds)),
                                                 "with": _related(rng, hand, state.pile[-1] if state.pile else "4h",
                                                                  rng.randrange(0, 2)), **end}}
    if choice == 5:
        return {"player": player, "draw": "stock"}
    return {"player": rng.choice(list(state.table.seats)), rng.choice(["ask_partner", "redraw", "end_turn",
                                                                       "challenge"]): True}


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2 ** 31), steps=st.integers(1, 60))
def test_listed_actions_are_accepted_and_distinct(ruleset, seed, steps):
    engine = engine_for(ruleset)
    state = reached_state(engine, seed, steps)
    listed = legal(engine, state)
    assert listed or state.ended is not None
    keys = [json.dumps(a.json, sort_keys=True) for a in listed]
    assert len(keys) == len(set(keys)), "an action is listed twice"
    for action in listed:
        _, verdict = apply(engine, state, action.json)
        assert verdict.verdict != REJECTED, (action.json, verdict.reason)
    assert legal_actions(engine, state) == [a.json for a in listed]


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2 ** 31), steps=st.integers(1, 60), tries=st.integers(0, 2 ** 31))
def test_random_actions_agree_with_the_list(ruleset, seed, steps, tries):
    engine = engine_for(ruleset)
    state = reached_state(engine, seed, steps)
    if state.ended is not None:
        return
    listed = legal_actions(engine, state)
    exact = {json.dumps(a, sort_keys=True) for a in listed}
    outcomes = {outcome(engine, state, a) for a in listed}
    rng = random.Random(tries)
    for _ in range(30):
        action = random_action(rng, state)
        try:
            new, verdict = apply(engine, state, action)
        except InputError:                   # malformed (an empty layoff): never listed either
            assert json.dumps(action, sort_keys=True) not in exact
            continue
        if verdict.verdict == REJECTED:
            assert json.dumps(action, sort_keys=True) not in exact, (action, verdict.reason)
            continue
        if "meld" in action and len(action["meld"]) > 1:
            continue
        if not canonical(engine, state, action):
            continue
        assert outcome(engine, state, action) in outcomes, (action, verdict.reason)


@pytest.mark.parametrize("ruleset,readings", READINGS)
def test_pile_takes_left_out_are_refused(ruleset, readings):
    """`options` leaves out the pile takes that legal.refused_take says are
    refused in every state: judged by apply, the takes with and without that
    pruning are the same, in the draw states of a hand of self-play (every
    take left out, with each wild_end, is rejected)."""
    engine = engine_for(ruleset, readings)
    draws = []

    def observe(before, action, after, verdict):
        if after.ended is None and after.turn.phase == "draw" and after.pile:
            draws.append(after)
    for record in self_play(engine, len(readings) * 7919 + len(ruleset), 2, observe):
        pass
    assert draws
    for state in draws:
        player, top = state.turn.player, state.pile[-1]
        melds = state.teams[state.team_of(player)].melds
        for cards, onto, kind in _pile_takes(engine, state, player):
            if refused_take(engine, cards, onto, top):
                for end in _ends(engine, melds, onto, cards + [top]):
                    _, verdict = apply(engine, state, Action(player, "take_pile", (cards, onto, end, kind)))
                    assert verdict.verdict == REJECTED, (cards, onto, end, kind, verdict.reason)


def _layoff_state(engine, meld: list[str], hand: list[str]):
    partial = {"turn": {"player": "N", "phase": "play"}, "teams": {"NS": {"opened": True, "melds": [{"cards": meld}]}},
               "hands": {"N": hand, "E": 15, "S": 15, "W": 15}}
    return position(engine, partial)


@pytest.mark.parametrize("readings", [(), (("joker-relocation", "displace-only"),)])
@pytest.mark.parametrize("meld, hand", [
    (["JK", "7d", "8d"], ["Td", "4d", "9d", "Kc", "3c"]),        # a joker at the low end, gaps either side
    (["6d", "JK", "8d"], ["Td", "4d", "9d", "5d", "Kc"]),        # a joker between two naturals
    (["7d", "8d", "JK"], ["5d", "Jd", "6d", "Qd", "3c"]),        # at the high end
    (["JK", "7d", "8d", "9d"], ["Jd", "5d", "4d", "Kc", "3c"]),  # a longer sequence
    (["6d", "7d", "8d"], ["JK", "Td", "4d", "Kc", "3c"]),        # a joker from the hand
])
def test_every_canonical_layoff_onto_a_sequence_with_wild_cards_is_listed(meld, hand, readings):
    """Every layoff of every part of the hand onto a sequence that apply accepts
    (in canonical form) has an equivalent listed, where the meld's wild cards
    may leave their places (cbc 31: wild.JK.relocates under relocate) or not;
    the layoffs that leave a gap no wild card can fill are not listed."""
    engine = engine_for("cbc", readings)
    state = _layoff_state(engine, meld, hand)
    listed = [a for a in legal_actions(engine, state) if "layoff" in a]
    outcomes = {outcome(engine, state, a) for a in listed}
    accepted = 0
    for size in range(1, len(hand) + 1):
        for cards in itertools.combinations(hand, size):
            for end in (None, "low", "high"):
                item = {"meld": 0, "cards": list(cards), **({} if end is None else {"wild_end": end})}
                action = {"player": "N", "layoff": item}
                new, verdict = apply(engine, state, action)
                if verdict.verdict == REJECTED:
                    assert action not in listed, verdict.reason
                    continue
                accepted += 1
                if canonical(engine, state, action):
                    assert outcome(engine, state, action) in outcomes, action
    assert accepted
    assert not any(apply(engine, state, a)[1].reason == "meld.not-consecutive" for a in options_layoffs(engine, state))


def options_layoffs(engine, state):
    return options(engine, state).get("layoff")
