"""canastra play --log (the move log a person can follow), and --json as
another way to say --format json on every command that has json."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from canastra_cli.cli import build_parser, main
from canastra_ref.engine.play import self_play
from canastra_ref.engine.rules import engine_for

SUITS = {"♥": "h", "♦": "d", "♣": "c", "♠": "s"}


def _card(shown: str) -> str:
    if shown == "🃏":
        return "JK"
    rank, suit = shown[:-1], shown[-1]
    return ("T" if rank == "10" else rank) + SUITS[suit]


def test_the_log_shows_each_move_with_its_cards_and_the_score(capsys):
    assert main(["play", "--ruleset", "cbc", "--seed", "3", "--log"]) == 0
    lines = capsys.readouterr().out.splitlines()
    moves = []
    record = []

    def observe(state, action, new, verdict):
        action = action.json
        seat = action["player"]
        gained = Counter(new.players[seat].hand) - Counter(state.players[seat].hand)
        moves.append((action, sorted(gained.elements())))
    for item in self_play(engine_for("cbc", ()), 3, 1, observe):
        record.append(item)
    logged = [line.strip() for line in lines if line.startswith("  ") and not re.match(r"  (NS|EW) ", line)]
    assert len(logged) == len(moves)
    for text, (action, gained) in zip(logged, moves):
        assert text.startswith(action["player"] + " ")
        if "draw" in action and gained:
            shown = re.match(r"\w+ draws (.+) from the stock\.", text).group(1)
            assert sorted(_card(c) for c in shown.split()) == gained
        elif "draw" in action:
            assert text.startswith(f"{action['player']} has nothing to draw: the stock is empty.")
        if "discard" in action:
            assert _card(re.match(r"\w+ discards (\S+)\.", text).group(1)) == action["discard"]
    assert any("🃏" in text for text in logged) or not any("JK" in str(a) for a, _ in moves)
    hand = record[0]
    for team, score in hand.scores.items():
        assert any(line.startswith(f"  {team} ") and line.endswith(f"-> {score['score_after']}") for line in lines)
    assert lines[-1].startswith("after 1 hand(s): ")


def test_log_and_json_do_not_mix(capsys):
    assert main(["play", "--ruleset", "cbc", "--log", "--json"]) == 2
    assert "--log is a text log" in capsys.readouterr().err


def _json_commands():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():
        formats = next((a.choices for a in command._actions if a.dest == "format" and a.choices), ())
        if "json" in formats:
            yield name


@pytest.mark.parametrize("argv", [["play", "--ruleset", "treze", "--seed", "2"], ["reasons"],
                                  ["articles", "uruguaya"], ["diff", "cbc", "treze"]])
def test_json_is_format_json(capsys, argv):
    assert main([*argv, "--format", "json"]) == 0
    long = capsys.readouterr().out
    assert main([*argv, "--json"]) == 0
    assert capsys.readouterr().out == long and json.loads(long)


def test_every_command_with_json_takes_the_alias():
    names = list(_json_commands())
    assert {"play", "conformance", "profile", "articles", "check", "coverage", "mutate", "diff", "dispute",
            "reasons"} <= set(names)
    parser = build_parser()
    for name in names:
        args = {"play": ["--ruleset", "cbc"], "articles": ["cbc"], "diff": ["cbc", "treze"],
                "dispute": ["x.yaml"]}.get(name, [])
        assert parser.parse_args([name, *args, "--json"]).format == "json", name
