"""The reference engine under the CBC rules: one test per article situation.
Every expectation is worked out from the article named in the test, not from
the engine's output."""
from __future__ import annotations

from positions import played, position

from canastra_ref.engine.actions import apply
from canastra_ref.engine.completion import complete
from canastra_ref.engine.loading import load_state
from canastra_ref.engine.rules import engine_for
from canastra_ref.engine.scoring import score_hand
from canastra_ref.engine.state import Meld

CBC = engine_for("cbc")


def play(partial, *actions, engine=CBC):
    """Complete the partial state, apply the actions; returns (states, verdicts)."""
    return played(engine, partial, *actions, every=True)


def N(state_turn="play", **kw):
    return {"turn": {"player": "N", "phase": state_turn}, **kw}


# ----------------------------------------------------------------- opening (7)

def test_7_opening_of_75_with_clean_sequences_at_zero_points():
    # 7: 75 points needed while the team has 2,490 or less. J Q K A of hearts = 10+10+10+15 = 45,
    # 8 9 10 of spades = 30: 75 in all, both clean.
    states, verdicts = play(N(hands={"N": "Jh Qh Kh Ah 8s 9s Ts 4d 5c", "E": 15, "S": 15, "W": 15}),
                            {"player": "N", "meld": [["Jh", "Qh", "Kh", "Ah"], ["8s", "9s", "Ts"]]},
                            {"player": "N", "discard": "4d"})
    assert verdicts[0].reason == "opening.pending"
    assert verdicts[1].verdict == "accepted" and verdicts[1].reason == "opening.made"
    assert "7" in verdicts[1].cites
    assert states[-1].teams["NS"].opened


def test_7_seventy_points_is_short_at_2490():
    # 7: at 2,490 the minimum is still 75; 70 points fall short (19 calls 70 a short opening).
    states, verdicts = play(N(hands={"N": "Jh Qh Kh 8s 9s Ts 4d 5c", "E": 15, "S": 15, "W": 15},
                              teams={"NS": {"score": 2490}}),
                            {"player": "N", "meld": [["Jh", "Qh", "Kh"], ["8s", "9s", "Ts"]]},
                            {"player": "N", "discard": "4d"})
    # 30 + 30 = 60 < 75; cbc 19 lets a short opening stand until the next player challenges
    assert verdicts[1].reason == "opening.pending-check" and "opening.short-pending" in verdicts[1].events
    assert states[-1].pending is not None


def test_7_at_2500_the_minimum_is_120():
    # 7: from 2,500 points, 120. 75 points are not enough.
    states, verdicts = play(N(hands={"N": "Jh Qh Kh Ah 8s 9s Ts 4d 5c", "E": 15, "S": 15, "W": 15},
                              teams={"NS": {"score": 2500}}),
                            {"player": "N", "meld": [["Jh", "Qh", "Kh", "Ah"], ["8s", "9s", "Ts"]]},
                            {"player": "N", "discard": "4d"},
                            {"player": "W", "challenge": True})
    assert verdicts[2].reason == "challenge.upheld"
    assert not states[-1].teams["NS"].opened
    assert states[-1].teams["NS"].opening_failures == 1          # 13: the team's minimum rises
    assert sorted(states[-1].players["N"].hand) == sorted("Jh Qh Kh Ah 8s 9s Ts 5c".split())


def challenged(e_hand: list[str], pile: list[str], pile_taken: list[str]):
    """N challenges E's pending opening: E took the pile `pile_taken` (its top card 8d last)
    with 7d 9d, laid the red three 3d that came with it and drew 8c for it (4). `e_hand`,
    `pile`: E's hand and the pile now. Returns (state before, state after, verdict)."""
    partial = {"turn": {"player": "N", "phase": "draw"}, "hands": {"N": 2, "E": e_hand, "S": 1, "W": 1},
               "stock": ["Js"], "pile": pile, "players": {"E": {"melded": True}},
               "teams": {"EW": {"opened": True, "red_threes": ["3d"],
                                "melds": [{"kind": "sequence", "cards": ["7d", "8d", "9d"]}]}},
               "pending": {"player": "E", "team": "EW", "melds": [0], "failures_before": 0, "stands": [],
                           "undo": {"pile": pile_taken, "red_threes": [], "drawn": ["8c"]}}}
    full = complete(CBC.table, CBC.deck, partial)
    full["pending"]["undo"]["stock"] = ["8c"] + full["stock"]        # the stock before the take
    before = load_state(CBC, full)
    after, verdict = apply(CBC, before, {"player": "N", "challenge": True})
    assert verdict.reason == "challenge.upheld"
    return before, after, verdict


