"""The opening: the first melds of a team in a hand, judged here and only here.

The melds a player lays while the team has not opened are provisional; the
opening is judged when the turn ends (on the discard, on going out, or when
the last turn ends without a discard), against opening.minimum raised by the
ladder for each failed opening, turn.clean_meld and opening.single_meld. A
failed opening gives the melds back to the hand (and the pile taken for it
back to the table, unless opening.failure_pile keeps it in the hand) and
moves the team up the ladder. Where the spec lets a short opening stand
unless challenged (read in the turn's context: at a going out too, where
the hand then ends with it standing), it stands pending until the next
player challenges it or his claim lapses (opening.challenge_lapses: at his
draw, or his turn's end); where it lets a pile taken for a
miscounted opening be given back, the player draws instead.
"""
from __future__ import annotations

from collections import Counter

from ..dsl.model import Decision
from .act import Act
from .context import TeamContext
from .rules import Engine
from .state import Meld, State, Turn, clause_record, recorded_decision


def minimum(act: Act, ctx) -> int:
    """The points the team's opening needs now: opening.minimum, raised by the
    ladder for each failed opening."""
    return _minimum(act, ctx, decisive=True)[0]


def _minimum(act: Act, ctx, decisive: bool) -> tuple[int, list[Decision]]:
    """minimum(), and the decisions it read (with `decisive`: read without it,
    they are cited with Trace.add only where the count decides)."""
    base = act.decide("opening.minimum", ctx, decisive)
    read = [base]
    failures = act.state.teams[act.team].opening_failures
    if base.value > 0 and failures:
        ladder = act.decide("opening.ladder", decisive=decisive)
        read.append(ladder)
        if ladder.value is not None:
            return ladder.value.after(base.value, failures), read
    return base.value, read


# the reasons of a failed opening, as failure() and judge() return them
FAILURES = ("opening.below-minimum", "opening.no-clean-meld", "opening.single-meld-below-minimum",
            "opening.taken-back")


# the failures of a count short of the minimum, which a retry with a stock draw may make good
_SHORT = ("opening.below-minimum", "opening.single-meld-below-minimum")


# the settings whose clauses a refusal for each failure cites: the rule that failed (the count's
# minimum, the one meld that must reach it, the clean meld), not the count where it did not fail
_FAILED_RULE = {"opening.below-minimum": ("opening.minimum",),
                "opening.single-meld-below-minimum": ("opening.single_meld", "opening.minimum"),
                "opening.no-clean-meld": ("turn.clean_meld",)}


def failed_rule(reason: str) -> tuple[str, ...]:
    """The settings a refusal for this opening failure cites (with order_of_judgement's);
    none of its own for opening.taken-back, whose failure _failures traced as it found it."""
    return _FAILED_RULE.get(reason, ())


# a failure that may stand until the next player challenges it, and the setting that says when
# (a count short of the minimum, of the melds together or of the one meld opening.single_meld asks)
_STANDS = {"opening.below-minimum": "opening.short_stands_unchallenged",
           "opening.single-meld-below-minimum": "opening.short_stands_unchallenged",
           "opening.no-clean-meld": "opening.unclean_stands_unchallenged"}


def failure(act: Act, going_out: bool = False, discarding: bool = False) -> str | None:
    """The reason the melds of this turn fail the opening rules, or None."""
    found, _ = _failures(act, going_out, discarding)
    return found[0] if found else None


def turn_falls_short(engine: Engine, state: State) -> bool:
    """Whether the turn so far fails the opening rules, were the turn player to
    end it now with a discard that does not go out, in a way the turn's end
    does not let stand (judge(): a failure that stands until the next player
    challenges it is left pending, not judged). Read without changing `state`,
    for agents planning a turn."""
    return _lasting_failure(Act(engine, state, state.turn.player, read_only=True), going_out=False,
                            discarding=True) is not None


