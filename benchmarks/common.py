"""What the benchmarks share: the calibration workload their ratios are measured against,
what a games benchmark keeps of each game it has played, and the wall time of a command
run as a user runs it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
from typing import Any, NamedTuple


#: A new process as a user's: its modules' bytecode written once and read back after.
USER_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def wall(command: list[str]) -> float:
    """The wall time of ``command`` run as a new process (its output thrown away)."""
    start = time.perf_counter()
    subprocess.run(command, check=False, capture_output=True, env=USER_ENV)
    return time.perf_counter() - start


def calibration(rolls: int = 200_000) -> float:
    """Seconds for a fixed plain-Python workload (``rolls`` dice from random.Random):
    the baseline of the ratios, measured in the same run as the figures."""
    rng = random.Random(0)
    start = time.perf_counter()
    total = 0
    for _ in range(rolls):
        total += rng.randint(1, 6)
    return time.perf_counter() - start


class Finished(NamedTuple):
    """What a games benchmark keeps of a game once played: how many history entries it
    had and its history as JSON text, as a store keeps a game.

    Not the match itself: a process that holds hundreds of finished matches (none of
    the commands does; each plays or adjudicates one game and lets it go) spends much
    of its time in the garbage collector's full passes over their hundreds of
    thousands of objects, which says nothing about the rules.
    """

    entries: int
    history: str

    @classmethod
    def of(cls, match: Any) -> "Finished":
        return cls(match.entry_count, json.dumps(match.history_json()))

    def history_json(self) -> list[dict]:
        return json.loads(self.history)
