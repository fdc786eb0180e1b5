"""The rulesets' key settings decided from game facts, each expected value
taken from the article it cites (ituiutaba, treze, classica, uruguaya and
their variants)."""
from __future__ import annotations

import pytest

from canastra_ref.dsl.loader import load


class Facts:
    def __init__(self, **values):
        self.values = values

    def fact(self, name):
        return self.values[name]


def decide(ruleset, path, readings=None, **facts):
    return load(ruleset, readings).decide(path, Facts(**facts))


# ------------------------------------------------------------------ ituiutaba

@pytest.mark.parametrize("threes, re", [(0, 300), (1, 400), (2, 500), (3, 600), (4, 800)])
def test_ituiutaba_re_for_a_team_of_two(threes, re):
    # 11.4: no red three, 300; 11.5: one, 400; 11.6: two, 500; 11.7: three, 600;
    # 11.8: four, 800 -- charged to the team without a canastra when the other goes out (11.1)
    caught = {"opponents.went_out": True, "team.canastras": 0, "team.size": 2, "team.red_threes": threes}
    for reading in ("per-player", "printed"):
        decision = decide("ituiutaba", "score.re", {"re-per-player": reading}, **caught)
        assert decision.value == -re
        assert {"11.1", "11.2"} <= set(decision.cites)


def test_ituiutaba_re_applies_only_to_a_team_without_a_canastra():
    # 11.1: ré only when the other team goes out while this one has no canastra
    with_canastra = decide("ituiutaba", "score.re", **{"opponents.went_out": True, "team.canastras": 1,
                                                        "team.size": 2, "team.red_threes": 0})
    no_one_out = decide("ituiutaba", "score.re", **{"opponents.went_out": False, "team.canastras": 0,
                                                     "team.size": 2, "team.red_threes": 0})
    assert with_canastra.value == 0 and with_canastra.clause is None
    assert no_one_out.value == 0 and no_one_out.clause is None


@pytest.mark.parametrize("threes", range(5))
def test_ituiutaba_2p_re_per_player(threes):
    # 11.4 and 11.8 reckon the ré as 150 per player for his hand plus the red threes
    # (8.1: 100 each; 8.2: four are 500): one player pays 150 + that; the printed
    # totals (300 .. 800) under re-per-player=printed
    facts = {"opponents.went_out": True, "team.canastras": 0, "team.size": 1, "team.red_threes": threes}
    per_player = decide("ituiutaba-2p", "score.re", **facts).value
    printed = decide("ituiutaba-2p", "score.re", {"re-per-player": "printed"}, **facts).value
    assert per_player == -(150 + [0, 100, 200, 300, 500][threes])
    assert printed == -[300, 400, 500, 600, 800][threes]


def test_ituiutaba_2p_is_two_single_players():
    rules = load("ituiutaba-2p")
    assert (rules.value("table.players"), rules.value("table.team_size")) == (2, 1)     # 1.2
    assert rules.value("deal.cards") == 15                                              # 1.10
    assert rules.decide("table.players").cites == ("1.2",)


def test_ituiutaba_going_out_needs_a_limpa():
    # 12.6: going out only once a canastra limpa is formed; 12.5: never on a wild canastra
    def allowed(readings=None, **counts):
        facts = {"team.canastras.limpa": 0, "team.canastras.suja": 0, **counts}
        return decide("ituiutaba", "going_out.allowed", readings, **facts).value
    assert allowed(**{"team.canastras.limpa": 1}) is True
    assert allowed(**{"team.canastras.suja": 1}) is False
    assert allowed({"going-out-canastra": "any"}, **{"team.canastras.suja": 1}) is True


def test_ituiutaba_canastra_kinds():
    rules = load("ituiutaba")
    def kind(**meld):
        facts = {"meld.jokers": 0, "meld.twos": 0, "meld.kind": "sequence", **meld}
        for name in rules.canastra_kinds:
            if rules.value(f"canastra.{name}.match", Facts(**facts)):
                return name, rules.value(f"canastra.{name}.value", Facts(**facts))
        return None
    assert kind(**{"meld.size": 7}) == ("limpa", 500)                                   # 4.2
    assert kind(**{"meld.size": 7, "meld.jokers": 1}) == ("limpa", 500)                 # 4.3
    assert kind(**{"meld.size": 8, "meld.twos": 1}) == ("suja", 300)                    # 4.4, 9.6
    assert kind(**{"meld.size": 7, "meld.kind": "wilds", "meld.twos": 5, "meld.jokers": 2}) == ("curingas", 1000)  # 4.5
    assert kind(**{"meld.size": 6}) is None                                             # 3