def turn_shortfall(engine: Engine, state: State) -> int:
    """The points the turn's melds lack to reach the team's opening minimum
    (where opening.single_meld asks one meld to reach it, what the largest
    lacks), were the turn player to end the turn now with a discard that does
    not go out: the whole minimum before any meld is laid, 0 once the team has
    opened or the melds reach it. Read without changing `state`, for agents planning
    a turn."""
    act = Act(engine, state, state.turn.player, read_only=True)
    if act.batch():
        return _failures(act, going_out=False, discarding=True)[1]
    if state.teams[act.team].opened:
        return 0
    return minimum(act, act.context(batch=[], going_out=False, discarding=True))


def _failures(act: Act, going_out: bool, discarding: bool) -> tuple[list[str], int]:
    """Every reason the melds of this turn fail the opening rules (the clean
    meld first), and the points they lack to reach the minimum."""
    batch = act.batch()
    if not batch:
        if act.state.turn.retried and not act.state.teams[act.team].opened:
            # the pile was given back to make good a short count, and nothing is laid now: whether the
            # retry still owes its opening (as the turn ends, or the hand's end cuts it short)
            must = act.decide("opening.retry_must_open",
                              act.context(batch=batch, going_out=going_out, discarding=discarding), decisive=False)
            if must.value:
                # the clause that allowed the retry, as decided before its draw (read now, after a draw
                # that may have emptied the stock, it could say no); a state gives it with the retry
                act.trace.add(recorded_decision(act.state.turn.retried_by))
                act.trace.add(must)
                return ["opening.below-minimum"], 0
            if act.state.turn.final:
                act.trace.add(must)     # the clause that spares a retry cut short by the hand's end
        return [], 0
    found, shortfall = [], 0
    ctx = act.context(batch=batch, going_out=going_out, discarding=discarding)
    if act.value("turn.clean_meld", ctx, decisive=False):
        if not any(not any(act.engine.is_wild(c) for c in cards) for _, cards in batch):
            act.decide("turn.clean_meld", ctx)
            found.append("opening.no-clean-meld")
    if not act.state.teams[act.team].opened:
        # the minimum is cited where the count decides: it falls short, or the opening is made
        needed, read = _minimum(act, ctx, decisive=False)
        counted = _counted(act, batch)
        if act.value("opening.single_meld", ctx, decisive=False):
            if max(counted) < needed:
                act.decide("opening.single_meld", ctx)
                act.decide("opening.counts")
                found.append("opening.single-meld-below-minimum")
                shortfall = needed - max(counted)       # what the largest meld lacks
        points = sum(counted)
        if points < needed:
            act.decide("opening.counts")
            found.append("opening.below-minimum")
            shortfall = max(shortfall, needed - points)
        if not found or any(r in _SHORT for r in found):
            for decision in read:
                act.trace.add(decision)
    return found, shortfall


def _counted(act: Act, batch) -> list[int]:
    """What each of the turn's melds counts towards the minimum (opening.counts):
    its card points, nothing for a meld with wild cards where only clean melds
    count, plus the value of the canastra it is where canastras count; less the
    cards of the pile's rest where they do not count."""
    engine = act.engine
    mode = act.value("opening.counts", decisive=False)
    excluded = _pile_rest(act, batch)
    out = []
    for kind, cards in batch:
        kept = cards
        if excluded:
            kept = []
            for card in cards:
                if excluded.get(card, 0):
                    excluded[card] -= 1
                else:
                    kept.append(card)
        if mode == "clean-melds" and any(engine.is_wild(c) for c in cards):
            out.append(0)
            continue
        points = engine.hand_points(kept)
        if mode == "with-canastras":
            points += _canastra_value(act, kind, cards)
        out.append(points)
    return out


def _canastra_value(act: Act, kind: str, cards) -> int:
    """The bonus of the canastra these cards make, where it counts for the team
    now (canastra.<kind>.counts): a bonus the score would not add is not added
    to the opening either."""
    engine = act.engine
    canastra = engine.canastra_kind(kind, cards)
    if canastra is None:
        return 0
    counts = act.decide(f"canastra.{canastra}.counts", TeamContext(engine, act.state, act.team), decisive=False)
    if not counts.value:
        act.trace.add(counts)
        return 0
    return engine.meld_decide(f"canastra.{canastra}.value", engine.describe(kind, cards)).value


