"""A random legal agent, for self-play and stateful tests.

It picks from the engine's legal actions (canastra_ref.engine.legal): it
chooses a verb (with a bias towards melding, so that hands are played out),
then tries that verb's candidates in random order and keeps the first that
`apply` accepts, which is a uniform choice among the verb's legal actions
without judging all of them. Because `apply` never changes its input, the
agent can try a turn's plan (melds and layoffs, then the discard) on a
scratch state and keep it only when it does not end in a penalty.

A plan lays up to MELDS_PER_TURN melds or layoffs, each with meld_chance.
While its team has not opened, the plan goes on (up to MAX_PLAN) as long as
the engine judges that its melds would fail the opening at the turn's end
(opening.turn_falls_short: an opening the spec lets stand until the next
player challenges it does not fall short, and is played), and a plan still
short at the end is dropped before any discard is tried, except with
penalty_chance, when it is played out to the discard that the engine
penalises. A discard penalised for another reason is played with
penalty_chance too; otherwise the turn is a discard alone.

An opening plan is not even begun when it looks hopeless: when the card
points of the hand cards that some meld or layoff candidate holds are below
the points the engine says the turn lacks before any meld
(opening.turn_shortfall: the minimum). This is a heuristic of the agent, not
a rule: a canastra can lower the minimum (to 0 in some readings) or add its
bonus to the count, so such a hand could still open; the agent begins the
plan anyway with hopeless_chance. Most such plans would end dropped, after
several melds tried on a scratch state for nothing.
"""
from __future__ import annotations

import random

from .actions import Action, apply
from .legal import options
from .opening import turn_falls_short, turn_shortfall
from .rules import Engine
from .state import State
from .verdict import PENALISED, REJECTED

# Rejections that hold for every candidate of a verb: the agent stops trying it.
_WHOLE_VERB = {"pile.blocked", "pile.empty", "stock.exhausted", "opening.barred", "turn.already-drew",
               "turn.not-your-turn", "turn.draw-first", "layoff.not-opened", "going-out.ask-not-allowed",
               "redraw.not-allowed", "card.from-pile-not-usable"}
MAX_TRIES = 24          # candidates tried for one choice before the agent gives the verb up
MELDS_PER_TURN = 3      # melds and layoffs a plan lays at most, each with meld_chance...
MAX_PLAN = 12           # ...or, while they fall short of the opening, up to this many


def _cards(action: Action) -> list[str]:
    """The hand cards a meld or layoff candidate lays."""
    return action.arg[0][1]     # a meld's (kind, cards), a layoff's (index, cards, end)


