"""The state of one hand of Canastra, and its plain-JSON form.

A State is changed only by canastra_ref.engine.actions, which always works on
a copy: the state passed in is never modified, so a rejected action leaves it
exactly as it was. The copy is shallow and copy-on-write: players, teams,
stock, pile, aside and the turn stay shared with the original until an action
changes them through player_w, team_w, stock_w, pile_w, aside_w or turn_w (or
assigns a new one), so judging an action that is then rejected copies almost
nothing, and a discard, which starts a new turn, never copies the old one. The
turn's own lists are shared even then: they are replaced, never changed in
place (turn.drawn = [*turn.drawn, card]).

JSON form (every key optional on input except hands, stock, pile, dealer, turn):

    {"dealer": "E",
     "turn": {"player": "N", "phase": "draw" | "play" | "deal" | "over",
              "first": true, "took_pile": false, "pile_cards": [], "drawn": [],
              "melds_laid": [], "touched_before": [], "redrawn": false, "first_card_red_three": false,
              "asked": null, "asked_by": null, "canastras_lost": [], "laid_lost": [], "retried": false,
              "retried_by": null, "claim_lapsed": null},
     "hands": {"N": ["4h", ...], ...},
     "stock": ["9c", ...],              # next card to draw first
     "pile": ["7d", ..., "Qs"],         # top card last
     "aside": [],                       # cards out of play this hand
     "teams": {"NS": {"score": 0, "opened": false, "melds": [{"kind": "sequence",
               "cards": ["4h", "5h", "JK"]}], "red_threes": [], "opening_failures": 0,
               "carried_failures": 0, "pending_failures": [], "exact_cuts": 0, "misdeals": 0,
               "unkept_answers": 0, "canastras_lost": []}, ...},
     "players": {"N": {"melded": false, "barred": false, "discarded": false}, ...},
     "started": true,                   # the first card of the hand has been drawn
     "pending": null,                   # a short opening awaiting challenge, until the next
                                        # player's claim lapses (opening.challenge_lapses)
     "ended": null}                     # {"reason", "player", "concealed", "took_pile"} once over

The forms whose keys are fixed (an unknown key is an error, like a value of
the wrong type or an integer beyond ±(2^53 − 1)):

    turn.opening_undo    null | {"pile": [cards as the pile was]}   (cards the player
                         holds, or laid this turn); where red threes taken with the pile
                         went down, also "stock" and "red_threes" (as they were) and
                         "drawn" (the cards that replaced them)
    pending              null | {"player", "team", "melds": [indexes of the team's melds],
                                 "undo"?: as opening_undo, "failures_before"?: count,
                                 "stands"?: [clauses], "raises"?: clause (whether a challenge
                                 charges the failure: opening.failure_raises, as decided when
                                 the turn ended), "opened_before"?: bool (the melds
                                 are a later turn's of a team that had opened: a challenge
                                 leaves it open), "had_melded"?: bool (with opened_before:
                                 the player had melded before that turn), "touched_before"?:
                                 as turn.touched_before (the earlier melds that turn added to),
                                 "additions_meld"?: bool (with touched_before: those additions, should
                                 they stay, make the player one who melded: layoff.melds,
                                 pile.take.top_card_alone_melds; absent: they do), "lost"?:
                                 [kinds] (the canastra kinds its melds lost in it: a challenge
                                 takes them off the team's canastras_lost with the melds)}
    ended                null | {"reason": "went-out" | "stock-exhausted" | "red-three-last",
                                 "player"?: seat or null, "concealed"?: bool,
                                 "concealed_canastras"?: count, "concealed_own_canastras"?:
                                 count (those of the melds started in that turn),
                                 "took_pile"?: bool}
    turn.melds_laid, touched, formed, pile_meld: indexes of the turn player's team melds
    turn.touched_before  [{"meld": index, "cards": [cards], "canastra": kind or null, "lost"?: [kinds]}]:
                         each meld of an earlier turn that this turn added cards to, as it was before
                         the first addition, and the canastra kinds the additions changed it from
                         (what a failed turn gives back: turn.clean_meld_returns_layoffs)
    turn.laid_lost       [{"meld": index of turn.melds_laid, "kind": kind}]: each canastra kind a meld
                         laid this turn lost in it (the team's canastras_lost counts it too); melds that
                         go back (a failed opening or turn) take their losses off the team's count
    turn.asked_by, turn.retried_by   null | {"setting", "clause", "cites", "value"?}: the clause that let
                         the question to the partner be asked (with turn.asked, which requires it), or
                         the pile be given back for a stock draw (with turn.retried, which requires it;
                         decided before that draw), as decided then, cited again later in the turn
    turn.claim_lapsed    null | {"by": clause, "stands": [clauses]}: the turn player's claim of the
                         opening left pending lapsed in this turn (opening.challenge_lapses: "by", the
                         clause that ended it; "stands", pending.stands, the clauses that let the
                         opening stand): his challenge in the rest of the turn comes too late, citing them
"""
from __future__ import annotations

import copy
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..cards import cards_at, full_deck, sort_key
from ..display import shown
from ..dsl.model import Decision
from ..errors import InputError
from ..limits import MAX_INT
from ..seating import Table

PHASES = ("deal", "draw", "play", "over")
_new = object.__new__


@dataclass(slots=True)
class Meld:
    kind: str
    cards: list[str]          # sequences: in rank order, each wild where it stands
    canastra: str | None = None   # its canastra kind (kept, as a kind may depend on the one before)

    def to_json(self) -> dict:
        return {"kind": self.kind, "cards": list(self.cards), "canastra": self.canastra}