def test_19_an_upheld_challenge_keeps_every_card_when_a_red_three_came_with_the_pile():
    # 19: the challenged opening's melds go back to the hand. E also holds a red three of its
    # own (the panca of 4). Taking the opening back must not touch the card E held: it once
    # went to the pile in the red three's place and the table lost a card (found by canastra
    # fuzz, the reference against itself, cbc seed 1).
    before, after, _ = challenged(["7c", "3d", "8c"], ["6h"], ["3d", "8d"])
    assert after.all_cards() == before.all_cards()
    assert sorted(after.players["E"].hand) == sorted(["7c", "3d", "7d", "9d"])


def test_19_an_upheld_challenge_after_discarding_the_red_threes_replacement():
    # E discarded the replacement 8c, leaving the short opening pending. The 8c is the discard
    # on the pile now: it cannot go back to the stock as well, and the engine raised a
    # ValueError looking for it in E's hand (found by a random walk, cbc seed 90). Every card
    # stays where exactly one copy of it can be: the pile goes back under E's discard.
    before, after, _ = challenged(["7c"], ["8c"], ["3d", "8d"])
    assert after.all_cards() == before.all_cards()
    assert sorted(after.players["E"].hand) == sorted(["7c", "7d", "9d"])
    assert after.pile == ["3d", "8d", "8c"]
    assert after.stock == before.stock and after.teams["EW"].red_threes == []


def test_19_an_upheld_challenge_after_discarding_a_card_of_the_pile():
    # E kept the replacement 8c and discarded Kc, a card of the pile taken for the opening
    # (where the spec lets him: pile.discard_from_pile). The pile goes back under that
    # discard, without a second Kc; the 8c goes back to the stock.
    before, after, _ = challenged(["7c", "8c"], ["Kc"], ["3d", "Kc", "8d"])
    assert after.all_cards() == before.all_cards()
    assert sorted(after.players["E"].hand) == sorted(["7c", "7d", "9d"])
    assert after.pile == ["3d", "8d", "Kc"] and after.stock == ["8c", *before.stock]


def test_7_needs_a_clean_meld():
    # 7 and 32: a first melding without the pile needs a sequence or ace set with no wild card.
    states, verdicts = play(N(hands={"N": "Jh Qh 2h Ah Ad JK 8s 9s 2s 4d 5c", "E": 15, "S": 15, "W": 15}),
                            {"player": "N", "meld": [["Jh", "Qh", "2h"], ["Ah", "Ad", "JK"], ["8s", "9s", "2s"]]},
                            {"player": "N", "discard": "4d"})
    assert verdicts[1].verdict == "penalised" and verdicts[1].reason == "opening.no-clean-meld"
    assert not states[-1].teams["NS"].opened


def test_7_a_real_canastra_in_hand_opens_at_any_score():
    # 7 and valor.27: a canastra real opens straight away, vulnerable or not (seven hearts 4-10 = 50 points).
    states, verdicts = play(N(hands={"N": "4h 5h 6h 7h 8h 9h Th Kc Qd", "E": 15, "S": 15, "W": 15},
                              teams={"NS": {"score": 3000}}),
                            {"player": "N", "meld": [["4h", "5h", "6h", "7h", "8h", "9h", "Th"]]},
                            {"player": "N", "discard": "Kc"})
    assert verdicts[1].reason == "opening.made"
    assert states[-1].teams["NS"].opened


# --------------------------------------------------------- failed opening (13)