def _pile_rest(act: Act, batch) -> Counter:
    """The cards of the pile's rest melded this turn, where they do not count
    (opening.pile_cards_count = no): what the turn's melds hold beyond the cards
    the player could meld without that rest (turn.hand_at_take: the hand, the
    top card and the hand cards laid with it)."""
    turn = act.state.turn
    if turn.hand_at_take is None or act.value("opening.pile_cards_count", decisive=False):
        return Counter()
    act.decide("opening.pile_cards_count")
    melded = Counter(card for _, cards in batch for card in cards)
    return melded - Counter(turn.hand_at_take)


def order_of_judgement(act: Act) -> tuple[str, ...]:
    """What a refused going out on a failed opening cites beside the rule that failed (failed_rule):
    opening.short_last_discard, the order of the two judgements, for a team that
    had not opened (nothing for one that had)."""
    return () if act.state.teams[act.team].opened else ("opening.short_last_discard",)


def taken_back_before_going_out(act: Act) -> bool:
    """Whether the discard of the player's last card (or a play that leaves him
    one) is judged after this turn's melds go back as a failed opening, so it
    is no going out (opening.short_last_discard = ordinary), rather than as a
    going out that the failed opening forbids. A failure that would stand
    unchallenged at that going out (fails_going_out) takes nothing back."""
    if act.state.teams[act.team].opened:
        return False
    if act.value("opening.short_last_discard", decisive=False) != "ordinary":
        return False
    if fails_going_out(act, discarding=True) is None:
        return False
    act.decide("opening.short_last_discard")
    return True


def failure_discard(act: Act) -> Decision | None:
    """Where a discard that leaves the player other cards ends the turn with
    this turn's melds going back as a failed opening (judge(): a failure that
    stands until challenged takes nothing back, and one that starts the turn
    over discards nothing), the decision of opening.failure_discard on which
    cards it may be (after-return: any card of the hand the melds come back to;
    before-return: a card held while they are on the table); None elsewhere."""
    found = act.state.turn.melds_laid and _lasting(act, going_out=False, discarding=True)
    if not found:
        return None
    restarts = act.value("opening.failure_raises", found[1], decisive=False) \
        and act.value("opening.failure_restarts_turn", decisive=False)
    return None if restarts else act.decide("opening.failure_discard", decisive=False)


def discard_candidates(engine: Engine, state: State, player: str) -> list[str]:
    """The distinct cards a discard of `player` may name: those of his hand and,
    where the melds of a failed opening come back to it before the discard
    (opening.failure_discard = after-return, or a last card, which
    opening.short_last_discard may judge so), the cards of the turn's melds. A
    superset of the legal discards (turn.discard judges each), shared by
    legal.options and the test of whether any discard is left (actions)."""
    hand = state.players[player].hand
    if state.turn.melds_laid and (len(hand) == 1 or engine.value("opening.failure_discard") == "after-return"):
        melds = state.teams[state.team_of(player)].melds
        return list(dict.fromkeys([*hand, *(c for i in state.turn.melds_laid for c in melds[i].cards),
                                   *returned_layoffs(engine, state)]))
    return list(dict.fromkeys(hand))


def returned_layoffs(engine: Engine, state: State) -> list[str]:
    """The cards the turn added to melds of earlier turns where, its melds
    failing, they go back to the hand with them (turn.clean_meld_returns_layoffs:
    give_back); none elsewhere."""
    turn = state.turn
    if not turn.touched_before or not engine.value("turn.clean_meld_returns_layoffs"):
        return []
    melds = state.teams[state.team_of(turn.player)].melds
    return [card for record in turn.touched_before for card in _added(melds[record["meld"]], record)]


def _added(meld: Meld, before: dict) -> list[str]:
    """The cards a turn added to `meld`, an earlier turn's, as it was before (a turn.touched_before record)."""
    return list((Counter(meld.cards) - Counter(before["cards"])).elements())


