"""canastra play: self-play between random legal agents."""
from __future__ import annotations

from canastra_ref.errors import CanastraError

from .common import EXIT_OK, add_format_option, add_reading_option, parse_readings, print_json


def cmd_play(args) -> int:
    from canastra_ref.engine.play import self_play
    from canastra_ref.engine.rules import engine_for
    from canastra_tools import movelog
    if args.hands < 1:
        raise CanastraError("--hands must be at least 1")
    if args.log and args.format == "json":
        raise CanastraError("--log is a text log; it does not go with --format json")
    engine = engine_for(args.ruleset, tuple(sorted(parse_readings(args.reading).items())))
    observe = None
    if args.log:
        print(f"{engine.ruleset.id}: {engine.ruleset.title}, seed {args.seed}")
        hands = iter(range(1, args.hands + 1))

        def observe(state, action, new, verdict):
            move = action.json
            if move.get("deal") is not None:
                print(f"\nhand {next(hands)}, dealt by {move.get('player')}")
            print("  " + movelog.line(state, move, new, verdict))
    records = []
    for record in self_play(engine, args.seed, args.hands, observe):
        if isinstance(record, dict):
            result = record
            continue
        records.append(record)
        if args.format == "text":
            print("\n".join(movelog.hand_end(record)))
    if args.format == "json":
        print_json({"ruleset": engine.ruleset.id, "readings": engine.ruleset.readings, "seed": args.seed,
                     "hands": [r.to_json() for r in records], "result": result})
    else:
        scores = ", ".join(f"{t} {s}" for t, s in result["scores"].items())
        status = f"game over, won by {' and '.join(result['winners'])}" if result["game_over"] else "game goes on"
        print(f"after {len(records)} hand(s): {scores} ({status})")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("play", help="self-play whole hands between random legal agents",
                       description="Play hands of a ruleset between random legal agents and print each "
                                   "hand's end and score breakdown; with --log, every move first, as a "
                                   "sentence (cards as 4♥ Q♠ 🃏). The same seed gives the same output.")
    p.add_argument("--ruleset", required=True, help="ruleset id, such as cbc")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--hands", type=int, default=1, help="hands to play, fewer if the game ends (default 1)")
    add_reading_option(p)
    p.add_argument("--log", action="store_true",
                   help="print every move as it is played: who drew, took the pile, melded, discarded")
    add_format_option(p, ("text", "json"))
    p.set_defaults(func=cmd_play)