def test_ituiutaba_red_threes_and_opening():
    # 8.1: 100 each with a canastra; 8.2: all four 500
    red = [decide("ituiutaba", "score.red_threes", **{"team.red_threes": n, "team.canastras": 1}).value
           for n in range(5)]
    assert red == [0, 100, 200, 300, 500]
    # 9.3: 80 until vulnerable; 9.5: 120 from 2,500; 9.14: a whole canastra may be laid at once
    def minimum(score, limpas=0):
        return decide("ituiutaba", "opening.minimum", **{"team.score": score, "batch.canastras.limpa": limpas,
                                                          "batch.canastras.suja": 0}).value
    assert (minimum(2495), minimum(2500), minimum(3000, limpas=1)) == (80, 120, 0)
    # 10.3: 80 -> 120, 120 -> 150 when vulnerable, 150 -> 180
    ladder = load("ituiutaba").value("opening.ladder")
    assert (ladder.after(80, 1), ladder.after(120, 1), ladder.after(150, 1)) == (120, 150, 180)


# ---------------------------------------------------------------------- treze

@pytest.mark.parametrize("size, value", [(7, 200), (8, 300), (9, 400), (11, 600)])
def test_treze_limpa_grows_by_100_per_card_beyond_seven(size, value):
    # valor.12: a canastra limpa is worth 200, each card placed beyond seven adds 100
    facts = Facts(**{"meld.size": size, "meld.twos": 0})
    rules = load("treze")
    assert rules.value("canastra.limpa.match", facts) is True
    assert rules.value("canastra.limpa.value", facts) == value


@pytest.mark.parametrize("size", [7, 9, 11])
def test_treze_suja_is_100_whatever_its_size(size):
    # regras.15: a two makes it suja; valor.13: 100 however many cards
    facts = Facts(**{"meld.size": size, "meld.twos": 1})
    rules = load("treze")
    assert rules.value("canastra.limpa.match", facts) is False
    assert rules.value("canastra.suja.value", facts) == 100


def test_treze_black_threes_left_in_hand():
    # regras.17: each counts 100 for the other team; valor.4 (reading against-holder): minus 100
    facts = {"team.black_threes_in_hand": 1, "opponents.black_threes_in_hand": 2}
    assert decide("treze", "score.black_threes", **facts).value == 200
    assert decide("treze", "score.black_threes", {"black-three-scoring": "against-holder"}, **facts).value == -100


def test_treze_hand_cards_go_to_the_opponents():
    # regras.14: cards left in a hand count as plus points for the opponents
    decision = decide("treze", "score.opponents_hands", **{"opponents.hand_points": 85})
    assert decision.value == 85 and "regras.14" in decision.cites


def test_treze_red_threes_need_a_canastra():
    # regras.16: 100 each once the team has a canastra; valor.3 (reading plus): 100 in any case
    assert decide("treze", "score.red_threes", **{"team.red_threes": 2, "team.canastras": 1}).value == 200
    assert decide("treze", "score.red_threes", **{"team.red_threes": 2, "team.canastras": 0}).value == 0
    assert decide("treze", "score.red_threes", {"red-three-before-canastra": "plus"},
                  **{"team.red_threes": 2, "team.canastras": 0}).value == 200


def test_treze_set_ranks_and_opening():
    # regras.8: sets of 4, A and K before the team's first canastra, of the other ranks too after it
    assert set(decide("treze", "meld.set.ranks", **{"team.canastras": 0}).value) == {"4", "K", "A"}
    assert len(decide("treze", "meld.set.ranks", **{"team.canastras": 1}).value) == 11          # 4 .. A
    assert decide("treze", "meld.set.ranks", {"set-ranks": "aces-only"}, **{"team.canastras": 0}).value == ("A",)
    # regras.18: no opening duty below 2,000, then 150; valor.14: 180 after a failure, +30 each further one
    assert decide("treze", "opening.minimum", **{"team.score": 1995}).value == 0
    assert decide("treze", "opening.minimum", **{"team.score": 2000}).value == 150
    ladder = load("treze").value("opening.ladder")
    assert [ladder.after(150, n) for n in range(4)] == [150, 180, 210, 240]
    # regras.18's 'rodada' is a round of turns under the default reading: the error counts from
    # the failing player's next turn, and he is not barred
    assert load("treze").value("opening.penalty_applies") == "next-round"
    assert load("treze", {"failed-opening": "next-hand"}).value("opening.penalty_applies") == "next-hand"