def _additions_meld(act: Act) -> bool:
    """Whether the cards this turn added to melds of earlier turns (turn.touched_before),
    staying on the table when its melds go back, make the player one who melded, as
    they did when added (melding.melded_by_adding): the pile's top card added alone
    (the only card the turn added to the meld it joined) as pile.take.top_card_alone_melds
    says, cards of his hand as layoff.melds says."""
    turn, melds = act.state.turn, act.state.teams[act.team].melds
    for record in turn.touched_before:
        alone = record["meld"] == turn.pile_meld and len(_added(melds[record["meld"]], record)) == 1
        if act.value("pile.take.top_card_alone_melds" if alone else "layoff.melds", decisive=False):
            return True
    return False


def _standing(act: Act, reasons: list[str], ctx) -> list[Decision] | None:
    """The decisions on whether each failure of this turn's melds may stand
    until the next player challenges it (opening.short_stands_unchallenged,
    opening.unclean_stands_unchallenged, read in `ctx`: at a going out too), or
    None where some failure is not of that kind (or nothing was laid). A team
    that had opened fails only the clean meld of a later turn (turn.clean_meld),
    which opening.unclean_stands_unchallenged judges as it judges the opening's."""
    if not act.batch() or not all(r in _STANDS for r in reasons):
        return None
    return [act.decide(_STANDS[r], ctx, decisive=False) for r in reasons]


def fails_going_out(act: Act, discarding: bool) -> str | None:
    """The reason this turn's melds fail the opening were the player's hand
    emptied now, unless that failure would stand until challenged
    (judge(): then the going out is not stopped by it)."""
    return _lasting_failure(act, going_out=True, discarding=discarding)


def _lasting_failure(act: Act, going_out: bool, discarding: bool) -> str | None:
    """The reason this turn's melds fail the opening were the turn ended now,
    unless that failure would stand until challenged (judge())."""
    found = _lasting(act, going_out, discarding)
    return found[0] if found else None


def _lasting(act: Act, going_out: bool, discarding: bool):
    """(reason, context) of _lasting_failure, or None."""
    reasons, shortfall = _failures(act, going_out=going_out, discarding=discarding)
    if not reasons:
        return None
    ctx = act.context(batch=act.batch(), going_out=going_out, discarding=discarding, shortfall=shortfall)
    stands = _standing(act, reasons, ctx)
    return None if stands is not None and all(d.value for d in stands) else (reasons[0], ctx)


def check_allowed(act: Act) -> None:
    """Reject an opening move (a meld, a layoff, a pile taken) of a player
    barred from the team's opening this hand."""
    if not act.state.teams[act.team].opened and act.state.players[act.player].barred:
        act.reject("opening.barred", f"{act.player} may not take part in an opening this hand",
                   "opening.failure_bars_player")


def judge(act: Act, going_out_now: bool, discarding: bool) -> str | None:
    """Judge this turn's melds as an opening; returns None (nothing to judge),
    'opening.made' (a short opening left standing unless challenged counts as
    made), or a failure reason (melds given back; penalty applied, or
    'opening.taken-back' where this failure does not raise the minimum)."""
    state = act.state
    if not state.turn.melds_laid and not state.turn.retried:
        return None         # no meld this turn and no retry owing one: _failures finds nothing
    was_open = state.teams[act.team].opened
    reasons, shortfall = _failures(act, going_out=going_out_now, discarding=discarding)
    if not reasons:
        if not was_open and state.turn.melds_laid:
            state.team_w(act.team).opened = True
            return "opening.made"
        return None
    team = state.team_w(act.team)
    ctx = act.context(batch=act.batch(), going_out=going_out_now, discarding=discarding, shortfall=shortfall)
    stands = _standing(act, reasons, ctx)
    raises = act.decide("opening.failure_raises", ctx, decisive=False)
    if stands is not None and all(d.value for d in stands):
        for decision in stands:
            act.trace.add(decision)
        # whether a challenge charges the failure is decided now, in the context of this turn, which
        # has passed by the time the next player challenges
        state.pending = {"player": act.player, "team": act.team, "melds": list(state.turn.melds_laid),
                         "undo": state.turn.opening_undo, "failures_before": team.opening_failures,
                         "stands": [clause_record(d) for d in stands], "raises": clause_record(raises)}
        if was_open:
            # a later turn's melds: a challenge takes back those (and, where they go with them, the cards
            # added to earlier melds), not the opening made before
            state.pending.update(opened_before=True, had_melded=state.turn.had_melded)
            if state.turn.touched_before:
                state.pending["touched_before"] = list(state.turn.touched_before)
                state.pending["additions_meld"] = _additions_meld(act)
        if state.turn.laid_lost:
            # the canastra kinds its melds lost: a challenge takes them back with the melds
            state.pending["lost"] = [record["kind"] for record in state.turn.laid_lost]
        team.opened = True
        act.events.append("opening.short-pending")
        return "opening.pending-check"
    for decision in stands or ():
        if not decision.value:
            act.trace.add(decision)     # the clause that keeps this failure from standing decided
    reason = reasons[0]
    give_back(act, keep_pile=_pile_kept(act, raises.value))
    if not raises.value:
        act.trace.add(raises)
        return "opening.taken-back"
    if not was_open:
        penalise(act)       # a later turn's melds are no opening: the ladder raises what an opening needs
    if state.ended is None and act.value("opening.failure_restarts_turn"):
        restart_turn(act)       # a turn the hand's end cut short (judge_cut_short) is not played again
    return reason