@dataclass(slots=True)
class TeamState:
    score: int = 0
    opened: bool = False
    melds: list[Meld] = field(default_factory=list)
    red_threes: list[str] = field(default_factory=list)
    opening_failures: int = 0      # ladder steps that raise the team's minimum in this hand
    carried_failures: int = 0      # ladder steps that will raise it in the next hand
    exact_cuts: int = 0
    misdeals: int = 0
    unkept_answers: int = 0        # turns ended without going out after the partner said yes
    pending_failures: list[str] = field(default_factory=list)   # seats whose failed opening raises the
                                   # minimum from their next turn (opening.penalty_applies = next-round)
    canastras_lost: list[str] = field(default_factory=list)   # kinds of canastras changed by cards added


@dataclass(slots=True)
class PlayerState:
    hand: list[str] = field(default_factory=list)
    melded: bool = False           # laid down a meld (or a card on one) this hand
    barred: bool = False           # may not take part in the opening for the rest of the hand
    discarded: bool = False        # has made a discard this hand


@dataclass(slots=True)
class Turn:
    """The turn in play. Its lists are shared by the states copied from one
    another: an action replaces them, it never changes them in place."""
    player: str
    phase: str = "draw"
    first: bool = False            # the first turn of the hand
    took_pile: bool = False
    pile_cards: list[str] = field(default_factory=list)   # cards received from the pile this turn
    drawn: list[str] = field(default_factory=list)        # cards drawn from the stock this turn
    melds_laid: list[int] = field(default_factory=list)   # indexes of team melds started this turn
    touched: list[int] = field(default_factory=list)      # indexes of team melds added to this turn
    # the melds of earlier turns added to this turn, as they were: [{"meld", "cards", "canastra", "lost"}]
    touched_before: list[dict] = field(default_factory=list)
    redrawn: bool = False
    # the first card drawn from the stock this turn was a red three, laid down and replaced
    first_card_red_three: bool = False
    asked: str | None = None       # None | "asking" | "yes" | "no"
    # the clause that let the question to the partner be asked, as decided then (the answer binds
    # by it): {"setting", "clause", "cites"}; set whenever asked is
    asked_by: dict | None = None
    opening_undo: dict | None = None   # how to give back a pile taken for the opening
    had_melded: bool = False       # the player had melded earlier in the hand when this turn began
    final: bool = False            # the last turn of a hand whose stock is exhausted: no discard
    pile_meld: int | None = None   # the team meld made or extended with the pile's top card this turn
    formed: list[int] = field(default_factory=list)       # team melds that became canastras this turn
    hand_at_take: list[str] | None = None   # the cards the player could meld without the pile's rest
    canastras_lost: list[str] = field(default_factory=list)   # kinds of canastras changed by cards added
    # the canastra kinds the melds laid this turn lost in it, a record each: {"meld": index, "kind"}
    # (what goes back with them: opening.give_back)
    laid_lost: list[dict] = field(default_factory=list)
    retried: bool = False          # the pile taken for the opening was given back for a stock draw
    # the clause that let the pile be given back (opening.retry_with_stock_draw), as decided then,
    # before the draw (it may read the stock): {"setting", "clause", "cites"}; set whenever retried is
    retried_by: dict | None = None
    # the turn player's claim of the opening left pending lapsed in this turn (opening.settle_pending):
    # {"by": the clause of opening.challenge_lapses that ended it, "stands": the pending opening's
    # stands}, cited by a challenge that comes too late
    claim_lapsed: dict | None = None

    def copy(self) -> "Turn":
        """A copy sharing the lists, opening_undo and hand_at_take (they are
        replaced, never changed in place), filled field by field, which costs
        half of what the dataclasses' __init__ does (every field is set:
        tests/test_state_copy.py)."""
        # (three targets at most a line: more would build a tuple to unpack)
        turn = _new(Turn)
        turn.player, turn.phase, turn.first = self.player, self.phase, self.first
        turn.took_pile, turn.pile_cards, turn.drawn = self.took_pile, self.pile_cards, self.drawn
        turn.melds_laid, turn.touched, turn.formed = self.melds_laid, self.touched, self.formed
        turn.canastras_lost, turn.touched_before, turn.laid_lost = self.canastras_lost, self.touched_before, \
            self.laid_lost
        turn.redrawn, turn.asked, turn.asked_by = self.redrawn, self.asked, self.asked_by
        turn.opening_undo, turn.first_card_red_three = self.opening_undo, self.first_card_red_three
        turn.had_melded, turn.final, turn.pile_meld = self.had_melded, self.final, self.pile_meld
        turn.hand_at_take, turn.retried, turn.retried_by = self.hand_at_take, self.retried, self.retried_by
        turn.claim_lapsed = self.claim_lapsed
        return turn


# the turns every discard starts, Turn(player, "draw", had_melded=had_melded), by (player, had_melded):
# shared by the states that start one alike (State.start_turn), as a state changes its turn only
# through turn_w, which copies it
_STARTING: dict[tuple[str, bool], Turn] = {}


def clause_record(decision: Decision) -> dict:
    """A deciding clause kept in the state to be cited again later (pending.stands,
    pending.raises, turn.asked_by): {"setting", "clause", "cites"}, and "value":
    false where the decision it keeps was no (yes where it is absent)."""
    record = {"setting": decision.setting, "clause": decision.clause, "cites": list(decision.cites)}
    if decision.value is not True:
        record["value"] = bool(decision.value)
    return record


def recorded_decision(record: dict) -> Decision:
    """The decision a clause_record keeps."""
    return Decision(record["setting"], record.get("value", True), record["clause"], tuple(record["cites"]))


