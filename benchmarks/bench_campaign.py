"""Benchmark: one campaign step as the referee runs it (three commands, start-up
included), and a league of campaigns each advanced one step in one process.

    .venv/bin/python benchmarks/bench_campaign.py [--steps S] [--campaigns N] [--profile]

(About 3 minutes on two cores; `--only step` or `--only league` runs one part,
`--campaigns 100` a smaller league, its figures also scaled to 1,000.)

Step: in a temporary folder a campaign is made with the commands (`keys new`, `new`);
then for each step the side the game waits for writes its orders (the automatic
commander), as an .eml file, and the step is timed as the referee types it:
`receive FILE.eml`, `adjudicate NAME`, `send NAME --outbox DIR`, each a new process;
and `step NAME FILE.eml` (the three in one process), as a referee's cron job runs it.
Figures are medians over the steps; the baseline, measured alongside each step, is the
interpreter's own start-up (`python -c pass`). Python's bytecode cache is on, kept in
the temporary folder, as after a normal install (`--no-bytecode-cache`: every module
compiled on each run, as with PYTHONDONTWRITEBYTECODE=1).

League: N campaigns (default 1,000) in one SQLite store, each created in a transaction of
its own (charter, seed chains, the players' Argon2id password hashes -- each player's
password hashed once, with `Player.hashed`, as a referee creating many campaigns for the
same players does; `--opening-mail` queues the opening mails too, as `new` does), one
orders set submitted to each (apart: not a target), then every campaign advanced one
step: `adjudicate` with the reports queued in its transaction, and `send` writing them as
.eml files. For the creation and for the step: CPU and wall time in all and per campaign
(median), the per-campaign CPU in calibrations (the baseline of `common.py`, measured in
the same run between the parts), and the ratio to the target. The machine's load is
printed first: on a shared machine wall time is mostly waiting for a core. Then the
same number of campaigns is created through the command a referee types,
`adjudicator new --roster` (a roster of 64 players, each password hashed once, the
opening mails queued; one process, start-up included), against `new` run once per
campaign (a few, each a new process with two password hashes).

`--profile` adds where the time goes: cProfile of one more step's three commands, the
imports that dominate their start-up, and cProfile of creating and advancing extra
campaigns (profiled apart, so the timed figures stay clean).

Targets: one step under 300 ms (wall, start-up included); 1,000 campaigns created in
under 60 s and advanced one step in under 30 s.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from common import calibration

from adjudicator.campaign import Campaigns, Player
from adjudicator.campaign.demo import player_email
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.campaign.passwords import hash_password
from adjudicator.fairdice import generate_keypair
from adjudicator.games.port_arthur.commander import AutoCommander
from adjudicator.store import Store

GAME = "port-arthur"
REFEREE = "referee@localhost"
PLAYERS = {"japan": ("a@x.org", "pw1"), "russia": ("b@x.org", "pw2")}
STEP_TARGET = 0.300           # seconds, one step (three commands)
LEAGUE_TARGET = 30.0          # seconds, 1,000 campaigns each advanced one step
CREATE_TARGET = 60.0          # seconds, 1,000 campaigns created
LEAGUE_REFERENCE = 1000
ROOT = Path(__file__).resolve().parent.parent
med = statistics.median


# -- shared ----------------------------------------------------------------------------------


def players() -> list[Player]:
    return [Player(side, address, password) for side, (address, password) in PLAYERS.items()]


@dataclass
class Writer:
    """Writes the orders for the question a campaign waits for, as its players would."""

    rng: random.Random
    commanders: dict[tuple[str, str], AutoCommander] = field(default_factory=dict)

    def orders(self, campaigns: Campaigns, name: str) -> str | None:
        log, match = campaigns.match(name)
        decision = match.decision
        if decision is None or match.finished or log.forfeit is not None:
            return None
        commander = self.commanders.setdefault((name, decision.side), AutoCommander(decision.side, self.rng))
        header = {"campaign": name, "side": decision.side, "turn": match.state.turn, "step": log.next_batch,
                  "password": PLAYERS[decision.side][1], "entropy": f"{self.rng.getrandbits(64):016x}"}
        return commander.orders(decision, match.state, header)


def orders_email(name: str, text: str) -> bytes:
    """An orders email as a player's mail program would send it."""
    side = re.search(r"^side: (\w+)", text, re.M).group(1)
    return player_email(text, name=side, address=PLAYERS[side][0], to=REFEREE, subject=f"[{name}] orders")


