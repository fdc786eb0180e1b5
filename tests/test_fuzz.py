"""canastra fuzz: the comparison of two answers, the campaign through the
protocol (the reference against itself finds nothing; a planted defect is
found and shrunk to the minimal fixture it calls for; skipped and errored
answers are narrowed down to the action at fault), the command line."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from canastra_cli.cli import main
from canastra_conformance.fixtures import load_file
from canastra_conformance.grading import FAILED, PASSED
from canastra_conformance.inprocess import run_case
from canastra_conformance.runner import Runner, reference_command
from canastra_ref.dsl.loader import available
from canastra_ref.engine.rules import engine_for
from canastra_tools.fuzz import Campaign, Settings, fuzz
from canastra_tools.fuzz_compare import SCORE, STATE, VERDICT, compare
from canastra_tools.fuzz_shrink import Shrinker

IMPLS = Path(__file__).resolve().parent / "data" / "impls"


def impl(name: str, *args: str) -> list[str]:
    return [sys.executable, str(IMPLS / f"{name}.py"), *args]


def _tally(settings: Settings, *args: str):
    """A campaign's tally against the test implementation `args` names."""
    runner = Runner(impl(*args))
    try:
        return Campaign(runner, settings).run()
    finally:
        runner.close()


# ------------------------------------------------------------------ comparing two results

def result(**state) -> dict:
    base = {"dealer": "W", "turn": {"player": "N", "phase": "play", "drawn": ["4c"]},
            "hands": {"N": ["4c", "5c"], "E": ["9h"]}, "stock": ["7d", "8d"], "pile": ["Kh"], "aside": [],
            "teams": {"NS": {"score": 0, "opened": True, "melds": [{"kind": "set", "cards": ["8c", "8d", "JK"],
                                                                     "canastra": None}], "red_threes": []},
                      "EW": {"score": 0, "opened": False, "melds": [], "red_threes": []}},
            "started": True, "ended": None}
    base.update(state)
    return {"verdict": "accepted", "reason": "draw.stock", "cites": ["4"], "state": base}


def test_equal_results_agree():
    assert compare(result(), result(), "results[0]") == (None, [])


def test_a_different_verdict_comes_first():
    got = {**result(), "verdict": "rejected", "reason": "turn.already-drew"}
    got["state"] = {**got["state"], "pile": []}
    kind, mismatches = compare(result(), got, "results[0]")
    assert kind == VERDICT
    assert [m.path for m in mismatches] == ["results[0].verdict", "results[0].state.pile"]


def test_hands_are_multisets_and_set_melds_unordered_but_the_stock_is_ordered():
    ref = result()
    got = result(hands={"N": ["5c", "4c"], "E": ["9h"]})
    got["state"]["teams"]["NS"]["melds"][0]["cards"] = ["JK", "8d", "8c"]
    assert compare(ref, got, "results[0]", unordered=frozenset({"set"}))[0] is None
    assert compare(ref, got, "results[0]")[0] == STATE                     # a sequence's order matters
    assert compare(ref, result(stock=["8d", "7d"]), "results[0]")[0] == STATE


def test_only_the_fields_reported_and_supported_are_compared():
    got = result(hands={"N": ["4c", "9c"], "E": ["9h"]})
    del got["state"]["teams"], got["state"]["dealer"]
    got["state"]["turn"] = {"player": "N", "phase": "play", "drawn": []}      # drawn: the reference's record
    assert compare(result(), got, "results[0]")[1][0].path == "results[0].state.hands.N"
    assert compare(result(), got, "results[0]", ["results[*].state.hands"]) == (None, [])


def test_the_player_to_move_is_not_compared_once_the_hand_is_over():
    over = {"player": "W", "phase": "over"}
    assert compare(result(turn=over), result(turn={**over, "player": "N"}), "results[0]") == (None, [])
    kind, mismatches = compare(result(turn=over), result(turn={"player": "N", "phase": "play"}), "results[0]")
    assert kind == STATE and [m.path for m in mismatches] == ["results[0].state.turn.phase"]
    kind, mismatches = compare(result(), result(turn={"player": "E", "phase": "play"}), "results[0]")
    assert [m.path for m in mismatches] == ["results[0].state.turn.player"]


