"""Going out: when a player may empty the hand, asking the partner, and the
end of the hand it brings."""
from __future__ import annotations

from ..dsl.model import Decision
from .act import Act
from .state import clause_record, recorded_decision
from .verdict import Rejection


def check(act: Act, discarding: bool) -> None:
    """Reject unless the acting player may go out now (the state already shows
    the melds of this action)."""
    turn = act.state.turn
    ctx = act.context(batch=act.batch(), going_out=True, discarding=discarding)
    if turn.asked == "no":
        raise Rejection("going-out.partner-said-no", "the partner answered no to going out", question(turn))
    if not act.value("going_out.allowed", ctx):
        act.reject("going-out.not-allowed", "the team does not meet the conditions for going out")
    if discarding and not act.value("going_out.with_discard", ctx):
        act.reject("going-out.with-discard-not-allowed", "going out with a final discard is not allowed")
    if not discarding and not act.value("going_out.without_discard", ctx):
        act.reject("going-out.without-discard-not-allowed", "going out without a final discard is not allowed")


def could_go_out_by_discarding(act: Act) -> bool:
    """Whether discarding a last card would be an allowed going out, judged on
    the current state (used to refuse melds that strand the last card; a
    partner's "no" is the caller's to cite)."""
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
        turn = act.state.turn
        act.state.ended["concealed_canastras"] = len(turn.formed)
        act.state.ended["concealed_own_canastras"] = sum(1 for i in turn.formed if i in turn.melds_laid)
    act.events.append("going-out.with-discard" if discarding else "going-out.direct")


def end_if_stock_drawn_out(act: Act) -> None:
    """Where the hand ends as soon as the last card of the stock is drawn
    (stock.exhausted = last-card-ends), end it once a draw has emptied the
    stock, whichever draw took that card: the turn's own, the first player's
    second card, or a red three's replacement (the setting names no draw, and
    each takes a card of the stock)."""
    state = act.state
    if state.ended is None and not state.stock \
            and act.value("stock.exhausted", decisive=False) == "last-card-ends":
        act.decide("stock.exhausted")
        end_hand(act, "stock-exhausted")


def ask(act: Act) -> None:
    """The player asks the partner for permission to go out, on his own turn.
    When he may is the spec's (going_out.ask_partner, read as he asks, before
    or after his draw: turn.drew); a player without a partner has nobody to ask."""
    if not act.state.table.partners(act.player):
        act.reject("going-out.ask-not-allowed", "a player without a partner cannot ask", "table.team_size")
    ctx = act.context(batch=act.batch())
    decision = act.decide("going_out.ask_partner", ctx)
    if not decision.value:
        raise Rejection("going-out.ask-not-allowed", "the ruleset does not let the player ask the partner now",
                        (decision,))
    turn = act.state.turn_w()
    turn.asked = "asking"
    # kept for the rest of the turn: the answer binds by this clause, as it was decided now
    turn.asked_by = clause_record(decision)


def question(turn) -> tuple[Decision, ...]:
    """The decision that let the turn's question to the partner be asked, as it
    was made then (a state gives it with the question): what the answer, and a
    play it rules out, cite."""
    return (recorded_decision(turn.asked_by),)


def cite_question(act: Act) -> None:
    for decision in question(act.state.turn):
        act.trace.add(decision)


def answer(act: Act, reply: str) -> None:
    turn = act.state.turn
    if turn.asked != "asking" or act.player not in act.state.table.partners(turn.player):
        act.reject("going-out.ask-not-allowed", "nobody asked this player about going out")
    cite_question(act)
    act.state.turn_w().asked = reply