def test_13_failed_opening_raises_the_minimum_75_to_120():
    # 13: after a failed opening the minimum goes from 75 to 120. 120 is then not met by 75 points.
    states, verdicts = play(N(hands={"N": "Jh Qh Kh Ah 8s 9s Ts 4d 5c", "E": 15, "S": 15, "W": 15},
                              teams={"NS": {"opening_failures": 1}}),
                            {"player": "N", "meld": [["Jh", "Qh", "Kh", "Ah"], ["8s", "9s", "Ts"]]},
                            {"player": "N", "discard": "4d"})
    assert "opening.short-pending" in verdicts[1].events


def test_13_ladder_goes_on_by_30():
    from canastra_ref.engine.act import Act
    from canastra_ref.engine.opening import minimum
    state = position(CBC, N(hands={"N": "4d", "E": 15, "S": 15, "W": 15}))
    values = []
    for failures in range(6):
        state.teams["NS"].opening_failures = failures
        act = Act(CBC, state, "N")
        values.append(minimum(act, act.context(batch=[("sequence", ["4h", "5h", "6h"])])))
    assert values == [75, 120, 150, 180, 210, 240]         # 13: 75, 120, 150, 180, 210 "etc."


# ----------------------------------------------------------- discard pile (8-12)

def _pile(partial_hand, pile, **kw):
    return {"turn": {"player": "N", "phase": "draw"}, "hands": {"N": partial_hand, "E": 15, "S": 15, "W": 15},
            "pile": pile, **kw}


def test_8_the_discard_is_taken_only_without_wild_cards():
    # 8: the discard may be taken only to make a sequence or ace set without wild cards.
    _, verdicts = play(_pile("7h 2h 9c 9d", "4c Jd 8h", teams={"NS": {"opened": True}}),
                       {"player": "N", "take_pile": {"with": ["7h", "2h"]}})
    assert verdicts[0].verdict == "rejected"
    assert verdicts[0].reason in ("pile.too-few-naturals", "pile.too-many-wilds")
    assert "8" in verdicts[0].cites


def test_8_and_12_taking_the_pile_with_two_naturals():
    # 8: 6h 7h with the 8h on top make a clean sequence. 12: the rest of the pile comes into the hand.
    states, verdicts = play(_pile("6h 7h 9c 9d", "4c Jd 8h", teams={"NS": {"opened": True}}),
                            {"player": "N", "take_pile": {"with": ["6h", "7h"]}})
    assert verdicts[0].reason == "pile.taken"
    after = states[-1]
    assert after.pile == []
    assert after.teams["NS"].melds[0].cards == ["6h", "7h", "8h"]
    assert sorted(after.players["N"].hand) == sorted(["9c", "9d", "4c", "Jd"])


def test_12_rest_of_the_pile_is_usable_only_next_turn():
    # 12: the other cards of the pile may be used only on a later turn.
    _, verdicts = play(_pile("6h 7h 9c 9d", "9h 8h", teams={"NS": {"opened": True}}),
                       {"player": "N", "take_pile": {"with": ["6h", "7h"]}},
                       {"player": "N", "meld": [["9c", "9d", "9h"]]})
    assert verdicts[1].verdict == "rejected"
    assert verdicts[1].reason in ("card.from-pile-not-usable", "meld.rank-not-allowed")


def test_definicoes_tres_pretos_block_the_pile():
    # definicoes.tres-pretos: a discarded black three stops the next player from taking the pile.
    _, verdicts = play(_pile("6h 7h", "8h 3s", teams={"NS": {"opened": True}}),
                       {"player": "N", "take_pile": {"with": ["6h", "7h"]}})
    assert verdicts[0].reason == "pile.blocked"
    assert "definicoes.tres-pretos" in verdicts[0].cites


def test_definicoes_curingao_blocks_the_pile_while_on_top():
    # definicoes.curingao: the joker locks the pile (dispute pile-block, default next-player).
    _, verdicts = play(_pile("Ah Ad", "8h JK", teams={"NS": {"opened": True}}),
                       {"player": "N", "take_pile": {"with": ["Ah", "Ad"]}})
    assert verdicts[0].reason == "pile.blocked"