# ------------------------------------------------------------------- classica

def _pile(**facts):
    return {"team.opened": True, "pile.contains.wild": False, "pile.contains.red_three": False, **facts}


@pytest.mark.parametrize("facts, frozen", [
    (_pile(**{"team.opened": False}), True),           # pegar-o-lixo.9: until the team's first meld
    (_pile(**{"pile.contains.wild": True}), True),     # pegar-o-lixo.10: a wild card in the pile
    (_pile(**{"pile.contains.red_three": True}), True),  # pegar-o-lixo.10, distribuicao.4: a red three
    (_pile(), False),
])
def test_classica_frozen_pile_needs_a_natural_pair(facts, frozen):
    # pegar-o-lixo.7: a frozen pile only with two naturals of the top card's rank;
    # pegar-o-lixo.5, .6: otherwise one natural and a wild, or onto a team meld
    naturals = decide("classica", "pile.take.min_naturals", **facts)
    onto = decide("classica", "pile.take.onto_meld", **facts)
    assert naturals.value == (2 if frozen else 1)
    assert onto.value is (not frozen)
    assert "pegar-o-lixo.9" in naturals.cites or not frozen


def test_classica_red_three_freezes_only_under_the_default_reading():
    # pegar-o-lixo.3 names only wild cards; red-three-freezes=wilds-only reads it so
    facts = _pile(**{"pile.contains.red_three": True})
    assert decide("classica", "pile.take.min_naturals", {"red-three-freezes": "wilds-only"}, **facts).value == 1


@pytest.mark.parametrize("score, minimum", [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120)])
def test_classica_opening_minimum_is_the_standard_table(score, minimum):
    # o-primeiro-jogo-da-dupla.2 announces a table by score it never gives; dispute
    # minimum-table takes the classic canasta table (Hoyle, pagat.com)
    assert decide("classica", "opening.minimum", **{"team.score": score}).value == minimum


def test_classica_canastras_to_go_out_by_seating():
    def allowed(ruleset, canastras, team, opponents, readings=None):
        return decide(ruleset, "going_out.allowed", readings, **{"team.canastras": canastras, "team.size": team,
                                                                  "opponents.size": opponents}).value
    assert allowed("classica", 1, 2, 2) is True                                   # bater.2
    assert allowed("classica-2p", 1, 1, 1) is False                               # canastra-para-...1: two
    assert allowed("classica-2p", 2, 1, 1) is True
    assert allowed("classica-3p", 1, 1, 2) is True                                # ...2: as written
    assert allowed("classica-3p", 1, 1, 2, {"three-player": "like-two-players"}) is False
    assert allowed("classica-6p", 1, 3, 3) is True                                # ...3: unchanged


def test_classica_variants_set_the_table():
    two, three, six = load("classica-2p"), load("classica-3p"), load("classica-6p")
    assert (two.value("deal.cards"), two.value("draw.cards")) == (15, 2)           # canastra-para-...1
    assert (three.value("table.players"), three.value("deal.cards")) == (3, 13)   # ...2
    assert (six.value("deck.decks"), six.value("deck.jokers"), six.value("deck.size")) == (3, 6, 162)  # ...3
    assert (six.value("table.players"), six.value("table.team_size")) == (6, 3)


@pytest.mark.parametrize("threes, four_or_more, all_six", [(4, 800, 400), (5, 900, 500), (6, 1000, 1200)])
def test_classica_6p_red_threes(threes, four_or_more, all_six):
    # tres-vermelhos-e-tres-pretos.3: 100 each, all four with one team 800; three decks hold six
    facts = {"team.red_threes": threes, "team.melds": 1, "team.size": 3}
    assert decide("classica-6p", "score.red_threes", **facts).value == four_or_more
    assert decide("classica-6p", "score.red_threes", {"six-red-threes": "all-six"}, **facts).value == all_six


def test_classica_red_threes_count_against_a_team_that_laid_nothing():
    # tres-vermelhos-e-tres-pretos.3: 100 each, four 800; .4: subtracted if the team laid nothing down
    def red_threes(count, melds):
        return decide("classica", "score.red_threes",
                      **{"team.red_threes": count, "team.melds": melds, "team.size": 2}).value
    assert red_threes(4, 2) == 800
    assert red_threes(1, 0) == -100


