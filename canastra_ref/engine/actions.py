"""Actions: parsing their JSON form and applying them to a state.

`apply(engine, state, action)` returns (new state, verdict) and never changes
`state`; a rejected action returns `state` itself. Actions (JSON):

    {"player": "N", "deal": {"seed": 7}}          the dealer deals a seeded shuffle (phase deal)
    {"player": "N", "deal": {"deck": ["4c", ...]}}   ... or the deck in this order from the top
                                                  (the rest follows in the fill order of completion.py)
    {"player": "N", "exact_cut": true}            the cutter cut exactly (phase deal)
    {"player": "N", "misdeal": true}              the dealer misdealt (claimed by him before play starts,
                                                  or before the first discard; or by any player before
                                                  his own first discard: deal.misdeal_claim)
    {"player": "N", "replace_red_three": "3h"}    exchange a red three
    {"player": "N", "lay_down_red_three": "3h"}   lay down a late red three
    {"player": "N", "draw": "stock"}              draw (and replace red threes drawn)
    {"player": "N", "redraw": true}               the first player rejects the first card
    {"player": "N", "take_pile": {"with": ["7h", "7d"]}}          top card + hand cards: new meld
    {"player": "N", "take_pile": {"with": ["Ah", "JK"], "kind": "aces"}}   ... of this meld kind
    {"player": "N", "take_pile": {"onto": 0, "with": []}}         top card (+ cards) onto team meld 0
    {"player": "N", "take_pile": {"onto": 0, "with": [], "wild_end": "low"}}   ... a wild card that goes
                                                  to an end of the sequence goes to this one ("low"/"high")
    {"player": "N", "meld": [["Jh", "Qh", "Kh"], ["8s", "8d", "8c"]]}
    {"player": "N", "meld": [{"kind": "aces", "cards": ["Ah", "JK", "2h"]}]}   a meld of this kind;
                                                  without kind, the first kind of the spec's order
                                                  that the cards form (a set's kinds first when
                                                  several naturals share a rank)
    {"player": "N", "layoff": {"meld": 0, "cards": ["Ah"]}}       or a list of such
    {"player": "N", "layoff": {"meld": 0, "cards": ["7h"], "wild_end": "low"}}  as for take_pile; without
                                                  wild_end such a wild card goes above the highest card
                                                  while there is room, else below the lowest
                                                  (a meld, a lay-off and a batch are never empty)
    {"player": "N", "discard": "9c"}
    {"player": "N", "end_turn": true}             end a turn without a discard (the final turn of an
                                                  exhausted stock, or no card may be discarded)
    {"player": "N", "ask_partner": true}          "may I go out?" (on his own turn, before or after the
                                                  draw as going_out.ask_partner allows)
    {"player": "S", "answer": "yes"}              the partner's answer
    {"player": "E", "challenge": true}            challenge the previous short opening
"""
from __future__ import annotations

from collections import Counter

from ..cards import card_at, cards_at, holds_red_three
from ..display import shown
from ..errors import InputError
from . import deal as deals
from . import going_out, melding, opening, pile, threes
from . import turn as turns
from .act import Act
from .rules import Engine
from .state import State
from .verdict import ACCEPTED, PENALISED, REJECTED, Rejection, Verdict, make_verdict

ACTION_KEYS = ("deal", "exact_cut", "misdeal", "replace_red_three", "lay_down_red_three", "draw", "redraw",
               "take_pile", "meld", "layoff", "discard", "end_turn", "ask_partner", "answer", "challenge")
_PENALTIES = {"opening.below-minimum", "opening.no-clean-meld", "opening.single-meld-below-minimum",
              "deal.misdeal", "layoff.canastra-penalised", "layoff.penalised",
              "meld.penalised"}


class Action:
    """An action parsed once: the acting player, its verb and the verb's
    argument in the engine's form (cards canonical). `apply` takes an Action
    or its JSON form; an Action carries its JSON form for output."""
    __slots__ = ("player", "verb", "arg", "_json")

    def __init__(self, player: str, verb: str, arg, json: dict | None = None):
        self.player, self.verb, self.arg, self._json = player, verb, arg, json

    @property
    def json(self) -> dict:
        if self._json is None:
            self._json = {"player": self.player, self.verb: _arg_json(self.verb, self.arg)}
        return self._json

    def __repr__(self) -> str:
        return f"Action({self.json!r})"