def test_11_no_wild_bridge_when_extending_with_the_discard():
    # 11: table sequence 7 8 with a wild as 9; a discarded 10 cannot be joined through the wild.
    _, verdicts = play(_pile("Kc Kd", "4c Ts", teams={"NS": {"opened": True, "melds": [
        {"kind": "sequence", "cards": ["7s", "8s", "JK"]}]}}),
                       {"player": "N", "take_pile": {"onto": 0, "with": []}})
    assert verdicts[0].reason == "pile.wild-bridge"
    assert "11" in verdicts[0].cites


def test_11_extending_a_sequence_with_the_discard():
    # 11: the discard may continue a sequence on the table.
    states, verdicts = play(_pile("Kc Kd", "4c 9s", teams={"NS": {"opened": True, "melds": [
        {"kind": "sequence", "cards": ["6s", "7s", "8s"]}]}}),
                            {"player": "N", "take_pile": {"onto": 0, "with": []}})
    assert verdicts[0].reason == "pile.taken"
    assert states[-1].teams["NS"].melds[0].cards == ["6s", "7s", "8s", "9s"]


# --------------------------------------------------------------- first card (6, 9)

def test_6_and_9_the_first_player_may_reject_the_first_card():
    # 6: the first player may take a second card; 9: the rejected card can never be taken (set aside).
    states, verdicts = play({"turn": {"player": "N", "phase": "draw", "first": True}, "started": False,
                             "hands": {"N": 15, "E": 15, "S": 15, "W": 15}, "stock": ["Kd", "5c"]},
                            {"player": "N", "draw": "stock"},
                            {"player": "N", "redraw": True})
    assert verdicts[1].reason == "draw.redraw"
    assert states[-1].aside == ["Kd"] and "5c" in states[-1].players["N"].hand
    assert {"6", "9"} <= set(verdicts[1].cites)


def test_6_only_the_first_turn_allows_a_redraw():
    _, verdicts = play({"turn": {"player": "N", "phase": "draw"}, "hands": {"N": 15, "E": 15, "S": 15, "W": 15}},
                       {"player": "N", "draw": "stock"}, {"player": "N", "redraw": True})
    assert verdicts[1].reason == "redraw.not-allowed"


# -------------------------------------------------------------- red threes (4)

def test_4_a_red_three_drawn_as_the_last_card_ends_the_hand():
    # 4: when the red three is the last card drawn, the hand ends and the player cannot discard.
    states, verdicts = play({"turn": {"player": "N", "phase": "draw"}, "hands": {"N": 15, "E": 15, "S": 15, "W": 15},
                             "stock": ["3h"], "stock_size": 1},
                            {"player": "N", "draw": "stock"})
    assert verdicts[0].reason == "hand.ended.red-three-last"
    assert states[-1].ended["reason"] == "red-three-last"
    assert states[-1].teams["NS"].red_threes == ["3h"]


def test_4_red_threes_are_exchanged_before_the_first_draw():
    states, verdicts = play({"turn": {"player": "N", "phase": "draw", "first": True}, "started": False,
                             "hands": {"N": "3d 4c", "E": 15, "S": 15, "W": 15}, "stock": ["Kc"]},
                            {"player": "N", "replace_red_three": "3d"})
    assert verdicts[0].reason == "red-three.replaced"
    assert states[-1].teams["NS"].red_threes == ["3d"] and "Kc" in states[-1].players["N"].hand


# ------------------------------------------------------------- canastras (25-29)

def _kind(cards, meld_kind="sequence"):
    return CBC.canastra_kind(meld_kind, cards)


