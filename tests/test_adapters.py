"""The third-party adapters (tools/adapters/*): their pure translation
functions on our own fixtures' states and actions, and, when the user's
checkout of an engine is present, a run of the suite through the adapter.

The engines themselves are never part of this repository: a full run needs
CANASTRA_THESIS_CHECKOUT, CANASTRA_OPENSPIEL_CHECKOUT (and
CANASTRA_OPENSPIEL_PYTHON, an interpreter with the open_spiel wheel) or
CANASTRA_GABRIEL_CHECKOUT or CANASTRA_FEUDALISM_CHECKOUT or
CANASTRA_ANYCARD_CHECKOUT (after `npm install` there, with Node on the PATH),
or CANASTRA_DGMNETO_CHECKOUT (with the driver built by the adapter's --build,
in CANASTRA_DGMNETO_BUILD or its default place), and is skipped with a
message otherwise.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from canastra_ref import cards as our_cards
from canastra_ref import protocol
from canastra_ref.dsl.loader import available
from canastra_ref.engine.rules import engine_for
from canastra_ref.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "tools" / "adapters"
sys.path.insert(0, str(ADAPTERS))     # as each adapter script does: _common and the adapters' packages

import _common  # noqa: E402
from _common import Reject, Skip  # noqa: E402
from anycard_canasta import translate as anycard  # noqa: E402
from canasta_openspiel import translate as ospiel  # noqa: E402
from canastra_thesis import translate as thesis  # noqa: E402
from dgmneto_canastra import translate as dgmneto  # noqa: E402
from feudalism_canasta import translate as feudal  # noqa: E402
from gabriel_canastra import translate as gabriel  # noqa: E402


@lru_cache(maxsize=None)
def _messages():
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.grading import message_for
    out = []
    for case in load_all():
        if case.kind == "actions":
            out.append((case.id, message_for(case)))
    return tuple(out)


def _states():
    return [(cid, m) for cid, m in _messages() if len(m["state"]["hands"]) in (2, 4)]


def _multiset(cards):
    return Counter(_common.cards(cards))


def _in_play(state):
    return Counter(_common.all_cards(state)) - _multiset(state.get("aside", []))


# ------------------------------------------------------------------ _common

def test_card_spelling():
    assert _common.card("10h") == "Th" and _common.card("jk") == "JK" and _common.card("as") == "As"
    with pytest.raises(ValueError):
        _common.card("1x")


# _common.py copies the card code and the facts of our rulesets because an
# adapter may run under a third-party engine's own interpreter, where
# canastra_ref is not installed (docs/implementations.md: the open_spiel
# adapter). These tests pin the copy to canastra_ref and the specs.

SPELLINGS = [r + s for r in our_cards.RANKS for s in our_cards.SUITS] + [
    "JK", "jk", " Jk ", "10h", "10S", "th", "aS", "As ", "1x", "", "11h", "Ahh", "A", "h", "joker", "0c", "2x"]


@pytest.mark.parametrize("text", SPELLINGS)
def test_common_cards_are_canastra_ref_cards(text):
    try:
        ours = our_cards.parse_card(text)
    except InputError:
        with pytest.raises(ValueError):
            _common.card(text)
        return
    assert _common.card(text) == ours
    assert _common.rank_of(ours) == our_cards.rank_of(ours) and _common.suit_of(ours) == our_cards.suit_of(ours)
    assert _common.is_red_three(ours) == our_cards.is_red_three(ours)
    assert _common.is_black_three(ours) == our_cards.is_black_three(ours)


def test_common_card_vocabulary():
    assert (_common.RANKS, _common.SUITS, _common.JOKER) == (our_cards.RANKS, our_cards.SUITS, our_cards.JOKER)


def test_common_knows_every_ruleset():
    assert sorted(_common.ALL_RULESETS) == available()


@pytest.mark.parametrize("ruleset", available())
def test_common_ruleset_facts_are_the_specs(ruleset):
    engine = engine_for(ruleset)
    setup = protocol.setup(engine)
    facts = _common.facts(ruleset)
    assert facts["players"] == setup["players"]
    assert facts["direction"] == setup["direction"]
    assert facts["deck"] == (setup["decks"], setup["jokers"])
    assert facts["dealt"] == setup["cards_dealt"]
    kinds = {kind.name: kind for kind in engine.meld_kinds}
    for key, name in facts["kinds"].items():
        assert name in kinds, f"{ruleset} has no meld kind {name!r}"
        if key in ("sequence", "set", "wilds"):
            assert kinds[name].shape == key
        else:                                       # a set kind of one rank
            assert kinds[name].shape == "set" and engine.value(f"meld.{name}.ranks") == (key,)
    order, team_of = _common.seating({"hands": {}}, ruleset)
    assert order == engine.table.order
    assert team_of == engine.table.team_of


@pytest.mark.parametrize("ruleset,order", [("classica", ("N", "E", "S", "W")), ("cbc", ("N", "W", "S", "E")),
                                           ("classica-2p", ("N", "S"))])
def test_seating_follows_the_rulesets_direction(ruleset, order):
    players = len(order)
    state = {"hands": {s: [] for s in order}}
    got, team_of = _common.seating(state, ruleset)
    assert got == order
    # partners alternate in the order of play: engines using index % teams agree
    teams = len(set(team_of.values()))
    for i, seat in enumerate(got):
        assert team_of[seat] == team_of[got[i % teams]]
    assert players == len(team_of)


def test_protocol_loop_reports_skip_errored_and_crash():
    class Fake:
        IMPLEMENTATION = {"name": "fake", "version": "0", "language": "python", "homepage": ""}

        def rulesets(self):
            return ["classica"]

        def features(self):
            return {"setup"}

        UNSUPPORTED_VERBS: dict = {}

        def query(self, ruleset, q):
            kind = q["k"]
            if kind == "skip":
                raise Skip("cannot")
            if kind == "err":
                raise _common.Errored("broke")
            raise ZeroDivisionError("boom")

    lines = [{"cmd": "start", "protocol": 1}] + [
        {"cmd": "run", "id": k, "ruleset": "classica", "query": {"k": k}} for k in ("skip", "err", "crash")] + [
        {"cmd": "run", "id": "x", "ruleset": "cbc", "query": {"k": "skip"}}, {"cmd": "stop"}]
    out = io.StringIO()
    stderr = sys.stderr
    sys.stderr = io.StringIO()
    try:
        _common.serve(Fake(), io.StringIO("\n".join(json.dumps(m) for m in lines) + "\n"), out)
    finally:
        sys.stderr = stderr
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0]["ready"] and answers[0]["rulesets"] == ["classica"]
    assert answers[1] == {"id": "skip", "skipped": True, "message": "cannot"}
    assert answers[2] == {"id": "err", "errored": True, "message": "broke"}
    assert answers[3]["errored"] and answers[3]["message"] == "engine raised ZeroDivisionError: boom"
    assert answers[4]["skipped"]
    assert len(answers) == 5


def test_start_answer_declares_the_readings_an_adapter_settles():
    class Declaring:
        IMPLEMENTATION = {"name": "fake", "version": "0", "language": "python"}
        UNSUPPORTED_VERBS: dict = {}

        def rulesets(self):
            return ["cbc"]

        def features(self):
            return {"setup"}

        def readings(self):
            return {"cbc": {"aces-suit": "any-suit"}}

    started = _common.answer(Declaring(), {"cmd": "start", "protocol": 1})
    assert started["readings"] == {"cbc": {"aces-suit": "any-suit"}}
    Declaring.readings = lambda self: {}
    assert "readings" not in _common.answer(Declaring(), {"cmd": "start", "protocol": 1})


ADAPTER_NAMES = ["anycard_canasta", "canasta_openspiel", "canastra_thesis", "dgmneto_canastra",
                 "feudalism_canasta", "gabriel_canastra"]


def _declaring(name: str) -> list:
    """The adapter of each profile of an engine, built without its engine (the
    declarations are class data: the rulesets claimed, the readings settled)."""
    import importlib
    module = importlib.import_module(f"{name}.adapter")
    (cls,) = [v for v in vars(module).values()
              if isinstance(v, type) and issubclass(v, _common.Adapter) and v is not _common.Adapter]
    out = []
    for readings in (module.READINGS.values() if name == "canastra_thesis" else [module.READINGS]):
        adapter = object.__new__(cls)
        adapter.READINGS = readings
        out.append(adapter)
    return out


@pytest.mark.parametrize("name", ADAPTER_NAMES)
def test_declared_readings_name_real_disputes_of_claimed_rulesets(name):
    from canastra_ref.dsl.loader import load
    for adapter in _declaring(name):
        declared = adapter.readings()
        assert declared and set(declared) <= set(adapter.rulesets()) <= set(_common.ALL_RULESETS)
        for ruleset, readings in declared.items():
            disputes = load(ruleset).disputes
            for dispute, reading in readings.items():
                assert dispute in disputes, (ruleset, dispute)
                assert disputes[dispute].reading(reading) is not None, (ruleset, dispute, reading)


def test_an_adapter_claims_its_rulesets_or_those_of_its_table_sizes():
    class Four(_common.Adapter):
        PLAYERS = (4,)
        READINGS = {"cbc": {"aces-suit": "any-suit"}, "classica-2p": {"x": "y"}}

    class Claiming(_common.Adapter):
        CLAIMED = ("cbc",)
        READINGS = {"cbc": {"aces-suit": "any-suit"}, "treze": {"x": "y"}}
    four = Four().rulesets()
    assert "cbc" in four and "classica" in four and "classica-2p" not in four and "classica-6p" not in four
    assert Four().readings() == {"cbc": {"aces-suit": "any-suit"}}         # only for a ruleset it claims
    assert Claiming().rulesets() == ["cbc"] and Claiming().readings() == {"cbc": {"aces-suit": "any-suit"}}
    assert _common.lacks("exact_cut", "answer") == {"exact_cut": "the engine has no cut",
                                                   "answer": "the engine has no asking the partner"}


def test_a_helper_process_speaks_json_lines_and_its_death_is_an_error(tmp_path):
    echo = tmp_path / "echo.py"
    echo.write_text("import json, sys\nprint(json.dumps({'ready': True}), flush=True)\n"
                    "for line in sys.stdin:\n    m = json.loads(line)\n"
                    "    if m.get('die'):\n        sys.exit(0)\n"
                    "    print(json.dumps({'echo': m}), flush=True)\n")
    helper = _common.LineProcess([sys.executable, str(echo)], "the echo", "the echo did not start")
    assert helper.request({"n": 1}) == {"echo": {"n": 1}}
    with pytest.raises(_common.Errored, match="the echo died"):
        helper.request({"die": True})
    lingering = _common.LineProcess([sys.executable, str(echo)], "the echo", "the echo did not start")
    lingering.close()                       # as the adapter exits: the process ends and is reaped
    assert lingering.proc.returncode == 0
    silent = tmp_path / "silent.py"
    silent.write_text("print('not json')\n")
    with pytest.raises(SystemExit, match="the echo did not start"):
        _common.LineProcess([sys.executable, str(silent)], "the echo", "the echo did not start")


def test_a_random_hand_that_never_ends_is_a_finding():
    assert _common.hand_played(30, False, [], 30) == {
        "steps": 30, "ended": False, "findings": [{"kind": "hand did not end within 30 actions", "step": 30}]}
    found = [{"kind": "engine crash", "step": 3}]
    assert _common.hand_played(3, False, found, 30, restarts=1) == {"steps": 3, "ended": False, "findings": found,
                                                                   "restarts": 1}
    assert _common.hand_played(12, True, [], 30)["findings"] == []


# ----------------------------------------------------------- canastra-thesis

def _thesis_rules(players=4, **kw):
    points = {"A": 20, "2": 20, "3": 5, "4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "10": 10,
              "J": 10, "Q": 10, "K": 10, "JOKER": 50}
    base = dict(natural_two_in_suit=False, sequences=False, freeze=True, black_three_blocks=True,
                initial_meld=True, thresholds=((-10**9, 15), (0, 50), (1500, 90), (3000, 120)),
                card_points=points, players=players, sides=2)
    base.update(kw)
    return thesis.Rules(**base)


BURACO = dict(natural_two_in_suit=True, sequences=True, freeze=False, black_three_blocks=False,
              initial_meld=False, thresholds=())


def test_thesis_card_ids():
    assert thesis.ct("Ac") == 0 and thesis.ct("2c") == 1 and thesis.ct("Kc") == 12
    assert thesis.ct("Ah") == 26 and thesis.ct("JK") == 52
    assert all(thesis.name(thesis.ct(c)) == c for c in ("Ts", "3d", "JK", "Qh"))


def test_thesis_sequence_layout_of_our_json():
    rules = _thesis_rules(**BURACO)
    suit, start, slots = thesis.sequence_layout(rules, ["JK", "5h", "6h"])
    assert (suit, start) == ("h", 4) and slots == [("JK", 1), ("5h", 0), ("6h", 0)]
    suit, start, slots = thesis.sequence_layout(rules, ["Qh", "Kh", "Ah"])
    assert start == 12 and slots[-1] == ("Ah", 0)          # ace high
    suit, start, slots = thesis.sequence_layout(rules, ["Ah", "2h", "3h"])
    assert start == 1 and slots[1] == ("2h", 0)            # ace low, the two natural in its place
    with pytest.raises(Reject):
        thesis.sequence_layout(rules, ["5h", "7h", "9h"])


def test_thesis_meld_steps_use_every_card_once():
    rules = _thesis_rules(**BURACO)
    steps = thesis.meld_steps(rules, ["8s", "Ts", "9s", "JK", "Js"])
    assert steps[0][0] == "seq"
    used = list(steps[0][-1]) + [s[1] for s in steps[1:]]
    assert Counter(used) == Counter(["8s", "Ts", "9s", "JK", "Js"])
    assert thesis.meld_steps(_thesis_rules(), ["7h", "7d", "2c"])[0][:3] == ("set", 6, thesis.SET_WILD_TWO)
    for bad, reason in ((["7h", "8h"], "meld.too-few-cards"), (["7h", "8d", "JK"], "meld.mixed-ranks"),
                        (["2h", "2d", "JK"], "meld.only-wilds"), (["7h", "JK", "2d"], "meld.too-few-naturals")):
        with pytest.raises(Reject) as exc:
            thesis.meld_steps(_thesis_rules(), bad)
        assert exc.value.reason == reason


def _thesis_round_cards(rnd):
    out = Counter()
    for hand in rnd["hands"]:
        for c, n in hand:
            out[thesis.name(c)] += n
    for c in rnd["stock"] + rnd["trash"]:
        out[thesis.name(c)] += 1
    for m in rnd["melds"]:
        out.update(thesis.name(c) for c, _ in m["slots"])
    for tray in rnd["red_threes"]:
        out.update(thesis.name(c) for c in tray)
    return out


@pytest.mark.parametrize("profile", ["canasta", "buraco"])
def test_thesis_state_translation_on_every_fixture_state(profile):
    translated = 0
    for cid, message in _states():
        state = message["state"]
        players = len(state["hands"])
        rules = _thesis_rules(players, sides=2, **(BURACO if profile == "buraco" else {}))
        order, team_of = _common.seating(state, message["ruleset"])
        try:
            rnd = thesis.to_round(rules, state, order, team_of)
        except (Skip, Reject):
            continue
        translated += 1
        assert _thesis_round_cards(rnd) == _in_play(state), cid
        back = thesis.from_round(rules, rnd, state, order, team_of, message["ruleset"])
        for seat in order:
            assert _multiset(back["hands"][seat]) == _multiset(state["hands"][seat]), cid
        assert back["stock"] == _common.cards(state["stock"]) and back["pile"] == _common.cards(state["pile"]), cid
        assert back["turn"]["player"] == state["turn"]["player"], cid
        for team, data in state.get("teams", {}).items():
            want = [_multiset(m["cards"]) for m in data.get("melds", [])]
            assert [_multiset(m["cards"]) for m in back["teams"][team]["melds"]] == want, cid
    assert translated > 50


def test_thesis_meld_actions_of_every_fixture():
    planned = 0
    for cid, message in _messages():
        for action in message["actions"]:
            for meld in action.get("meld", []):
                if isinstance(meld, dict):
                    continue    # it names its kind: only an engine declaring meld-kind is sent it, never this one
                for rules in (_thesis_rules(), _thesis_rules(**BURACO)):
                    try:
                        steps = thesis.meld_steps(rules, meld)
                    except Reject as exc:
                        assert exc.reason in _reasons(), (cid, exc.reason)
                        continue
                    planned += 1
                    used = list(steps[0][-1]) + [s[1] for s in steps[1:]]
                    assert Counter(used) == _multiset(meld), cid
    assert planned > 20


@lru_cache(maxsize=None)
def _reasons():
    from canastra_ref.engine.reasons import REASONS
    return frozenset(REASONS)


# -------------------------------------------------------- canasta-openspiel

def test_openspiel_ids_are_physical_cards():
    ids = ospiel.Ids()
    assert ids.take("Ac") == 0 and ids.take("Ac") == 52 and ids.take("Kc") == 12
    assert ids.take("JK") == 104 and ospiel.name(105) == "JK" and ospiel.name(52 + 26) == "Ah"
    with pytest.raises(Skip):
        ids.take("Ac")


def test_openspiel_action_encoding():
    assert ospiel.create_id(7, 2, 1) == 2 + 7 * 50 + 9
    assert ospiel.add_id(1, 2, 0) == 1001 + 50 + 2
    assert ospiel.add_id(0, 0, 2) == 1001 + 12
    assert ospiel.add_id(0, 1, 1) == 1001 + 25
    assert ospiel.split_meld(["8h", "8c", "JK"]) == ("8", ["8h", "8c"], ["JK"])
    with pytest.raises(Reject):
        ospiel.split_meld(["8h", "9h", "Th"])


def test_openspiel_state_translation_on_every_fixture_state():
    translated = 0
    for cid, message in _states():
        state = message["state"]
        order, team_of = _common.seating(state, message["ruleset"])
        try:
            data = ospiel.to_engine(state, order, team_of)
        except (Skip, Reject):
            continue
        translated += 1
        ids = (data["stock"] + data["discard_pile"] + [c for h in data["hands"] for c in h]
               + [c for r in data["red_threes"] for c in r]
               + [c for t in data["melds"] for m in t for c in m["natural_cards"] + m["wild_cards"]])
        assert len(ids) == len(set(ids)), cid
        assert Counter(ospiel.name(c) for c in ids) == _in_play(state), cid
        assert data["current_player"] == order.index(state["turn"]["player"])
        back = ospiel.from_engine(data, state, order, team_of, message["ruleset"])
        for seat in order:
            assert _multiset(back["hands"][seat]) == _multiset(state["hands"][seat]), cid
        assert back["pile"] == _common.cards(state["pile"]), cid
    assert translated > 50


# ---------------------------------------------------- Gabrielcidral1/canastra

def test_gabriel_cards_and_seats():
    assert gabriel.to_pair("Th") == ("10", "H") and gabriel.to_pair("JK") == ("Joker", "J")
    assert gabriel.from_pair("10", "S") == "Ts" and gabriel.from_pair("Joker", "J") == "JK"
    order = ("N", "E", "S", "W")
    idx = [gabriel.engine_index(order, s) for s in order]
    # their turn order is 1, 3, 0, 2 and their teams are {0, 1} and {2, 3}
    assert idx == [1, 3, 0, 2]
    assert idx[0] // 2 == idx[2] // 2 and idx[1] // 2 == idx[3] // 2 and idx[0] // 2 != idx[1] // 2


def test_gabriel_layouts():
    assert gabriel.lay_out("triple", ["JK", "Ah", "Ac"], None) == ["Ah", "Ac", "JK"]
    assert gabriel.lay_out("sequence", ["7h", "8h", "2h"], "h") == ["7h", "8h", "2h"]
    assert gabriel.lay_out("sequence", ["9h", "7h", "JK"], "h") == ["7h", "JK", "9h"]
    assert gabriel.lay_out("sequence", ["3h", "2h", "4h"], "h") == ["2h", "3h", "4h"]
    assert gabriel.meld_shape(["Kh", "Kd", "2c"]) == ("triple", None)
    assert gabriel.meld_shape(["4h", "5h", "JK"]) == ("sequence", "h")
    with pytest.raises(Reject):
        gabriel.meld_shape(["4h", "5d", "6h"])
    assert gabriel.reason_for("Carta 7H não está na mão") == "card.not-in-hand"
    assert gabriel.reason_for("Trincas só podem ser feitas com Ás, 3 ou Rei") == "meld.rank-not-allowed"


def test_gabriel_layout_of_every_fixture_meld():
    seen = 0
    for cid, message in _states():
        for data in message["state"].get("teams", {}).values():
            for m in data.get("melds", []):
                laid = _common.cards(m["cards"])
                try:
                    kind, suit = gabriel.meld_shape(laid)
                except Reject:
                    continue
                seen += 1
                assert _multiset(gabriel.lay_out(kind, laid, suit)) == Counter(laid), cid
    assert seen > 20


# ------------------------------------------------------ feudalism-dev/Canasta

def test_feudalism_cards_and_reasons():
    assert feudal.to_card("Th", "x") == {"id": "x", "rank": "10", "suit": "H"}
    assert feudal.to_card("JK", "y") == {"id": "y", "rank": "JOKER", "suit": "J"}
    assert all(feudal.from_card(feudal.to_card(c, "i")) == c for c in ("Ts", "2d", "JK", "3c"))
    assert feudal.meld_rank(["3c", "3s", "3c"]) == "3" and feudal.meld_rank(["2c", "JK", "2h"]) == "WILD"
    assert feudal.meld_rank(["Tc", "Td", "JK"]) == "10"
    hand = feudal.Ids().make(["7h", "7h", "8c"])
    ids = feudal.pick(hand, ["7h", "7h"])
    assert len(set(ids)) == 2
    with pytest.raises(Reject):
        feudal.pick(hand, ["8c", "8c"])
    assert feudal.reason_for("Need two 8s to take the pile.") == "pile.too-few-naturals"
    assert feudal.reason_for("Need 8s to take the pile.") == "pile.too-few-hand-cards"
    assert feudal.reason_for("You need a canasta to go out. Add these...", rest=1) == "turn.last-card-stranded"
    assert feudal.reason_for("Initial meld needs 50; these sets are 30.") == "opening.below-minimum"


def test_feudalism_state_translation_on_every_fixture_state():
    translated = 0
    for cid, message in _states():
        state = message["state"]
        order, team_of = _common.seating(state, message["ruleset"])
        try:
            match = feudal.to_engine(state, order, team_of, {"variant": "canasta"})
        except (Skip, Reject):
            continue
        translated += 1
        found = [c for p in match["players"] for c in p["hand"]] + match["stock"] + match["discard"]
        found += [c for t in match["teams"] for c in t["redThrees"] + [x for m in t["melds"] for x in m["cards"]]]
        assert len({c["id"] for c in found}) == len(found), cid
        assert Counter(feudal.from_card(c) for c in found) == _in_play(state), cid
        assert [p["team"] for p in match["players"]] == [i % 2 for i in range(len(order))]
        back = feudal.from_engine(match, state, order, team_of, message["ruleset"])
        for seat in order:
            assert _multiset(back["hands"][seat]) == _multiset(state["hands"][seat]), cid
        assert back["stock"] == _common.cards(state["stock"]) and back["pile"] == _common.cards(state["pile"]), cid
        assert back["turn"]["player"] == state["turn"]["player"] and back["ended"] is None, cid
    assert translated > 50


# ----------------------------------------------------- dgmneto/canastra

def test_dgmneto_cards_and_melds():
    assert dgmneto.to_card("Th") == "TH" and dgmneto.to_card("JK") == "JOKER"
    assert all(dgmneto.from_card(dgmneto.to_card(c)) == c for c in ("Ts", "2d", "JK", "3c", "Ah"))
    seq = dgmneto.meld_to_engine({"kind": "sequence", "cards": ["JK", "5h", "6h"]})
    assert seq == {"kind": "Sequence", "suit": "Hearts",
                   "cards": [{"card": "JOKER", "standingInRank": "4"}, {"card": "5H"}, {"card": "6H"}]}
    gap = dgmneto.meld_to_engine({"kind": "sequence", "cards": ["4s", "2s", "6s", "7s"]})
    assert gap["cards"][1] == {"card": "2S", "standingInRank": "5"}
    aces = dgmneto.meld_to_engine({"kind": "aces", "cards": ["JK", "Ac", "Ad"]})
    assert aces == {"kind": "Aces", "aces": ["AC", "AD"], "wild": "JOKER"}
    assert dgmneto.meld_from_engine(seq) == {"kind": "sequence", "cards": ["JK", "5h", "6h"]}
    assert dgmneto.meld_from_engine(aces) == {"kind": "aces", "cards": ["Ac", "Ad", "JK"]}
    for meld in ({"kind": "fours", "cards": ["4c", "4d", "4h"]}, {"kind": "sequence", "cards": ["JK", "4h", "5h"]},
                 {"kind": "wilds", "cards": ["2c", "2d", "JK"]}):
        with pytest.raises(Skip):
            dgmneto.meld_to_engine(meld)


def test_dgmneto_pile_take_plans_and_layoff_orders():
    plans = dgmneto.take_pile_plans({"with": ["7h", "8h", "2h"]})
    assert plans[0] == (["7h", "8h"], ["2h"]) and len(plans) == 3
    assert all(Counter(core + rest) == Counter(["7h", "8h", "2h"]) for core, rest in plans)
    with pytest.raises(Reject) as exc:
        dgmneto.take_pile_plans({"onto": 0, "with": ["9s"]})
    assert exc.value.reason == "pile.too-few-hand-cards"
    orders = dgmneto.layoff_orders(["9h", "JK", "8h"])
    assert orders[0] == ["9h", "JK", "8h"] and orders[1] == ["JK", "8h", "9h"]
    assert len(orders) == len({tuple(o) for o in orders}) == 6


def test_dgmneto_reasons_keep_the_engines_meaning():
    meld = {"error": "InvalidMeld", "reason": {"reason": "NotASequence"}}
    assert dgmneto.reason_for(meld, "meld", ["5h", "6h", "8h"]) == "meld.not-consecutive"
    assert dgmneto.reason_for(meld, "meld", ["3h", "4h", "5h"]) == "meld.threes"
    assert dgmneto.reason_for({"error": "WrongPhase", "phase": "Melding"}, "draw") == "turn.already-drew"
    assert dgmneto.reason_for({"error": "WrongPhase", "phase": "AwaitingDraw"}, "discard") == "turn.draw-first"
    assert dgmneto.reason_for({"error": "WrongPhase", "phase": "Melding"}, "redraw") == "redraw.not-allowed"
    assert dgmneto.reason_for({"error": "WouldStrandLastCard"}, "layoff") == "turn.last-card-stranded"
    # no code of ours means what these mean: the engine's own name is kept
    assert dgmneto.reason_for({"error": "StockEmpty"}, "draw") == "engine:StockEmpty"
    assert dgmneto.reason_for({"error": "CannotReachOpeningMinimum"}, "meld") == "engine:CannotReachOpeningMinimum"
    assert dgmneto.canastra_name("ituiutaba", "Clean") == "limpa" and dgmneto.canastra_name("cbc", "Dirty") == "suja"
    assert dgmneto.canastra_name("cbc", "Clean") == "engine:Clean" and dgmneto.canastra_name("cbc", "None") is None


def _dgmneto_points():
    return {dgmneto.to_card(c): 5 for c in [r + s for r in _common.RANKS for s in _common.SUITS] + ["JK"]}


def test_dgmneto_state_translation_on_every_fixture_state():
    translated = 0
    for cid, message in _states():
        state = message["state"]
        order, team_of = _common.seating(state, message["ruleset"])
        try:
            gs = dgmneto.to_engine(state, order, team_of, _dgmneto_points())
        except (Skip, Reject):
            continue
        translated += 1
        assert dgmneto.cards_in(gs) == _in_play(state), cid
        assert order[gs["turn"]] == state["turn"]["player"], cid
        assert [t["opened"] for t in gs["tables"]] in ([True, True], [True, False], [False, True], [False, False])
        back = dgmneto.from_engine(gs, state, order, team_of)
        for seat in order:
            assert _multiset(back["hands"][seat]) == _multiset(state["hands"][seat]), cid
        assert back["stock"] == _common.cards(state["stock"]) and back["pile"] == _common.cards(state["pile"]), cid
        assert back["turn"]["player"] == state["turn"]["player"] and back["ended"] is None, cid
        for team, data in state.get("teams", {}).items():
            want = [_multiset(m["cards"]) for m in data.get("melds", [])]
            assert [_multiset(m["cards"]) for m in back["teams"][team]["melds"]] == want, cid
    assert translated > 100


# ---------------------------------------------------------- jphd3v/anycard

def _anycard_template():
    """The engine's initial-state shape, written out: 108 cards by id and its piles."""
    registry, n = {}, 0
    for _ in range(2):
        for suit in ("clubs", "diamonds", "hearts", "spades"):
            for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"):
                n += 1
                registry[str(n)] = {"id": n, "rank": rank, "suit": suit}
        for colour in ("red", "black"):
            n += 1
            registry[str(n)] = {"id": n, "rank": "JOKER", "suit": colour}
    kinds = ["red3", "black3-out"] + [f"meld-{r}" for r in anycard.MELD_RANKS]
    piles = ["deck", "discard"] + [f"{p}-hand" for p in anycard.PLAYERS] + [f"{t}-{k}" for t in "AB" for k in kinds]
    return {"cards": registry, "piles": {p: {"id": p, "cardIds": []} for p in piles}, "rulesState": {}}


