"""Benchmark: does a campaign step cost more late in a campaign than early?

    .venv/bin/python benchmarks/bench_campaign_length.py [--late 49] [--runs 7] [--game port-arthur]

A campaign of ``--game`` is played in one store by the game's automatic commanders
(orders submitted with their passwords, then adjudicated) up to step ``--late``. Copies of the
store taken before step 1 and before step ``--late`` are then each given one step as
a new referee process would run it: the parse caches emptied, the orders received
(``prepare`` + ``submit``) and the step adjudicated. The figure is the CPU time of that
step (median over ``--runs`` fresh copies), and the ratio late / early. The late step
is also timed on copies whose game snapshot was deleted (the game then replays from
the start, as before snapshots: docs/snapshots.md), the baseline of the same run.

Steps differ in what they carry: in Tsushima 1905 (cadence "turn") the first side's
orders only wait for the other's, and the second side's orders play out the whole turn.
So the first step whose orders come from the same side as the late step is timed too,
and the late step compared with it: like with like, which is what shows whether a step
costs more because the campaign is long.

Before each timed step the caches a new referee process starts without are emptied:
the parse caches, the history entries already checked and read, and for Tsushima 1905 the geometry kernel's corners and sweeps and
the movement planner's move offsets.

Steps also differ in what happens in them (a battle, the game's end), whatever the
campaign's length. So every step of the campaign is timed as well (``--runs-each`` rounds,
each timing every step once on a fresh copy, in a new random order each round so that
the machine slowing down or speeding up meanwhile does not pass for a slope; the median
of each step), and a straight line fitted to cost against step number: its slope
is what a step costs more for every step already played (the measure the campaign's
length alone adds; a robust fit, so that a step with a long battle in it does not tilt
it), and the line's value at the late step against its value at step 1
is the target's ratio with the steps' own differences averaged out. The same fit over
the steps of each side is printed where sides alternate (like with like).

Target: step 49 (or the last step the game reaches) costs at most 1.1x step 1.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_campaign import PLAYERS, players  # noqa: E402
from common import calibration  # noqa: E402

from adjudicator import games  # noqa: E402
from adjudicator.campaign import Campaigns, log, summary  # noqa: E402
from adjudicator.campaign.running import stored_orders  # noqa: E402
from adjudicator.campaign.snapshots import GAME_SNAPSHOT  # noqa: E402
from adjudicator.fairdice import SeedChain, generate_keypair  # noqa: E402
from adjudicator.store import Store, history  # noqa: E402

NAME = "long"


class Writer:
    """Writes the orders for the question a campaign waits for, as its players would
    (the game's automatic commander, ``commander`` of its plug-in)."""

    def __init__(self, game: str, rng: random.Random) -> None:
        self.plugin = games.get(game)
        self.rng = rng
        self.commanders: dict[str, object] = {}

    def orders(self, campaigns: Campaigns, name: str) -> str | None:
        return self.orders_and_side(campaigns, name)[0]

    def orders_and_side(self, campaigns: Campaigns, name: str) -> tuple[str | None, str | None]:
        log, match = campaigns.match(name)
        on_file = log.orders_for(log.next_batch)  # (a stop may ask several sides: each in turn writes)
        decision = next((d for d in match.decisions if d.side not in on_file), match.decision)
        if decision is None or match.finished or log.forfeit is not None:
            return None, None
        commander = self.commanders.get(decision.side)
        if commander is None:
            commander = self.commanders[decision.side] = self.plugin.commander(decision.side, self.rng)
        header = {"campaign": name, "side": decision.side, "turn": match.state.turn, "step": log.next_batch,
                  "password": PLAYERS[decision.side][1], "entropy": f"{self.rng.getrandbits(64):016x}"}
        return commander.orders(decision, match.state, header), decision.side


def play_step(path: Path, key, writer: Writer) -> bool:
    with Store.open(path) as store:
        campaigns = Campaigns(store)
        text = writer.orders(campaigns, NAME)
        if text is None:
            return False
        campaigns.submit(NAME, text, key)
        campaigns.adjudicate(NAME, key)
        return True


def fresh_process_caches(game: str) -> None:
    """Empty what a new referee process starts without."""
    stored_orders.cache_clear()
    for remembered in (getattr(history, "_content_problem", None), getattr(history, "_hash_matches", None),
                       getattr(history, "_entry_from_row", None), getattr(log, "_read_entry", None),
                       getattr(summary, "_opened", None)):
        if remembered is not None:  # each history entry checked and read once per process
            remembered.cache_clear()
    if game == "tsushima-1905":
        from adjudicator.games.tsushima_1905 import planner
        from adjudicator.games.tsushima_1905.data import load_data
        from adjudicator.games.tsushima_1905.rules.table import geometry_of

        geometry = geometry_of(load_data())
        if hasattr(geometry, "forget"):       # older versions kept these caches warm
            geometry.forget()
            planner.forget()


def timed_step(path: Path, key, text: str, game: str = "port-arthur") -> float:
    """CPU seconds of one step on the store at ``path``, as a new process runs it: the
    store's history read once before (untimed), so that the user's cache folder holds
    the mark of the history checked whole that the store's last command left
    (adjudicator/store/checked.py; the copies of other steps leave marks of their own
    length), then the caches a new process starts without emptied."""
    with Store.open(path) as store:
        store.entries(NAME)
    fresh_process_caches(game)
    start = time.process_time()
    with Store.open(path) as store:
        campaigns = Campaigns(store)
        prepared = campaigns.prepare(NAME, text)
        with store.transaction(NAME) as tx:
            campaigns.submit_in(tx, text, key, prepared=prepared)
        campaigns.adjudicate(NAME, key)
    return time.process_time() - start


def fitted_line(points: list[tuple[int, float]]) -> tuple[float, float]:
    """``(intercept, slope)`` of cost against step number, by Theil and Sen: the
    median of the slopes between every two steps, and the median intercept for it. A
    step with a long battle in it moves a least-squares line; it moves this one only as
    one point among many."""
    slopes = [(b_cost - a_cost) / (b_step - a_step)
              for i, (a_step, a_cost) in enumerate(points) for b_step, b_cost in points[i + 1:] if b_step != a_step]
    slope = statistics.median(slopes) if slopes else 0.0
    return statistics.median(cost - slope * step for step, cost in points), slope


def print_fit(label: str, points: list[tuple[int, float]], late: int) -> None:
    """The fitted line's slope, and its value at step ``late`` against its value at the
    first step of ``points``."""
    if len(points) < 3:
        return
    intercept, slope = fitted_line(points)
    first = points[0][0]
    at_first, at_late = intercept + slope * first, intercept + slope * late
    print(f"{label}: {len(points)} steps, slope {slope * 1000:+.2f} ms CPU per step already played; "
          f"fitted step {late} / step {first}: {at_late / at_first:.2f} (target <= 1.10)")


def without_snapshot(path: Path) -> None:
    """Delete the campaign's game snapshot (the next step replays from the start)."""
    with Store.open(path) as store, store.transaction(NAME) as tx:
        tx.delete_secret(GAME_SNAPSHOT)


def reproducible_dice(seed: int) -> None:
    """The referee's seed chains drawn from a seeded generator, so that every run (and
    every version of the code measured) plays the same game."""
    drawn = random.Random(seed)
    generate = SeedChain.generate.__func__

    def seeded(cls, *args, **kwargs):
        return generate(cls, *args, **{**kwargs, "rng": drawn.randbytes})

    SeedChain.generate = classmethod(seeded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--late", type=int, default=49)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--runs-each", type=int, default=3,
                        help="fresh copies timed for each step of the fitted line (0: no fit)")
    parser.add_argument("--game", default="port-arthur", choices=games.names())
    args = parser.parse_args()
    reproducible_dice(1904)
    key, _ = generate_keypair()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        live = folder / "live.sqlite3"
        with Store.open(live) as store:
            campaigns = Campaigns(store)
            campaigns.create(NAME, args.game, players(), key)
            if campaigns.match(NAME)[1].decision is None:  # the set-up draws before anyone is asked
                campaigns.adjudicate(NAME, key)
        writer = Writer(args.game, random.Random(1904))
        saved: dict[int, tuple[Path, str]] = {}
        sides: dict[int, str] = {}
        late = 1
        for step in range(1, args.late + 1):
            with Store.open(live) as store:
                text, sides[step] = writer.orders_and_side(Campaigns(store), NAME)
            if text is None:
                print(f"the game ended after step {step - 1}: step {late} is timed as the late step")
                break
            late = step
            copy = folder / f"before-{step}.sqlite3"
            shutil.copyfile(live, copy)
            saved[step] = (copy, text)
            with Store.open(live) as store:
                campaigns = Campaigns(store)
                campaigns.submit(NAME, text, key)
                campaigns.adjudicate(NAME, key)
        alike = min(step for step in saved if sides[step] == sides[late])
        every_step = dict(saved)
        saved = {step: saved[step] for step in (1, alike, late)}
        figures: dict[str, list[float]] = {"early": [], "alike": [], "late": [], "full": []}
        base = statistics.median(calibration() for _ in range(3))
        for run in range(args.runs):
            for name, (original, text) in (("early", saved[1]), ("alike", saved[alike]), ("late", saved[late]),
                                           ("full", saved[late])):
                trial = folder / f"trial-{name}-{run}.sqlite3"
                shutil.copyfile(original, trial)
                if name == "full":
                    without_snapshot(trial)
                figures[name].append(timed_step(trial, key, text, args.game))
        early, alike_cost, late_cost, full = (statistics.median(figures[s]) for s in ("early", "alike", "late", "full"))
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")
        print(f"calibration (baseline workload): {base * 1000:.1f} ms")
        print(f"step 1:  {early * 1000:.1f} ms CPU (median of {args.runs}; {early / base:.2f}x calibration)")
        print(f"step {late}: {late_cost * 1000:.1f} ms CPU (median of {args.runs}; {late_cost / base:.2f}x calibration)")
        print(f"step {late} without its snapshot (replayed from the start): {full * 1000:.1f} ms CPU "
              f"(median of {args.runs}; {full / early:.2f}x step 1)")
        print(f"ratio step {late} / step 1: {late_cost / early:.2f} (target <= 1.10)")
        if alike != 1:
            print(f"step {alike}, the first step whose orders come from the same side as step {late} "
                  f"({sides[late]}): {alike_cost * 1000:.1f} ms CPU (median of {args.runs})")
            print(f"ratio step {late} / step {alike} (like with like): {late_cost / alike_cost:.2f}")
        if args.runs_each > 0:
            costs: dict[int, list[float]] = {step: [] for step in every_step}
            order = list(every_step)
            for run in range(args.runs_each):  # every step once a round, in a new order each round, so
                random.Random(run).shuffle(order)  # that the machine's drift does not pass for a slope
                for step in order:
                    original, text = every_step[step]
                    trial = folder / f"trial-step-{step}-{run}.sqlite3"
                    shutil.copyfile(original, trial)
                    costs[step].append(timed_step(trial, key, text, args.game))
                    trial.unlink()
            per_step = [(step, statistics.median(costs[step])) for step in every_step]
            print("every step, CPU ms (median of " f"{args.runs_each}): "
                  + " ".join(f"{step}:{cost * 1000:.0f}" for step, cost in per_step))
            print_fit("fitted line, every step", per_step, late)
            if alike != 1:
                for side in dict.fromkeys(sides[step] for step, _ in per_step):
                    own = [point for point in per_step if sides[point[0]] == side]
                    print_fit(f"fitted line, {side}'s steps", own, own[-1][0])


if __name__ == "__main__":
    main()
