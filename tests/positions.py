"""The position an engine test starts from: a partial state, as a fixture
gives one, completed by the documented rule (canastra_ref/engine/completion.py)
and loaded; and the verdicts of actions applied to it in turn.
"""
from __future__ import annotations

from canastra_ref.engine.actions import apply
from canastra_ref.engine.completion import complete
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.rules import Engine
from canastra_ref.engine.state import State


def position(engine: Engine, partial: dict) -> State:
    """The state `partial` describes, completed for the engine's table and deck, and loaded."""
    return load_state(engine, complete(engine.table, engine.deck, partial))


def played(engine: Engine, partial: dict, *actions: dict, every: bool = False):
    """The position `partial` describes with `actions` applied in turn, whatever their verdicts:
    (the last state, the verdicts), or with `every` (the first state and one after each action,
    the verdicts)."""
    state = position(engine, partial)
    states, verdicts = [state], []
    for action in actions:
        state, verdict = apply(engine, state, action)
        states.append(state)
        verdicts.append(verdict)
    return (states if every else state), verdicts