def test_anycard_cards_seats_and_reasons():
    assert anycard.engine_rank("Th") == "10" and anycard.engine_rank("JK") == "JOKER"
    assert anycard.from_entry({"rank": "10", "suit": "spades"}) == "Ts"
    assert anycard.from_entry({"rank": "JOKER", "suit": "red"}) == "JK"
    ids = anycard.Ids(_anycard_template()["cards"])
    assert ids.take("Ac") != ids.take("Ac")
    with pytest.raises(Skip):
        ids.take("Ac")
    # our order of play N E S W is the engine's S W N E: partners stay partners
    who = anycard.players_of(("N", "E", "S", "W"))
    assert who == {"N": "S", "E": "W", "S": "N", "W": "E"}
    assert anycard.TEAM_OF_PLAYER[who["N"]] == anycard.TEAM_OF_PLAYER[who["S"]] == "A"
    assert anycard.meld_rank(["Tc", "Td", "JK"]) == "10" and anycard.meld_rank(["7c", "8c", "2d"]) is None
    assert anycard.reason_for("Discard is frozen: you need two natural cards of rank 8 to take it.") == \
        "pile.too-few-naturals"
    assert anycard.reason_for("Initial meld minimum is 50 points (your current meld value: 30).") == \
        "opening.below-minimum"
    assert anycard.reason_for("You do not meet the initial meld minimum to start melding.") == \
        "engine:initial-meld-out-of-reach"
    assert anycard.reason_for("Something new.") == "engine:Something new"