def judge_cut_short(act: Act) -> str | None:
    """Judge the melds of a turn the hand's end cut short (a pile take whose red
    threes' replacements drew the stock's last card, or were owed from an empty
    stock, draw.short_stock; a draw after the pile was
    given back, opening.retry_keeps_hand_melds keeping melds down; a late red
    three's exchange) as the end of the last turn of an exhausted stock judges
    them: the turn is final (turn.final), ending without a discard, and nobody
    draws after it; a retry that laid nothing is judged too, as opening.retry_must_open
    says in that context. Returns what judge() returns (None where nothing was laid
    and no retry owes an opening)."""
    if not act.state.turn.melds_laid and not act.state.turn.retried:
        return None
    act.state.turn_w().final = True
    return judge(act, going_out_now=False, discarding=False)


def _pile_kept(act: Act, raises: bool) -> bool:
    """Whether the player keeps the pile taken for this failed opening
    (opening.failure_pile); never when the turn starts over, which gives it back."""
    if act.state.turn.opening_undo is None:
        return False
    if raises and act.value("opening.failure_restarts_turn", decisive=False):
        return False
    return act.value("opening.failure_pile") == "kept"


def restart_turn(act: Act) -> None:
    """The failed opening starts the turn over (opening.failure_restarts_turn):
    the melds and the pile are back already; the cards kept from the stock go
    back on top of it and the player is to draw again. Red threes laid stay on
    the table; a first card turned down stays where it went, or goes back on
    top of the stock with the refusal (opening.restart_first_card)."""
    state, turn = act.state, act.state.turn
    hand = act.hand
    returned = [card for card in turn.drawn if card in hand]
    for card in returned:
        hand.remove(card)
    redrawn = turn.redrawn
    if redrawn and act.value("opening.restart_first_card") == "back":
        # the card turned down is the last to reach the pile (or the cards set aside) in this turn
        place = state.aside_w() if act.value("draw.rejected_card", decisive=False) == "aside" else state.pile_w()
        if place:
            returned = [place.pop(), *returned]
            redrawn = False
    state.stock = returned + state.stock
    state.turn = Turn(player=act.player, phase="draw", first=turn.first, redrawn=redrawn,
                      first_card_red_three=turn.first_card_red_three, claim_lapsed=turn.claim_lapsed,
                      had_melded=state.players[act.player].melded)     # cards added that stay count
    act.events.append("opening.turn-restarted")


def turn_restarted(act: Act) -> bool:
    """Whether the failed opening judged in this action started the turn over (restart_turn)."""
    return "opening.turn-restarted" in act.events


