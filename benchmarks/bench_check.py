"""Benchmark: `adjudicator check` of a sample orders file, wall time as a player runs
it (a new process, start-up included).

    .venv/bin/python benchmarks/bench_check.py [--runs R] [--profile]

Each run of the command is paired with a run of the baseline, the interpreter's own
start-up (`python -c pass`), and figures are medians over the runs. Python's bytecode
cache is on, kept in a temporary folder, as after a normal install; the same command
with the cache off (PYTHONDONTWRITEBYTECODE=1: every module compiled on each run) is
timed too, for comparison, and so is `python -c "import lark"`, the floor of a command
that parses orders. `--profile` lists the heaviest imports.

Target: under 300 ms (issue 12: under 200 ms).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "port-arthur" / "japan-turn1.orders"
TARGET = 0.300


def cli() -> list[str]:
    """The `adjudicator` command as a user runs it (the virtualenv's script)."""
    script = Path(sys.executable).with_name("adjudicator")
    return [str(script)] if script.exists() else [sys.executable, "-m", "adjudicator"]


def environment(cache: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADJUDICATOR_")}
    if cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def wall(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return elapsed


def heaviest_imports(command: list[str], env: dict[str, str], count: int) -> list[tuple[str, float]]:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "adjudicator", *command[len(cli()):]],
                          env=env, capture_output=True, text=True)
    found = [(m.group(2), int(m.group(1)) / 1000) for m in
             re.finditer(r"^import time:\s+\d+ \|\s+(\d+) \| (\S.*)$", done.stderr, re.M)]
    return sorted(found, key=lambda item: -item[1])[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--profile", action="store_true", help="also list the heaviest top-level imports")
    args = parser.parse_args()
    command = cli() + ["check", str(SAMPLE)]
    with tempfile.TemporaryDirectory() as tmp:
        cached, uncached = environment(Path(tmp) / "pycache"), environment(None)
        wall(command, cached)  # fills the bytecode cache
        times: dict[str, list[float]] = {"cached": [], "uncached": [], "startup": [], "lark": []}
        for _ in range(args.runs):
            times["cached"].append(wall(command, cached))
            times["startup"].append(wall([sys.executable, "-c", "pass"], cached))
            times["lark"].append(wall([sys.executable, "-c", "import lark"], cached))
            times["uncached"].append(wall(command, uncached))
        med = {label: statistics.median(values) for label, values in times.items()}
        print(f"adjudicator check {SAMPLE.relative_to(ROOT)} (medians of {args.runs} runs; {' '.join(cli())})")
        print(f"interpreter start-up:         {med['startup'] * 1000:6.0f} ms  (python -c pass; the baseline)")
        print(f"import lark alone:            {med['lark'] * 1000:6.0f} ms  (the floor of a command that parses "
              f"orders; check is {(med['cached'] - med['lark']) * 1000:.0f} ms above it)")
        print(f"check, bytecode cache on:     {med['cached'] * 1000:6.0f} ms  ({med['cached'] / med['startup']:.1f}x "
              f"start-up; {(med['cached'] - med['startup']) * 1000:.0f} ms beyond it; target < {TARGET * 1000:.0f} ms: "
              f"{med['cached'] / TARGET:.2f}x target)")
        print(f"check, bytecode cache off:    {med['uncached'] * 1000:6.0f} ms  "
              f"({med['uncached'] / med['startup']:.1f}x start-up; PYTHONDONTWRITEBYTECODE=1)")
        if args.profile:
            print("heaviest top-level imports (ms, cache on; python -X importtime):")
            for module, ms in heaviest_imports(command, cached, 12):
                print(f"  {module:<44} {ms:6.1f}")


if __name__ == "__main__":
    main()