def _arg_json(verb: str, arg):
    if verb == "deal":
        seed, deck = arg
        return {"seed": seed} if deck is None else {"deck": list(deck)}
    if verb == "take_pile":
        cards, onto, end, kind = arg
        out = {"with": list(cards)} if onto is None else {"onto": onto, "with": list(cards)}
        return {**out, **({} if end is None else {"wild_end": end}), **({} if kind is None else {"kind": kind})}
    if verb == "meld":
        return [list(cards) if kind is None else {"kind": kind, "cards": list(cards)} for kind, cards in arg]
    if verb == "layoff":
        items = [{"meld": index, "cards": list(cards), **({} if end is None else {"wild_end": end})}
                 for index, cards, end in arg]
        return items[0] if len(items) == 1 else items
    return arg


def parse(action, state: State, path: str = "$", kinds: tuple[str, ...] | None = None) -> Action:
    """The Action of a JSON action, or InputError naming the JSON path.
    `kinds`: the ruleset's meld kinds, which a meld's `kind` must name (any
    name when None)."""
    if isinstance(action, Action):
        return action
    if not isinstance(action, dict):
        raise InputError("an action is an object such as {\"player\": \"N\", \"draw\": \"stock\"}", json_path=path)
    player = action.get("player")
    if player not in state.table.seats:
        raise InputError(f"unknown player {shown(player)}", json_path=f"{path}.player",
                         expected="one of: " + ", ".join(state.table.seats))
    verbs = [k for k in action if k != "player"]
    unknown = [k for k in verbs if k not in ACTION_KEYS]
    if unknown:
        raise InputError(f"unknown action field {shown(unknown[0])}", json_path=f"{path}.{unknown[0][:40]}",
                         expected="one of: " + ", ".join(ACTION_KEYS))
    if len(verbs) != 1:
        raise InputError("an action has exactly one verb besides 'player'", json_path=path,
                         expected="one of: " + ", ".join(ACTION_KEYS))
    verb = verbs[0]
    arg = action[verb]
    where = f"{path}.{verb}"
    if verb == "deal":
        seed = arg.get("seed") if isinstance(arg, dict) else None
        if isinstance(arg, dict) and set(arg) == {"deck"}:
            arg = (None, cards_at(arg["deck"], f"{where}.deck"))
        elif isinstance(arg, dict) and set(arg) == {"seed"} and isinstance(seed, int) and not isinstance(seed, bool):
            arg = (seed, None)
        else:
            raise InputError("deal takes {\"seed\": <integer>} or {\"deck\": [cards from the top]}", json_path=where)
    elif verb in ("replace_red_three", "lay_down_red_three", "discard"):
        arg = card_at(arg, where)
    elif verb == "draw":
        if arg != "stock":
            raise InputError("draw takes \"stock\" (to take the pile use take_pile)", json_path=where)
    elif verb == "take_pile":
        if not isinstance(arg, dict) or set(arg) - {"with", "onto", "wild_end", "kind"}:
            raise InputError("take_pile takes {\"with\": [cards]} and optionally \"onto\": <meld index> "
                             "and \"wild_end\": \"low\" or \"high\", or, without onto, \"kind\": <meld kind>",
                             json_path=where)
        onto = arg.get("onto")
        if onto is not None and (not isinstance(onto, int) or isinstance(onto, bool)):
            raise InputError("onto is the index of a team meld", json_path=f"{where}.onto")
        if "wild_end" in arg and onto is None:
            raise InputError("wild_end names an end of the meld the top card is added to: it needs onto",
                             json_path=f"{where}.wild_end")
        if "kind" in arg and onto is not None:
            raise InputError("kind names the kind of the new meld the top card makes: it goes without onto",
                             json_path=f"{where}.kind")
        arg = (cards_at(arg.get("with", []), f"{where}.with"), onto, _wild_end(arg, where),
               _kind(arg, where, kinds))
    elif verb == "meld":
        if not isinstance(arg, list) or not arg:
            raise InputError("meld takes a list of at least one meld, each a list of cards or "
                             "{\"kind\": <meld kind>, \"cards\": [cards]}", json_path=where)
        arg = [_new_meld(m, f"{where}[{i}]", kinds) for i, m in enumerate(arg)]
    elif verb == "layoff":
        if isinstance(arg, list) and not arg:
            raise InputError("a lay-off batch adds cards to at least one meld", json_path=where,
                             expected="{\"meld\": <index>, \"cards\": [cards]} or a non-empty list of such")
        items = arg if isinstance(arg, list) else [arg]
        parsed = []
        for i, item in enumerate(items):
            at = f"{where}[{i}]" if isinstance(arg, list) else where
            if not isinstance(item, dict) or not {"meld", "cards"} <= set(item) <= {"meld", "cards", "wild_end"} \
                    or not isinstance(item["meld"], int) or isinstance(item["meld"], bool):
                raise InputError("layoff takes {\"meld\": <index>, \"cards\": [cards]} and optionally "
                                 "\"wild_end\": \"low\" or \"high\"", json_path=at)
            parsed.append((item["meld"], _some_cards(item["cards"], f"{at}.cards", "a lay-off"),
                           _wild_end(item, at)))
        arg = parsed
    elif verb == "answer":
        if arg not in ("yes", "no"):
            raise InputError("answer takes \"yes\" or \"no\"", json_path=where)
    elif arg is not True:
        raise InputError(f"{verb} takes true", json_path=where)
    return Action(player, verb, arg, action)