@dataclass(slots=True)
class State:
    table: Table
    dealer: str
    turn: Turn
    players: dict[str, PlayerState]
    teams: dict[str, TeamState]
    stock: list[str]
    pile: list[str]
    aside: list[str] = field(default_factory=list)
    started: bool = True
    pending: dict | None = None
    ended: dict | None = None
    # copy-on-write: players, teams, stock, pile, aside and the turn are shared with
    # the state this one was copied from until the *_w methods make a private copy
    _owned: set = field(default_factory=set, repr=False, compare=False)

    # ---------------------------------------------------------------- helpers
    def player_w(self, seat: str) -> PlayerState:
        """The player's state, made private to this State so it may be changed."""
        if seat not in self._owned:
            # filled field by field, which costs less than the dataclass's __init__ (a
            # field left out would raise when read: tests/test_state_copy.py reads all)
            p, mine = self.players[seat], _new(PlayerState)
            mine.hand, mine.melded = p.hand.copy(), p.melded
            mine.barred, mine.discarded = p.barred, p.discarded
            self.players[seat] = mine
            self._owned.add(seat)
        return self.players[seat]

    def team_w(self, name: str) -> TeamState:
        """The team's state, made private to this State so it may be changed.
        Meld objects stay shared: they are replaced, never changed in place."""
        key = "team:" + name
        if key not in self._owned:
            v, mine = self.teams[name], _new(TeamState)     # filled field by field, as in player_w
            mine.score, mine.opened = v.score, v.opened
            mine.melds, mine.red_threes = v.melds.copy(), v.red_threes.copy()
            mine.opening_failures, mine.carried_failures = v.opening_failures, v.carried_failures
            mine.exact_cuts, mine.misdeals, mine.unkept_answers = v.exact_cuts, v.misdeals, v.unkept_answers
            mine.pending_failures, mine.canastras_lost = v.pending_failures.copy(), v.canastras_lost.copy()
            self.teams[name] = mine
            self._owned.add(key)
        return self.teams[name]

    def stock_w(self) -> list[str]:
        """The stock, made private to this State so it may be changed."""
        if "stock" not in self._owned:
            self.stock = list(self.stock)
            self._owned.add("stock")
        return self.stock

    def pile_w(self) -> list[str]:
        """The pile, made private to this State so it may be changed."""
        if "pile" not in self._owned:
            self.pile = list(self.pile)
            self._owned.add("pile")
        return self.pile

    def aside_w(self) -> list[str]:
        """The cards set aside, made private to this State so they may be changed."""
        if "aside" not in self._owned:
            self.aside = list(self.aside)
            self._owned.add("aside")
        return self.aside

    def start_turn(self, player: str, had_melded: bool) -> None:
        """Start the turn every discard starts: Turn(player, "draw", had_melded=had_melded),
        shared with the other states that start it (_STARTING), not owned by this one."""
        turn = _STARTING.get((player, had_melded))
        if turn is None:
            turn = _STARTING[player, had_melded] = Turn(player=player, had_melded=had_melded)
        self.turn = turn
        self._owned.discard("turn")

    def turn_w(self) -> Turn:
        """The turn, made private to this State so it may be changed (Turn.copy:
        its lists stay shared, as they are replaced, never changed in place)."""
        if "turn" not in self._owned:
            self.turn = self.turn.copy()
            self._owned.add("turn")
        return self.turn

    def copy(self) -> "State":
        """A copy sharing what it may (see the module docstring), the pending
        and ended records too: they are replaced, never changed in place.
        Every action copies the state: the copy is filled field by field, as
        Turn.copy fills a turn."""
        self._owned = set()        # shared now: this state too must copy before it changes them
        state = _new(State)
        state.table, state.dealer = self.table, self.dealer
        state.turn, state._owned = self.turn, set()
        state.players, state.teams = self.players.copy(), self.teams.copy()
        state.stock, state.pile, state.aside = self.stock, self.pile, self.aside
        state.started, state.pending, state.ended = self.started, self.pending, self.ended
        return state

    @contextmanager
    def trials(self):
        """A block in which actions are tried on this working state (`apply`
        copies it) and every state they make is dropped before it ends. Each
        copy resets what this state owns: a later player_w would then replace
        a hand the action already holds (Act.hand), and the action's changes
        to it would be lost. The trials' states, which shared what it owned,
        are gone when the block ends, so it owns it again."""
        owned = self._owned
        try:
            yield
        finally:
            self._owned = owned

    def team_of(self, seat: str) -> str:
        return self.table.team_of[seat]

    def hand(self, seat: str) -> list[str]:
        return self.players[seat].hand

    def all_cards(self) -> Counter:
        cards = Counter(self.stock) + Counter(self.pile) + Counter(self.aside)
        for player in self.players.values():
            cards.update(player.hand)
        for team in self.teams.values():
            cards.update(team.red_threes)
            for meld in team.melds:
                cards.update(meld.cards)
        return cards

    # ----------------------------------------------------------- serialization
    def to_json(self) -> dict:
        t = self.turn
        return {
            "dealer": self.dealer,
            "turn": {"player": t.player, "phase": t.phase, "first": t.first, "took_pile": t.took_pile,
                     "pile_cards": list(t.pile_cards), "drawn": list(t.drawn),
                     "melds_laid": list(t.melds_laid), "touched": list(t.touched),
                     "touched_before": copy.deepcopy(t.touched_before), "redrawn": t.redrawn,
                     "first_card_red_three": t.first_card_red_three, "asked": t.asked,
                     "asked_by": copy.deepcopy(t.asked_by),
                     "opening_undo": copy.deepcopy(t.opening_undo),
                     "had_melded": t.had_melded, "final": t.final, "pile_meld": t.pile_meld,
                     "formed": list(t.formed), "hand_at_take": t.hand_at_take,
                     "canastras_lost": list(t.canastras_lost), "laid_lost": copy.deepcopy(t.laid_lost),
                     "retried": t.retried, "retried_by": copy.deepcopy(t.retried_by),
                     "claim_lapsed": copy.deepcopy(t.claim_lapsed)},
            "hands": {s: sorted(p.hand, key=sort_key) for s, p in self.players.items()},
            "stock": list(self.stock),
            "pile": list(self.pile),
            "aside": list(self.aside),
            "teams": {name: {"score": v.score, "opened": v.opened, "melds": [m.to_json() for m in v.melds],
                             "red_threes": list(v.red_threes), "opening_failures": v.opening_failures,
                             "carried_failures": v.carried_failures,
                             "pending_failures": list(v.pending_failures), "exact_cuts": v.exact_cuts,
                             "misdeals": v.misdeals, "unkept_answers": v.unkept_answers,
                             "canastras_lost": list(v.canastras_lost)}
                      for name, v in self.teams.items()},
            "players": {s: {"melded": p.melded, "barred": p.barred, "discarded": p.discarded}
                        for s, p in self.players.items()},
            "started": self.started,
            "pending": copy.deepcopy(self.pending),
            "ended": copy.deepcopy(self.ended),
        }


