"""Benchmark: ``verify`` of a 50-step record, in the program and in the browser.

    .venv/bin/python benchmarks/bench_verify_record.py [--rounds R] [--steps N] [--no-browser]

Plays a campaign of N steps (default 50; or the whole game if it ends before) through the real campaign code, the
players sending orders with entropy (adjudicator.campaign.examples), then times:
- ``verify_text`` in process (median of R rounds), and the schema checks alone, CPU time;
- the ``verify`` command, wall and CPU time, and the interpreter's start-up (``python -c pass``);
- the browser verifier in headless chromium: the page's own measure of its check, and
  the wall time of chromium on the record minus chromium on a one-record log.
Targets: verify under 100 ms beyond start-up; the browser under 1 s.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import USER_ENV, wall  # noqa: E402
from adjudicator.campaign.campaign import Campaigns  # noqa: E402
from adjudicator.campaign.examples import play_example  # noqa: E402
from adjudicator.campaign.record_schema import schema_problem  # noqa: E402
from adjudicator.campaign.verify import verify_text  # noqa: E402
from adjudicator.fairdice import records_from_jsonl  # noqa: E402
from adjudicator.store import Store  # noqa: E402



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--game", default="russo-japanese-war", help="the game (a whole Tsushima game is about "
                        "20 steps, Port Arthur's about 25: they end before 50)")
    parser.add_argument("--no-browser", action="store_true", help="skip the browser verifier")
    args = parser.parse_args()
    med = statistics.median
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        with Store.open(folder / "bench.sqlite3") as store:
            record = play_example(Campaigns(store), "bench", args.game, {}, args.steps)
        path = folder / "record.jsonl"
        path.write_text(record, encoding="utf-8")
        records = records_from_jsonl(record)
        verdict = verify_text(record)
        in_process, schemas, command, startup, command_cpu, startup_cpu = [], [], [], [], [], []
        wall([sys.executable, "-m", "adjudicator", "verify", str(path)])  # writes the bytecode
        for _ in range(args.rounds):
            start = time.process_time()
            verify_text(record)
            in_process.append(time.process_time() - start)
            start = time.process_time()
            for one in records:
                schema_problem(one.kind, one.body)
            schemas.append(time.process_time() - start)
            command.append(wall([sys.executable, "-m", "adjudicator", "verify", str(path)]))
            startup.append(wall([sys.executable, "-c", "pass"]))
            command_cpu.append(child_cpu([sys.executable, "-m", "adjudicator", "verify", str(path)]))
            startup_cpu.append(child_cpu([sys.executable, "-c", "pass"]))
        print(f"record: {len(records)} records, {verdict.batches} batches, {verdict.dice} dice, "
              f"{len(record) / 1024:.0f} KiB, verified={verdict.verified}")
        print(f"verify, in process, CPU: {med(in_process) * 1000:.1f} ms (median of {args.rounds}); "
              f"of which the JSON Schema checks {med(schemas) * 1000:.1f} ms")
        print(f"verify command, wall:    {med(command) * 1000:.1f} ms; start-up {med(startup) * 1000:.1f} ms; "
              f"beyond start-up {(med(command) - med(startup)) * 1000:.1f} ms (target < 100 ms)")
        print(f"verify command, CPU:     {med(command_cpu) * 1000:.1f} ms; start-up {med(startup_cpu) * 1000:.1f} ms; "
              f"beyond start-up {(med(command_cpu) - med(startup_cpu)) * 1000:.1f} ms")
        if not args.no_browser:
            browser(record, records, folder, args.rounds)


def child_cpu(command: list[str]) -> float:
    """The CPU time (user and system) of ``command`` run as a new process, as a user runs it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=False, capture_output=True, env=USER_ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def browser(record: str, records: list, folder: Path, rounds: int) -> None:
    from tests.browser import BROWSER
    from tests.campaign.browser_verifier import browser_verdicts

    if BROWSER is None:
        print("browser: no chromium here")
        return
    from adjudicator.fairdice import records_to_jsonl

    short = records_to_jsonl(records[:1])
    page, walls, shorts = [], [], []
    for number in range(rounds):
        start = time.perf_counter()
        found = browser_verdicts([("record", record, "")], folder / f"b{number}")["record"]
        walls.append(time.perf_counter() - start)
        start = time.perf_counter()
        browser_verdicts([("record", short, "")], folder / f"s{number}")
        shorts.append(time.perf_counter() - start)
        page.append(found.get("ms", 0) / 1000)
    med = statistics.median
    print(f"browser verifier:        {found['status']}; the page's own measure {med(page) * 1000:.0f} ms; "
          f"chromium wall on the record minus on a one-record log {(med(walls) - med(shorts)) * 1000:.0f} ms "
          "(target < 1 s)")


if __name__ == "__main__":
    main()