def test_classica_concealed_going_out():
    # bater.4: 100; bater.5: 200 for going out in one turn with a complete canastra: under the default
    # reading of direct-canastra (own-meld) one of the melds the player laid in that turn, under
    # any-formed any canastra completed in it (her partner's meld included)
    def bonus(concealed, own, formed, readings=None):
        return decide("classica", "score.going_out", readings, **{
            "team.went_out": True, "team.went_out_concealed": concealed, "team.went_out_took_pile": False,
            "team.went_out_concealed_own_canastras": own, "team.went_out_concealed_canastras": formed}).value
    assert (bonus(False, 0, 0), bonus(True, 1, 1), bonus(True, 0, 0), bonus(True, 0, 1)) == (100, 200, 100, 100)
    any_formed = {"direct-canastra": "any-formed"}
    assert (bonus(True, 0, 1, any_formed), bonus(True, 0, 0, any_formed)) == (200, 100)


# ------------------------------------------------------------------- uruguaya

def test_uruguaya_table_cards_count_only_with_a_canastra():
    # pontuacao.3: a team with at least one canastra adds the value of its cards on the table
    assert decide("uruguaya", "score.table", **{"team.canastras": 1, "team.table_points": 140}).value == 140
    # a team without one: nothing under the default reading not-counted, minus under subtracted
    without = decide("uruguaya", "score.table", **{"team.canastras": 0, "team.table_points": 140})
    assert without.value == 0 and without.cites == ("pontuacao.3",)
    subtracted = decide("uruguaya", "score.table", {"table-without-canastra": "subtracted"},
                        **{"team.canastras": 0, "team.table_points": 140})
    assert subtracted.value == -140


def test_uruguaya_red_threes_sign():
    # pontuacao.14: 100 each, 400 more for all four; .15 plus with a canastra; .16 minus without
    assert decide("uruguaya", "score.red_threes", **{"team.red_threes": 4, "team.canastras": 1}).value == 800
    assert decide("uruguaya", "score.red_threes", **{"team.red_threes": 2, "team.canastras": 0}).value == -200


def test_uruguaya_deck_104_or_108():
    # descricao.1: "104 cards", two decks of 52 "plus 4 jokers"
    default, literal = load("uruguaya"), load("uruguaya", {"deck-size": "cards-104"})
    assert (default.value("deck.jokers"), default.value("wild.cards")) == (4, ("JK", "2"))
    assert (literal.value("deck.jokers"), literal.value("deck.size"), literal.value("wild.cards")) == (0, 104, ("2",))


def test_uruguaya_going_out_direct_waives_the_minimum_unless_the_pile_was_taken():
    # bater-direto.2: the minimum may be ignored; bater-direto.3: not after taking the pile
    facts = {"team.score": 2000, "turn.going_out": True, "player.melded": False, "batch.canastras": 1}
    assert decide("uruguaya", "opening.minimum", **facts, **{"turn.took_pile": False}).value == 0
    assert decide("uruguaya", "opening.minimum", **facts, **{"turn.took_pile": True}).value == 90
    # frente-inicial.1: the minimum is reached in one meld, by default
    assert load("uruguaya").value("opening.single_meld", Facts()) is True


def test_uruguaya_locked_pile():
    # lixeira-trancada.1: locked for a team until its initial meld, for both after a wild or black three
    def naturals(readings=None, **facts):
        base = {"team.opened": True, "pile.contains.wild": False, "pile.contains.black_three": False, **facts}
        return decide("uruguaya", "pile.take.min_naturals", readings, **base).value
    assert naturals(**{"pile.contains.black_three": True}) == 2
    assert naturals(**{"team.opened": False}) == 2
    assert naturals() == 1
    closed = decide("uruguaya", "pile.blocked", {"trancada-meaning": "closed"},
                    **{"team.opened": False, "pile.top.wild": False, "pile.top.black_three": False})
    assert closed.value is True
    # lock-duration: a wild card discarded and then covered locks the pile while it lies in it
    # (in-pile, the default), or no longer once covered (on-top)
    covered = {"team.opened": True, "pile.contains.wild": True, "pile.contains.black_three": False,
               "pile.top.wild": False, "pile.top.black_three": False}
    assert naturals(**covered) == 2
    assert naturals({"lock-duration": "on-top"}, **covered) == 1
    for duration, blocked in (("in-pile", True), ("on-top", False)):
        readings = {"trancada-meaning": "closed", "lock-duration": duration}
        assert decide("uruguaya", "pile.blocked", readings, **covered).value is blocked