# --------------------------------------------------------------- from JSON

class _Reader:
    """Reads JSON-shaped input with errors that name the JSON path."""

    def __init__(self, root: str = "$"):
        self.root = root

    def fail(self, path: str, message: str, expected: str | None = None):
        raise InputError(message, json_path=path, expected=expected)

    def obj(self, value, path: str) -> dict:
        if not isinstance(value, dict):
            self.fail(path, f"expected an object, found {_kind(value)}")
        return value

    def lst(self, value, path: str) -> list:
        if not isinstance(value, list):
            self.fail(path, f"expected a list, found {_kind(value)}")
        return value

    def int(self, value, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"expected an integer, found {_kind(value)}")
        if abs(value) > MAX_INT:
            self.fail(path, "the integer is too large", f"an integer between -{MAX_INT:,} and {MAX_INT:,}")
        return value

    def count(self, value, path: str) -> int:
        if self.int(value, path) < 0:
            self.fail(path, f"expected a count, found {value}", "an integer of 0 or more")
        return value

    def keys(self, value: dict, allowed, path: str) -> dict:
        unknown = sorted(set(value) - set(allowed), key=str)
        if unknown:
            self.fail(f"{path}.{unknown[0][:40]}", f"unknown field {shown(unknown[0])}",
                      "one of: " + ", ".join(allowed))
        return value

    def bool(self, value, path: str) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, found {_kind(value)}")
        return value

    def cards(self, value, path: str) -> list[str]:
        return cards_at(value, path)

    def seat(self, value, path: str, table: Table) -> str:
        if not isinstance(value, str) or value not in table.seats:
            self.fail(path, f"unknown seat {shown(value)}", "one of: " + ", ".join(table.seats))
        return value

    def undo(self, value, path: str) -> dict | None:
        """How to give back a pile taken for an opening: {"pile": [cards]} or null;
        with "stock", "red_threes" and "drawn" where red threes that came with
        it went down (red_three.with_pile)."""
        if value is None:
            return None
        value = self.keys(self.obj(value, path), ("pile",) + _THREES_UNDO, path)
        if "pile" not in value:
            self.fail(path, "the pile to give back is missing", '{"pile": [cards as the pile was]} or null')
        out = {"pile": self.cards(value["pile"], f"{path}.pile")}
        given = [k for k in _THREES_UNDO if k in value]
        if given and len(given) != len(_THREES_UNDO):
            self.fail(path, "the red threes laid down from the pile are given in part",
                      "all of " + ", ".join(_THREES_UNDO) + ", or none")
        for key in given:
            out[key] = self.cards(value[key], f"{path}.{key}")
        return out

    def ended(self, value, path: str, table: Table) -> dict | None:
        if value is None:
            return None
        value = self.keys(self.obj(value, path), ("reason", "player", "concealed", "concealed_canastras",
                                                  "concealed_own_canastras", "took_pile"), path)
        if "reason" not in value:
            self.fail(path, "the end of the hand has no 'reason'", "one of: " + ", ".join(END_REASONS))
        if value["reason"] not in END_REASONS:
            self.fail(f"{path}.reason", f"unknown end of hand {shown(value['reason'])}",
                      "one of: " + ", ".join(END_REASONS))
        out = {"reason": value["reason"],
               "player": None if value.get("player") is None else self.seat(value["player"], f"{path}.player", table),
               "concealed": self.bool(value.get("concealed", False), f"{path}.concealed")}
        if "concealed_canastras" in value:
            out["concealed_canastras"] = self.count(value["concealed_canastras"], f"{path}.concealed_canastras")
        if "concealed_own_canastras" in value:
            out["concealed_own_canastras"] = self.count(value["concealed_own_canastras"],
                                                        f"{path}.concealed_own_canastras")
        if "took_pile" in value:
            out["took_pile"] = self.bool(value["took_pile"], f"{path}.took_pile")
        return out

    def pending(self, value, path: str, table: Table) -> dict | None:
        """A short opening awaiting a challenge (opening.py)."""
        if value is None:
            return None
        value = self.keys(self.obj(value, path), ("player", "team", "melds", "undo", "failures_before", "stands",
                                                  "raises", "opened_before", "had_melded", "touched_before",
                                                  "additions_meld", "lost"),
                          path)
        for key in ("player", "team", "melds"):
            if key not in value:
                self.fail(path, f"the pending opening has no {key!r}")
        player = self.seat(value["player"], f"{path}.player", table)
        if value["team"] != table.team_of[player]:
            self.fail(f"{path}.team", f"{player} is not in team {shown(value['team'])}", f"{table.team_of[player]}")
        # kept only where stated: a pending state written without them reads back as it was
        optional = {key: self.bool(value[key], f"{path}.{key}")
                    for key in ("opened_before", "had_melded", "additions_meld") if key in value}
        if "raises" in value:
            optional["raises"] = self.clause(value["raises"], f"{path}.raises", "the clause on charging the failure")
        if "touched_before" in value:
            optional["touched_before"] = self.touched_before(value["touched_before"], f"{path}.touched_before")
        if "lost" in value:
            optional["lost"] = [_name(self, v, f"{path}.lost[{i}]")
                                for i, v in enumerate(self.lst(value["lost"], f"{path}.lost"))]
        return {"player": player, "team": value["team"],
                "melds": [self.count(v, f"{path}.melds[{i}]")
                          for i, v in enumerate(self.lst(value["melds"], f"{path}.melds"))],
                "undo": self.undo(value.get("undo"), f"{path}.undo"),
                "failures_before": self.count(value.get("failures_before", 0), f"{path}.failures_before"),
                "stands": self.stands(value, path), **optional}

    def claim_lapsed(self, value, path: str) -> dict | None:
        """The turn player's claim of a pending opening, lapsed in this turn: {"by": clause, "stands": [clauses]}."""
        if value is None:
            return None
        value = self.keys(self.obj(value, path), ("by", "stands"), path)
        if "by" not in value:
            self.fail(path, "the lapsed claim has no 'by'", '{"by": clause, "stands": [clauses]}')
        return {"by": self.clause(value["by"], f"{path}.by", "the clause that ended the claim"),
                "stands": self.stands(value, path)}

    def touched_before(self, value, path: str) -> list[dict]:
        """The melds of earlier turns a turn added to, as they were:
        [{"meld": index, "cards": [cards], "canastra": kind or null, "lost"?: [kinds]}]."""
        out = []
        for i, item in enumerate(self.lst(value, path)):
            at = f"{path}[{i}]"
            item = self.keys(self.obj(item, at), ("meld", "cards", "canastra", "lost"), at)
            for key in ("meld", "cards"):
                if key not in item:
                    self.fail(at, f"the meld as it was has no {key!r}", '{"meld": index, "cards": [cards], '
                              '"canastra": kind or null, "lost"?: [kinds]}')
            canastra = item.get("canastra")
            out.append({"meld": self.count(item["meld"], f"{at}.meld"),
                        "cards": self.cards(item["cards"], f"{at}.cards"),
                        "canastra": None if canastra is None else _name(self, canastra, f"{at}.canastra"),
                        "lost": [_name(self, v, f"{at}.lost[{j}]") for j, v in
                                 enumerate(self.lst(item.get("lost", []), f"{at}.lost"))]})
        return out

    def laid_lost(self, value, path: str) -> list[dict]:
        """The canastra kinds melds laid this turn lost in it: [{"meld": index, "kind": kind}]."""
        out = []
        for i, item in enumerate(self.lst(value, path)):
            at = f"{path}[{i}]"
            item = self.keys(self.obj(item, at), ("meld", "kind"), at)
            for key in ("meld", "kind"):
                if key not in item:
                    self.fail(at, f"the canastra lost has no {key!r}", '{"meld": index, "kind": kind}')
            out.append({"meld": self.count(item["meld"], f"{at}.meld"),
                        "kind": _name(self, item["kind"], f"{at}.kind")})
        return out

    def stands(self, value: dict, path: str) -> list[dict]:
        """The clauses that let a short opening stand, value["stands"] (pending.stands, turn.claim_lapsed.stands)."""
        return [self.clause(v, f"{path}.stands[{i}]", "the clause that lets the opening stand")
                for i, v in enumerate(self.lst(value.get("stands", []), f"{path}.stands"))]

    def clause(self, value, path: str, what: str) -> dict:
        """A deciding clause recorded in the state: {"setting", "clause", "cites", "value"?}."""
        value = self.keys(self.obj(value, path), ("setting", "clause", "cites", "value"), path)
        for key in ("setting", "cites"):
            if key not in value:
                self.fail(path, f"{what} has no {key!r}")
        if not isinstance(value["setting"], str):
            self.fail(f"{path}.setting", f"expected a setting name, found {_kind(value['setting'])}")
        clause = value.get("clause")
        if clause is not None and not isinstance(clause, str):
            self.fail(f"{path}.clause", f"expected a clause label or null, found {_kind(clause)}")
        cites = self.lst(value["cites"], f"{path}.cites")
        for i, cite in enumerate(cites):
            if not isinstance(cite, str):
                self.fail(f"{path}.cites[{i}]", f"expected an article id, found {_kind(cite)}")
        record = {"setting": value["setting"], "clause": clause, "cites": list(cites)}
        if "value" in value:
            record["value"] = self.bool(value["value"], f"{path}.value")
        return record