def test_anycard_hand_order_puts_the_named_cards_first():
    gs = _anycard_template()
    gs["piles"]["S-hand"]["cardIds"] = [7, 20, 33, 2]          # 7c 7d 7h 2c
    anycard.put_first(gs, "S-hand", ["7h", "2c"])
    assert gs["piles"]["S-hand"]["cardIds"] == [33, 2, 7, 20]
    with pytest.raises(Reject):
        anycard.put_first(gs, "S-hand", ["7s"])


def test_anycard_state_translation_on_every_fixture_state():
    translated = 0
    template = _anycard_template()
    for cid, message in _states():
        state = message["state"]
        order, team_of = _common.seating(state, message["ruleset"])
        try:
            gs = anycard.to_engine(state, order, team_of, template)
        except (Skip, Reject):
            continue
        translated += 1
        placed = [i for p in gs["piles"].values() for i in p["cardIds"]]
        assert len(placed) == len(set(placed)) and set(map(str, placed)) == set(gs["cards"]), cid
        assert anycard.cards_in(gs) == _in_play(state), cid
        back = anycard.from_engine(gs, state, order, team_of, {})
        for seat in order:
            assert _multiset(back["hands"][seat]) == _multiset(state["hands"][seat]), cid
        assert back["stock"] == _common.cards(state["stock"]) and back["pile"] == _common.cards(state["pile"]), cid
        assert back["turn"]["player"] == state["turn"]["player"] and back["ended"] is None, cid
        for team, data in state.get("teams", {}).items():
            want = sorted(sorted(_common.cards(m["cards"])) for m in data.get("melds", []))
            assert sorted(sorted(m["cards"]) for m in back["teams"][team]["melds"]) == want, cid
    assert translated > 50


