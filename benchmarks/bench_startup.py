"""Benchmark: cold commands, as a referee or a player runs them (a new process each),
CPU time and wall time, and how many modules each imports.

    .venv/bin/python benchmarks/bench_startup.py [--runs 7]

Commands: `--version` (the command line alone), `status` of a campaign, `check` of a
sample orders file, `verify` of a campaign's public record. Each run is paired with
the baseline, the interpreter's own start-up (`python -c pass`); figures are medians.
The floor is printed too: the interpreter's start-up, and `python -c "import lark"` (the
parser library alone, which `check` cannot do without), with how far above each
command is.
CPU time (user + system of the child) is reported first: it is what the code costs,
where wall time also counts the machine's other work. Python's bytecode cache is on,
in a temporary folder, as after a normal install.

Targets (wall): check < 200 ms, status < 150 ms, verify < 100 ms beyond start-up.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "port-arthur" / "japan-turn1.orders"
TARGETS = {"check": ("wall", 0.200), "status": ("wall", 0.150), "verify": ("beyond start-up", 0.100)}


def run(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr.decode()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def module_count(command: list[str], env: dict[str, str], cwd: Path) -> int:
    done = subprocess.run([sys.executable, "-X", "importtime", *command[1:]], env=env, cwd=cwd,
                          capture_output=True, text=True)
    return sum(line.startswith("import time:") for line in done.stderr.splitlines()) - 1


def setup(folder: Path, env: dict[str, str]) -> None:
    """A campaign with a few steps, and its public record."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_dice import complete_record

    record = complete_record(folder)
    (folder / "record.jsonl").write_text(record, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith("ADJUDICATOR_")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        setup(folder, env)
        stores = sorted(folder.glob("**/*.sqlite3"))
        adjudicator = [sys.executable, "-m", "adjudicator"]
        commands = {
            "--version": adjudicator + ["--version"],
            "status": adjudicator + ["status", "bench", "--store", str(stores[0])] if stores else None,
            "check": adjudicator + ["check", str(SAMPLE)],
            "verify": adjudicator + ["verify", str(folder / "record.jsonl")],
        }
        baseline = [sys.executable, "-c", "pass"]
        commands["import lark"] = [sys.executable, "-c", "import lark"]  # the floor of a command that parses orders
        for command in filter(None, commands.values()):  # warm the bytecode cache
            run(command, env, folder)
        results = {}
        for name, command in commands.items():
            if command is None:
                continue
            walls, cpus, base_walls, base_cpus = [], [], [], []
            for _ in range(args.runs):
                wall, cpu = run(command, env, folder)
                base_wall, base_cpu = run(baseline, env, folder)
                walls.append(wall), cpus.append(cpu), base_walls.append(base_wall), base_cpus.append(base_cpu)
            results[name] = (statistics.median(walls), statistics.median(cpus), statistics.median(base_walls),
                             statistics.median(base_cpus), module_count(command, env, folder))
    print(f"cold commands, medians of {args.runs} runs (baseline: python -c pass)")
    lark_cpu = results["import lark"][1]
    for name, (wall, cpu, base_wall, base_cpu, modules) in results.items():
        line = (f"  {name:<11} CPU {cpu * 1000:6.0f} ms ({cpu / base_cpu:4.1f}x start-up; "
                f"{(cpu - base_cpu) * 1000:4.0f} beyond it, {(cpu - lark_cpu) * 1000:+5.0f} against import lark), "
                f"wall {wall * 1000:6.0f} ms (start-up {base_wall * 1000:.0f}), {modules} modules")
        if name in TARGETS:
            kind, target = TARGETS[name]
            value = wall - base_wall if kind == "beyond start-up" else wall
            line += f"; target {kind} < {target * 1000:.0f} ms: {value / target:.2f}x target"
        print(line)
    print(f"machine load (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
