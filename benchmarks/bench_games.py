"""Benchmark: complete Port Arthur games per second between two automatic players
(one core), and the time to replay a finished game from its history.

    .venv/bin/python benchmarks/bench_games.py [--games N] [--rounds R]

Machines are shared and noisy, so every figure is a median over rounds (CPU time of this
process, which other processes' load does not inflate as it does wall time), and each is
also given as a ratio to a calibration workload measured in the same run (a fixed
amount of plain-Python dice rolling), which stays comparable across machines.
Targets: at least 200 games per second; replay under 20 ms.

It also plays the same games again with their dice and answers read from a script made
in advance: that is the rules and the engine alone (what a referee runs), and the
difference is the automatic players' share of a complete game.

Each game is let go once played (its history kept as JSON text), as every command lets
its game go. The same games are also played keeping every finished match in memory, the
way this benchmark measured before, and printed beside: there the garbage collector's
full passes over hundreds of finished matches take a large share of the time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from common import Finished, calibration as wall_calibration

from adjudicator.engine import Match, play_out
from adjudicator.games.port_arthur import PortArthur
from adjudicator.games.port_arthur.players import RandomPlayer, random_dice


def calibration() -> float:
    """The shared calibration workload, in CPU seconds of this process (like the games)."""
    start = time.process_time()
    wall_calibration()
    return time.process_time() - start


def play_games(game: PortArthur, seeds: range) -> tuple[float, list[Finished]]:
    """CPU seconds to play the seeded games, and what is kept of each (its history):
    each match is let go once played, as a command lets its game go."""
    elapsed, finished = 0.0, []
    for seed in seeds:
        rng = random.Random(seed)
        start = time.process_time()
        match = play_out(Match(game, {}, {}), random_dice(rng), RandomPlayer(rng))
        elapsed += time.process_time() - start
        finished.append(Finished.of(match))
    return elapsed, finished


def play_games_kept(game: PortArthur, seeds: range) -> float:
    """CPU seconds to play the seeded games keeping every finished match in memory
    (how this benchmark measured before: the garbage collector's passes over them
    are most of the difference)."""
    start = time.process_time()
    matches = []
    for seed in seeds:
        rng = random.Random(seed)
        matches.append(play_out(Match(game, {}, {}), random_dice(rng), RandomPlayer(rng)))
    return time.process_time() - start


Script = tuple[list, list]


def scripts(game: PortArthur, seeds: range) -> list[Script]:
    """Each seeded game's dice and answers, in order, as the automatic players gave them."""
    made = []
    for seed in seeds:
        rng = random.Random(seed)
        roll, choose = random_dice(rng), RandomPlayer(rng)
        dice, answers = [], []

        def chance(request, roll=roll, dice=dice):
            dice.append(roll(request))
            return dice[-1]

        def answer(decision, state, choose=choose, answers=answers):
            answers.append(choose(decision, state))
            return answers[-1]

        play_out(Match(game, {}, {}), chance, answer)
        made.append((dice, answers))
    return made


def play_scripted(game: PortArthur, made: list[Script]) -> float:
    """CPU seconds to play the scripted games: the rules and the engine, without players."""
    start = time.process_time()
    for dice, answers in made:
        next_dice, next_answer = iter(dice).__next__, iter(answers).__next__
        play_out(Match(game, {}, {}), lambda request: next_dice(), lambda decision, state: next_answer())
    return time.process_time() - start


def replay_time(game: PortArthur, finished: Finished, repeats: int = 20) -> float:
    history = finished.history_json()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        Match(game, {}, {}, history)
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    game = PortArthur()
    play_games(game, range(5))  # warm-up: data loading, imports

    rates, kept_rates, rules_rates, calibrations, replays = [], [], [], [], []
    for round_ in range(args.rounds):
        calibrations.append(calibration())
        seeds = range(round_ * args.games, (round_ + 1) * args.games)
        elapsed, finished = play_games(game, seeds)
        rates.append(args.games / elapsed)
        kept_rates.append(args.games / play_games_kept(game, seeds))
        rules_rates.append(args.games / play_scripted(game, scripts(game, seeds)))
        longest = max(finished, key=lambda f: f.entries)
        replays.append(replay_time(game, longest, repeats=5))
    rate, calib, replay = statistics.median(rates), statistics.median(calibrations), statistics.median(replays)
    rules_rate = statistics.median(rules_rates)
    steps = statistics.median(f.entries for f in finished)
    print(f"calibration (200,000 plain dice rolls): {calib * 1000:.1f} ms CPU (median of {args.rounds})")
    print(f"complete games per second, one core:    {rate:.0f} (median; target >= 200; "
          f"{rate / 200:.2f}x target; {rate * calib:.2f} games per calibration unit)")
    print(f"the same, every finished match kept:    {statistics.median(kept_rates):.0f} games/s (median; the "
          f"measure before: a process holding {args.games} finished matches, which no command does)")
    print(f"the rules and engine alone:             {rules_rate:.0f} games/s (median; the same games' dice and "
          f"answers from a script; the players take {100 * (1 - rate / rules_rate):.0f}% of a complete game)")
    print(f"history entries per game:               {steps:.0f} (median)")
    print(f"replay of the longest finished game:    {replay * 1000:.2f} ms (median; target < 20 ms; "
          f"{replay / calib:.3f} calibration units)")


if __name__ == "__main__":
    main()