def _wild_end(item: dict, path: str) -> str | None:
    """The end of the sequence an addition names for a wild card that goes to an end."""
    end = item.get("wild_end")
    if end not in (None, "low", "high") or "wild_end" in item and end is None:
        raise InputError(f"wild_end is {'null' if end is None else shown(end)}", json_path=f"{path}.wild_end",
                         expected="\"low\" (below the lowest card) or \"high\" (above the highest)")
    return end


def _new_meld(item, path: str, kinds: tuple[str, ...] | None) -> tuple[str | None, list[str]]:
    """(kind named or None, cards) of one meld of a meld action."""
    if not isinstance(item, dict):
        return None, _some_cards(item, path, "a meld")
    if set(item) != {"kind", "cards"}:
        raise InputError("a meld naming its kind is {\"kind\": <meld kind>, \"cards\": [cards]}", json_path=path)
    return _kind(item, path, kinds), _some_cards(item["cards"], f"{path}.cards", "a meld")


def _kind(item: dict, path: str, kinds: tuple[str, ...] | None) -> str | None:
    """The meld kind a new meld names, None where it names none."""
    if "kind" not in item:
        return None
    kind = item["kind"]
    if not isinstance(kind, str) or kinds is not None and kind not in kinds:
        raise InputError(f"kind is {'null' if kind is None else shown(kind)}", json_path=f"{path}.kind",
                         expected="one of the ruleset's meld kinds: " + ", ".join(kinds) if kinds is not None
                         else "the name of a meld kind")
    return kind


def _some_cards(value, path: str, what: str) -> list[str]:
    """The cards a meld or a lay-off puts down: at least one, or nothing was played."""
    cards = cards_at(value, path)
    if not cards:
        raise InputError(f"{what} puts down at least one card", json_path=path, expected="a non-empty list of cards")
    return cards


def apply(engine: Engine, state: State, action, path: str = "$") -> tuple[State, Verdict]:
    """Judge and apply one action (an Action, or its JSON form). Malformed
    actions raise InputError."""
    parsed = action if isinstance(action, Action) else \
        parse(action, state, path, tuple(kind.name for kind in engine.meld_kinds))
    act = Act(engine, state.copy(), parsed.player)
    try:
        reason = _dispatch(act, parsed.verb, parsed.arg)
    except Rejection as rejection:
        for decision in rejection.decisions:
            act.trace.add(decision)
        return state, make_verdict(REJECTED, rejection.reason, act.trace, rejection.message)
    verdict = PENALISED if reason in _PENALTIES else ACCEPTED
    return act.state, make_verdict(verdict, reason, act.trace, "", act.events)


