"""Going out: when a player may empty the hand, asking the partner, and the
end of the hand it brings."""
from __future__ import annotations

from .act import Act
from .context import ActionContext


def check(act: Act, discarding: bool) -> None:
    """Reject unless the acting player may go out now (the state already shows
    the melds of this action)."""
    turn = act.state.turn
    ctx = act.context(batch=act.batch(), going_out=True, discarding=discarding)
    if turn.asked == "no":
        act.reject("going-out.partner-said-no", "the partner answered no to going out", "going_out.ask_partner",
                   ctx=ctx)
    if not act.value("going_out.allowed", ctx):
        act.reject("going-out.not-allowed", "the team does not meet the conditions for going out")
    if discarding and not act.value("going_out.with_discard", ctx):
        act.reject("going-out.with-discard-not-allowed", "going out with a final discard is not allowed")
    if not discarding and not act.value("going_out.without_discard", ctx):
        act.reject("going-out.without-discard-not-allowed", "going out without a final discard is not allowed")


def could_go_out_by_discarding(act: Act) -> bool:
    """Whether discarding a last card would be an allowed going out, judged on
    the current state (used to refuse melds that strand the last card)."""
    if act.state.turn.asked == "no":
        return False
    ctx = act.context(batch=act.batch(), going_out=True, discarding=True)
    return bool(act.engine.value("going_out.allowed", ctx) and act.engine.value("going_out.with_discard", ctx))


def end_hand(act: Act, reason: str, player: str | None = None, concealed: bool = False) -> None:
    act.state.ended = {"reason": reason, "player": player, "concealed": concealed}
    act.state.turn_w().phase = "over"


def went_out(act: Act, discarding: bool) -> None:
    concealed = not act.state.turn.had_melded
    end_hand(act, "went-out", act.player, concealed=concealed)
    act.state.ended["took_pile"] = act.state.turn.took_pile
    if concealed:
        act.state.ended["concealed_canastras"] = len(act.state.turn.formed)
    act.events.append("going-out.with-discard" if discarding else "going-out.direct")


def ask(act: Act) -> None:
    """The player asks the partner for permission to go out. When he may is
    the spec's (going_out.ask_partner, read as he asks); a player without a
    partner has nobody to ask."""
    if not act.state.table.partners(act.player):
        act.reject("going-out.ask-not-allowed", "a player without a partner cannot ask", "table.team_size")
    ctx = act.context(batch=act.batch())
    if not act.value("going_out.ask_partner", ctx):
        act.reject("going-out.ask-not-allowed", "the ruleset does not let the player ask the partner now",
                   "going_out.ask_partner", ctx=ctx)
    act.state.turn_w().asked = "asking"


def answer(act: Act, reply: str) -> None:
    turn = act.state.turn
    if turn.asked != "asking" or act.player not in act.state.table.partners(turn.player):
        act.reject("going-out.ask-not-allowed", "nobody asked this player about going out")
    # the answer binds by the clause that let the question be asked: decided as it was then
    # (nothing but the question has happened since)
    working = act.state.turn_w()
    working.asked = None
    act.decide("going_out.ask_partner", ActionContext(act.engine, act.state, turn.player))
    working.asked = reply