def give_back(act: Act, keep: tuple[int, ...] = (), keep_pile: bool = False) -> None:
    """Return this turn's provisional melds (but those at the indices `keep`)
    to the hand and the pile to the table (but with `keep_pile`, where it stays
    in the hand: opening.failure_pile). The canastra kinds they lost this turn
    go with them: the team no longer counts them lost (TeamState.canastras_lost)."""
    state, turn = act.state, act.state.turn_w()
    back = [i for i in turn.melds_laid if i not in keep]
    additions_meld = _additions_meld(act)      # read before they may go back
    layoffs_stay = bool(turn.touched_before) and not _layoffs_return(act, turn.touched_before)
    _unlose(state.team_w(act.team), [record["kind"] for record in turn.laid_lost if record["meld"] in back])
    undo = None if keep_pile else turn.opening_undo
    if undo is not None and "stock" in undo and state.ended is not None:
        undo = _undo_at_hand_end(act, undo)
    _take_back(state, act.team, act.hand, back, undo)

    def moved(i: int) -> int:           # a kept meld's index once those before it left
        return i - sum(1 for b in back if b < i)
    turn.melds_laid = [moved(i) for i in turn.melds_laid if i in keep]
    turn.touched = [moved(i) for i in turn.touched if i in keep]
    turn.formed = [moved(i) for i in turn.formed if i in keep]
    turn.laid_lost = [{**record, "meld": moved(record["meld"])} for record in turn.laid_lost if record["meld"] in keep]
    # what this turn lost and keeps lost: its kept melds' losses, and those of earlier melds its additions
    # changed where the additions stay
    turn.canastras_lost = [record["kind"] for record in turn.laid_lost] + \
        [kind for record in turn.touched_before for kind in record["lost"]] * layoffs_stay
    turn.pile_meld = None
    turn.hand_at_take = None
    if turn.opening_undo is not None and not keep_pile:
        turn.pile_cards = []
        turn.took_pile = False
    turn.opening_undo = None
    turn.touched_before = []
    state.player_w(act.player).melded = turn.had_melded or bool(keep) or (layoffs_stay and additions_meld)


def _layoffs_return(act: Act, touched_before: list[dict]) -> bool:
    """Where the failed turn of `act.player` added cards to melds of earlier
    turns (`touched_before`: a team that had opened), whether they go back with
    its melds (turn.clean_meld_returns_layoffs); then they are back in his hand,
    and those melds are what they were before the turn."""
    if not touched_before or not act.value("turn.clean_meld_returns_layoffs"):
        return False
    _restore(act.state, act.team, act.hand, touched_before)
    return True


def _restore(state, team: str, hand: list[str], touched_before: list[dict]) -> None:
    """The team's melds of earlier turns are again what they were before the
    turn added to them; the cards added go back to `hand`, and the canastra
    kinds the additions changed are no longer counted lost (TeamState.canastras_lost)."""
    mine = state.team_w(team)
    for record in touched_before:
        now = mine.melds[record["meld"]]
        hand.extend(_added(now, record))
        mine.melds[record["meld"]] = Meld(now.kind, list(record["cards"]), record["canastra"])
        _unlose(mine, record["lost"])


def _unlose(team, kinds: list[str]) -> None:
    """The team no longer counts these canastra kinds lost: the melds that lost
    them went back as they were before (a kind not counted is passed over, as a
    state given may not count it)."""
    for kind in kinds:
        if kind in team.canastras_lost:
            team.canastras_lost.remove(kind)


def _undo_at_hand_end(act: Act, undo: dict) -> dict:
    """What giving back a pile restores once the hand has ended in the turn it
    was taken (judge_cut_short): not the exchange of its red threes, whose
    replacements drew the stock's last card and stay in the hand; the threes go
    back to the pile with it or stay laid down, as opening.failure_pile_threes
    says."""
    if act.value("opening.failure_pile_threes") == "returned":
        return {"pile": undo["pile"]}           # _take_back returns laid threes of the pile with it
    laid = Counter(act.state.teams[act.team].red_threes) - Counter(undo["red_threes"])
    pile = []
    for card in undo["pile"]:
        if laid[card] > 0:
            laid[card] -= 1         # laid down from the pile: it stays on the table
        else:
            pile.append(card)
    return {"pile": pile}


