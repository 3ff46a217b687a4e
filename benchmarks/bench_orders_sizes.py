"""Benchmark: reading and checking orders takes time in proportion to their length.

For several shapes of orders file (a valid plan, empty headings, unknown names,
blocks given again and again, garbage), times ``parse_orders`` (the whole front end:
cleaning, parsing with error recovery, names, checks, the stored-size check) on files
of 625 to 5,000 lines (the limit) and prints lines per second (CPU time, median of
several runs) with the ratio of each size's rate to the smallest size's: a ratio near
1.0 at every size means linear; a quadratic shape falls to about 1/8 at 5,000 lines.
Also times the refusal of a file over the limits (16,000 lines), which must not read it.

    python benchmarks/bench_orders_sizes.py [--runs 3]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from adjudicator.orders import MAX_LINES, OrdersError, parse_orders

GAME = "port-arthur"
HEADER = "campaign: bench-1904\nside: Japan\nturn: 2\npassword: hunter two\n"
SIZES = (625, 1250, 2500, MAX_LINES - 10)

SHAPES = {
    "valid plan": lambda n: HEADER + "operations:\n" + "  battle in Tsushima if enemy there\n" * n,
    "empty hits: headings": lambda n: HEADER + "hits:\n" * n,
    "dice: given again": lambda n: HEADER + "dice: auto\n" * n,
    "unknown zone names": lambda n: HEADER + "operations:\n" + "  battle in Yelow Sea\n" * n,
    "ship given twice": lambda n: HEADER + "sortie:\n" + "  Mikasa to Tsushima\n" * n,
    "garbage lines": lambda n: HEADER + "!!! ;;\n" * n,
}


def cpu_seconds(text: str, runs: int) -> float:
    """Median CPU seconds of ``parse_orders(text)`` (refusals included)."""
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.process_time()
        try:
            parse_orders(text, GAME)
        except OrdersError:
            pass
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--runs", type=int, default=3)
    options = args.parse_args()
    parse_orders(HEADER + "dice: auto\n", GAME)  # warm up (grammar loaded)

    print(f"{'shape':22}" + "".join(f"{n:>10,} lines" for n in SIZES) + "   rate at 5,000 / at 625")
    for name, make in SHAPES.items():
        rates = [n / max(cpu_seconds(make(n), options.runs), 1e-9) for n in SIZES]
        cells = "".join(f"{rate:>11,.0f}/s " for rate in rates)
        print(f"{name:22}{cells}   {rates[-1] / rates[0]:5.2f}x")
    oversized = HEADER + "dice: auto\n" * 16_000
    print(f"refusing a 16,000-line file (E100): {cpu_seconds(oversized, options.runs) * 1000:.1f} ms CPU")


if __name__ == "__main__":
    main()