def top_entries(stats: pstats.Stats, sort: str, count: int) -> str:
    out = io.StringIO()
    stats.stream = out
    stats.sort_stats(sort).print_stats(count)
    lines = out.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
    return "\n".join(line for line in lines[start:] if line.strip())


def project_entries(stats: pstats.Stats, count: int) -> str:
    """The project's own functions by cumulative time, imports (module bodies) left out."""
    rows = [(ct, nc, tt, f"{Path(file).relative_to(ROOT)}:{line}({func})")
            for (file, line, func), (_, nc, tt, ct, _) in stats.stats.items()
            if file.startswith(str(ROOT / "adjudicator")) and func != "<module>"]
    lines = [f"{'cumtime':>9} {'tottime':>9} {'ncalls':>8}  function"]
    lines += [f"{ct:9.3f} {tt:9.3f} {nc:8d}  {name}" for ct, nc, tt, name in sorted(rows, reverse=True)[:count]]
    return "\n".join(lines)


# -- one step, as commands ----------------------------------------------------------------------


def cli() -> list[str]:
    """The `adjudicator` command as a user runs it (the virtualenv's script)."""
    script = Path(sys.executable).with_name("adjudicator")
    return [str(script)] if script.exists() else [sys.executable, "-m", "adjudicator"]


#: CPU seconds (user + system) of each command :func:`run` ran, in order
CPU_TIMES: list[float] = []


