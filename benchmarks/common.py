"""What the benchmarks share: the calibration workload their ratios are measured against."""

from __future__ import annotations

import random
import time


def calibration(rolls: int = 200_000) -> float:
    """Seconds for a fixed plain-Python workload (``rolls`` dice from random.Random):
    the baseline of the ratios, measured in the same run as the figures."""
    rng = random.Random(0)
    start = time.perf_counter()
    total = 0
    for _ in range(rolls):
        total += rng.randint(1, 6)
    return time.perf_counter() - start