def _name(r: _Reader, value, path: str) -> str:
    if not isinstance(value, str):
        r.fail(path, f"expected a canastra kind name, found {_kind(value)}")
    return value


def _kind(value) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


END_REASONS = ("went-out", "stock-exhausted", "red-three-last")
_STATE_KEYS = {"dealer", "turn", "hands", "stock", "pile", "aside", "teams", "players", "started",
               "pending", "ended", "ruleset"}
_THREES_UNDO = ("stock", "red_threes", "drawn")
_TURN_KEYS = {"player", "phase", "first", "took_pile", "pile_cards", "drawn", "melds_laid", "touched", "touched_before",
              "redrawn", "first_card_red_three", "asked", "asked_by", "opening_undo", "had_melded", "final",
              "pile_meld", "formed", "hand_at_take", "canastras_lost", "laid_lost", "retried", "retried_by",
              "claim_lapsed"}
_TEAM_KEYS = {"score", "opened", "melds", "red_threes", "opening_failures", "carried_failures",
              "pending_failures", "exact_cuts", "misdeals", "unkept_answers", "canastras_lost"}


def state_from_json(data, table: Table, deck: tuple[int, int], *, root: str = "$") -> State:
    """Build and validate a complete State; InputError names the JSON path at fault."""
    r = _Reader(root)
    data = r.obj(data, root)
    unknown = set(data) - _STATE_KEYS
    if unknown:
        r.fail(f"{root}.{sorted(unknown)[0]}", "unknown state field", "one of: " + ", ".join(sorted(_STATE_KEYS)))
    for key in ("dealer", "turn", "hands", "stock", "pile"):
        if key not in data:
            r.fail(root, f"the state has no '{key}'")
    dealer = r.seat(data["dealer"], f"{root}.dealer", table)
    tj = r.obj(data["turn"], f"{root}.turn")
    bad = set(tj) - _TURN_KEYS
    if bad:
        r.fail(f"{root}.turn.{sorted(bad)[0]}", "unknown turn field", "one of: " + ", ".join(sorted(_TURN_KEYS)))
    phase = tj.get("phase", "draw")
    if phase not in PHASES:
        r.fail(f"{root}.turn.phase", f"unknown phase {shown(phase)}", "one of: " + ", ".join(PHASES))
    asked = tj.get("asked")
    if asked not in (None, "asking", "yes", "no"):
        r.fail(f"{root}.turn.asked", f"unknown value {shown(asked)}", "null, asking, yes or no")
    asked_by = tj.get("asked_by")
    if asked_by is not None:
        if asked is None:
            r.fail(f"{root}.turn.asked_by", "the clause of a question to the partner, but turn.asked says none "
                   "was asked", "null, or turn.asked set")
        asked_by = r.clause(asked_by, f"{root}.turn.asked_by", "the clause that let the question be asked")
    elif asked is not None:
        # the engine writes the clause with every question (going_out.ask): without it the answer, and a
        # play it rules out later in the turn, could not cite the clause as it was decided when asked
        r.fail(f"{root}.turn.asked_by", "a question to the partner (turn.asked) without the clause that let it "
               "be asked", "the clause record of going_out.ask_partner")
    retried = r.bool(tj.get("retried", False), f"{root}.turn.retried")
    retried_by = tj.get("retried_by")
    if retried_by is not None:
        if not retried:
            r.fail(f"{root}.turn.retried_by", "the clause of a pile given back for a stock draw, but turn.retried "
                   "says none was", "null, or turn.retried true")
        retried_by = r.clause(retried_by, f"{root}.turn.retried_by", "the clause that let the pile be given back")
    elif retried:
        # the engine writes the clause with every retry: without it the retried turn could not be judged
        # as play judges it, citing the clause as it was decided before the retry's draw
        r.fail(f"{root}.turn.retried_by", "a pile given back for a stock draw (turn.retried) without the clause "
               "that let it be given back", "the clause record of opening.retry_with_stock_draw")
    turn = Turn(
        player=r.seat(tj.get("player"), f"{root}.turn.player", table), phase=phase,
        first=r.bool(tj.get("first", False), f"{root}.turn.first"),
        took_pile=r.bool(tj.get("took_pile", False), f"{root}.turn.took_pile"),
        pile_cards=r.cards(tj.get("pile_cards", []), f"{root}.turn.pile_cards"),
        drawn=r.cards(tj.get("drawn", []), f"{root}.turn.drawn"),
        melds_laid=[r.count(v, f"{root}.turn.melds_laid[{i}]") for i, v in
                    enumerate(r.lst(tj.get("melds_laid", []), f"{root}.turn.melds_laid"))],
        touched=[r.count(v, f"{root}.turn.touched[{i}]") for i, v in
                 enumerate(r.lst(tj.get("touched", []), f"{root}.turn.touched"))],
        touched_before=r.touched_before(tj.get("touched_before", []), f"{root}.turn.touched_before"),
        redrawn=r.bool(tj.get("redrawn", False), f"{root}.turn.redrawn"),
        first_card_red_three=r.bool(tj.get("first_card_red_three", False), f"{root}.turn.first_card_red_three"),
        asked=asked, asked_by=asked_by, opening_undo=r.undo(tj.get("opening_undo"), f"{root}.turn.opening_undo"),
        had_melded=r.bool(tj.get("had_melded", False), f"{root}.turn.had_melded"),
        final=r.bool(tj.get("final", False), f"{root}.turn.final"),
        pile_meld=None if tj.get("pile_meld") is None else r.count(tj["pile_meld"], f"{root}.turn.pile_meld"),
        formed=[r.count(v, f"{root}.turn.formed[{i}]") for i, v in
                enumerate(r.lst(tj.get("formed", []), f"{root}.turn.formed"))],
        hand_at_take=None if tj.get("hand_at_take") is None else r.cards(tj["hand_at_take"],
                                                                          f"{root}.turn.hand_at_take"),
        canastras_lost=[_name(r, v, f"{root}.turn.canastras_lost[{i}]") for i, v in
                        enumerate(r.lst(tj.get("canastras_lost", []), f"{root}.turn.canastras_lost"))],
        laid_lost=r.laid_lost(tj.get("laid_lost", []), f"{root}.turn.laid_lost"),
        retried=retried, retried_by=retried_by,
        claim_lapsed=r.claim_lapsed(tj.get("claim_lapsed"), f"{root}.turn.claim_lapsed"))
    hands = r.obj(data["hands"], f"{root}.hands")
    for seat in hands:
        r.seat(seat, f"{root}.hands.{seat}", table)
    players_json = r.obj(data.get("players", {}), f"{root}.players")
    players = {}
    for seat in table.seats:
        pj = r.obj(players_json.get(seat, {}), f"{root}.players.{seat}")
        players[seat] = PlayerState(r.cards(hands.get(seat, []), f"{root}.hands.{seat}"),
                                    r.bool(pj.get("melded", False), f"{root}.players.{seat}.melded"),
                                    r.bool(pj.get("barred", False), f"{root}.players.{seat}.barred"),
                                    r.bool(pj.get("discarded", False), f"{root}.players.{seat}.discarded"))
    teams_json = r.obj(data.get("teams", {}), f"{root}.teams")
    for name in teams_json:
        if name not in table.teams:
            r.fail(f"{root}.teams.{name[:40]}", f"unknown team {shown(name)}", "one of: " + ", ".join(table.teams))
    teams = {}
    for name in table.teams:
        path = f"{root}.teams.{name}"
        tj2 = r.obj(teams_json.get(name, {}), path)
        bad = set(tj2) - _TEAM_KEYS
        if bad:
            r.fail(f"{path}.{sorted(bad)[0]}", "unknown team field", "one of: " + ", ".join(sorted(_TEAM_KEYS)))
        melds = []
        for i, mj in enumerate(r.lst(tj2.get("melds", []), f"{path}.melds")):
            if isinstance(mj, (list, str)):
                mj = {"cards": mj}
            mj = r.obj(mj, f"{path}.melds[{i}]")
            kind = mj.get("kind", "")
            if not isinstance(kind, str):
                r.fail(f"{path}.melds[{i}].kind", "expected a meld kind name")
            canastra = mj.get("canastra")
            if canastra is not None and not isinstance(canastra, str):
                r.fail(f"{path}.melds[{i}].canastra", "expected a canastra kind name or null")
            melds.append(Meld(kind, r.cards(mj.get("cards", []), f"{path}.melds[{i}].cards"), canastra))
        teams[name] = TeamState(
            score=r.int(tj2.get("score", 0), f"{path}.score"),
            opened=r.bool(tj2.get("opened", bool(melds)), f"{path}.opened"),
            melds=melds, red_threes=r.cards(tj2.get("red_threes", []), f"{path}.red_threes"),
            opening_failures=r.count(tj2.get("opening_failures", 0), f"{path}.opening_failures"),
            carried_failures=r.count(tj2.get("carried_failures", 0), f"{path}.carried_failures"),
            exact_cuts=r.count(tj2.get("exact_cuts", 0), f"{path}.exact_cuts"),
            misdeals=r.count(tj2.get("misdeals", 0), f"{path}.misdeals"),
            unkept_answers=r.count(tj2.get("unkept_answers", 0), f"{path}.unkept_answers"),
            pending_failures=[r.seat(s, f"{path}.pending_failures[{i}]", table) for i, s in
                              enumerate(r.lst(tj2.get("pending_failures", []), f"{path}.pending_failures"))],
            canastras_lost=[_name(r, v, f"{path}.canastras_lost[{i}]") for i, v in
                            enumerate(r.lst(tj2.get("canastras_lost", []), f"{path}.canastras_lost"))])
    state = State(table=table, dealer=dealer, turn=turn, players=players, teams=teams,
                  stock=r.cards(data["stock"], f"{root}.stock"), pile=r.cards(data["pile"], f"{root}.pile"),
                  aside=r.cards(data.get("aside", []), f"{root}.aside"),
                  started=r.bool(data.get("started", True), f"{root}.started"),
                  pending=r.pending(data.get("pending"), f"{root}.pending", table),
                  ended=r.ended(data.get("ended"), f"{root}.ended", table))
    _check_references(state, r, root)
    _check_conservation(state, deck, root)
    return state