# ------------------------------------------------ full runs (user checkouts)

ENGINES = {    # adapter -> (checkout variable, interpreter variable, the ruleset it is run on)
    "canastra_thesis": ("CANASTRA_THESIS_CHECKOUT", None, "classica"),
    "canasta_openspiel": ("CANASTRA_OPENSPIEL_CHECKOUT", "CANASTRA_OPENSPIEL_PYTHON", "classica"),
    "gabriel_canastra": ("CANASTRA_GABRIEL_CHECKOUT", None, "classica"),
    "feudalism_canasta": ("CANASTRA_FEUDALISM_CHECKOUT", None, "classica"),
    "anycard_canasta": ("CANASTRA_ANYCARD_CHECKOUT", None, "classica"),
    "dgmneto_canastra": ("CANASTRA_DGMNETO_CHECKOUT", None, "cbc"),
}

# Cases of a rule the engine shares with the ruleset, so they pass whenever the
# adapter translates faithfully (checked against the engine's own code).
SHARED_RULES = {
    "anycard_canasta": ["classica-pegar-o-lixo.4-natural-pair", "classica-pegar-o-lixo.6-onto-team-meld",
                        "classica-bater.2-no-canastra-no-going-out",
                        "classica-tres-vermelhos-e-tres-pretos.7-four-black-threes-going-out"],
    "dgmneto_canastra": ["cbc-8-take-the-pile-with-two-naturals", "cbc-8-take-the-pile-with-two-aces",
                         "cbc-8-no-wild-card-with-the-discard", "cbc-30-two-between-two-cards-is-fixed",
                         "cbc-12-pile-cards-not-melded-the-same-turn", "cbc-definicoes-curinguinha-other-suit-refused"],
}