def test_a_missing_or_different_score_is_a_score_difference():
    ref = {**result(), "score": {"NS": {"terms": {"table": {"value": 100}, "hand": {"value": 0}}, "total": 100,
                                        "score_before": 0, "score_after": 100}}}
    assert compare(ref, result(), "results[0]")[0] == SCORE
    got = {**result(), "score": {"NS": {"terms": {"table": {"value": 100}}, "total": 100, "score_after": 100}}}
    assert compare(ref, got, "results[0]")[0] is None                     # a term not listed counts 0
    got["score"]["NS"]["terms"]["table"] = {"value": 90}
    kind, mismatches = compare(ref, got, "results[0]")
    assert kind == SCORE and [m.path for m in mismatches] == ["results[0].score.NS.terms.table"]
    assert compare(ref, got, "results[0]", ["results[*].score.*.terms"])[0] is None


def test_reasons_are_compared_only_when_asked():
    got = {**result(), "reason": "draw.other"}
    assert compare(result(), got, "results[0]")[0] is None
    assert compare(result(), got, "results[0]", reasons=True)[0] == "reason"


# ------------------------------------------------------------------ campaigns

@pytest.fixture(scope="module")
def reference():
    runner = Runner(reference_command())
    yield runner
    runner.close()


def test_the_reference_against_itself_finds_nothing(reference):
    for ruleset in available():
        tally = Campaign(reference, Settings(ruleset, cases=2, seed=11)).run()
        assert tally.hands == 2 and tally.steps > 50 and not tally.faults, ruleset
        assert tally.groups == {} and not tally.skipped and not tally.unsent, ruleset


def test_a_planted_defect_is_found_and_shrunk_to_its_minimal_fixture(tmp_path):
    """The implementation refuses every discard of a King. The smallest case
    that shows it: one action, that discard, by the player whose turn it is, in
    the play phase, holding the King and one other card (with the King alone the
    discard would be a going out, judged otherwise), nothing else on the table
    and nobody else holding cards; the reference accepts it (discard.made)."""
    runner = Runner(impl("refuses_kings"))
    try:
        campaign = Campaign(runner, Settings("classica", cases=6, seed=0))
        tally = campaign.run()
        key = ("discard.made", "", VERDICT)
        assert key in tally.groups and tally.groups[key].count >= 1
        assert all(k[2] == VERDICT for k in tally.groups)
        shrinker = Shrinker(runner, campaign.engine, "classica", campaign.readings)
        shrunk = shrinker.shrink(tally.groups[key].finding)
        case = shrinker.fixture(shrunk, key, ident="fuzz-refuses-kings-discard", implementation="refuses-kings")
        (action,) = case["actions"]
        player = action["player"]
        assert action["discard"][0] == "K"
        assert case["state"]["turn"] == {"player": player, "phase": "play"}
        hands = case["state"]["hands"]
        assert len(hands[player]) == 2 and action["discard"] in hands[player]
        assert all(hands[seat] == 0 for seat in hands if seat != player)
        assert set(case["state"]) == {"turn", "hands"}
        assert case["expect"] == [{"verdict": "accepted", "reason": "discard.made"}]
        # the fixture file: valid, passed by the reference, failed by the implementation
        from canastra_tools.fuzz_report import write_fixture
        header = {"implementation": {"name": "refuses-kings"}, "seed": 0, "jobs": 1}
        path = write_fixture(tmp_path, "classica", case, tally.groups[key], header, shrunk)
        (loaded,) = load_file(path)
        assert "Produced by canastra fuzz" in path.read_text(encoding="utf-8")
        assert run_case(loaded)[1].status == PASSED
        assert runner.run(loaded).grade.status == FAILED
        # a difference no fixture can state (here: none at all) is reported, not written
        from dataclasses import replace

        from canastra_tools.fuzz_shrink import Ungradable
        with pytest.raises(Ungradable, match="the implementation's answer passes"):
            shrinker.fixture(replace(shrunk, answer=shrunk.reference), key, ident="fuzz-no-difference",
                             implementation="refuses-kings")
    finally:
        runner.close()


