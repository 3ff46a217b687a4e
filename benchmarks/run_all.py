"""Run every benchmark, one after another, and print what each prints.

    .venv/bin/python benchmarks/run_all.py [--only NAME ...] [--skip NAME ...] [--list]

NAME is a benchmark's file name without ``bench_`` and ``.py`` (``games``, ``serve``,
``campaign_length``, ...). Each runs in a process of its own with its default
settings, as its own command line would run it (``benchmarks/README.md`` lists them,
their targets and their options); the campaign-length benchmark runs once for each game.
Before each, the machine's load is printed: every figure is a median with a ratio to a
baseline measured in the same run, but a loaded machine still moves wall times.

All of them take about five minutes on a quiet 2-core machine (``bench_league.py`` starts a
private PostgreSQL server: it needs ``initdb`` from the PostgreSQL server packages and
is skipped, with a line saying so, where there is none). The exit code is the number of
benchmarks that failed to run (0: all ran; a target not met is not a failure).
"""

from __future__ import annotations

import argparse
import glob
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: (name, arguments), in the order they run: the quick ones first.
BENCHMARKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("startup", ()),
    ("check", ()),
    ("dice", ()),
    ("games", ()),
    ("rjw_games", ()),
    ("rjw_games", ("--players", "reasonable")),
    ("tsushima", ()),
    ("parse", ()),
    ("orders_sizes", ()),
    ("serve", ()),
    ("campaign", ()),
    ("campaign_length", ()),
    ("campaign_length", ("--game", "russo-japanese-war")),
    ("campaign_length", ("--game", "tsushima-1905")),
    ("tournament", ()),
    ("league", ()),
)


def has_postgresql() -> bool:
    return bool(glob.glob("/usr/lib/postgresql/*/bin/initdb")) or any(
        (Path(folder) / "initdb").exists() for folder in os.environ.get("PATH", "").split(os.pathsep))


def run(name: str, arguments: tuple[str, ...]) -> bool:
    """Run one benchmark in a new process; whether it ran to its end."""
    command = [sys.executable, str(HERE / f"bench_{name}.py"), *arguments]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\n=== bench_{name}.py {' '.join(arguments)}  (load {load}; 1, 5, 15 min)", flush=True)
    start = time.monotonic()
    done = subprocess.run(command, cwd=HERE.parent, check=False)
    print(f"--- {time.monotonic() - start:.0f} s wall" + ("" if done.returncode == 0 else
          f"; FAILED with exit code {done.returncode}"), flush=True)
    return done.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these")
    parser.add_argument("--skip", nargs="+", metavar="NAME", default=[], help="leave these out")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    args = parser.parse_args()
    known = {name for name, _ in BENCHMARKS}
    unknown = sorted((set(args.only or ()) | set(args.skip)) - known)
    if unknown:
        parser.error(f"no benchmark named {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    chosen = [(name, arguments) for name, arguments in BENCHMARKS
              if (args.only is None or name in args.only) and name not in args.skip]
    if args.list:
        for name, arguments in chosen:
            print(f"bench_{name}.py {' '.join(arguments)}".rstrip())
        return 0
    failed = 0
    for name, arguments in chosen:
        if name == "league" and not has_postgresql():
            print("\n=== bench_league.py: skipped (no PostgreSQL server installed: its initdb is not found)")
            continue
        failed += not run(name, arguments)
    return failed


if __name__ == "__main__":
    sys.exit(main())
