"""Benchmark: pairing a 64-player Swiss of 6 rounds, and standings and ratings for a
store of 1,000 finished campaigns.

    .venv/bin/python benchmarks/bench_tournament.py [--players 64] [--rounds 6] [--campaigns 1000] [--pairing seeded]

(About a minute on two cores, most of it making the store.)

Swiss: a tournament of P players (with public keys, so that creating each round's
campaigns is not dominated by password hashing) is paired round after round; between
rounds every game ends by a forfeit ruling on a side drawn at random. Timed per round:
the pairing itself (FIDE's Dutch system by default, as a charter has it, or the
seeded pass with --pairing seeded: what 'audit' also recomputes), and the whole 'pair' command (results collected, the
round's signed record, the pairing mail queued, and its campaigns created). Medians.

Store: one real Port Arthur game is played to its end through the campaign layer
(automatic players' orders, every step adjudicated); its history is then copied into
N campaigns under new ids, each copy re-signed record by record for its own id, between
players drawn from a pool of 200 -- so every campaign has the size and shape of a real
finished game (the copies' dice would not verify under their new ids: the survey does
not check dice; 'verify' and 'tournament audit' do). Timed: the survey (Glicko-2
ratings and reliability over the whole store) plus the standings of the Swiss above.

Targets: a round paired in under 1 s (the seeded pass; the Dutch system takes longer,
some seconds for 64 players); standings and ratings for 1,000 campaigns in
under 2 s. Ratios are also given against the calibration workload of benchmarks/common.py.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import calibration  # noqa: E402

from adjudicator.campaign import Campaigns, Player  # noqa: E402
from adjudicator.fairdice import Record, generate_keypair, public_key_to_text, sign_record  # noqa: E402
from adjudicator.campaign.games import support  # noqa: E402
from adjudicator.store import Store  # noqa: E402
from adjudicator.tournament import standings  # noqa: E402
from adjudicator.tournament.charter import charter_from_toml  # noqa: E402
from adjudicator.tournament.draws import Draws  # noqa: E402
from adjudicator.tournament.ratings import survey  # noqa: E402
from adjudicator.tournament.rounds import plan  # noqa: E402
from adjudicator.tournament.service import Tournaments, last_seed  # noqa: E402

T0 = datetime(2026, 1, 5, tzinfo=timezone.utc)


def swiss(store: Store, key, players: int, rounds: int, pairing: str = "dutch") -> tuple[list[float], list[float]]:
    rng = random.Random(5)
    tournaments = Tournaments(store)
    keys = [public_key_to_text(generate_keypair()[0].public_key()) for _ in range(players)]
    tournaments.create(charter_from_toml({
        "tournament": {"name": "bench", "game": "port-arthur", "rounds": rounds, "pairing": pairing,
                       "sides": "balanced" if pairing == "dutch" else "random"},
        "player": [{"name": f"p{i}", "address": f"p{i}@bench.example", "public_key": keys[i]}
                   for i in range(players)]}), key, T0)
    pairing_times, command_times = [], []
    for number in range(rounds):
        state = tournaments.state("bench")
        draws = Draws("bench", state.seeds_used + 1, bytes(32))
        start = time.process_time()
        plan(state, draws, T0)
        pairing_times.append(time.process_time() - start)
        start = time.process_time()
        body = tournaments.pair("bench", key, T0 + timedelta(days=number))
        command_times.append(time.process_time() - start)
        for game in body["games"]:
            tournaments.rule("bench", game["game"], "forfeit", "benchmark", key, T0,
                             silent=rng.choice(("japan", "russia")))
    return pairing_times, command_times


def template_game(store: Store, key) -> list:
    """One real game played to its end: its store entries."""
    campaigns = Campaigns(store)
    players = [Player("japan", "a@bench.example", "pw-a"), Player("russia", "b@bench.example", "pw-b")]
    campaigns.create("template", "port-arthur", players, key)
    rng = random.Random(11)
    commanders = {side: support("port-arthur").commander(side, rng) for side in ("japan", "russia")}
    passwords = {"japan": "pw-a", "russia": "pw-b"}
    while True:
        log, match = campaigns.match("template")
        if match.finished:
            return store.entries("template")
        side = match.decision.side
        header = {"campaign": "template", "side": side, "turn": match.state.turn, "step": log.next_batch,
                  "password": passwords[side]}
        campaigns.submit("template", commanders[side].orders(match.decision, match.state, header), key)
        campaigns.adjudicate("template", key)


def copy_games(store: Store, key, template: list, count: int) -> None:
    rng = random.Random(17)
    pool = [f"player{i}@bench.example" for i in range(200)]
    for number in range(count):
        name = f"game-{number:04d}"
        japan, russia = rng.sample(pool, 2)
        prev = "0" * 64
        with store.transaction(name) as tx:
            tx.create_campaign("port-arthur", {"players": {"japan": {"address": japan}, "russia": {"address": russia}},
                                               "deadline_hours": 72, "referee_address": "referee@bench.example"})
            for entry in template:
                body = entry.body
                record = Record.from_dict(body["record"])
                content = dict(record.body)
                if record.kind == "charter":
                    content["campaign"] = name
                copy = sign_record(key, record.seq, record.kind, content, prev)
                prev = copy.hash
                tx.append(entry.kind, {**body, "record": copy.to_dict()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--pairing", choices=("dutch", "seeded"), default="dutch")
    args = parser.parse_args()
    key = generate_keypair()[0]
    calib = [calibration()]
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder) / "bench.sqlite3") as store:
        pairing, command = swiss(store, key, args.players, args.rounds, args.pairing)
        calib.append(calibration())
        start = time.perf_counter()
        template = template_game(store, key)
        copy_games(store, key, template, args.campaigns)
        made = time.perf_counter() - start
        calib.append(calibration())
        surveys = []
        for _ in range(3):
            start = time.process_time()
            found = survey(store)
            for tournament in Tournaments(store).store.campaigns():
                if tournament.game == "tournament":
                    state = Tournaments(store).state(tournament.id)
                    standings.compute(state, last_seed(state))
            surveys.append(time.process_time() - start)
        calib.append(calibration())
    unit = statistics.median(calib)
    paired, whole, read = statistics.median(pairing), statistics.median(command), statistics.median(surveys)
    print(f"calibration (200,000 plain dice rolls): {unit * 1000:.1f} ms (median of {len(calib)})")
    print(f"Swiss of {args.players} players, {args.rounds} rounds (CPU seconds, median per round):")
    print(f"  the pairing (draw, score groups, search, sides): {paired * 1000:8.1f} ms  "
          f"(target < 1 s: {paired:.3f}x target; {paired / unit:.2f} calibration units; worst {max(pairing) * 1000:.1f} ms)")
    print(f"  the whole 'pair' ({args.players // 2} campaigns created):  {whole * 1000:8.1f} ms  "
          f"(target < 1 s: {whole:.3f}x target; {whole / unit:.2f} calibration units; worst {max(command) * 1000:.1f} ms)")
    print(f"store: {args.campaigns} finished campaigns of {len(template)} records each (plus the template "
          f"and {args.rounds * args.players // 2} tournament games), made in {made:.0f} s")
    print(f"  standings and ratings ({found.games} rated games, {len(found.ratings)} players): "
          f"{read:.3f} s CPU (median of {len(surveys)}; target < 2 s: {read / 2:.3f}x target; "
          f"{read / unit:.1f} calibration units)")


if __name__ == "__main__":
    main()