def test_25_28_real_and_the_eighth_card():
    assert _kind("4h 5h 6h 7h 8h 9h Th".split()) == "real"            # 25
    assert _kind("4h 5h 6h 7h 8h 9h Th Jh".split()) == "suja"         # 28: an eighth card makes it suja
    eighth = "4h 5h 6h 7h 8h 9h Th Jh".split()
    assert CBC.canastra_value(Meld("sequence", eighth, _kind(eighth))).value == 300   # 28: worth 300
    assert _kind("4h 5h 6h JK 8h 9h Th".split()) == "limpa"           # definicoes.canastra-limpa
    assert _kind("4h 5h 6h 2h 8h 9h Th".split()) == "suja"            # definicoes.canastra-suja
    assert _kind("Ah Ad Ac As Ah Ad Ac".split(), "aces") == "real"     # 25: seven aces
    aces = "Ah Ad Ac As Ah Ad Ac".split()
    assert CBC.canastra_value(Meld("aces", aces, _kind(aces, "aces"))).value == 1000        # valor.18


def test_27_aces_of_any_suit_form_a_set_by_default():
    # 27 (dispute aces-suit, default any-suit)
    states, verdicts = play(N(hands={"N": "Ah Ad Ac 4d 5c", "E": 15, "S": 15, "W": 15}, teams={"NS": {"opened": True}}),
                            {"player": "N", "meld": [["Ah", "Ad", "Ac"]]})
    assert verdicts[0].reason == "meld.laid"
    same = engine_for("cbc", (("aces-suit", "same-suit"),))
    _, verdicts = play(N(hands={"N": "Ah Ad Ac 4d 5c", "E": 15, "S": 15, "W": 15}, teams={"NS": {"opened": True}}),
                       {"player": "N", "meld": [["Ah", "Ad", "Ac"]]}, engine=same)
    assert verdicts[0].reason == "meld.mixed-suits" and "27" in verdicts[0].cites


def test_definicoes_curinguinha_a_two_must_match_the_sequence_suit():
    _, verdicts = play(N(hands={"N": "7h 8h 2c 4d 5c", "E": 15, "S": 15, "W": 15}, teams={"NS": {"opened": True}}),
                       {"player": "N", "meld": [["7h", "8h", "2c"]]})
    assert verdicts[0].reason == "meld.wild-suit"
    assert "definicoes.curinguinha" in verdicts[0].cites


def test_30_a_two_between_two_cards_is_fixed():
    # 30: the 2 held between 5 and 7 cannot move to let the 6 in.
    _, verdicts = play(N(hands={"N": "6h 4d 5c", "E": 15, "S": 15, "W": 15}, teams={"NS": {"opened": True, "melds": [
        {"kind": "sequence", "cards": ["5h", "2h", "7h"]}]}}),
                       {"player": "N", "layoff": {"meld": 0, "cards": ["6h"]}})
    assert verdicts[0].reason == "layoff.wild-locked" and "30" in verdicts[0].cites


def test_31_the_joker_can_always_move():
    # 31: the joker between 5 and 7 moves to let the 6 in (it goes to the top end).
    states, verdicts = play(N(hands={"N": "6h 4d 5c", "E": 15, "S": 15, "W": 15}, teams={"NS": {
        "opened": True, "melds": [{"kind": "sequence", "cards": ["5h", "JK", "7h"]}]}}),
                            {"player": "N", "layoff": {"meld": 0, "cards": ["6h"]}})
    assert verdicts[0].reason == "meld.laid-off"
    assert states[-1].teams["NS"].melds[0].cards == ["5h", "6h", "7h", "JK"]


# --------------------------------------------------------------- going out

def test_definicoes_batida_going_out_needs_a_real_canastra():
    _, verdicts = play(N(hands={"N": "Kc", "E": 15, "S": 15, "W": 15}, teams={"NS": {"opened": True, "melds": [
        {"kind": "sequence", "cards": "4h 5h 6h 2h 8h 9h Th".split()}]}}),
                       {"player": "N", "discard": "Kc"})
    assert verdicts[0].reason == "going-out.not-allowed"
    assert "definicoes.batida-indireta" in verdicts[0].cites


