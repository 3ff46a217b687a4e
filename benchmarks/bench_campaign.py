"""Benchmark: one campaign step as the referee runs it (three commands, start-up
included), and a league of campaigns each advanced one step in one process.

    .venv/bin/python benchmarks/bench_campaign.py [--steps S] [--campaigns N] [--profile]

(About 4 minutes on two cores, most of it creating the league; `--only step` or
`--only league` runs one part, `--campaigns 100` a smaller league, extrapolated.)

Step: in a temporary folder a campaign is made with the commands (`keys new`, `new`);
then for each step the side the game waits for writes its orders (the automatic
commander), as an .eml file, and the step is timed as the referee types it:
`receive FILE.eml`, `adjudicate NAME`, `send NAME --outbox DIR`, each a new process;
and `step NAME FILE.eml` (the three in one process), as a referee's cron job runs it.
Figures are medians over the steps; the baseline, measured alongside each step, is the
interpreter's own start-up (`python -c pass`). Python's bytecode cache is on, kept in
the temporary folder, as after a normal install (`--no-bytecode-cache`: every module
compiled on each run, as with PYTHONDONTWRITEBYTECODE=1).

League: N campaigns (default 1,000) in one store, created with real passwords (Argon2id,
so creation is slow and reported apart), one orders set submitted to each with
`Campaigns.submit` (also reported apart: it checks the password), then every campaign
advanced one step: `adjudicate` with the reports queued, and `send` writing them as
.eml files. Prints the total, the per-campaign median, and the ratio to the target.

`--profile` adds where the time goes: cProfile of one more step's three commands, the
imports that dominate their start-up, and cProfile of advancing extra campaigns
(profiled apart, so the timed figures stay clean).

Targets: one step under 300 ms (wall, start-up included); 1,000 campaigns advanced in
under 60 s.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from common import calibration

from adjudicator.campaign import Campaigns, Player
from adjudicator.campaign.demo import player_email
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.campaign.passwords import hash_password, password_matches
from adjudicator.fairdice import generate_keypair
from adjudicator.games.port_arthur.autoplayer import AutoCommander
from adjudicator.store import Store

GAME = "port-arthur"
REFEREE = "referee@localhost"
PLAYERS = {"japan": ("a@x.org", "pw1"), "russia": ("b@x.org", "pw2")}
STEP_TARGET = 0.300           # seconds, one step (three commands)
LEAGUE_TARGET = 60.0          # seconds, for 1,000 campaigns
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


def run(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
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


def bench_step(steps: int, profile: bool, top: int, bytecode_cache: bool) -> None:
    name = "bench"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = command_env(folder, bytecode_cache)
        env.update(ADJUDICATOR_STORE=str(folder / "campaigns.sqlite3"), ADJUDICATOR_KEY=str(folder / "referee.key"),
                   ADJUDICATOR_KEY_PASSPHRASE="")
        command = cli()
        setup_key, _ = run(command + ["keys", "new", str(folder / "referee.key"), "--no-passphrase"], env, folder)
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
        for index in range(steps + 1):  # the first step warms the file cache and is not counted
            eml = write_orders(index)
            if eml is None:
                print(f"the campaign ended after {index} steps; fewer steps timed")
                break
            taken = {}
            for label, args in step_commands(name, eml, outbox).items():
                taken[label], out = run(command + args, env, folder)
                if label == "receive" and not out.startswith("accepted"):
                    sys.exit(f"orders for step {index} not accepted: {out}")
                if label == "send":
                    written = int(re.match(r"(\d+)", out).group(1))
            startup, _ = run([sys.executable, "-c", "pass"], env, folder)
            if index == 0:
                continue
            for label, value in taken.items():
                times[label].append(value)
            times["total"].append(sum(taken.values()))
            times["startup"].append(startup)
        count = len(times["total"])
        total, startup = med(times["total"]), med(times["startup"])
        print(f"== one step as commands (medians over {count} steps; {' '.join(command)}; bytecode cache "
              + ("on, warmed by the set-up and a first step)" if bytecode_cache else "off)"))
        print(f"set-up, once:                  keys new {setup_key * 1000:.0f} ms" + (" (fills the bytecode cache)" if bytecode_cache else "")
              + f", new {setup_new * 1000:.0f} ms (two scrypt password hashes)")
        for label in ("receive", "adjudicate", "send"):
            value = med(times[label])
            print(f"{label + ':':<31}{value * 1000:6.0f} ms  ({value / startup:.1f}x start-up)")
        print(f"mail:                          the last send wrote {written} .eml; {len(list(outbox.glob('*.eml')))} "
              f"distinct files in the outbox after {count + 1} steps")
        print(f"interpreter start-up:          {startup * 1000:6.0f} ms  (python -c pass; the baseline)")
        print(f"one step, total:               {total * 1000:6.0f} ms  ({total / startup:.1f}x start-up; "
              f"target < {STEP_TARGET * 1000:.0f} ms: {total / STEP_TARGET:.2f}x target; "
              f"{(total - 3 * startup) * 1000:.0f} ms beyond three start-ups)")
        one_command = []
        for index in range(steps + 1, 2 * steps + 1):
            eml = write_orders(index)
            if eml is None:
                break
            elapsed, out = run(command + ["step", name, str(eml), "--outbox", str(outbox)], env, folder)
            if not out.startswith("1 orders accepted"):
                sys.exit(f"step {index} did not take the orders: {out}")
            one_command.append(elapsed)
        if one_command:
            value = med(one_command)
            print(f"one step as one command:       {value * 1000:6.0f} ms  (adjudicator step NAME MAIL: receive, "
                  f"adjudicate, send in one process; median of {len(one_command)}; "
                  f"{value / STEP_TARGET:.2f}x target; {(value - startup) * 1000:.0f} ms beyond start-up)")
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


def create_league(campaigns: Campaigns, key, names: list[str]) -> list[float]:
    times = []
    for name in names:
        start = time.perf_counter()
        campaigns.create(name, GAME, players(), key, referee_address=REFEREE)
        times.append(time.perf_counter() - start)
    return times


def submit_league(campaigns: Campaigns, key, names: list[str], writer: Writer) -> tuple[list[float], float]:
    times, writing = [], 0.0
    for name in names:
        start = time.perf_counter()
        text = writer.orders(campaigns, name)
        middle = time.perf_counter()
        campaigns.submit(name, text, key)
        times.append(time.perf_counter() - middle)
        writing += middle - start
    return times, writing


def advance_league(campaigns: Campaigns, mailroom: Mailroom, key, names: list[str]) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"adjudicate": [], "send": [], "total": []}
    mails = 0
    for name in names:
        start = time.perf_counter()
        step = campaigns.adjudicate(name, key, after=mailroom.queue_reports)
        middle = time.perf_counter()
        files, _, _ = mailroom.send(name, None)
        end = time.perf_counter()
        if step.batch is None:
            sys.exit(f"campaign {name} did not advance")
        mails += len(files)
        times["adjudicate"].append(middle - start)
        times["send"].append(end - middle)
        times["total"].append(end - start)
    times["mails"] = [mails]
    return times


def scrypt_cost(repeats: int = 5) -> tuple[float, float]:
    hashed, checked = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        stored = hash_password("pw1")
        middle = time.perf_counter()
        password_matches("pw1", stored)
        checked.append(time.perf_counter() - middle)
        hashed.append(middle - start)
    return med(hashed), med(checked)


def bench_league(count: int, profile: bool, profile_count: int, top: int) -> None:
    names = [f"league-{i:04d}" for i in range(count)]
    calibrations = [calibration()]
    hash_time, check_time = scrypt_cost()
    print(f"\n== a league of {count:,} campaigns, each advanced one step (one process, one store)")
    print(f"scrypt, per password:          hash {hash_time * 1000:.0f} ms, check {check_time * 1000:.0f} ms (median of 5)")
    estimate = count * (2 * hash_time + check_time) * 1.3
    if estimate > 60:
        print(f"creating {count:,} campaigns and submitting their orders takes about {estimate / 60:.0f} min "
              f"(scrypt); the advancing is timed on its own after that")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        key = generate_keypair()[0]
        writer = Writer(random.Random(1905))
        with Store.open(folder / "league.sqlite3") as store:
            campaigns = Campaigns(store)
            mailroom = Mailroom(campaigns, folder / "outbox")
            create_league(campaigns, key, ["warm-up"])  # imports, game data, schema
            created = create_league(campaigns, key, names)
            print(f"creation (apart):              {sum(created):.1f} s in all, {med(created) * 1000:.0f} ms per "
                  f"campaign (median; two scrypt hashes each)", flush=True)
            submitted, writing = submit_league(campaigns, key, names, writer)
            print(f"orders submitted (apart):      {sum(submitted):.1f} s in all, {med(submitted) * 1000:.0f} ms per "
                  f"campaign (median; one scrypt check each); writing them {writing:.1f} s", flush=True)
            calibrations.append(calibration())
            start = time.perf_counter()
            advanced = advance_league(campaigns, mailroom, key, names)
            elapsed = time.perf_counter() - start
            calibrations.append(calibration())
            target = LEAGUE_TARGET * count / LEAGUE_REFERENCE
            calib = med(calibrations)
            print(f"calibration (200,000 plain dice rolls): {calib * 1000:.1f} ms (median of {len(calibrations)})")
            print(f"advancing all {count:,}:{'':<{max(0, 16 - len(f'{count:,}'))}}{elapsed:.1f} s "
                  f"(adjudicate {sum(advanced['adjudicate']):.1f} s, send {sum(advanced['send']):.1f} s; "
                  f"{advanced['mails'][0]:,} .eml written)")
            print(f"per campaign:                  {med(advanced['total']) * 1000:.1f} ms (median; adjudicate "
                  f"{med(advanced['adjudicate']) * 1000:.1f} ms, send {med(advanced['send']) * 1000:.1f} ms; "
                  f"{med(advanced['total']) / calib:.2f} calibration units)")
            print(f"against the target:            {elapsed / target:.2f}x target ({LEAGUE_TARGET:.0f} s for "
                  f"{LEAGUE_REFERENCE:,}" + (f", so {target:.1f} s for {count:,}" if count != LEAGUE_REFERENCE else "")
                  + ")")
            if count != LEAGUE_REFERENCE:
                print(f"extrapolated to {LEAGUE_REFERENCE:,} (linear, not measured): "
                      f"{elapsed * LEAGUE_REFERENCE / count:.1f} s advancing; creation "
                      f"{sum(created) * LEAGUE_REFERENCE / count:.0f} s")
            if profile:
                extra = [f"profiled-{i:04d}" for i in range(profile_count)]
                create_league(campaigns, key, extra)
                submit_league(campaigns, key, extra, writer)
                profiler = cProfile.Profile()
                profiler.runcall(advance_league, campaigns, mailroom, key, extra)
                stats = pstats.Stats(profiler)
                print(f"\n-- profile of advancing {profile_count} more campaigns "
                      f"({stats.total_tt:.2f} s under cProfile)")
                print("by own time:")
                print(top_entries(stats, "tottime", top))
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
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="run the commands with PYTHONDONTWRITEBYTECODE=1 (every module compiled each time)")
    args = parser.parse_args()
    if args.only in (None, "step"):
        bench_step(args.steps, args.profile, args.top, not args.no_bytecode_cache)
    if args.only in (None, "league"):
        bench_league(args.campaigns, args.profile, args.profile_campaigns, args.top)


if __name__ == "__main__":
    main()
