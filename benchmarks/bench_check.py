"""Benchmark: `adjudicator check` of a sample orders file, wall time as a player runs
it (a new process, start-up included).

    .venv/bin/python benchmarks/bench_check.py [--runs R] [--profile] [--against DIR]

Each run of the command is paired with a run of the baseline, the interpreter's own
start-up (`python -c pass`), and figures are medians over the runs. Python's bytecode
cache is on, kept in a temporary folder, as after a normal install; the same command
with the cache off (PYTHONDONTWRITEBYTECODE=1: every module compiled on each run) is
timed too, for comparison, and so is `python -c "import lark"`, the floor of a command
that parses orders. Wall and CPU time (user + system of the child) are both shown: on a
loaded machine wall time also counts the other work. `--profile` lists the heaviest
imports. `--against DIR` also times, alternately in the same runs, the check of another
checkout of the project (e.g. main's), with this interpreter, for a before/after ratio.

Target: under 200 ms wall (issue 12).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "port-arthur" / "japan-turn1.orders"
TARGET = 0.200


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


def timed(command: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``command`` in a new process (run from ``cwd``, a
    temporary folder, so that ``python -m`` finds the checkout on PYTHONPATH, not this one)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=cwd)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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
    parser.add_argument("--against", type=Path, help="another checkout of the project, timed alternately")
    args = parser.parse_args()
    command = cli() + ["check", str(SAMPLE)]
    with tempfile.TemporaryDirectory() as tmp:
        cached, uncached = environment(Path(tmp) / "pycache"), environment(None)
        runs: dict[str, tuple[list[str], dict[str, str]]] = {
            "cached": (command, cached), "startup": ([sys.executable, "-c", "pass"], cached),
            "lark": ([sys.executable, "-c", "import lark"], cached), "uncached": (command, uncached)}
        if args.against:
            other = {**environment(Path(tmp) / "pycache-other"), "PYTHONPATH": str(args.against.resolve())}
            runs["other"] = ([sys.executable, "-m", "adjudicator", "check", str(SAMPLE)], other)
        for program, env in runs.values():
            if env is not uncached:
                timed(program, env, tmp)  # fills the bytecode cache and the grammar caches
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in runs}
        for _ in range(args.runs):
            for label, (program, env) in runs.items():
                times[label].append(timed(program, env, tmp))
        wall = {label: statistics.median(w for w, _ in values) for label, values in times.items()}
        cpu = {label: statistics.median(c for _, c in values) for label, values in times.items()}

        def line(label: str, title: str, note: str) -> None:
            print(f"{title:<30}{wall[label] * 1000:6.0f} ms wall {cpu[label] * 1000:6.0f} ms CPU  {note}")

        print(f"adjudicator check {SAMPLE.relative_to(ROOT)} (medians of {args.runs} runs; {' '.join(cli())}; "
              f"load {os.getloadavg()[0]:.1f})")
        line("startup", "interpreter start-up:", "(python -c pass; the baseline)")
        line("lark", "import lark alone:", f"(the floor of a command that parses orders; check is "
             f"{(wall['cached'] - wall['lark']) * 1000:.0f} ms wall, {(cpu['cached'] - cpu['lark']) * 1000:.0f} ms "
             "CPU above it)")
        line("cached", "check, bytecode cache on:", f"({wall['cached'] / wall['startup']:.1f}x start-up; target < "
             f"{TARGET * 1000:.0f} ms wall: {wall['cached'] / TARGET:.2f}x target)")
        line("uncached", "check, bytecode cache off:", "(PYTHONDONTWRITEBYTECODE=1)")
        if args.against:
            line("other", f"check of {args.against}:", f"(this checkout / that one: {wall['cached'] / wall['other']:.2f}x "
                 f"wall, {cpu['cached'] / cpu['other']:.2f}x CPU)")
        if args.profile:
            print("heaviest top-level imports (ms, cache on; python -X importtime):")
            for module, ms in heaviest_imports(command, cached, 12):
                print(f"  {module:<44} {ms:6.1f}")


if __name__ == "__main__":
    main()
