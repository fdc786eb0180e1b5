"""canastra profile: the readings an implementation's behaviour follows,
from the cases that tell the readings of a dispute apart (tests/data/readings/,
against the engines of tests/data/impls/follows_readings.py)."""
from __future__ import annotations

import json

import pytest
from test_conformance_readings import FIXTURES, follows

from canastra_cli.cli import main
from canastra_conformance.readings import WHOLE, overlaps

ENGINE = {"cbc": {"aces-suit": "same-suit", "three-points": "five"}}


def card(tmp_path, impl, *args):
    out = tmp_path / f"card-{len(list(tmp_path.iterdir()))}.json"
    assert main(["profile", "--fixtures", str(FIXTURES), "--impl", impl, "--format", "json", "--output", str(out),
                 *args]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_readings_an_engine_follows(tmp_path):
    data = card(tmp_path, follows(ENGINE, "--declare-json", json.dumps({"cbc": {"three-points": "zero"}})))
    assert data["format"] == "canastra-profile" and data["implementation"]["name"] == "follows-readings"
    cbc = data["rulesets"]["cbc"]
    aces = cbc["disputes"]["aces-suit"]
    assert aces["verdict"] == "follows" and aces["reading"] == "same-suit"
    # r-aces-any-suit and r-aces-unnamed tell any-suit apart; r-ace-points-same-suit and r-kings-no-set
    # hold under both readings and are no evidence, whatever they name
    assert {r: (c["evidence"], c["passed"], c["failed"], c["agree"]) for r, c in aces["readings"].items()} == \
        {"any-suit": (2, 0, 2, 0), "same-suit": (1, 1, 0, 1)}
    # the engine answers the any-suit cases as same-suit rules them: both support same-suit
    assert aces["readings"]["any-suit"]["other_way_ids"] == ["r-aces-any-suit", "r-aces-unnamed"]
    assert (aces["readings"]["same-suit"]["support"], aces["readings"]["any-suit"]["support"]) == (3, 0)
    assert aces["declared"] is None and aces["declaration"] is None
    threes = cbc["disputes"]["three-points"]
    assert (threes["verdict"], threes["reading"], threes["declared"], threes["declaration"]) == \
        ("follows", "five", "zero", "broken")
    assert cbc["disputes"]["payment"]["verdict"] == "untested"
    assert cbc["profile"]["aces-suit"] == "same-suit" and cbc["profile"]["three-points"] == "five"
    assert cbc["profile"]["payment"] == "hand-cards"                  # untested: the default
    under = cbc["under"]
    assert (under["profile"]["passed"], under["profile"]["graded"], under["profile"]["other_reading"]) == (4, 4, 3)
    assert (under["default"]["passed"], under["default"]["graded"]) == (2, 5)
    assert sorted(under["default"]["failing"]) == ["r-aces-any-suit", "r-aces-unnamed", "r-three-zero"]
    assert (under["declared"]["passed"], under["declared"]["graded"]) == (3, 6)
    assert data["closest"] == {"ruleset": "cbc", "profile": cbc["profile"], "graded": 4, "passed": 4, "rate": 1.0}


def test_a_case_failing_away_from_the_disputed_values_still_agrees(tmp_path):
    """The any-suit engine answers r-aces-any-suit with a wrong canastra: the
    case fails, but at result.canastra, which same-suit would not change."""
    patch = {"r-aces-any-suit": {"canastra": "limpa"}}
    data = card(tmp_path, follows({}, "--patch", json.dumps(patch)))
    aces = data["rulesets"]["cbc"]["disputes"]["aces-suit"]
    cell = aces["readings"]["any-suit"]
    assert (cell["passed"], cell["failed"], cell["agree"]) == (1, 1, 2)
    assert aces["verdict"] == "mixed"              # it honours the message's reading, as the reference does


def patched(tmp_path, answer):
    return card(tmp_path, follows({}, "--patch", json.dumps({i: answer for i in
                                                              ("r-aces-any-suit", "r-aces-same-suit",
                                                               "r-aces-unnamed")})))["rulesets"]["cbc"]


def test_the_answer_is_read_at_the_disputed_values(tmp_path):
    """An engine that refuses every set of aces, naming a reason of its own: it
    fails every case, but refuses mixed suits, as same-suit does."""
    cbc = patched(tmp_path, {"meld": None, "reason": "meld.rank-not-allowed"})
    aces = cbc["disputes"]["aces-suit"]
    assert (aces["verdict"], aces["reading"]) == ("follows", "same-suit")
    assert aces["readings"]["same-suit"]["failed"] == 1 and aces["readings"]["same-suit"]["agree"] == 1


def test_an_engine_that_follows_neither_reading(tmp_path):
    cbc = patched(tmp_path, {"meld": "wilds", "reason": "meld.no-kind"})
    aces = cbc["disputes"]["aces-suit"]
    assert aces["verdict"] == "neither" and all(c["support"] == 0 for c in aces["readings"].values())
    assert cbc["profile"]["aces-suit"] == "any-suit"     # neither: the default


def test_the_text_card_and_a_saved_report(tmp_path, capsys):
    raw = tmp_path / "raw.json"
    impl = follows(ENGINE, "--declare-json", json.dumps({"cbc": {"three-points": "zero"}}))
    assert main(["profile", "--fixtures", str(FIXTURES), "--impl", impl, "--save-report", str(raw)]) == 0
    live = capsys.readouterr().out
    assert "closest ruleset: cbc, 4/4 (100%) under three-points=five, aces-suit=same-suit" in live
    assert "cbc: 4/4 (100%) under its best readings, 2/5 (40%) under the default ones, 3/6 (50%) under the " \
           "declared ones" in live
    assert "  three-points  follows five       zero 0/1   five 1/1 +1   declared zero (broken: follows five)" in live
    (untested,) = [line for line in live.splitlines() if line.startswith("  untested, no evidence case graded: ")]
    assert "opening-points, wilds-per-meld," in untested
    assert main(["profile", "--fixtures", str(FIXTURES), "--report", str(raw)]) == 0
    assert capsys.readouterr().out == live
    assert main(["profile", "--fixtures", str(FIXTURES), "--report", str(raw), "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert "| three-points | follows five | zero 0/1, five 1/1 +1 | zero (broken: follows five) |" in md


def test_a_report_judged_by_the_declared_readings_is_flagged(tmp_path, capsys):
    judged = tmp_path / "judged.json"
    main(["conformance", "--fixtures", str(FIXTURES), "--impl", follows(ENGINE, "--declare"), "--format", "json",
          "--output", str(judged)])
    capsys.readouterr()
    assert main(["profile", "--fixtures", str(FIXTURES), "--report", str(judged)]) == 0
    err = capsys.readouterr().err
    assert "its 3 other-reading cases were never sent and say nothing (run with --every-reading)" in err


def test_report_takes_no_impl(tmp_path, capsys):
    assert main(["profile", "--report", "x.json", "--impl", "python x.py"]) == 2
    assert "--report reads a saved run" in capsys.readouterr().err


@pytest.mark.parametrize("path,others,expected", [
    ("results[1].state.teams.NS.melds", ["results[1].state.teams.NS.melds[0].cards[2]"], True),
    ("results[1].state.teams.NS.melds[0].cards[2]", ["results[1].state.teams.NS.melds"], True),
    ("results[1].state.teams.NS.melds", ["results[1].state.teams.NS.meldsX"], False),
    ("result.meld", ["result.reason"], False),
    ("result.meld", [WHOLE], True),
])
def test_overlaps(path, others, expected):
    assert overlaps(path, others) is expected


@pytest.mark.parametrize("option", ["--output", "--save-report"])
def test_outputs_are_checked_before_the_run(tmp_path, capsys, monkeypatch, option):
    """An output that cannot be written is said before every case of every reading is run, not after."""
    import canastra_cli.profile as command
    monkeypatch.setattr(command, "run_fixtures", lambda *a, **k: pytest.fail("the run started"))
    assert main(["profile", option, str(tmp_path)]) == 2
    assert f"{option} {tmp_path}: is a directory" in capsys.readouterr().err
    assert main(["profile", option, str(tmp_path / "no" / "card.txt")]) == 2
    assert f"no directory {tmp_path / 'no'}" in capsys.readouterr().err
