"""canastra profile: the readings an implementation's behaviour follows,
from the cases that tell the readings of a dispute apart (tests/data/readings/,
against the engines of tests/data/impls/follows_readings.py)."""
from __future__ import annotations

import json
import shutil

import pytest
from test_conformance_readings import FIXTURES, follows

from canastra_cli.cli import main
from canastra_conformance.fixtures import FIXTURES_DIR
from canastra_conformance.readings import WHOLE, bears, moot_under, overlaps

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


def test_a_dispute_bears_only_where_its_settings_are_read():
    """casa's restart-first-card gives opening.restart_first_card, read only where
    opening.failure_restarts_turn may be yes, which failed-opening=discard makes no;
    frozen-hand's pile.frozen_hand_refused is read only where pile.discard_from_pile
    may be no, which only pile-cards-discard=barred makes it."""
    assert bears("casa", "restart-first-card", {}) and not bears("casa", "restart-first-card",
                                                                 {"failed-opening": "discard"})
    assert not bears("casa", "frozen-hand", {}) and bears("casa", "frozen-hand", {"pile-cards-discard": "barred"})
    chosen = {"failed-opening": "discard", "aces-with-two": "aces", "pile-cards-discard": "allowed"}
    assert moot_under("casa", "restart-first-card", chosen) == {"failed-opening": "discard"}
    assert moot_under("casa", "frozen-hand", chosen) == {"pile-cards-discard": "allowed"}
    assert moot_under("casa", "failed-opening", chosen) is None
    assert bears("cbc", "aces-suit", {"joker-moves": "fixed"})     # meld.aces.suits: always read
    assert moot_under("cbc", "free-two", {"joker-moves": "fixed"}) == {"joker-moves": "fixed"}


def test_readings_that_do_not_build_together_leave_a_dispute_bearing(monkeypatch):
    from canastra_conformance import readings
    from canastra_ref.errors import ErrorList

    def refuse(*args, **kwargs):
        raise ErrorList([])
    monkeypatch.setattr(readings, "load", refuse)
    assert bears("casa", "restart-first-card", {"failed-opening": "discard"})


def test_a_dispute_that_bears_only_under_a_reading_not_followed_is_inapplicable(tmp_path, capsys):
    """An engine that never restarts a failed opening (failed-opening=discard):
    restart-first-card, which only a restarted turn reaches, is not applicable
    to it, whatever its answers to that dispute's cases (all written under
    failed-opening=restart), and its declared reading of it is not shown;
    likewise frozen-hand, reached only under pile-cards-discard=barred, for an
    engine that lets the cards be discarded."""
    (tmp_path / "fixtures" / "casa").mkdir(parents=True)
    for name in ("04-pegar-o-lixo.yaml", "05-abertura.yaml"):
        shutil.copy(FIXTURES_DIR / "casa" / name, tmp_path / "fixtures" / "casa" / name)
    engine = {"casa": {"failed-opening": "discard", "restart-first-card": "stays", "pile-cards-discard": "allowed"}}
    impl = follows(engine, "--declare-json", json.dumps({"casa": {"restart-first-card": "stays"}}))
    raw = tmp_path / "raw.json"
    assert main(["profile", "--fixtures", str(tmp_path / "fixtures"), "--impl", impl, "--save-report", str(raw),
                 "--format", "json", "--output", str(tmp_path / "card.json")]) == 0
    casa = json.loads((tmp_path / "card.json").read_text(encoding="utf-8"))["rulesets"]["casa"]
    assert casa["disputes"]["failed-opening"]["verdict"] == "follows"
    restart = casa["disputes"]["restart-first-card"]
    assert (restart["verdict"], restart["reading"], restart["inapplicable_under"], restart["declaration"]) == \
        ("inapplicable", None, {"failed-opening": "discard"}, "unknown")
    assert casa["profile"]["restart-first-card"] == "stays"          # the declared reading, as for untested
    frozen = casa["disputes"]["frozen-hand"]
    assert (frozen["verdict"], frozen["inapplicable_under"]) == ("inapplicable", {"pile-cards-discard": "allowed"})
    assert casa["disputes"]["aces-with-two"]["inapplicable_under"] is None
    capsys.readouterr()
    assert main(["profile", "--fixtures", str(tmp_path / "fixtures"), "--report", str(raw)]) == 0
    text = capsys.readouterr().out
    (line,) = [line for line in text.splitlines() if line.startswith("  restart-first-card ")]
    assert "not applicable under failed-opening=discard" in line
    assert line.endswith("declared stays (not applicable under failed-opening=discard)")
    assert main(["profile", "--fixtures", str(tmp_path / "fixtures"), "--report", str(raw), "--format", "md"]) == 0
    assert "| frozen-hand | not applicable under pile-cards-discard=allowed |" in capsys.readouterr().out


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


def test_a_dispute_that_bears_on_nothing_is_never_read():
    """What `bears` relies on, checked on the whole suite as the engine plays it:
    a case run under readings under which a dispute bears on nothing (bears, from
    the settings' read_when) reads none of the settings that dispute's readings give."""
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.grading import message_for
    from canastra_conformance.mutation import baseline
    from canastra_conformance.readings import effective
    from canastra_ref.dsl.loader import load

    cases = load_all()
    reads = baseline(cases, {c.id: message_for(c) for c in cases}).reads
    moot = set()
    for case in cases:
        spec = load(case.ruleset)
        chosen = effective(case)
        for name in spec.disputes:
            if not bears(case.ruleset, name, chosen):
                moot.add((case.ruleset, name))
                given = {c.setting for c in spec.all_clauses if any(d == name for d, _ in c.readings)}
                assert not given & reads[case.id], (case.id, name)
    assert {("casa", "restart-first-card"), ("casa", "frozen-hand"), ("cbc", "free-two")} <= moot
