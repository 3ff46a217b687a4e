"""Benchmark: Tsushima 1905 -- complete games per second between automatic players
with the historical set-up (one core, CPU time), the replay of a finished game, and
one relative-move resolution.

    .venv/bin/python benchmarks/bench_tsushima.py [--games N] [--rounds R]

Figures are medians over rounds, each also given as a ratio to a calibration workload
measured in the same run (a fixed amount of plain-Python dice rolling).
Targets: at least 20 games per second; replay under 100 ms; one relative move under 5 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from common import Finished, calibration

from adjudicator.engine import Match, play_out
from adjudicator.games.tsushima_1905.players import RandomPlayer, ReasonablePlayer, random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.planner import Relative, resolve
from adjudicator.games.tsushima_1905.rules.table import Table


def dice(seed: int):
    return random_dice(random.Random(seed))


def play_games(game: Tsushima1905, seeds: range, kind: str) -> tuple[float, list[Finished]]:
    """CPU seconds to play the seeded games, and what is kept of each (its history):
    each match is let go once played, as a command lets its game go (common.Finished)."""
    elapsed, finished = 0.0, []
    for seed in seeds:
        player = RandomPlayer(seed, game.data) if kind == "random" else ReasonablePlayer(game.data)
        start = time.process_time()
        match = play_out(Match(game), dice(seed), player)
        elapsed += time.process_time() - start
        finished.append(Finished.of(match))
    return elapsed, finished


def replay_time(game: Tsushima1905, finished: Finished, repeats: int = 5) -> float:
    history = finished.history_json()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        Match(game, {}, {}, history)
        times.append(time.process_time() - start)
    return statistics.median(times)


RELATIVE = [("Shikishima", Relative("follow", "Mikasa")), ("Azuma", Relative("follow", "Idzumo")),
            ("Osliabia", Relative("close", "Mikasa")), ("Admiral Nakhimov", Relative("steer", heading=45)),
            ("Alexander III", Relative("station", "Kniaz Suvorov", bearing=180, distance=1500)),
            ("Idzumo", Relative("ram", "Osliabia"))]


def relative_times(game: Tsushima1905) -> dict[str, float]:
    """One resolution of each relative order, after the leaders' first ahead."""
    state = game.new_state({}, {})
    for name in ("Mikasa", "Idzumo", "Kniaz Suvorov", "Osliabia"):
        ship = state.ships[name]
        ship.y += -1000 if ship.side == "japan" else 1000
    table = Table(state, game.data, game.geo, Options(), lambda event: None)
    result = {}
    for name, order in RELATIVE:
        runs = []
        for _ in range(5):
            start = time.process_time()
            resolve(table, state.ships[name], order)
            runs.append(time.process_time() - start)
        result[f"{name}: {order.text()}"] = statistics.median(runs)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    game = Tsushima1905()
    play_games(game, range(2), "random")  # warm-up
    calib = statistics.median(calibration() for _ in range(args.rounds))
    print(f"calibration (200,000 plain dice rolls): {calib * 1000:.1f} ms")
    for kind in ("random", "reasonable"):
        rates, replays = [], []
        for round_ in range(args.rounds):
            elapsed, finished = play_games(game, range(round_ * args.games, (round_ + 1) * args.games), kind)
            rates.append(args.games / elapsed)
            replays.append(replay_time(game, max(finished, key=lambda f: f.entries)))
        rate, replay = statistics.median(rates), statistics.median(replays)
        print(f"{kind:>10} players: {rate:5.1f} complete games/s (target >= 20; {rate / 20:.2f}x target; "
              f"{rate * calib:.2f} games per calibration unit); replay of the longest game "
              f"{replay * 1000:.1f} ms (target < 100 ms)")
    for label, seconds in relative_times(game).items():
        print(f"relative move, {label}: {seconds * 1000:.2f} ms (target < 5 ms)")


if __name__ == "__main__":
    main()