def run(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    """Wall seconds and stdout of one command (its CPU seconds go to :data:`CPU_TIMES`)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU_TIMES.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return elapsed, done.stdout


def step_commands(name: str, eml: Path, outbox: Path) -> dict[str, list[str]]:
    return {"receive": ["receive", str(eml)], "adjudicate": ["adjudicate", name],
            "send": ["send", name, "--outbox", str(outbox)]}


def command_env(folder: Path, bytecode_cache: bool) -> dict[str, str]:
    """The environment of the commands: none of the caller's ADJUDICATOR_ settings, and
    Python's bytecode cache on (as after a normal install), kept in ``folder``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADJUDICATOR_")}
    if bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def referee_desk(folder: Path, bytecode_cache: bool) -> tuple[dict[str, str], list[str], float]:
    """The commands' environment (store and key in ``folder``), the command, and the wall
    time of making the referee's key there."""
    env = command_env(folder, bytecode_cache)
    env.update(ADJUDICATOR_STORE=str(folder / "campaigns.sqlite3"), ADJUDICATOR_KEY=str(folder / "referee.key"),
               ADJUDICATOR_KEY_PASSPHRASE="")
    command = cli()
    made, _ = run(command + ["keys", "new", str(folder / "referee.key"), "--no-passphrase"], env, folder)
    return env, command, made


def bench_step(steps: int, profile: bool, top: int, bytecode_cache: bool) -> None:
    name = "bench"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env, command, setup_key = referee_desk(folder, bytecode_cache)
        setup_new, _ = run(command + ["new", name, *(f"--player={s}={a}:{p}" for s, (a, p) in PLAYERS.items())],
                           env, folder)
        writer = Writer(random.Random(1904))
        outbox = folder / "outbox"

        def write_orders(index: int) -> Path | None:
            with Store.open(folder / "campaigns.sqlite3") as store:
                text = writer.orders(Campaigns(store), name)
            if text is None:
                return None
            eml = folder / "mail" / f"orders-{index}.eml"
            eml.parent.mkdir(exist_ok=True)
            eml.write_bytes(orders_email(name, text))
            return eml

        times: dict[str, list[float]] = {"receive": [], "adjudicate": [], "send": [], "total": [], "startup": []}
        cpu: dict[str, list[float]] = {"receive": [], "adjudicate": [], "send": [], "total": [], "startup": []}
        for index in range(steps + 1):  # the first step warms the file cache and is not counted
            eml = write_orders(index)
            if eml is None:
                print(f"the campaign ended after {index} steps; fewer steps timed")
                break
            taken, used = {}, {}
            for label, args in step_commands(name, eml, outbox).items():
                taken[label], out = run(command + args, env, folder)
                used[label] = CPU_TIMES[-1]
                if label == "receive" and not out.startswith("accepted"):
                    sys.exit(f"orders for step {index} not accepted: {out}")
                if label == "send":
                    written = int(re.match(r"(\d+)", out).group(1))
            startup, _ = run([sys.executable, "-c", "pass"], env, folder)
            if index == 0:
                continue
            for label, value in taken.items():
                times[label].append(value)
                cpu[label].append(used[label])
            times["total"].append(sum(taken.values()))
            times["startup"].append(startup)
            cpu["total"].append(sum(used.values()))
            cpu["startup"].append(CPU_TIMES[-1])
        count = len(times["total"])
        total, startup = med(times["total"]), med(times["startup"])
        print(f"== one step as commands (medians over {count} steps; {' '.join(command)}; bytecode cache "
              + ("on, warmed by the set-up and a first step)" if bytecode_cache else "off)"))
        print(f"set-up, once:                  keys new {setup_key * 1000:.0f} ms" + (" (fills the bytecode cache)" if bytecode_cache else "")
              + f", new {setup_new * 1000:.0f} ms (two Argon2id password hashes)")
        for label in ("receive", "adjudicate", "send"):
            value = med(times[label])
            print(f"{label + ':':<31}{value * 1000:6.0f} ms  ({value / startup:.1f}x start-up; "
                  f"CPU {med(cpu[label]) * 1000:.0f} ms)")
        print(f"mail:                          the last send wrote {written} .eml; {len(list(outbox.glob('*.eml')))} "
              f"distinct files in the outbox after {count + 1} steps")
        print(f"interpreter start-up:          {startup * 1000:6.0f} ms  (python -c pass; the baseline)")
        print(f"CPU:                           {med(cpu['total']) * 1000:6.0f} ms for the three "
              f"(start-up {med(cpu['startup']) * 1000:.0f} ms each)")
        print(f"one step, total:               {total * 1000:6.0f} ms  ({total / startup:.1f}x start-up; "
              f"target < {STEP_TARGET * 1000:.0f} ms: {total / STEP_TARGET:.2f}x target; "
              f"{(total - 3 * startup) * 1000:.0f} ms beyond three start-ups)")
        one_command, one_command_cpu = [], []
        for index in range(steps + 1, 2 * steps + 1):
            eml = write_orders(index)
            if eml is None:
                break
            elapsed, out = run(command + ["step", name, str(eml), "--outbox", str(outbox)], env, folder)
            if not out.startswith("1 orders accepted"):
                sys.exit(f"step {index} did not take the orders: {out}")
            one_command.append(elapsed)
            one_command_cpu.append(CPU_TIMES[-1])
        if one_command:
            value = med(one_command)
            print(f"one step as one command:       {value * 1000:6.0f} ms  (adjudicator step NAME MAIL: receive, "
                  f"adjudicate, send in one process; median of {len(one_command)}; "
                  f"{value / STEP_TARGET:.2f}x target; {(value - startup) * 1000:.0f} ms beyond start-up; "
                  f"CPU {med(one_command_cpu) * 1000:.0f} ms)")
        if profile:
            eml = write_orders(2 * steps + 1)
            if eml is not None:
                profile_step(command, name, eml, outbox, env, folder, top)


def profile_step(command: list[str], name: str, eml: Path, outbox: Path, env: dict[str, str], folder: Path,
                 top: int) -> None:
    """cProfile of one more step's three commands, and their heaviest imports."""
    files = []
    imports: dict[str, list[float]] = {}
    import_totals = []
    for label, args in step_commands(name, eml, outbox).items():
        out = folder / f"{label}.prof"
        run([sys.executable, "-m", "cProfile", "-o", str(out), "-m", "adjudicator", *args], env, folder)
        files.append(str(out))
    # the same three commands again for their import times (the step is done: they
    # find a duplicate, nothing to adjudicate, nothing queued, but import the same modules)
    for label, args in step_commands(name, eml, outbox).items():
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "adjudicator", *args],
                              env=env, cwd=folder, capture_output=True, text=True)
        import_totals.append(0.0)
        for line in done.stderr.splitlines():
            found = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\S.*)$", line)
            if found and not found.group(3).startswith(" "):  # top-level imports only
                imports.setdefault(found.group(3), []).append(int(found.group(2)) / 1000)
                import_totals[-1] += int(found.group(2)) / 1000
    stats = pstats.Stats(*files)
    print(f"\n-- profile of one step (the three commands together, {stats.total_tt * 1000:.0f} ms under cProfile)")
    print("by own time:")
    print(top_entries(stats, "tottime", top))
    print("the project's functions by cumulative time (imports left out):")
    print(project_entries(stats, top))
    print(f"imports, all told (python -X importtime): receive {import_totals[0]:.0f} ms, adjudicate "
          f"{import_totals[1]:.0f} ms, send {import_totals[2]:.0f} ms")
    print("heaviest top-level imports (ms; receive, adjudicate, send):")
    heaviest = sorted(imports.items(), key=lambda item: -sum(item[1]))[:top]
    for module, values in heaviest:
        print(f"  {module:<40} {', '.join(f'{v:6.1f}' for v in values)}")