class RandomAgent:
    def __init__(self, engine: Engine, rng: random.Random, *, redraw_chance=0.3, challenge_chance=0.5,
                 answer_yes_chance=0.8, penalty_chance=0.05, pile_chance=0.8, meld_chance=0.9,
                 hopeless_chance=0.1):
        self.engine, self.rng = engine, rng
        self.redraw_chance, self.challenge_chance = redraw_chance, challenge_chance
        self.answer_yes_chance, self.penalty_chance = answer_yes_chance, penalty_chance
        self.pile_chance, self.meld_chance = pile_chance, meld_chance
        self.hopeless_chance = hopeless_chance

    # ------------------------------------------------------------------ API
    def step(self, state: State) -> list[tuple[Action, State, object]]:
        """Play the next short plan: (action, state after it, verdict) for each
        action, all of them accepted or penalised (action.json is its JSON form)."""
        return self._plan(state)

    def next_actions(self, state: State) -> list[dict]:
        """The JSON actions of the next plan (at least one while the hand goes on)."""
        return [action.json for action, _, _ in self.step(state)]

    # ------------------------------------------------------------- choosing
    def _first(self, state: State, candidates: list[Action], shuffle: bool = True, tries: int = MAX_TRIES):
        """(action, new state, verdict) of the first candidate accepted among
        `tries` (every one, with tries=None), or None. With `shuffle`,
        candidates are drawn at random without replacement (as from a shuffled
        list, drawing only those tried), else tried in order."""
        pool = list(candidates)
        if not shuffle:
            pool.reverse()                   # popped from the end: in the given order
        randrange = self.rng.randrange
        for _ in range(len(pool) if tries is None else min(tries, len(pool))):
            if shuffle:
                i = randrange(len(pool))
                pool[i], pool[-1] = pool[-1], pool[i]
            action = pool.pop()
            new, verdict = apply(self.engine, state, action)
            if verdict.verdict != REJECTED:
                return action, new, verdict
            if verdict.reason in _WHOLE_VERB:
                return None
        return None

    def _hopeless(self, state: State, candidates: list[Action]) -> bool:
        """Whether a team that has not opened lays nothing this turn, because
        the points of the hand cards that some meld or layoff candidate holds
        fall short of the minimum (opening.turn_shortfall before any meld). A
        heuristic, not a rule: where a canastra lowers the minimum or adds to
        the count, the hand could still open, so the agent tries anyway with
        hopeless_chance."""
        usable = {card for action in candidates for card in _cards(action)}
        reach = self.engine.hand_points(c for c in state.players[state.turn.player].hand if c in usable)
        return turn_shortfall(self.engine, state) > reach and self.rng.random() >= self.hopeless_chance

    def _plan(self, state: State) -> list[tuple[Action, State, object]]:
        opts = options(self.engine, state)
        turn = state.turn
        if "deal" in opts:
            action = Action(state.dealer, "deal", (self.rng.randrange(2 ** 31), None))
            return [(action, *apply(self.engine, state, action))]
        if "answer" in opts:
            reply = "yes" if self.rng.random() < self.answer_yes_chance else "no"
            choice = self._first(state, [a for a in opts["answer"] if a.arg == reply], shuffle=False)
            return [choice] if choice else []
        if not state.started and "replace_red_three" in opts:
            choice = self._first(state, opts["replace_red_three"], shuffle=False)
            if choice:
                return [choice]
        if "challenge" in opts and self.rng.random() < self.challenge_chance:
            choice = self._first(state, opts["challenge"])
            if choice:
                return [choice]
        for verb in ("replace_red_three", "lay_down_red_three"):      # a late red three, first thing
            if state.started and verb in opts:
                choice = self._first(state, opts[verb], shuffle=False)
                if choice:
                    return [choice]
        if turn.phase == "draw":
            if state.pile and self.rng.random() < self.pile_chance:
                choice = self._first(state, opts.get("take_pile"))
                if choice:
                    return [choice]
            choice = self._first(state, opts.get("draw"))
            return [choice] if choice else []
        return self._play(state, opts)

    def _play(self, state: State, opts) -> list[tuple[Action, State, object]]:
        turn = state.turn
        if "replace_red_three" in opts:      # one received with the pile, to be exchanged on the turn
            choice = self._first(state, opts["replace_red_three"], shuffle=False)
            if choice:
                return [choice]
        if "redraw" in opts and self.rng.random() < self.redraw_chance:
            choice = self._first(state, opts["redraw"])
            if choice:
                return [choice]
        plan: list = []
        scratch, scratch_opts = state, opts          # the plan's state so far and its options
        opening = not state.teams[state.team_of(turn.player)].opened
        judged = None           # (a scratch state, whether its melds fall short): asked once a state

        def falls_short(scratch):
            nonlocal judged
            if judged is None or judged[0] is not scratch:
                judged = scratch, turn_falls_short(self.engine, scratch)
            return judged[1]
        for count in range(MAX_PLAN):
            if count >= MELDS_PER_TURN or self.rng.random() >= self.meld_chance:
                # an opening plan goes on while the engine judges its melds short of the opening
                if not (opening and plan and falls_short(scratch)):
                    break
            candidates = scratch_opts.get("meld") + scratch_opts.get("layoff")
            if opening and not plan and self._hopeless(state, candidates):
                break
            choice = self._first(scratch, candidates)
            if choice is None:
                break
            plan.append(choice)
            scratch = choice[1]
            if scratch.ended is not None:
                return plan
            scratch_opts = options(self.engine, scratch)
        if opening and plan and falls_short(scratch) and self.rng.random() >= self.penalty_chance:
            plan, scratch, scratch_opts = [], state, opts       # the plan would fail the opening: drop it
        if scratch.turn.final:
            choice = self._first(scratch, scratch_opts.get("end_turn"))
            return plan + [choice] if choice else plan
        if not plan and "ask_partner" in opts and turn.asked is None and len(state.players[turn.player].hand) <= 2:
            choice = self._first(state, opts["ask_partner"])
            if choice:
                return [choice]
        discard = self._first(scratch, scratch_opts.get("discard"))
        if discard is not None and (discard[2].verdict != PENALISED or self.rng.random() < self.penalty_chance):
            return plan + [discard]
        # the plan ends in a penalty (a short opening, played out only with penalty_chance
        # above, or a hand left stranded): play no melds this turn
        if plan:
            fallback = self._first(state, opts.get("discard"))
            if fallback is not None:
                return [fallback]
        if discard is not None:
            return plan + [discard]
        # no discard tried is allowed (the pile's cards may not be discarded): try every other one (a
        # card of melds that go back as a failed opening), else give the pile back and draw, or end
        # the turn
        for verb in ("discard", "draw", "end_turn"):
            choice = self._first(scratch, scratch_opts.get(verb), tries=None)
            if choice:
                return plan + [choice]
        return plan
