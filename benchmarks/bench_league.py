"""Benchmark: a hosted league on PostgreSQL with four referee processes, against the
SQLite store with one.

    .venv/bin/python benchmarks/bench_league.py [--campaigns N] [--workers W]

A league of N campaigns (default 1,000) is created once in an SQLite store with real
passwords (Argon2id, each player's hashed once: ``Player.hashed``; done apart, not
timed here: ``bench_campaign.py`` times creation), each with one orders set submitted; the store is copied (``store copy``'s code, histories verified) into a
PostgreSQL database of a private server started for the run (PostgreSQL's default
durability: fsync and synchronous commit on, as SQLite's ``synchronous = FULL``).
Then every campaign is advanced one step -- ``adjudicate`` with the reports queued,
then ``send`` writing them as .eml files -- twice:

* SQLite: one worker process advances all N campaigns;
* PostgreSQL: W worker processes (default 4) each advance a share of them at once.

Printed: wall time and steps per second of each; CPU seconds per step of the workers
and, for PostgreSQL, of the database server too (read from /proc); the wall-clock
speed-up; and, because a shared machine may have fewer free cores than workers, the
speed-up projected from CPU time per step: W workers with a core each, the server on
its own host (``client``), or on the same cores (``with server``).  Target: at least
2.5x with four workers.  The baseline ratio is the calibration workload of
``common.py`` measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import calibration

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.campaign import Campaigns, Player  # noqa: E402
from adjudicator.campaign.mailroom import Mailroom  # noqa: E402
from adjudicator.fairdice import generate_keypair, load_private_key, save_private_key  # noqa: E402
from adjudicator.store import Store, copy_campaigns  # noqa: E402

TARGET = 2.5
REFEREE = "referee@league.test"
PLAYERS = [Player("japan", "togo@japan.test", "pw-japan-1904"),
           Player("russia", "makarov@russia.test", "pw-russia-1904")]
ORDERS = "campaign: {name}\nside: japan\nturn: 1\nstep: 1\npassword: pw-japan-1904\nsortie:\n  Mikasa to Tsushima\n"


def make_league(folder: Path, count: int) -> tuple[Path, Path, list[str]]:
    """The SQLite league (every campaign waiting to be advanced) and the key file."""
    key = generate_keypair()[0]
    save_private_key(folder / "referee.key", key, None)
    names = [f"league-{n:04d}" for n in range(count)]  # the first ones warm the workers up
    players = [player.hashed() for player in PLAYERS]  # each password hashed once for the whole league
    with Store.open(folder / "league.sqlite3") as store:
        campaigns = Campaigns(store)
        for name in names:
            campaigns.create(name, "port-arthur", players, key, referee_address=REFEREE)
            campaigns.submit(name, ORDERS.format(name=name), key)
    return folder / "league.sqlite3", folder / "referee.key", names


def worker(store: str, key_path: str, names_file: str, outbox: str) -> None:
    """One referee process: advance each named campaign one step; print JSON figures.

    The first campaign of the list warms the process up (loading the game's data,
    rules and templates) and is left out of the figures: that is paid once per
    process, not per step."""
    key = load_private_key(key_path, None)
    names = Path(names_file).read_text().split()
    with Store.open(store, busy_timeout=60) as opened:
        campaigns = Campaigns(opened)
        mailroom = Mailroom(campaigns, Path(outbox))
        warm_up, names = names[0], names[1:]  # loads the game's data, rules, templates
        campaigns.adjudicate(warm_up, key, after=mailroom.queue_reports)
        mailroom.send(warm_up, None)
        began_wall, began_cpu = time.time(), time.process_time()
        for name in names:
            step = campaigns.adjudicate(name, key, after=mailroom.queue_reports)
            mailroom.send(name, None)
            if step.batch is None:
                sys.exit(f"campaign {name} did not advance")
        figures = {"start": began_wall, "end": time.time(), "cpu": time.process_time() - began_cpu,
                   "steps": len(names)}
    print(json.dumps(figures), flush=True)


def run_workers(store: str, key: Path, names: list[str], workers: int, folder: Path) -> dict:
    """Advance ``names`` with ``workers`` processes at once; the combined figures."""
    folder.mkdir()
    processes = []
    warm_ups, names = names[:workers], names[workers:]
    for index in range(workers):
        share = folder / f"names-{index}.txt"
        share.write_text("\n".join([warm_ups[index], *names[index::workers]]))
        processes.append(subprocess.Popen(
            [sys.executable, __file__, "--worker", store, str(key), str(share), str(folder / f"outbox-{index}")],
            stdout=subprocess.PIPE, text=True, cwd=ROOT))
    results = []
    for process in processes:
        out, _ = process.communicate()
        if process.returncode:
            sys.exit(f"a worker failed ({process.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    wall = max(r["end"] for r in results) - min(r["start"] for r in results)
    return {"wall": wall, "cpu": sum(r["cpu"] for r in results), "steps": sum(r["steps"] for r in results)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    from tests.pg_cluster import PostgresCluster

    count, workers = args.campaigns, args.workers
    print(f"== a league of {count:,} campaigns, each advanced one step: "
          f"PostgreSQL with {workers} workers against SQLite with one ({os.cpu_count()} CPUs here)")
    calibrations = [calibration()]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        began = time.perf_counter()
        template, key, names = make_league(folder, count + 1 + workers)
        print(f"league created and orders submitted (apart): {time.perf_counter() - began:.0f} s", flush=True)

        sqlite_store = folder / "sqlite-run.sqlite3"
        shutil.copyfile(template, sqlite_store)
        cluster = PostgresCluster(durable=True)
        try:
            url = cluster.new_database("league")
            began = time.perf_counter()
            with Store.open(template) as source, Store.open(url) as target:
                copied = list(copy_campaigns(source, target))
            print(f"copied to PostgreSQL, every history verified (apart): {len(copied):,} campaigns, "
                  f"{time.perf_counter() - began:.0f} s", flush=True)

            calibrations.append(calibration())
            lite = run_workers(str(sqlite_store), key, names[workers:], 1, folder / "sqlite")
            calibrations.append(calibration())
            server_before = cluster.server_cpu_seconds()
            pg = run_workers(url, key, names[1:], workers, folder / "postgresql")
            pg["server"] = cluster.server_cpu_seconds() - server_before
            calibrations.append(calibration())
        finally:
            cluster.stop()
    report(lite, pg, workers, sorted(calibrations)[len(calibrations) // 2])


def report(lite: dict, pg: dict, workers: int, calib: float) -> None:
    steps = lite["steps"]
    lite_cpu = lite["cpu"] / steps
    pg_client, pg_server = pg["cpu"] / steps, pg["server"] / steps
    print(f"SQLite, 1 worker:        {lite['wall']:7.1f} s wall, {steps / lite['wall']:6.1f} steps/s, "
          f"CPU {lite_cpu * 1000:6.1f} ms/step")
    print(f"PostgreSQL, {workers} workers:  {pg['wall']:7.1f} s wall, {steps / pg['wall']:6.1f} steps/s, "
          f"CPU {pg_client * 1000:6.1f} ms/step in the workers + {pg_server * 1000:.1f} ms/step in the server")
    print(f"speed-up, wall clock on this machine:            {lite['wall'] / pg['wall']:.2f}x")
    print(f"speed-up from CPU per step, {workers} cores for workers, server apart: "
          f"{workers * lite_cpu / pg_client:.2f}x (target {TARGET}x)")
    print(f"speed-up from CPU per step, server on the same {workers} cores:   "
          f"{workers * lite_cpu / (pg_client + pg_server):.2f}x")
    print(f"calibration (median, this run): {calib * 1000:.0f} ms; SQLite step = {lite_cpu / calib:.2f} calibrations")


if __name__ == "__main__":
    main()