def _dispatch(act: Act, verb: str, arg) -> str:
    """Check what every action of the verb's stage needs (the hand dealt, the
    acting player's own turn, its play phase), then judge the verb itself."""
    state = act.state
    if state.ended is not None:
        act.reject("turn.hand-over", "the hand is over")
    stage, judge = _VERBS[verb]
    if stage == _DEAL:
        return judge(act, arg)
    if state.turn.phase == "deal":
        act.reject("turn.not-dealt", "the hand has not been dealt yet")
    if stage == _ANY_TURN:
        return judge(act, arg)
    # everything else is the acting player's own turn
    if act.player != state.turn.player:
        act.reject("turn.not-your-turn", f"it is {state.turn.player}'s turn", "play.direction")
    if state.turn.asked == "asking":
        raise Rejection("going-out.ask-not-allowed", "waiting for the partner's answer",
                        going_out.question(state.turn))
    pending = state.pending
    if pending is not None:
        lapse = act.decide("opening.challenge_lapses", decisive=False)
        if verb in _LAPSES[lapse.value]:
            act.trace.add(lapse)
            opening.settle_pending(act, lapse)
    if stage == _PLAY and state.turn.phase != "play":
        act.reject("turn.draw-first", "the player must draw or take the pile first", "draw.cards")
    reason = judge(act, arg)
    if pending is not None and state.pending is pending and state.ended is not None:
        # the hand ended in the turn that could still challenge (a take of the pile that goes out, or
        # whose red three's replacement was the stock's last card): the claim lapses with it
        act.trace.add(lapse)
        opening.settle_pending(act, lapse)
    return reason


# the verbs of the next player's turn that end his claim of the melds left pending, by the value of
# opening.challenge_lapses: his draw or take of the pile; or his stock draw, or else the end of his turn
_LAPSES = {"any-draw": ("draw", "take_pile"), "stock-draw": ("draw", "discard", "end_turn")}


def _deal(act: Act, arg) -> str:
    state = act.state
    if state.turn.phase != "deal":
        act.reject("turn.already-dealt", "the hand has already been dealt")
    if act.player != state.dealer:
        act.reject("turn.not-your-turn", f"{state.dealer} deals this hand", "play.direction")
    deals.deal(act, *arg)
    return "deal.dealt"


def _exact_cut(act: Act, arg) -> str:
    if act.state.turn.phase != "deal":
        act.reject("turn.already-dealt", "the cut comes before the deal")
    deals.exact_cut(act)
    return "deal.exact-cut"


def _misdeal(act: Act, arg) -> str:
    state = act.state
    window = act.value("deal.misdeal_claim", decisive=False)
    if act.player != state.dealer and window != "before-own-first-discard":
        act.reject("misdeal.not-dealer", f"only the dealer ({state.dealer}) can misdeal")
    if window == "before-own-first-discard":
        if state.players[act.player].discarded:
            act.reject("misdeal.too-late", f"{act.player} has already discarded in this hand",
                       "deal.misdeal_claim")
        act.decide("deal.misdeal_claim")
    elif state.started:
        if window == "before-play":
            act.reject("turn.already-drew", "the misdeal must be claimed before play starts",
                       "deal.misdeal_claim")
        if not state.turn.first:
            act.reject("misdeal.too-late", "the misdeal must be claimed before the first discard",
                       "deal.misdeal_claim")
        act.decide("deal.misdeal_claim")
    deals.misdeal(act)
    return "deal.misdeal"


def _replace_red_three(act: Act, card: str) -> str:
    threes.replace(act, card)
    return _hand_ended(act) if act.state.ended is not None else "red-three.replaced"


def _answer(act: Act, reply: str) -> str:
    going_out.answer(act, reply)
    return "partner.answered"


def _challenge(act: Act, arg) -> str:
    opening.challenge(act)
    return "challenge.upheld"


def _lay_down_red_three(act: Act, card: str) -> str:
    threes.lay_down(act, card)
    return "red-three.laid-down"


def _draw(act: Act, arg) -> str:
    state = act.state
    if state.turn.phase != "draw" and not state.turn.took_pile:
        act.reject("turn.already-drew", "the player has already drawn this turn")
    turns.draw(act)
    if state.ended is not None:
        return _hand_ended(act)
    return "draw.stock-instead-of-pile" if "draw.stock-instead-of-pile" in act.events else "draw.stock"


def _hand_ended(act: Act) -> str:
    """The reason of an action during which the stock's end ended the hand: a
    draw, or a red three's replacement (threes.draw_one, going_out.end_if_stock_drawn_out).
    Nothing more is played in the turn (no going out, no card kept for a discard), but
    the melds it laid are judged as the last turn's are (opening.judge_cut_short): a
    failed opening is the action's reason."""
    outcome = opening.judge_cut_short(act)
    if outcome in opening.FAILURES:
        return outcome
    return "hand.ended.red-three-last" if act.state.ended["reason"] == "red-three-last" \
        else "hand.ended.stock-exhausted"


def _take_pile(act: Act, arg) -> str:
    if act.state.turn.phase != "draw":
        act.reject("turn.already-drew", "the pile is taken instead of drawing")
    pile.take(act, *arg)
    if act.state.ended is not None:
        return _hand_ended(act)
    return _after_melding(act, "pile.taken", opening_reason="pile.taken")


