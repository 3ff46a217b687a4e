"""Benchmark: dice derived per second, and `verify` of a complete six-turn Port
Arthur record (in-process, and as a command beyond the interpreter's start-up).

    .venv/bin/python benchmarks/bench_dice.py [--rounds R]

Figures are medians over rounds; ratios compare against baselines measured in the
same run (Python's own random.randint for the dice; `python -c pass` for start-up).
Target: verify under 100 ms beyond the interpreter's start-up.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

from adjudicator import games
from adjudicator.campaign import Campaigns, Player
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import DiceStream, generate_keypair
from adjudicator.games.port_arthur.players import RandomPlayer
from common import wall
from adjudicator.store import Store

DICE = 20_000


def dice_per_second() -> tuple[float, float]:
    stream = DiceStream(b"k" * 32, "bench", 1)
    start = time.perf_counter()
    stream.roll(DICE, 1, "operations", 0)
    ours = DICE / (time.perf_counter() - start)
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(DICE):
        rng.randint(1, 6)
    return ours, DICE / (time.perf_counter() - start)


def complete_record(folder: Path) -> str:
    """A whole campaign between automatic players, adjudicated step by step."""
    rng = random.Random(7)
    player = RandomPlayer(rng)
    asked: set = set()

    def answer_for(decision, state, orders):
        key = (decision.kind, decision.side, state.turn)
        if decision.kind == "sortie" and key not in asked:
            asked.add(key)
            return None
        return dict(player(decision, state))

    automatic = dataclasses.replace(games.get("port-arthur"),
                                    answers=SimpleNamespace(answer_for=answer_for, default_answer=answer_for))
    games.get = lambda name: automatic  # this benchmark's process plays only this game
    key = generate_keypair()[0]
    players = [Player("japan", "j@example.org", "pw-j"), Player("russia", "r@example.org", "pw-r")]
    with Store.open(folder / "bench.sqlite3") as store:
        campaigns = Campaigns(store)
        campaigns.create("bench", "port-arthur", players, key)
        while campaigns.adjudicate("bench", key).result is None:
            pass
        return campaigns.export_public("bench")




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        record = complete_record(Path(tmp))
        path = Path(tmp) / "record.jsonl"
        path.write_text(record, encoding="utf-8")
        lines = record.count("\n")
        wall([sys.executable, "-m", "adjudicator", "verify", str(path)])  # writes the bytecode
        dice_rates, base_rates, in_process, command, startup = [], [], [], [], []
        for _ in range(args.rounds):
            ours, base = dice_per_second()
            dice_rates.append(ours)
            base_rates.append(base)
            start = time.perf_counter()
            verdict = verify_text(record)
            in_process.append(time.perf_counter() - start)
            command.append(wall([sys.executable, "-m", "adjudicator", "verify", str(path)]))
            startup.append(wall([sys.executable, "-c", "pass"]))
    med = statistics.median
    print(f"dice derived per second:       {med(dice_rates):,.0f} (median; random.randint: {med(base_rates):,.0f}; "
          f"ratio {med(dice_rates) / med(base_rates):.2f})")
    print(f"record verified:               {lines} records, {verdict.batches} batches, {verdict.dice} dice, "
          f"verified={verdict.verified}")
    print(f"verify, in process:            {med(in_process) * 1000:.1f} ms (median)")
    print(f"verify command, wall:          {med(command) * 1000:.1f} ms; interpreter start-up {med(startup) * 1000:.1f} ms; "
          f"beyond start-up {(med(command) - med(startup)) * 1000:.1f} ms (target < 100 ms)")


if __name__ == "__main__":
    main()