def _hand_melds(act: Act) -> tuple[int, ...]:
    """The melds laid this turn, other than the one made with the pile's top
    card, that the hand's own cards could have made (copies of a card being
    alike): those a retry keeps on the table (opening.retry_keeps_hand_melds)."""
    turn, melds = act.state.turn, act.state.teams[act.team].melds
    if turn.hand_at_take is None:
        return ()
    own = Counter(turn.hand_at_take)
    if turn.pile_meld is not None:
        own -= Counter(melds[turn.pile_meld].cards)
    keep = []
    for index in turn.melds_laid:
        cards = Counter(melds[index].cards)
        if index != turn.pile_meld and not cards - own:
            own -= cards
            keep.append(index)
    return tuple(keep)


def _take_back(state, team: str, hand: list[str], melds: list[int], undo: dict | None) -> None:
    """The team's melds at these indices go back to the hand; when the pile was
    taken for them (`undo`), its cards leave the hand for the table again."""
    laid = state.team_w(team).melds
    for index in sorted(melds, reverse=True):
        hand.extend(laid.pop(index).cards)
    from_table = None
    if undo is not None and "stock" in undo:
        # red threes laid down from the pile go back to it, their replacements to the
        # stock; a replacement no longer held was the discard that ended the turn (a
        # pending opening challenged after it) and stays on the pile, so the stock does
        # not get it back
        stock = list(undo["stock"])
        for card in undo["drawn"]:
            if card in hand:
                hand.remove(card)
            else:
                stock.remove(card)
        state.stock = stock
        from_table = Counter(state.team_w(team).red_threes) - Counter(undo["red_threes"])
        state.team_w(team).red_threes = list(undo["red_threes"])
    if undo is not None:
        # one pass over the hand, not one per pile card; the red threes just taken off
        # the table are not looked for in the hand (a copy held there stays)
        owed = Counter(undo["pile"]) - from_table if from_table else Counter(undo["pile"])
        kept = []
        for card in hand:
            if owed.get(card, 0) > 0:
                owed[card] -= 1
            else:
                kept.append(card)
        hand[:] = kept
        if "stock" not in undo:
            # a red three that came with the pile into the hand and was laid down since
            # (red_three.late) goes back with it
            threes = state.team_w(team).red_threes
            for card in list(owed.elements()):
                if card in threes:
                    threes.remove(card)
                    owed[card] -= 1
        # a pile card no longer held or laid was the discard, on the pile already
        returned = list(undo["pile"])
        for card in owed.elements():
            returned.remove(card)
        state.pile = returned + state.pile


def give_pile_back(act: Act) -> None:
    """Give back a pile taken for an opening that falls short, and draw instead
    (opening.retry_with_stock_draw)."""
    turn = act.state.turn
    if not (turn.took_pile and turn.opening_undo is not None):
        act.reject("turn.already-drew", "the player has already drawn this turn")
    # judged before the draw, in the turn's context: a rulebook may deny it where the stock is empty
    ctx = act.context()
    granted = act.decide("opening.retry_with_stock_draw", ctx)
    if not granted.value:
        act.reject("pile.no-retry", "the pile cannot be given back for a stock draw", "opening.retry_with_stock_draw",
                   ctx=ctx)
    # the retry makes good a count short of the minimum; an opening that fails only for
    # want of a clean meld (turn.clean_meld) has no count to make good
    if not any(r in _SHORT for r in _failures(act, going_out=False, discarding=False)[0]):
        act.reject("pile.no-retry", "the opening made with the pile reaches the minimum: there is no miscount to "
                   "make good", "opening.retry_with_stock_draw", ctx=ctx)
    keep = _hand_melds(act)
    give_back(act, keep if keep and act.value("opening.retry_keeps_hand_melds") else ())
    turn = act.state.turn_w()
    turn.retried, turn.retried_by = True, clause_record(granted)
    act.events.append("draw.stock-instead-of-pile")