def test_a_difference_in_a_melds_canastra_kind_alone_keeps_that_kind_in_its_fixture(tmp_path):
    """The implementation names every canastra limpa a suja, its cards, verdicts
    and scores the reference's: a finding whose only difference is a meld's
    canastra kind. Its fixture's expectation states that meld's kind (as the
    reference gives it), so that it fails against the implementation; a
    fixture that stated the meld's cards alone would pass (Ungradable)."""
    from canastra_conformance.grading import message_for
    from canastra_ref import protocol
    from canastra_tools.fuzz import Finding, Group
    from canastra_tools.fuzz_report import write_fixture
    from canastra_tools.fuzz_shrink import Ungradable, _expected_fields

    runner = Runner(impl("renames_limpas"))
    try:
        shrinker = Shrinker(runner, engine_for("casa"), "casa", {})
        actions = [{"player": "N", "layoff": {"meld": 0, "cards": ["Jh"]}}]
        partial = {"turn": {"player": "N", "phase": "play"}, "pile": ["Qc"],
                   "teams": {"NS": {"opened": True, "melds": [
                       {"kind": "sequence", "cards": ["4h", "5h", "6h", "7h", "8h", "9h", "Th"]},
                       {"kind": "sequence", "cards": ["5c", "6c", "7c"]}]}},
                   "hands": {"N": ["Jh", "9c", "Kd"], "E": 15, "S": 15, "W": 15}}
        state = message_for(shrinker.case(partial, actions))["state"]
        (reference,) = protocol.handle({"cmd": "run", "id": "x", "ruleset": "casa", "reading": {},
                                        "state": state, "actions": actions})["results"]
        assert reference["state"]["teams"]["NS"]["melds"][0]["canastra"] == "limpa"
        key = (reference["reason"], reference["cites"][0] if reference["cites"] else "", STATE)
        finding = Finding(key, state, actions, reference, None, "", [], {"seed": 0, "job": 0, "hand": 0, "step": 0})
        shrunk = shrinker.shrink(finding)
        assert shrunk.kind == STATE
        assert all(m.endswith("expected 'limpa', got 'suja'") and ".canastra:" in m for m in shrunk.mismatches)
        case = shrinker.fixture(shrunk, key, ident="fuzz-renames-limpas-layoff", implementation="renames-limpas")
        melds = case["expect"][-1]["state"]["teams"]["NS"]["melds"]
        assert [m.get("canastra") for m in melds] == ["limpa"] + [None] * (len(melds) - 1)
        assert all(set(m) == {"kind", "cards"} for m in melds[1:])
        group = Group(key, 1, finding, [finding.origin])
        path = write_fixture(tmp_path, "casa", case, group, {"implementation": {"name": "renames-limpas"},
                                                            "seed": 0, "jobs": 1}, shrunk)
        (loaded,) = load_file(path)
        assert run_case(loaded)[1].status == PASSED
        assert runner.run(loaded).grade.status == FAILED
        # stating the melds' cards alone, the implementation's answer would pass
        without = [f"{m.split('.canastra:')[0]}.cards: expected" for m in shrunk.mismatches]
        assert "canastra" not in repr(_expected_fields(shrunk.reference["results"][-1], without, 0))
        with pytest.raises(Ungradable):
            from dataclasses import replace
            shrinker.fixture(replace(shrunk, mismatches=without), key, ident="fuzz-kindless",
                             implementation="renames-limpas")
    finally:
        runner.close()


def test_a_melds_canastra_kind_is_expected_only_where_it_differs():
    """A team's melds are expected whole by kind and cards; the canastra kind
    only of the meld whose kind differs, of that team, on that action."""
    from canastra_tools.fuzz_shrink import _expected_fields
    melds = [{"kind": "sequence", "cards": ["4h", "5h", "6h", "7h", "8h", "9h", "Th"], "canastra": "limpa"},
             {"kind": "set", "cards": ["Kc", "Kd", "Ks", "2c", "Kh", "Kh", "Kd"], "canastra": "suja"}]
    last = result(teams={"NS": {"score": 0, "opened": True, "melds": melds, "red_threes": []},
                         "EW": {"score": 0, "opened": True, "melds": melds, "red_threes": []}})
    state, score = _expected_fields(last, ["results[1].state.teams.NS.melds[1].canastra: expected 'suja', got 'x'",
                                           "results[1].state.teams.EW.melds[0].cards: expected [], got []",
                                           "results[0].state.teams.EW.melds[0].canastra: expected 'limpa', got 'x'"],
                                    1)
    strip = [{"kind": m["kind"], "cards": m["cards"]} for m in melds]
    assert state == {"teams": {"NS": {"melds": [strip[0], melds[1]]}, "EW": {"melds": strip}}} and score == {}