def _missing_toolchain(name: str, checkout: str) -> str | None:
    node = os.environ.get("CANASTRA_NODE", "node")
    if name in ("feudalism_canasta", "anycard_canasta") and not shutil.which(node):
        return f"no Node executable on the PATH: the {name} adapter drives the engine with Node"
    if name == "anycard_canasta" and not ((Path(checkout) / "backend" / "node_modules" / "tsx").is_dir()
                                          and (Path(checkout) / "node_modules" / "zod").is_dir()):
        return f"{checkout} has no node_modules: run `npm install` there and in backend/ (its README)"
    if name == "dgmneto_canastra":
        from dgmneto_canastra.adapter import BINARY, BUILD_VAR, default_build_dir
        build = Path(os.environ.get(BUILD_VAR) or default_build_dir())
        if not (build / "target" / "release" / BINARY).exists():
            return (f"the dgmneto driver is not built in {build}: run the adapter with --build "
                    "(tools/adapters/dgmneto_canastra/README.md)")
    return None


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_full_run_through_the_runner(name, tmp_path):
    env_var, python_var, ruleset = ENGINES[name]
    checkout = os.environ.get(env_var)
    if not checkout or not Path(checkout).is_dir():
        pytest.skip(f"{env_var} is not set to a checkout of the engine: the full run of {name} is a tool run "
                    f"(see tools/adapters/{name}/README.md)")
    missing = _missing_toolchain(name, checkout)
    if missing:
        pytest.skip(missing)
    python = os.environ.get(python_var, sys.executable) if python_var else sys.executable
    if python_var and not os.environ.get(python_var):
        pytest.skip(f"{python_var} is not set to an interpreter with the engine's dependencies")
    report = tmp_path / "report.json"
    command = f"{python} {ADAPTERS / name / 'adapter.py'} --checkout {checkout}"
    proc = subprocess.run([sys.executable, "-m", "canastra_cli", "conformance", "--impl", command,
                           "--ruleset", ruleset, "--format", "json", "--output", str(report)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert report.exists(), proc.stderr[-2000:]
    data = json.loads(report.read_text())
    assert data["start_error"] is None
    assert data["summary"]["passed"] > 0
    for case_id in SHARED_RULES.get(name, []):
        assert data["cases"][case_id]["status"] == "passed", (case_id, data["cases"][case_id])
    # the adapter never lets an engine crash through as garbage: crashes are errored cases with a message
    for case_id, record in data["cases"].items():
        if record["status"] == "errored":
            assert record.get("message"), case_id
