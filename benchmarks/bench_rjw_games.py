"""Benchmark: complete Russo-Japanese War games per second between two automatic players
(one core), and the time to replay a finished game from its history.

    .venv/bin/python benchmarks/bench_rjw_games.py [--games N] [--rounds R] [--players random|reasonable]

Machines are shared and noisy, so every figure is a median over rounds (CPU time of this
process), and each is also given as a ratio to a calibration workload measured in the same
run (a fixed amount of plain-Python dice rolling). Targets: at least 100 games per second;
replay under 30 ms.

It also splits a game's time between the rules and the automatic players: the rules' share
is the time to replay every game of the round from its history (what a referee runs: the
rules with their checks of every answer, no player); the rest is the players choosing
their answers (and the dice drawn for them). Each game is let go once played, its history
kept as JSON text, as every command lets its game go.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from common import Finished, calibration as wall_calibration

from adjudicator.engine import Match, play_out
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.players import RandomPlayer, ReasonablePlayer, dice_from, players_chooser

PLAYERS = {"random": RandomPlayer, "reasonable": ReasonablePlayer}


def calibration() -> float:
    """The shared calibration workload, in CPU seconds of this process (like the games)."""
    start = time.process_time()
    wall_calibration()
    return time.process_time() - start


def play_games(game: RussoJapaneseWar, seeds: range, player) -> tuple[float, list[Finished]]:
    """CPU seconds to play the seeded games, and what is kept of each (its history):
    each match is let go once played, as a command lets its game go (common.Finished)."""
    elapsed, finished = 0.0, []
    for seed in seeds:
        chooser = players_chooser({"japan": player(game, seed), "russia": player(game, seed + 100_003)})
        start = time.process_time()
        match = play_out(Match(game), dice_from(random.Random(seed)), chooser)
        elapsed += time.process_time() - start
        finished.append(Finished.of(match))
    return elapsed, finished


def rules_time(game: RussoJapaneseWar, finished: list[Finished]) -> float:
    """CPU seconds to replay every game from its history: the rules alone."""
    elapsed = 0.0
    for played in finished:
        history = played.history_json()
        start = time.process_time()
        Match(game, history=history)
        elapsed += time.process_time() - start
    return elapsed


def replay_time(game: RussoJapaneseWar, finished: Finished, repeats: int = 5) -> float:
    history = finished.history_json()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        Match(game, history=history)
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", choices=sorted(PLAYERS), default="random")
    args = parser.parse_args()
    game = RussoJapaneseWar()
    player = PLAYERS[args.players]
    play_games(game, range(3), player)   # warm-up: data loading, imports

    rates, calibrations, replays, game_times, rules_times = [], [], [], [], []
    for round_ in range(args.rounds):
        calibrations.append(calibration())
        elapsed, finished = play_games(game, range(round_ * args.games, (round_ + 1) * args.games), player)
        rates.append(args.games / elapsed)
        game_times.append(elapsed / args.games)
        rules_times.append(rules_time(game, finished) / args.games)
        longest = max(finished, key=lambda f: f.entries)
        replays.append(replay_time(game, longest))
    rate, calib, replay = statistics.median(rates), statistics.median(calibrations), statistics.median(replays)
    steps = statistics.median(f.entries for f in finished)
    print(f"players: {args.players}")
    print(f"calibration (200,000 plain dice rolls): {calib * 1000:.1f} ms (median of {args.rounds})")
    print(f"complete games per second, one core:    {rate:.1f} (median; target >= 100; "
          f"{rate / 100:.2f}x target; {rate * calib:.2f} games per calibration unit)")
    print(f"history entries per game:               {steps:.0f} (median)")
    per_game, rules = statistics.median(game_times), statistics.median(rules_times)
    print(f"one game:                               {per_game * 1000:.2f} ms: the rules {rules * 1000:.2f} ms "
          f"({rules / per_game:.0%}, replaying the games), the players {(per_game - rules) * 1000:.2f} ms "
          f"({1 - rules / per_game:.0%})")
    print(f"replay of the longest finished game:    {replay * 1000:.2f} ms (median; target < 30 ms; "
          f"{replay / calib:.3f} calibration units)")


if __name__ == "__main__":
    main()