# -- a league, in one process -----------------------------------------------------------------


@dataclass
class Timed:
    """Wall and CPU seconds of each campaign, and the totals."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    parts: dict[str, float] = field(default_factory=dict)  # CPU seconds of named parts, in all
    count: int = 0  # e.g. .eml files written

    def add(self, wall: float, cpu: float) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)


def create_league(campaigns: Campaigns, key, names: list[str], players: list[Player],
                  opening: Callable | None = None) -> Timed:
    """Each campaign created as the referee's commands create it: its own transaction
    (charter, seed chain, the players' password hashes; with ``opening`` the opening
    mails too, as ``new`` queues them)."""
    timed = Timed()
    for name in names:
        wall, cpu = time.perf_counter(), time.process_time()
        campaigns.create(name, GAME, players, key, referee_address=REFEREE, after=opening)
        timed.add(time.perf_counter() - wall, time.process_time() - cpu)
    return timed


def submit_league(campaigns: Campaigns, key, names: list[str], writer: Writer) -> Timed:
    timed = Timed()
    for name in names:
        text = writer.orders(campaigns, name)
        wall, cpu = time.perf_counter(), time.process_time()
        campaigns.submit(name, text, key)
        timed.add(time.perf_counter() - wall, time.process_time() - cpu)
    return timed


def advance_league(campaigns: Campaigns, mailroom: Mailroom, key, names: list[str]) -> Timed:
    """Each campaign advanced one step as ``adjudicate`` then ``send`` do it: the step
    and its reports in one transaction, then the reports written as .eml files."""
    timed = Timed(parts={"adjudicate": 0.0, "send": 0.0})
    for name in names:
        wall, cpu = time.perf_counter(), time.process_time()
        step = campaigns.adjudicate(name, key, after=mailroom.queue_reports)
        middle = time.process_time()
        files, _, _ = mailroom.send(name, None)
        end = time.process_time()
        timed.add(time.perf_counter() - wall, end - cpu)
        if step.batch is None:
            sys.exit(f"campaign {name} did not advance")
        timed.count += len(files)
        timed.parts["adjudicate"] += middle - cpu
        timed.parts["send"] += end - middle
    return timed


def send_all(mailroom: Mailroom, names: list[str]) -> None:
    for name in names:
        mailroom.send(name, None)


def cpu_calibration() -> float:
    """CPU seconds of the calibration workload (``common.calibration``): the baseline of
    the per-campaign CPU figures, in the same unit."""
    start = time.process_time()
    calibration()
    return time.process_time() - start


def argon2_cost(repeats: int = 3) -> float:
    """CPU seconds of one password hash as a campaign stores it (median)."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        hash_password("pw1")
        times.append(time.process_time() - start)
    return med(times)


def figures(label: str, timed: Timed, count: int, target: float, calib: float) -> None:
    """One line of totals and one of medians, and the ratio to the target (for 1,000,
    scaled to ``count``), on CPU time and on wall time."""
    wall, cpu = sum(timed.wall), sum(timed.cpu)
    scaled = target * count / LEAGUE_REFERENCE
    print(f"{label}: CPU {cpu:.1f} s, wall {wall:.1f} s for {count:,} campaigns")
    print(f"{'':4}per campaign (median): CPU {med(timed.cpu) * 1000:.1f} ms = {med(timed.cpu) / calib:.3f} "
          f"calibrations, wall {med(timed.wall) * 1000:.1f} ms")
    print(f"{'':4}target {target:.0f} s for {LEAGUE_REFERENCE:,}"
          + (f" ({scaled:.1f} s for {count:,})" if count != LEAGUE_REFERENCE else "")
          + f": CPU {cpu / scaled:.2f}x target, wall {wall / scaled:.2f}x target"
          + (f"; for {LEAGUE_REFERENCE:,} (linear): CPU {cpu * LEAGUE_REFERENCE / count:.0f} s, "
             f"wall {wall * LEAGUE_REFERENCE / count:.0f} s" if count != LEAGUE_REFERENCE else ""))