def _check_references(state: State, r: _Reader, root: str) -> None:
    """Indexes name melds the team has, and a pile to give back is among the
    cards it would be taken from (so giving it back creates no card)."""
    turn = state.turn
    team = state.team_of(turn.player)
    for key in ("melds_laid", "touched", "formed"):
        _check_indexes(r, getattr(turn, key), state, team, f"{root}.turn.{key}")
    if turn.pile_meld is not None:
        _check_index(r, turn.pile_meld, state, team, f"{root}.turn.pile_meld")
    _check_touched_before(r, turn.touched_before, state, team, turn.melds_laid, f"{root}.turn.touched_before")
    for i, record in enumerate(turn.laid_lost):
        if record["meld"] not in turn.melds_laid:
            r.fail(f"{root}.turn.laid_lost[{i}].meld", f"meld {record['meld']} was not laid this turn",
                   "an index of turn.melds_laid")
    if turn.opening_undo is not None:
        _check_undo(r, turn.opening_undo, state.hand(turn.player),
                    [state.teams[team].melds[i] for i in turn.melds_laid],
                    _threes_from_pile(state.teams[team].red_threes, turn.opening_undo),
                    f"{root}.turn.opening_undo")
    pending = state.pending
    if pending is not None:
        _check_indexes(r, pending["melds"], state, pending["team"], f"{root}.pending.melds")
        _check_touched_before(r, pending.get("touched_before", []), state, pending["team"], pending["melds"],
                              f"{root}.pending.touched_before")
        if pending["undo"] is not None:
            _check_undo(r, pending["undo"], state.hand(pending["player"]),
                        [state.teams[pending["team"]].melds[i] for i in pending["melds"]],
                        _threes_from_pile(state.teams[pending["team"]].red_threes, pending["undo"]),
                        f"{root}.pending.undo", discarded=_offenders_discard(state))


