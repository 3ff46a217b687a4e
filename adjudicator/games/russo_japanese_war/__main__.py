"""Play a whole game between automatic players and print what happened.

    python -m adjudicator.games.russo_japanese_war [--seed N] [--players random|reasonable]
                                                   [--report japan|russia] [--history FILE]

(Until the generic ``adjudicator play --game`` command takes this game.)
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from adjudicator.engine import Match, play_out
from adjudicator.games.russo_japanese_war.game import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.players import RandomPlayer, ReasonablePlayer, dice_from, players_chooser
from adjudicator.games.russo_japanese_war.report import render_report

PLAYERS = {"random": RandomPlayer, "reasonable": ReasonablePlayer}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m adjudicator.games.russo_japanese_war",
                                     description="A whole Russo-Japanese War game between automatic players.")
    parser.add_argument("--seed", type=int, default=1904, help="seed of the players and of the simulation dice")
    parser.add_argument("--players", choices=sorted(PLAYERS), default="reasonable")
    parser.add_argument("--report", choices=["japan", "russia"], help="also print this side's final report")
    parser.add_argument("--history", help="write the game's history (JSON) to this file")
    args = parser.parse_args(argv)
    game = RussoJapaneseWar()
    player = PLAYERS[args.players]
    chooser = players_chooser({"japan": player(game, args.seed), "russia": player(game, args.seed + 1)})
    match = play_out(Match(game), dice_from(random.Random(args.seed)), chooser)
    for event in match.events:
        if event.visible_to is None and event.kind not in ("draw-count", "shuffle"):
            print(event.text)
    state = match.state
    print(f"Result: {state['result']} (turn {state['turn']}; Morale Japan {state['morale']['japan']}, "
          f"Russia {state['morale']['russia']}; {len(match.history)} history entries)")
    if args.report:
        print(render_report(game, state, args.report)[0])
    if args.history:
        with open(args.history, "w", encoding="utf-8") as handle:
            json.dump(match.history_json(), handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