ROSTER_PLAYERS = 64  # a club's members, paired into the league's campaigns
ONE_BY_ONE = 4       # campaigns made one 'new' command each: the baseline of the roster command


def roster_toml(names: list[str], members: int = ROSTER_PLAYERS) -> str:
    """A league's roster: ``members`` players, each campaign pairing two of them."""
    sides = list(PLAYERS)
    text = "".join(f'[[player]]\nname = "m{i:02d}"\naddress = "m{i:02d}@club.example"\npassword = "pw-m{i:02d}"\n\n'
                   for i in range(members))
    for index, name in enumerate(names):
        first, second = index % members, (index * 7 + 1 + index // members) % members
        second = second if second != first else (first + 1) % members
        text += (f'[[campaign]]\nid = "{name}"\nplayers = {{ {sides[0]} = "m{first:02d}", '
                 f'{sides[1]} = "m{second:02d}" }}\n\n')
    return text


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def bench_roster_command(count: int, calib: float) -> None:
    """``adjudicator new --roster`` creating ``count`` campaigns in one command (start-up
    included), against ``new`` run once per campaign (a hash per player and campaign)."""
    print(f"\n== {count:,} campaigns created through the command 'adjudicator new --roster' "
          f"({ROSTER_PLAYERS} players, each password hashed once; opening mails queued)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env, command, _ = referee_desk(folder, True)
        single_wall, single_cpu = [], []
        for index in range(ONE_BY_ONE):
            cpu = children_cpu()
            wall, _ = run(command + ["new", f"single-{index}", "--game", GAME,
                                     *(f"--player={s}={a}:{p}" for s, (a, p) in PLAYERS.items())], env, folder)
            single_wall.append(wall)
            single_cpu.append(children_cpu() - cpu)
        roster = folder / "league.toml"
        roster.write_text(roster_toml([f"league-{i:04d}" for i in range(count)]), encoding="utf-8")
        cpu = children_cpu()
        wall, out = run(command + ["new", "--roster", str(roster), "--game", GAME], env, folder)
        cpu = children_cpu() - cpu
        if f"{count} campaign(s) created" not in out:
            sys.exit(f"new --roster did not create {count} campaigns:\n{out}")
    scaled = CREATE_TARGET * count / LEAGUE_REFERENCE
    per_new_cpu, per_new_wall = med(single_cpu), med(single_wall)
    print(f"baseline: 'new' once per campaign (a new process each, two hashes each), median of {ONE_BY_ONE}: "
          f"CPU {per_new_cpu * 1000:.0f} ms, wall {per_new_wall * 1000:.0f} ms a campaign "
          f"(for {count:,}: CPU {per_new_cpu * count:.0f} s, wall {per_new_wall * count:.0f} s)")
    print(f"new --roster: CPU {cpu:.1f} s, wall {wall:.1f} s for {count:,} campaigns "
          f"({cpu / count * 1000:.1f} ms CPU = {cpu / count / calib:.3f} calibrations a campaign); "
          f"{per_new_cpu * count / cpu:.1f}x less CPU than 'new' per campaign")
    print(f"{'':4}target {CREATE_TARGET:.0f} s for {LEAGUE_REFERENCE:,}"
          + (f" ({scaled:.1f} s for {count:,})" if count != LEAGUE_REFERENCE else "")
          + f": CPU {cpu / scaled:.2f}x target, wall {wall / scaled:.2f}x target")


def bench_league(count: int, profile: bool, profile_count: int, top: int, opening_mail: bool,
                 hash_per_campaign: bool) -> None:
    names = [f"league-{i:04d}" for i in range(count)]
    calibrations = [cpu_calibration()]
    print(f"\n== a league of {count:,} campaigns (one process, one SQLite store): created, then each "
          "advanced one step")
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min; "
          f"{os.cpu_count()} CPUs): wall times suffer from it, CPU times much less")
    hash_cpu = argon2_cost()
    start = time.process_time()
    players_hashed = players() if hash_per_campaign else [player.hashed() for player in players()]
    hashing = time.process_time() - start
    if hash_per_campaign:
        print(f"passwords: hashed anew for each campaign (Argon2id, 19 MiB, 2 passes: {hash_cpu * 1000:.0f} ms "
              f"CPU a hash; two in each campaign), as before Player.hashed")
    else:
        print(f"passwords: each of the {len(players_hashed)} players' hashed once (Argon2id, 19 MiB, 2 passes: "
              f"{hash_cpu * 1000:.0f} ms CPU a hash), {hashing * 1000:.0f} ms in all; the same hash goes into each "
              f"of the player's campaigns (hashing per campaign would add {2 * hash_cpu * 1000:.0f} ms CPU to each: "
              "--hash-per-campaign)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        key = generate_keypair()[0]
        writer = Writer(random.Random(1905))
        with Store.open(folder / "league.sqlite3") as store:
            campaigns = Campaigns(store)
            mailroom = Mailroom(campaigns, folder / "outbox")
            opening = mailroom.queue_opening if opening_mail else None
            warm = ["warm-up"]  # imports, game data, schema, templates: once per process
            create_league(campaigns, key, warm, players_hashed, opening)
            send_all(mailroom, warm)
            submit_league(campaigns, key, warm, writer)
            advance_league(campaigns, mailroom, key, warm)

            calibrations.append(cpu_calibration())
            created = create_league(campaigns, key, names, players_hashed, opening)
            calibrations.append(cpu_calibration())
            if opening_mail:
                send_all(mailroom, names)  # the opening mails, before the steps are timed
            submitted = submit_league(campaigns, key, names, writer)
            calibrations.append(cpu_calibration())
            advanced = advance_league(campaigns, mailroom, key, names)
            calibrations.append(cpu_calibration())
            calib = med(calibrations)
            print(f"calibration (200,000 plain dice rolls; the baseline): {calib * 1000:.1f} ms CPU "
                  f"(median of {len(calibrations)}, measured between the parts)")
            figures("created" + (" with their opening mails" if opening_mail else "")
                    + " (charter, seed chain, password hashes; a transaction each)",
                    created, count, CREATE_TARGET, calib)
            print(f"orders submitted (apart, not a target): CPU {sum(submitted.cpu):.1f} s, "
                  f"{med(submitted.cpu) * 1000:.1f} ms per campaign (one password check each)")
            figures(f"advanced one step (adjudicate {advanced.parts['adjudicate']:.1f} s CPU + send "
                    f"{advanced.parts['send']:.1f} s CPU; {advanced.count:,} .eml written)",
                    advanced, count, LEAGUE_TARGET, calib)
            if profile:
                extra = [f"profiled-{i:04d}" for i in range(profile_count)]
                creating = cProfile.Profile()
                creating.runcall(create_league, campaigns, key, extra, players_hashed, opening)
                send_all(mailroom, extra)
                submit_league(campaigns, key, extra, writer)
                advancing = cProfile.Profile()
                advancing.runcall(advance_league, campaigns, mailroom, key, extra)
                for label, profiler in (("creating", creating), ("advancing", advancing)):
                    print_profile(f"{label} {profile_count} more campaigns", pstats.Stats(profiler), top)
    bench_roster_command(count, med(calibrations))


def print_profile(what: str, stats: pstats.Stats, top: int) -> None:
    print(f"\n-- profile of {what} ({stats.total_tt:.2f} s under cProfile)")
    print("by own time:")
    print(top_entries(stats, "tottime", top))
    print("by cumulative time:")
    print(top_entries(stats, "cumtime", top))
    print("the project's functions by cumulative time:")
    print(project_entries(stats, top))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=9, help="steps timed as commands (default 9)")
    parser.add_argument("--campaigns", type=int, default=LEAGUE_REFERENCE, help="campaigns in the league (1,000)")
    parser.add_argument("--only", choices=["step", "league"], help="run one of the two benchmarks")
    parser.add_argument("--profile", action="store_true", help="also show where the time goes")
    parser.add_argument("--profile-campaigns", type=int, default=50, help="campaigns advanced under the profiler")
    parser.add_argument("--top", type=int, default=15, help="profile entries shown")
    parser.add_argument("--opening-mail", action="store_true",
                        help="create the league's campaigns with their opening mails, as 'new' does")
    parser.add_argument("--hash-per-campaign", action="store_true",
                        help="hash the players' passwords for each campaign (the baseline before Player.hashed)")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="run the commands with PYTHONDONTWRITEBYTECODE=1 (every module compiled each time)")
    args = parser.parse_args()
    if args.only in (None, "step"):
        bench_step(args.steps, args.profile, args.top, not args.no_bytecode_cache)
    if args.only in (None, "league"):
        bench_league(args.campaigns, args.profile, args.profile_campaigns, args.top, args.opening_mail,
                     args.hash_per_campaign)


if __name__ == "__main__":
    main()