def _offenders_discard(state: State) -> list[str]:
    """The cards that may be the discard which ended the pending opening's turn: the pile's top card,
    or, once the next player has taken the pile and kept his claim (opening.challenge_lapses =
    stock-draw), one card of the meld he made or extended with it (turn.pile_meld), or of his hand
    where the state names no such meld."""
    turn = state.turn
    if not turn.took_pile:
        return state.pile[-1:]
    if turn.pile_meld is not None:
        return list(state.teams[state.team_of(turn.player)].melds[turn.pile_meld].cards)
    return list(state.hand(turn.player))


def _check_touched_before(r: _Reader, records: list[dict], state: State, team: str, laid: list[int],
                          path: str) -> None:
    """Each meld as it was before the turn added to it is one of the team's melds
    of an earlier turn, once, and holds no card the meld does not hold now (so
    giving the additions back creates no card)."""
    seen = set()
    for i, record in enumerate(records):
        _check_index(r, record["meld"], state, team, f"{path}[{i}].meld")
        if record["meld"] in seen:
            r.fail(f"{path}[{i}].meld", f"meld {record['meld']} is listed twice", "each meld once")
        seen.add(record["meld"])
        if record["meld"] in laid:
            r.fail(f"{path}[{i}].meld", f"meld {record['meld']} was laid this turn", "a meld of an earlier turn")
        extra = Counter(record["cards"]) - Counter(state.teams[team].melds[record["meld"]].cards)
        if extra:
            r.fail(f"{path}[{i}].cards", "the meld as it was holds cards it does not hold now: "
                   + ", ".join(sorted(extra.elements())), "the meld's cards less those the turn added")


