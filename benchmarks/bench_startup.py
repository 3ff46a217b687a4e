"""Benchmark: cold commands, as a referee or a player runs them (a new process each),
CPU time and wall time, and how many modules each imports.

    .venv/bin/python benchmarks/bench_startup.py [--runs 7] [--against ../main]

Commands: `--version` (the command line alone), `status` of a campaign, `check` of a
sample orders file, `verify` of a campaign's public record, and `step NAME FILE.eml`
(an orders email taken in, the step adjudicated and its mail written, as from cron; each
run on a fresh copy of the same campaign). Each run is paired with the baseline, the
interpreter's own start-up (`python -c pass`); figures are medians.
`--against DIR` also runs every command of another checkout (its own `.venv`, e.g. the
main branch's), alternately with this one's, and prints this one's CPU time as a ratio
of that one's.
The floor is printed too: the interpreter's start-up, and `python -c "import lark"` (the
parser library alone, which `check` cannot do without), with how far above each
command is.
CPU time (user + system of the child) is reported first: it is what the code costs,
where wall time also counts the machine's other work. Python's bytecode cache is on,
in a temporary folder, as after a normal install.

Targets (wall): check < 200 ms, status < 150 ms, verify < 100 ms beyond start-up,
step < 300 ms.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "port-arthur" / "japan-turn1.orders"
TARGETS = {"check": ("wall", 0.200), "status": ("wall", 0.150), "verify": ("beyond start-up", 0.100),
           "step": ("wall", 0.300)}


def run(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one child process (a step: on a fresh copy of its campaign)."""
    if "step" in command:
        fresh_step_desk(cwd)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr.decode()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def module_count(command: list[str], env: dict[str, str], cwd: Path) -> int:
    if "step" in command:
        fresh_step_desk(cwd)
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], env=env, cwd=cwd,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return sum(line.startswith("import time:") for line in done.stderr.splitlines()) - 1


def setup(folder: Path, env: dict[str, str]) -> None:
    """A campaign waiting for orders with an orders email for it (for `step`), and a
    finished campaign's public record (for `verify`)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    setup_step(folder / "step-base")
    from bench_dice import complete_record  # (it then plays only its own automatic game)

    record = complete_record(folder)
    (folder / "record.jsonl").write_text(record, encoding="utf-8")


def setup_step(base: Path) -> None:
    """A campaign two steps in, the referee's clear key, and the next orders by email."""
    import random

    from bench_campaign import REFEREE, Writer, orders_email, players

    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.fairdice import generate_keypair, save_private_key
    from adjudicator.store import Store

    base.mkdir()
    key = generate_keypair()[0]
    save_private_key(base / "referee.key", key, None)
    writer = Writer(random.Random(1904))
    with Store.open(base / "campaigns.sqlite3") as store:
        campaigns = Campaigns(store)
        campaigns.create("bench", "port-arthur", players(), key, referee_address=REFEREE)
        mailroom = Mailroom(campaigns, base / "outbox")
        for _ in range(3):
            text = writer.orders(campaigns, "bench")
            (base / "orders.eml").write_bytes(orders_email("bench", text))
            if _ < 2:
                mailroom.receive(str(base / "orders.eml"), key, "bench")
                campaigns.adjudicate("bench", key, after=mailroom.queue_reports)
    shutil.rmtree(base / "outbox", ignore_errors=True)


def fresh_step_desk(folder: Path) -> None:
    """The step's campaign as it was before its orders came (a step changes it)."""
    desk = folder / "step"
    shutil.rmtree(desk, ignore_errors=True)
    shutil.copytree(folder / "step-base", desk)


def commands_of(python: str, folder: Path) -> dict[str, list[str] | None]:
    stores = sorted(folder.glob("bench.sqlite3"))
    adjudicator = [python, "-m", "adjudicator"]
    desk = folder / "step"
    return {
        "--version": adjudicator + ["--version"],
        "status": adjudicator + ["status", "bench", "--store", str(stores[0])] if stores else None,
        "check": adjudicator + ["check", str(SAMPLE)],
        "verify": adjudicator + ["verify", str(folder / "record.jsonl")],
        "step": adjudicator + ["step", "bench", str(desk / "orders.eml"), "--outbox", str(desk / "outbox"),
                               "--store", str(desk / "campaigns.sqlite3"), "--key", str(desk / "referee.key")],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--against", type=Path, help="another checkout (with its .venv) to run alternately")
    args = parser.parse_args()
    other = None
    if args.against is not None:
        other = str((args.against / ".venv" / "bin" / "python").absolute())
        if not Path(other).exists():
            sys.exit(f"no {other}: --against names a checkout with its own .venv")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith("ADJUDICATOR_")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        other_env = {**env, "PYTHONPYCACHEPREFIX": str(folder / "pycache-other")}
        setup(folder, env)
        fresh_step_desk(folder)
        ours = commands_of(sys.executable, folder)
        theirs = commands_of(other, folder) if other else {}
        baseline = [sys.executable, "-c", "pass"]
        ours["import lark"] = [sys.executable, "-c", "import lark"]  # the floor of a command that parses orders
        for name, command in ours.items():  # warm the bytecode caches (and the user's cache folder)
            if command is not None:
                run(command, env, folder)
                if name in theirs:
                    run(theirs[name], other_env, folder)
        results, against = {}, {}
        for name, command in ours.items():
            if command is None:
                continue
            walls, cpus, base_walls, base_cpus, other_cpus, other_walls = [], [], [], [], [], []
            for _ in range(args.runs):
                wall, cpu = run(command, env, folder)
                base_wall, base_cpu = run(baseline, env, folder)
                walls.append(wall), cpus.append(cpu), base_walls.append(base_wall), base_cpus.append(base_cpu)
                if theirs.get(name):
                    other_wall, other_cpu = run(theirs[name], other_env, folder)
                    other_walls.append(other_wall), other_cpus.append(other_cpu)
            results[name] = (statistics.median(walls), statistics.median(cpus), statistics.median(base_walls),
                             statistics.median(base_cpus), module_count(command, env, folder))
            if other_cpus:
                against[name] = (statistics.median(other_walls), statistics.median(other_cpus),
                                 module_count(theirs[name], other_env, folder))
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
    if against:
        print(f"against {args.against} (run alternately; CPU ratio: this checkout / that one)")
        for name, (wall, cpu, modules) in against.items():
            print(f"  {name:<11} CPU {cpu * 1000:6.0f} ms, wall {wall * 1000:6.0f} ms, {modules} modules; "
                  f"this one: {results[name][1] / cpu:.2f}x CPU, {results[name][0] / wall:.2f}x wall")
    print(f"machine load (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
