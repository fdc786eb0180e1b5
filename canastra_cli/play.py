"""canastra play: self-play between random legal agents."""
from __future__ import annotations

from canastra_ref.errors import CanastraError

from .common import EXIT_OK, add_reading_option, parse_readings, print_json


def cmd_play(args) -> int:
    from canastra_ref.engine.play import self_play
    from canastra_ref.engine.rules import engine_for
    if args.hands < 1:
        raise CanastraError("--hands must be at least 1")
    engine = engine_for(args.ruleset, tuple(sorted(parse_readings(args.reading).items())))
    records = []
    for record in self_play(engine, args.seed, args.hands):
        if isinstance(record, dict):
            result = record
            continue
        records.append(record)
        if args.format == "text":
            _print_hand(record)
    if args.format == "json":
        print_json({"ruleset": engine.ruleset.id, "readings": engine.ruleset.readings, "seed": args.seed,
                     "hands": [r.to_json() for r in records], "result": result})
    else:
        scores = ", ".join(f"{t} {s}" for t, s in result["scores"].items())
        status = f"game over, won by {' and '.join(result['winners'])}" if result["game_over"] else "game goes on"
        print(f"after {len(records)} hand(s): {scores} ({status})")
    return EXIT_OK


def _print_hand(record) -> None:
    end = record.end
    how = end["reason"] + (f" by {end['player']}" if end.get("player") else "")
    print(f"hand {record.number}: dealer {record.dealer}, {record.actions} actions, ended: {how}")
    for team, score in record.scores.items():
        terms = ", ".join(f"{name} {term['value']:+d}" for name, term in score["terms"].items() if term["value"])
        extra = "" if score["counts"] else " (not counted)"
        rounding = f", rounding {score['rounding']:+d}" if score["rounding"] else ""
        print(f"  {team:<3} {score['total']:+6d} = [{terms or 'nothing'}{rounding}]{extra}"
              f"  -> {score['score_after']}")


def register(sub) -> None:
    p = sub.add_parser("play", help="self-play whole hands between random legal agents",
                       description="Play hands of a ruleset between random legal agents and print each "
                                   "hand's end and score breakdown. The same seed gives the same output.")
    p.add_argument("--ruleset", required=True, help="ruleset id, such as cbc")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--hands", type=int, default=1, help="hands to play, fewer if the game ends (default 1)")
    add_reading_option(p)
    p.add_argument("--json", dest="format", action="store_const", const="json", default="text",
                   help="print one JSON document instead of text")
    p.set_defaults(func=cmd_play)