def _redraw(act: Act, arg) -> str:
    turns.redraw(act)
    return _hand_ended(act) if act.state.ended is not None else "draw.redraw"


def _ask_partner(act: Act, arg) -> str:
    going_out.ask(act)
    return "partner.asked"


def _end_turn(act: Act, arg) -> str:
    return turns.end_turn(act, lambda: _can_discard(act.engine, act.state, act.player))


def _can_discard(engine: Engine, state: State, player: str) -> bool:
    """Whether the player may discard some card now: one of his hand or, where
    a failed opening's melds come back to it before the discard, one of theirs
    (opening.discard_candidates, the discards legal.options lists)."""
    return _surely_discardable(state, player) or _discard_by_trial(engine, state, player)


def _discard_by_trial(engine: Engine, state: State, player: str) -> bool:
    """_can_discard the slow, sure way: each card is tried on a copy of the
    state, which `apply` never changes (the state may be an action's working
    one: State.trials keeps what it owns)."""
    with state.trials():
        return any(apply(engine, state, Action(player, "discard", card))[1].verdict != REJECTED
                   for card in opening.discard_candidates(engine, state, player))


def _surely_discardable(state: State, player: str) -> bool:
    """A sufficient condition for _can_discard that tries nothing (False says
    nothing: the caller then tries the cards). It holds on the player's own
    turn in play, with no question to the partner pending and no final turn,
    when he holds two cards or more (a discard that is no going out) and no
    red three (threes.check_none_held), and one of them is a card the pile did
    not bring: turn.discard rejects such a card for none of its reasons, as
    pile.check_discard refuses only cards received with the pile, and a failed
    opening that gives the pile back (opening._take_back) takes from the hand
    only the cards of turn.opening_undo and the stock cards drawn for the red
    threes that came with it. tests/test_discard_shortcut.py compares it with
    the trial."""
    turn = state.turn
    if state.ended is not None or turn.phase != "play" or turn.player != player or turn.asked == "asking" \
            or turn.final:
        return False
    hand = state.players[player].hand
    if len(hand) < 2 or holds_red_three(hand):
        return False
    undo = turn.opening_undo
    brought = turn.pile_cards if undo is None else [*turn.pile_cards, *undo["pile"], *undo.get("drawn", ())]
    if not set(hand).issubset(brought):
        return True                 # a card of which the pile brought no copy
    reserved = Counter(turn.pile_cards)
    if undo is not None:
        reserved |= Counter(undo["pile"]) + Counter(undo.get("drawn", ()))
    return any(n > reserved[card] for card, n in Counter(hand).items())


def _meld(act: Act, melds: list[tuple[str | None, list[str]]]) -> str:
    opening.check_allowed(act)
    every = [card for _, cards in melds for card in cards]
    act.take_from_hand(every, usable_only=True)
    remaining = len(act.hand)
    for kind, cards in melds:
        melding.lay_new(act, cards, going_out=remaining == 0, discarding=False, last_card=remaining == 1,
                        named=kind)
    return _after_melding(act, "meld.laid")


def _layoff(act: Act, items) -> str:
    opening.check_allowed(act)
    if not act.state.teams[act.team].melds:
        act.reject("layoff.not-opened", "the team has no melds to add to")
    act.take_from_hand([c for _, cards, _ in items for c in cards], usable_only=True)
    for index, cards, end in items:
        melding.add_to(act, index, cards, going_out=not act.hand, last_card=len(act.hand) == 1, end=end)
    melding.melded_by_adding(act, "layoff.melds")
    return _after_melding(act, "meld.laid-off")


def _after_melding(act: Act, reason: str, opening_reason: str = "opening.pending") -> str:
    """Settle what melding left: an empty hand goes out (or is refused), a single
    card must be able to go out with the final discard."""
    if not act.hand:
        going_out.check(act, discarding=False)
        outcome = opening.judge(act, going_out_now=True, discarding=False)
        if outcome not in (None, "opening.made", "opening.pending-check"):
            # refused under either order of opening.short_last_discard: no discard ends the turn here
            # (an opening that stands unchallenged at the going out is no failure: it goes out)
            act.reject(outcome, "the opening made while going out does not meet the rules",
                       *opening.failed_rule(outcome), *opening.order_of_judgement(act),
                       ctx=act.context(batch=act.batch(), going_out=True))
        going_out.went_out(act, discarding=False)
        # a play that is an offence stands with its consequence whether or not it goes out: the verdict
        # is the offence's (penalised), and the going out stands beside it, in the state and the events
        return act.penalty or "going-out.direct"
    _check_last_card(act)
    _check_frozen_hand(act)
    # a penalised play (act.penalty) is reported as such before the opening is judged too
    return act.penalty or (reason if act.state.teams[act.team].opened else opening_reason)


