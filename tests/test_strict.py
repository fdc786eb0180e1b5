"""`unstated SETTING because "..."` and `canastra check --strict`: every setting
the engine reads while playing a ruleset is stated, decided by a dispute, or
listed unstated with its reason; nothing falls silently to a default."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from canastra_cli.cli import main
from canastra_ref.dsl.build import build
from canastra_ref.dsl.loader import available, check_file
from canastra_ref.dsl.parser import parse_text
from canastra_ref.dsl.strict import read_settings
from canastra_ref.errors import ErrorList
from canastra_ref.paths import SPEC_DIR

# What the minimal test spec leaves to defaults, each a setting the engine reads
# while playing it (its melds run and aces, canastras clean and dirty, wild JK and 2).
SILENT = """deal.first_dealer deal.misdeal_redeal deal.next_dealer deal.cutter draw.first_redraw wild.2.suit
wild.JK.locked wild.2.locked meld.run.colors meld.aces.colors meld.run.max_cards meld.aces.max_cards
meld.aces.max_wilds meld.run.min_naturals meld.aces.min_naturals meld.run.allowed meld.aces.allowed
meld.run.one_per_rank meld.run.disjoint_ranks meld.aces.one_per_rank canastra.clean.counts canastra.dirty.counts
canastra.clean.grows canastra.dirty.grows canastra.clean.grows_penalised canastra.dirty.grows_penalised turn.clean_meld
opening.counts opening.pile_cards_count opening.single_meld opening.ladder opening.penalty_applies
opening.failure_bars_player opening.short_stands_unchallenged opening.short_last_discard opening.retry_with_stock_draw
pile.take.min_naturals pile.take.max_wilds pile.take.onto_meld pile.meld_takes_wilds pile.rest_usable
pile.discard_from_pile red_three.dealt red_three.with_pile red_three.exchange_in_order red_three.late
red_three.last_card_ends_hand
going_out.with_discard going_out.without_discard going_out.ask_partner scoring.counts
scoring.round_fives opening.failure_restarts_turn opening.failure_pile opening.failure_discard draw.short_stock
turn.end_without_discard game.tie game.past_target layoff.melds""".split()


def unstated(*paths: str) -> str:
    return "".join(f'unstated {p} because "the test rulebook is silent on {p}"\n' for p in paths)


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / f"{name}.canastra"
    path.write_text(text, encoding="utf-8")
    return path


def spec(tmp_path: Path, text: str) -> Path:
    """The minimal ruleset with `text`, in a directory of its own (parses are
    cached by path within a process)."""
    directory = Path(tempfile.mkdtemp(dir=tmp_path))
    return write(directory, "minimal", text)


def strict_errors(path: Path) -> list:
    return check_file(path, strict=True)[1]


def messages(path: Path) -> list[str]:
    return [e.message for e in strict_errors(path)]


def after(text: str) -> int:
    """The line number of the first line appended to `text`."""
    return len(text.splitlines()) + 1


# ------------------------------------------------------------------ the form

def test_unstated_entries_keep_their_position_and_reason(minimal_text):
    spec = parse_text(minimal_text + unstated("wild.shift"), "m.canastra")
    [entry] = spec.unstated
    assert (entry.setting, entry.pos.line, entry.setting_pos.column) == ("wild.shift", after(minimal_text), 10)
    assert entry.reason == "the test rulebook is silent on wild.shift"


def test_an_unstated_setting_keeps_its_default_and_is_listed(minimal_text):
    ruleset = build([parse_text(minimal_text + unstated("going_out.ask_partner"), "m.canastra")])
    assert ruleset.value("going_out.ask_partner") is False
    assert list(ruleset.unstated) == ["going_out.ask_partner"]


@pytest.mark.parametrize("entry, message, expected", [
    (unstated("deal.cardz"), "unknown setting 'deal.cardz'", "one of: deal."),
    (unstated("deal.cards"), "'deal.cards' is required", "a clause: deal.cards = ..."),
    (unstated("wild.shift") * 2, "'wild.shift' is already unstated (at m.canastra:59:1)", None),
    (unstated("pile.blocked"), "'pile.blocked' is unstated here but stated by the clause at m.canastra:51:1",
     "either the clause or the 'unstated' entry"),
    ('unstated wild.shift because " "\n', "'unstated wild.shift' gives no reason", "why the text's silence"),
])
def test_bad_unstated_entries_are_errors_at_their_line(minimal_text, entry, message, expected):
    with pytest.raises(ErrorList) as caught:
        build([parse_text(minimal_text + entry, "m.canastra")])
    [error] = [e for e in caught.value.errors if message in e.message]
    assert error.position.line >= after(minimal_text) and error.source_line.startswith("unstated")
    if expected:
        assert expected in error.expected


def test_a_variant_inherits_unstated_entries_and_may_state_them(tmp_path, minimal_text):
    write(tmp_path, "minimal", minimal_text + unstated("going_out.ask_partner", "draw.first_redraw"))
    variant = write(tmp_path, "house", 'ruleset house "House rules" extends minimal\n'
                                       'article h1 "the first player may redraw"\n'
                                       "draw.first_redraw = yes @h1\n")
    from canastra_ref.dsl.loader import load
    ruleset = load("house", directory=tmp_path)
    assert ruleset.value("draw.first_redraw") is True
    assert list(ruleset.unstated) == ["going_out.ask_partner"]
    # the redraw makes the rejected card's destination read: the variant must say it
    assert any("'draw.rejected_card' is read" in m for m in messages(variant))


def test_a_variant_cannot_unstate_what_its_base_states(tmp_path, minimal_text):
    write(tmp_path, "minimal", minimal_text)
    variant = write(tmp_path, "house", 'ruleset house "House" extends minimal\n' + unstated("pile.blocked"))
    [error] = check_file(variant)[1]
    assert "stated by the clause at" in error.message and error.position.file == str(variant)


# ---------------------------------------------------------------- --strict

def test_strict_reports_every_setting_left_to_a_default(tmp_path, minimal_text):
    path = spec(tmp_path, minimal_text)
    errors = strict_errors(path)
    assert sorted(e.message.split("'")[1] for e in errors) == sorted(SILENT)
    error = next(e for e in errors if "'red_three.late'" in e.message)
    assert error.message == ("'red_three.late' is read while playing minimal but nothing states it: "
                             "it falls to its built-in default (keep)")
    assert (error.position.file, error.position.line) == (str(path), 2)       # the ruleset's header
    assert "unstated red_three.late because" in error.expected
    assert check_file(path)[1] == []                                            # not an error without --strict


def test_strict_passes_when_every_silence_is_recorded(tmp_path, minimal_text):
    assert strict_errors(spec(tmp_path, minimal_text + unstated(*SILENT))) == []


def test_a_setting_read_only_under_another_ones_value(tmp_path, minimal_text):
    text = minimal_text + unstated(*(p for p in SILENT if p != "draw.first_redraw"))
    # no redraw: where the rejected card goes is never read
    assert "draw.rejected_card" not in read_settings(build([parse_text(text + unstated("draw.first_redraw"))]))
    path = spec(tmp_path, text + "draw.first_redraw = yes @2\n")
    assert messages(path) == ["'draw.rejected_card' is read while playing minimal but nothing states it: "
                              "it falls to its built-in default (pile)"]
    # a condition that reads game facts may be yes
    path = spec(tmp_path, text + "draw.first_redraw = team.score < 100 @2\n")
    assert len(messages(path)) == 1


def test_a_setting_gated_by_one_that_is_itself_not_read(minimal_text):
    # pile.take.top_card_alone_melds is read where the top card may join a meld alone
    # (pile.take.onto_meld_hand_cards may be 0), and that count only where it may join one
    # at all (pile.take.onto_meld): its default 0 is no value the engine acts on without it
    text = minimal_text + unstated(*(p for p in SILENT if p != "pile.take.onto_meld"))
    never = text + unstated("pile.take.onto_meld")
    assert "pile.take.top_card_alone_melds" not in read_settings(build([parse_text(never)]))
    onto = text + "pile.take.onto_meld = yes @2\n"
    assert "pile.take.top_card_alone_melds" in read_settings(build([parse_text(onto)]))
    two = onto + "pile.take.onto_meld_hand_cards = 2 @2\n"
    assert "pile.take.top_card_alone_melds" not in read_settings(build([parse_text(two)]))


def test_per_kind_settings_follow_the_declared_kinds(minimal_text):
    read = read_settings(build([parse_text(minimal_text)]))
    assert {"meld.run.max_cards", "meld.aces.max_cards", "canastra.clean.counts", "wild.2.suit"} <= set(read)
    assert "meld.aces.suits" in read               # a set's suits (stated, under both readings)
    assert "wild.JK.suit" not in read              # the joker has no suit
    assert "meld.run.suits" not in read            # a suit rule of sets only
    assert "wild.shift" not in read                # every wild is locked by default
    only_joker = build([parse_text(minimal_text.replace("wild.cards = [JK, 2]", "wild.cards = [JK]"))])
    assert "wild.2.locked" not in read_settings(only_joker) and "wild.JK.locked" in read_settings(only_joker)


def test_a_setting_stated_under_one_reading_only(tmp_path, minimal_text):
    text = minimal_text + unstated(*(p for p in SILENT if p != "wild.2.locked")) + \
        "wild.2.locked = never @4 under aces.same\n"
    errors = strict_errors(spec(tmp_path, text))
    assert [e.message for e in errors] == [
        "'wild.2.locked' is read while playing minimal but nothing states it: it falls to its built-in "
        "default (always) (under reading default)",
        # never locked, under the other reading: whether the two may leave its place for a gap is
        # read, and where the displaced two goes
        "'wild.2.relocates' is read while playing minimal but nothing states it: it falls to its built-in "
        "default (no) (under reading aces=same)",
        "'wild.shift' is read while playing minimal but nothing states it: it falls to its built-in "
        "default (any-end) (under reading aces=same)"]


def test_conditional_clauses_that_can_all_fail_fall_to_the_default(tmp_path, minimal_text):
    text = minimal_text + unstated(*(p for p in SILENT if p != "pile.take.max_wilds"))
    gap = spec(tmp_path, text + "pile.take.max_wilds = 1 when team.score < 100 @7\n")
    [error] = strict_errors(gap)
    assert error.message.startswith("every clause of 'pile.take.max_wilds' has a condition")
    assert error.position.line == after(text) and "unless" in error.expected
    covered = spec(tmp_path, text + "pile.take.max_wilds = 1 when team.score < 100 @7\n"
                                                "pile.take.max_wilds = 2 unless team.score < 100 @7\n")
    assert strict_errors(covered) == []


def test_an_unstated_entry_for_a_setting_never_read_is_an_error(tmp_path, minimal_text):
    path = spec(tmp_path, minimal_text + unstated(*SILENT) + unstated("draw.rejected_card",
                                                                                  "meld.pairs.max_cards"))
    errors = strict_errors(path)
    assert [e.message for e in errors] == [
        "'draw.rejected_card' is listed unstated, but the engine never reads it while playing minimal under "
        "any reading: it is read only when `draw.first_redraw` may be yes",
        "'meld.pairs.max_cards' is listed unstated, but the engine never reads it while playing minimal under "
        "any reading: this ruleset declares no kind or wild card it names"]
    assert errors[0].position.line == after(minimal_text) + len(SILENT) and errors[0].position.column == 10


# ----------------------------------------------------------- command line

def test_check_strict_on_the_command_line(tmp_path, minimal_text, capsys):
    path = spec(tmp_path, minimal_text)
    assert main(["check", str(path)]) == 0
    assert main(["check", "--strict", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2:9: error: 'red_three.late' is read while playing minimal" in err
    path = spec(tmp_path, minimal_text + unstated(*SILENT))
    assert main(["check", "--strict", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["ok"] is True


def test_articles_lists_the_unstated_entries(minimal_text):
    from canastra_cli.spec import articles_record, articles_text
    ruleset = build([parse_text(minimal_text + unstated("going_out.ask_partner"), "m.canastra")])
    record = articles_record(ruleset)
    assert record["ruleset"] == "minimal" and len(record["articles"]) == 9
    assert record["unstated"] == [{"setting": "going_out.ask_partner", "default": "no",
                                   "reason": "the test rulebook is silent on going_out.ask_partner",
                                   "file": "m.canastra", "line": after(minimal_text)}]
    text = articles_text(record)
    assert "9 articles: 8 normative, 1 informative, 1 disputes, 1 unstated settings" in text
    assert text.endswith("going_out.ask_partner  = no  the test rulebook is silent on going_out.ask_partner\n")


# ------------------------------------------------------------ every spec

@pytest.mark.parametrize("ruleset", available())
def test_every_spec_passes_check_strict(ruleset):
    errors = check_file(SPEC_DIR / f"{ruleset}.canastra", strict=True)[1]
    assert not errors, "\n\n".join(e.render() for e in errors)