def _check_indexes(r: _Reader, indexes: list[int], state: State, team: str, path: str) -> None:
    for i, index in enumerate(indexes):
        _check_index(r, index, state, team, f"{path}[{i}]")
    if len(set(indexes)) != len(indexes):
        r.fail(path, "an index is listed twice", "each meld once")


def _check_index(r: _Reader, index: int, state: State, team: str, path: str) -> None:
    count = len(state.teams[team].melds)
    if index >= count:
        r.fail(path, f"team {team} has no meld {index}",
               f"an index below {count}" if count else "no index (the team has no meld)")


def _threes_from_pile(threes: list[str], undo: dict) -> list[str]:
    """The team's red threes that may have come with the pile to give back: those
    laid as it was taken, where the undo records them (red_three.with_pile); else
    any, as one taken into the hand may have been laid down since (red_three.late)."""
    if "red_threes" in undo:
        return list((Counter(threes) - Counter(undo["red_threes"])).elements())
    return list(threes)


def _check_undo(r: _Reader, undo: dict, hand: list[str], melds: list[Meld], red_threes: list[str],
                path: str, discarded: list[str] = ()) -> None:
    """Giving back what `undo` records takes from the hand (with the melds laid
    for it back in it) the replacements drawn for red threes laid from the pile,
    then the pile's cards, some of which may be those red threes; a card the
    player has discarded since (an opening pending a challenge) stays where it
    went: one card of `discarded`, those that may be it (_offenders_discard)."""
    held = Counter(hand)
    for meld in melds:
        held.update(meld.cards)
    problems = [_undo_missing(undo, held + Counter(extra), red_threes, path)
                for extra in ([], *([card] for card in sorted(set(discarded))))]
    if all(problems):
        r.fail(*problems[1 if discarded else 0])


def _undo_missing(undo: dict, held: Counter, red_threes: list[str], path: str) -> tuple[str, str, str] | None:
    """What of `undo` the `held` cards lack, as the arguments of _Reader.fail, or None."""
    missing = Counter(undo.get("drawn", ())) - held
    if missing:
        return (f"{path}.drawn", "the replacements to give back are cards the player neither holds nor laid "
                                 "this turn: " + ", ".join(sorted(missing.elements())),
                "cards of the player's hand or of the melds laid with them")
    held = held - Counter(undo.get("drawn", ())) + Counter(red_threes)
    missing = Counter(undo["pile"]) - held
    if missing:
        return (f"{path}.pile", "the pile to give back holds cards the player neither holds nor laid this turn: "
                                + ", ".join(sorted(missing.elements())),
                "cards of the player's hand, of the melds laid with them or of the team's red threes")
    return None


def _check_conservation(state: State, deck: tuple[int, int], root: str) -> None:
    expected = Counter(full_deck(*deck))
    actual = state.all_cards()
    if actual == expected:
        return
    extra = actual - expected
    missing = expected - actual
    parts = []
    if extra:
        parts.append("more copies than the deck holds of " + ", ".join(f"{c} (x{n})" for c, n in sorted(extra.items())))
    if missing:
        total = sum(missing.values())
        parts.append(f"{total} card(s) of the deck are nowhere, e.g. " + ", ".join(sorted(missing)[:6]))
    raise InputError("the cards in this state are not exactly the deck: " + "; ".join(parts), json_path=root,
                     expected=f"every card of {deck[0]} decks and {deck[1]} jokers exactly once per copy "
                              f"({52 * deck[0] + deck[1]} cards)")