def penalise(act: Act) -> None:
    """Charge a failed opening: the ladder step, and the bar where the spec has one."""
    team = act.state.team_w(act.team)
    applies = act.value("opening.penalty_applies")
    if applies == "next-hand":
        # each error adds a step to those already owed (treze valor.14)
        team.carried_failures = (team.carried_failures or team.opening_failures) + 1
    elif applies == "next-round":
        team.pending_failures.append(act.player)     # in force from the player's next turn (pass_turn)
    else:
        team.opening_failures += 1
    act.decide("opening.ladder")
    if act.value("opening.failure_bars_player"):
        act.state.player_w(act.player).barred = True


def _cite_stands(act: Act, pending: dict) -> None:
    """Cite the clauses that let the pending opening stand until challenged."""
    for record in pending.get("stands", ()):
        act.trace.add(recorded_decision(record))


def settle_pending(act: Act, lapse: Decision) -> None:
    """The next player's claim lapses (opening.challenge_lapses, decided as `lapse`: at his draw, or
    his turn's end): the short opening awaiting challenge (state.pending) now stands. The turn keeps
    the claim lapsed (turn.claim_lapsed): his challenge later in it comes too late (challenge)."""
    pending = act.state.pending
    act.state.pending = None
    act.state.turn_w().claim_lapsed = {"by": clause_record(lapse), "stands": list(pending.get("stands", ()))}
    _cite_stands(act, pending)
    act.events.append("opening.short-unchallenged")


def challenge(act: Act) -> None:
    """The next player challenges the melds left pending (a short or unclean
    opening, or a later turn's melds without their clean meld): they go back,
    and their player's team is charged the failure. A team whose opening was
    made before that turn stays open."""
    state = act.state
    pending = state.pending
    if pending is None:
        lapsed = state.turn.claim_lapsed
        if lapsed is None:
            act.reject("challenge.nothing-to-challenge", "there is no short opening to challenge")
        # the opening stood when the turn player's claim lapsed in this turn (settle_pending): answered
        # as the same opening still pending in a state given past that point is (below)
        _cite_stands(act, lapsed)
        if act.player != state.turn.player:
            act.reject("challenge.not-yours", "only the next player, before playing, may challenge")
        act.trace.add(recorded_decision(lapsed["by"]))
        act.reject("challenge.too-late", "the next player's claim lapsed when he drew: the opening stands")
    if act.player != state.turn.player:
        _cite_stands(act, pending)
        act.reject("challenge.not-yours", "only the next player, before playing, may challenge")
    if state.turn.phase != "draw":
        # the claim outlives his take of the pile where only his stock draw ends it (settle_pending
        # comes at that draw or at his turn's end)
        lapse = act.decide("opening.challenge_lapses")
        if not state.turn.took_pile or lapse.value != "stock-draw":
            _cite_stands(act, pending)
            act.reject("challenge.too-late", "the next player's claim lapsed when he drew: the opening stands")
    offender = pending["player"]
    offender_act = Act(act.engine, state, offender)
    offender_act.trace = act.trace
    # opening.failure_raises as decided when the turn ended (judge()); a state given without that
    # record is read now, in the offender's context, though the turn's facts are the challenger's
    recorded = pending.get("raises")
    if recorded is not None:
        raises = recorded_decision(recorded)
    else:
        raises = offender_act.decide("opening.failure_raises", offender_act.context(), decisive=False)
    undo = pending.get("undo")
    if undo is not None and offender_act.value("opening.failure_pile") == "kept":
        undo = None
    _take_back(state, pending["team"], state.player_w(offender).hand, pending["melds"], undo)
    opened_before = pending.get("opened_before", False)
    touched_before = pending.get("touched_before", [])
    layoffs_stay = bool(touched_before) and not _layoffs_return(offender_act, touched_before)
    _unlose(state.team_w(pending["team"]), pending.get("lost", []))
    state.team_w(pending["team"]).opened = opened_before
    additions_meld = pending.get("additions_meld", True)      # a state given without it: as they were added
    state.player_w(offender).melded = opened_before and (pending.get("had_melded", False)
                                                         or (layoffs_stay and additions_meld))
    state.pending = None
    if raises.value:
        if not opened_before:
            penalise(offender_act)      # as judge(): the ladder counts failed openings only
    else:
        act.trace.add(raises)       # the melds only go back: the clause that says so decided
    _cite_stands(act, pending)