def test_a_skipped_action_is_narrowed_down_and_stepped_over():
    tally = _tally(Settings("cbc", cases=3, seed=2), "fuzz_misbehaves", "--skip", "take_pile")
    assert tally.skipped == {"take_pile: not in this engine": tally.skipped.total()} and tally.skipped.total() > 0
    assert tally.groups == {} and tally.steps > 100


def test_an_errored_action_is_a_finding_pinned_to_that_action():
    tally = _tally(Settings("cbc", cases=3, seed=2), "fuzz_misbehaves", "--error", "take_pile")
    assert tally.groups and all(kind == "errored" for _, _, kind in tally.groups)
    for group in tally.groups.values():
        *before, last = group.finding.actions
        assert "take_pile" in last and not any("take_pile" in a for a in before)
        assert group.finding.message == "engine raised on take_pile"


def test_steps_needing_features_it_does_not_declare_are_not_sent():
    # cbc only, without pile takes, red threes, going out, scoring
    tally = _tally(Settings("cbc", cases=2, seed=4), "partial")
    assert tally.groups == {} and tally.steps > 100
    unsent = " ".join(tally.unsent)
    assert "pile-take" in unsent and all(why.startswith("needs features partial does not support")
                                         for why in tally.unsent)


def test_jobs_share_the_work_and_merge_their_findings():
    tally = fuzz(impl("refuses_kings"), Settings("classica", cases=4, seed=0), jobs=2)
    assert tally.hands == 4 and ("discard.made", "", VERDICT) in tally.groups


def test_declared_readings_are_played_and_sent(reference):
    runner = Runner(impl("follows_readings", json.dumps({"cbc": {"aces-suit": "same-suit"}}), "--declare"))
    try:
        campaign = Campaign(runner, Settings("cbc", cases=1, seed=5))
        assert campaign.readings == {"aces-suit": "same-suit"}
        assert campaign.run().groups == {}
        given = Campaign(runner, Settings("cbc", {"aces-suit": "any-suit"}, cases=1))
        assert given.readings == {"aces-suit": "any-suit"}          # the user's choice wins
    finally:
        runner.close()
    assert engine_for("cbc", (("aces-suit", "same-suit"),))


# ------------------------------------------------------------------ the command line