def test_going_out_with_a_discard_and_scoring():
    # definicoes.batida-indireta; valor.1 (100); 22 (red three +100 with a real); 25 / valor.15 (500);
    # 21 (a partner who melded nothing pays 100, opponents likewise).
    states, verdicts = play(N(hands={"N": "Kc", "E": 15, "S": 15, "W": 15},
                              players={"N": {"melded": True}},
                              teams={"NS": {"opened": True, "red_threes": ["3h"], "melds": [
                                  {"kind": "sequence", "cards": "4h 5h 6h 7h 8h 9h Th".split()}]}}),
                            {"player": "N", "discard": "Kc"})
    assert verdicts[0].reason == "going-out.with-discard"
    end = states[-1]
    scores = score_hand(CBC, end)
    ns = scores["NS"].terms
    assert ns["table"]["value"] == 50          # 4..7 = 5 x 4, 8..10 = 10 x 3 (valor.10, valor.11)
    assert ns["canastras"]["value"] == 500     # valor.15
    assert ns["red_threes"]["value"] == 100    # 22
    assert ns["going_out"]["value"] == 100     # valor.1
    assert ns["hand"]["value"] == -100         # 21: S melded nothing
    assert scores["NS"].total == 650
    ew = scores["EW"]
    assert ew.terms["hand"]["value"] == -200   # 21: E and W melded nothing
    assert ew.total == -200


def test_33_rounding_of_a_count_ending_in_5():
    # 33: 155 becomes 160.
    states, _ = play(N(hands={"N": "Kc 5d", "E": 0, "S": 0, "W": 0},
                       players={"N": {"melded": True}},
                       teams={"NS": {"opened": True, "melds": [{"kind": "sequence", "cards": "Jh Qh Kh".split()}]}}))
    end = states[-1]
    end.ended = {"reason": "stock-exhausted", "player": None, "concealed": False}
    # table 30, hand -(10 + 5) = -15, S melded nothing: -100 -> 30 - 15 - 100 = -85
    scores = score_hand(CBC, end)
    assert scores["NS"].subtotal == -85
    assert scores["NS"].total == -85          # payment=hand-cards: the -115 paid for the hands is not rounded
    stakes = engine_for("cbc", (("payment", "stakes"),))
    assert score_hand(stakes, end)["NS"].total == -80          # the whole -85 rounded "up"
    away = engine_for("cbc", (("negative-five", "away-from-zero"), ("payment", "stakes")))
    assert score_hand(away, end)["NS"].total == -90


def test_a_suja_made_of_a_real_and_the_joker_can_be_loaded_under_stays_limpa():
    """Under limpa-eighth-card=stays-limpa a real that takes the joker as its
    eighth card is a suja (28: 'a real ... becomes suja'), while the same cards
    grown from a limpa stay a limpa: the kind depends on what the meld was,
    which a state does not record. load_state refused the suja, a position
    reached in play (self-play seeds within five hands)."""
    from canastra_ref.errors import InputError
    stays = engine_for("cbc", (("limpa-eighth-card", "stays-limpa"),))
    run = ["4h", "5h", "6h", "7h", "8h", "9h", "Th", "JK"]

    def loaded(engine, canastra):
        meld = {"kind": "sequence", "cards": run, "canastra": canastra}
        return position(engine, N(teams={"NS": {"melds": [meld]}}))

    assert loaded(stays, "suja").teams["NS"].melds[0].canastra == "suja"
    assert loaded(stays, "limpa").teams["NS"].melds[0].canastra == "limpa"
    assert loaded(stays, None).teams["NS"].melds[0].canastra == "limpa"      # laid at once
    assert loaded(CBC, None).teams["NS"].melds[0].canastra == "suja"         # becomes-suja: limpa is 7 cards
    try:
        loaded(CBC, "limpa")
        raise AssertionError("a limpa of eight cards loaded under becomes-suja")
    except InputError as exc:
        assert exc.json_path == "$.teams.NS.melds[0].canastra" and "this meld is a suja" in exc.message
    try:
        loaded(stays, "real")
        raise AssertionError("a meld with the joker loaded as a real")
    except InputError as exc:
        assert "not a 'real'" in exc.message