def _check_frozen_hand(act: Act) -> None:
    """In the turn the pile is taken, refuse to leave the player holding only
    cards he may not discard (pile.frozen_hand_refused); the setting is read
    only in that position."""
    if not act.state.turn.took_pile or act.state.turn.final or _can_discard(act.engine, act.state, act.player):
        return
    if act.value("pile.frozen_hand_refused", decisive=False):
        act.reject("pile.frozen-hand", "this would leave only cards that came with the pile, none of which may "
                   "be discarded this turn", "pile.frozen_hand_refused", "pile.discard_from_pile", ctx=act.context())
    act.decide("pile.frozen_hand_refused")


def _check_last_card(act: Act) -> None:
    """Refuse to leave a single card whose discard would be a forbidden going out:
    one the going-out rules forbid, or one that would end a turn whose melds
    fall short of the opening, unless that opening would stand unchallenged at
    the going out (where opening.short_last_discard judges that
    discard as a going out; where it takes the melds back first, the card is
    not the last and nothing is refused). This holds whatever turn.end_without_discard
    says (its documentation says so): that setting ends a turn in a position the
    player is put in, never in one his own meld or layoff would make. Red threes that must still be laid down without
    replacement (red_three.late) cannot end the turn: the card left beside them
    is the last one, and a hand of nothing else has no card to discard."""
    if act.state.turn.final:
        return
    held = threes.to_lay_down(act)
    left = len(act.hand) - len(held)
    why = ("going_out.allowed", "red_three.late") if held else ("going_out.allowed",)
    beside = " beside the red three to lay down" if held else ""
    if held and left == 0:
        act.reject("turn.nothing-to-discard", "this would leave only red threes that must be laid down, and no "
                   "card to end the turn with", "red_three.late")
    if left != 1:
        return
    if opening.taken_back_before_going_out(act):
        return          # the melds go back at the discard: that card is not the last one
    ctx = act.context(batch=act.batch(), going_out=True, discarding=True)
    if act.state.turn.asked == "no":
        # the partner's answer rules the going out out, by the clause the question was asked under
        raise Rejection("turn.last-card-stranded", f"this would leave one card{beside}, and the partner answered "
                        "no to going out", going_out.question(act.state.turn) + tuple(act.decide(p) for p in why[1:]))
    if not going_out.could_go_out_by_discarding(act):
        act.reject("turn.last-card-stranded", f"this would leave one card{beside}, and discarding it to go out is "
                   "not allowed now", *why, ctx=ctx)
    failed = None if act.state.teams[act.team].opened else opening.fails_going_out(act, discarding=True)
    if failed:
        act.reject("turn.last-card-stranded", f"this would leave one card{beside}, and the melds of this turn "
                   "fail the opening, so its discard could not go out", *opening.failed_rule(failed),
                   "opening.short_last_discard", ctx=ctx)


# when in the turn each verb may come, checked before the verb's own judgement:
# before the deal, any player at any time once dealt, the acting player's own
# turn, or its play phase (after the draw or the pile's take)
_DEAL, _ANY_TURN, _OWN_TURN, _PLAY = "deal", "any turn", "own turn", "play"
_VERBS = {
    "deal": (_DEAL, _deal), "exact_cut": (_DEAL, _exact_cut),
    "misdeal": (_ANY_TURN, _misdeal), "replace_red_three": (_ANY_TURN, _replace_red_three),
    "answer": (_ANY_TURN, _answer), "challenge": (_ANY_TURN, _challenge),
    "lay_down_red_three": (_OWN_TURN, _lay_down_red_three), "draw": (_OWN_TURN, _draw),
    "take_pile": (_OWN_TURN, _take_pile), "ask_partner": (_OWN_TURN, _ask_partner),
    "redraw": (_PLAY, _redraw), "meld": (_PLAY, _meld),
    "layoff": (_PLAY, _layoff), "discard": (_PLAY, turns.discard), "end_turn": (_PLAY, _end_turn),
}