def run_cli(capsys, *args) -> tuple[int, str, str]:
    code = main(["fuzz", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_the_reference_finds_nothing(capsys):
    code, out, _ = run_cli(capsys, "--ruleset", "classica", "--cases", "2", "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["format"] == "canastra-fuzz-report"
    assert report["summary"]["groups"] == 0 and report["rulesets"][0]["hands"] == 2


def test_cli_out_without_differences_still_gets_the_report(capsys, tmp_path):
    out = tmp_path / "campaign"                 # not there yet, and no fixture will make it
    code, _, err = run_cli(capsys, "--ruleset", "treze", "--cases", "1", "--out", str(out), "--json")
    assert code == 0, err
    report = json.loads((out / "fuzz-report.json").read_text(encoding="utf-8"))
    assert report["summary"]["groups"] == 0 and report["rulesets"][0]["ruleset"] == "treze"


def test_cli_writes_the_shrunk_fixtures_and_fails(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "--impl", shlex.join(impl("refuses_kings")), "--ruleset", "classica",
                           "--cases", "4", "--out", str(tmp_path))
    assert code == 1
    assert "discard.made (no article cited); the implementation: rejected (card.not-in-hand)" in out
    report = json.loads((tmp_path / "fuzz-report.json").read_text(encoding="utf-8"))
    for group in report["rulesets"][0]["groups"]:
        (case,) = load_file(Path(group["fixture"]))
        assert case.id == group["case"]["id"] and case.id.startswith("fuzz-refuses-kings-classica-")


def test_cli_a_reference_that_raises_while_shrinking_is_a_fault_and_the_findings_are_kept(capsys, tmp_path,
                                                                                         monkeypatch):
    from canastra_tools import fuzz_shrink

    def raising(message, *args, **kwargs):
        raise ValueError("list.remove(x): x not in list")
    monkeypatch.setattr(fuzz_shrink.protocol, "handle", raising)
    code, out, _ = run_cli(capsys, "--impl", shlex.join(impl("refuses_kings")), "--ruleset", "classica",
                           "--cases", "4", "--out", str(tmp_path))
    assert code == 1
    report = json.loads((tmp_path / "fuzz-report.json").read_text(encoding="utf-8"))
    (ruleset,) = report["rulesets"]
    assert ruleset["groups"] and all(g["fixture"] is None for g in ruleset["groups"])
    assert [f["fault"] for f in ruleset["faults"]] == [
        "the reference raised ValueError (list.remove(x): x not in list) on a table shrunk from the difference "
        f"{g['reason']} ({g['article'] or 'no article cited'})" for g in ruleset["groups"]]
    assert "a fault of the reference: the reference raised ValueError" in out


@pytest.mark.parametrize("args, message", [
    (["--jobs", "0"], "must be at least 1"),
    (["--near-legal", "2"], "between 0 and 1"),
    (["--cases", "3", "--seconds", "4"], "not allowed with"),
])
def test_cli_bad_options(capsys, args, message):
    with pytest.raises(SystemExit) as exc:
        main(["fuzz", *args])
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_cli_rulesets_it_cannot_fuzz(capsys):
    code, _, err = run_cli(capsys, "--ruleset", "nope")
    assert code == 2 and "unknown ruleset 'nope'" in err
    code, _, err = run_cli(capsys, "--impl", shlex.join(impl("partial")), "--ruleset", "treze", "--cases", "1")
    assert code == 2 and "partial does not claim ruleset 'treze'" in err


@pytest.mark.parametrize("refused", ["layoff", "draw", "opened-draw"])
def test_a_shrunk_table_is_one_play_can_reach(refused):
    """A team with melds on the table has opened (the shrinker does not empty
    its record), a team that has opened keeps a meld, and the player whose
    turn it is holds a card (an empty hand has gone out), even when the
    difference would show without."""
    runner = Runner(impl("refuses_kings", refused))
    try:
        campaign = Campaign(runner, Settings("classica", cases=8, seed=0))
        tally = campaign.run()
        shrinker = Shrinker(runner, campaign.engine, "classica", campaign.readings)
        group = max(tally.groups.values(), key=lambda g: g.count)
        shrunk = shrinker.shrink(group.finding)
        state = shrunk.state
        player = state["turn"]["player"]
        assert state["hands"][player], state
        for team in state.get("teams", {}).values():
            if team.get("melds") and not state["turn"].get("melds_laid"):
                assert team.get("opened") is True, state
            if team.get("opened"):
                assert team.get("melds"), state
        if refused == "layoff":
            assert any(t.get("melds") for t in state["teams"].values())
    finally:
        runner.close()


def test_a_set_of_black_threes_needs_a_feature_of_black_threes_as_its_fixtures_do():
    """Every fixture action melding a set of black threes (a scenario's meld
    action, or a meld query) requires a feature of black threes, as the fuzzer
    tags such a step: the fixtures' authors tagged them from the articles. The
    fuzzer's tag is black-three-sets where the ruleset lets black threes be
    melded (classica, going out), black-threes where they are refused
    (meld.threes); classica's fixtures that lay such a meld all require
    black-three-sets."""
    from canastra_conformance import canonical
    from canastra_conformance.fixtures import load_all
    from canastra_tools.fuzz import step_features, three_melds_feature
    checked = set()
    for case in load_all():
        if case.query is not None:
            meld = canonical.query(case.query).get("meld")
            actions = [{"player": "N", "meld": [meld]}] if meld else []
        else:
            actions = [canonical.action(a) for a in case.actions]
        feature = three_melds_feature(engine_for(case.ruleset))
        for action in actions:
            if feature in step_features(action, {"reason": ""}, feature):
                assert {"black-threes", "black-three-sets"} & set(case.requires), f"{case.id}: {action}"
                if case.query is None and feature == "black-three-sets":
                    assert feature in case.requires, case.id
                checked.add((case.ruleset, feature))
    assert {("classica", "black-three-sets"), ("cbc", "black-threes"), ("uruguaya", "black-threes")} <= checked
