"""A small Swiss tournament by email between automatic players, through the real
pipeline: the tournament is created from a charter, each round is paired from the
committed seed, the pairing mail goes out as .eml files, each automatic player reads
its mail (opponent, side, campaign, password) and sends its orders by email into a
Maildir; ``receive`` / ``adjudicate`` / ``send`` run each game; the results are
taken from the finished campaigns; the event is closed, and audited from its public
bundle alone."""

from __future__ import annotations

import mailbox
import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any, Callable, Mapping

from adjudicator.campaign import Campaigns
from adjudicator.campaign.demo import DemoFolderInUse, player_email
from adjudicator.campaign.errors import CampaignError
from adjudicator.campaign.examples import confirmation
from adjudicator.campaign.games import support
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.fairdice import generate_keypair, save_private_key
from adjudicator.store import Store
from adjudicator.tournament.audit import audit_bundle, render_audit
from adjudicator.tournament.charter import charter_from_toml
from adjudicator.tournament.export import read_bundle, write_bundle
from adjudicator.tournament.service import Tournaments, standings_text

NAME = "demo-cup"
REFEREE = "referee@adjudicator.example"
ENTRANTS = ("togo", "makarov", "kamimura", "witgeft")
MAX_MESSAGES_PER_GAME = 400
FIELD = re.compile(r"^\s+(campaign|side|password):\s*(\S+)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class TournamentDemo:
    verified: bool
    games: int
    text: str


def run_tournament_demo(folder: Path, seed: int, options: Mapping[str, Any],
                        progress: Callable[[str], None] | None = None, rounds: int = 2,
                        game: str | None = None, entrants: int = len(ENTRANTS)) -> TournamentDemo:
    """A small Swiss event of automatic players by email; ``game`` defaults to the first
    registered game that offers a tournament interface."""
    say = progress or (lambda line: None)
    if game is None:
        from adjudicator.tournament.gameplay import tournament_games

        game = tournament_games()[0]
    plugin = support(game)
    if plugin.commander is None:
        raise CampaignError(f"{plugin.title} has no automatic player that writes orders: no tournament demo")
    store_path = folder / "campaigns.sqlite3"
    if store_path.exists():
        raise DemoFolderInUse(f"{folder} already holds a demo: remove it or name another folder")
    folder.mkdir(parents=True, exist_ok=True)
    key = generate_keypair()[0]
    save_private_key(folder / "referee.key", key, None, overwrite=True)
    rng = random.Random(seed)
    charter = charter_from_toml({
        "tournament": {"name": NAME, "game": game, "format": "swiss", "rounds": rounds,
                       "referee_address": REFEREE, "options": dict(options)},
        "scoring": {"win": 1, "draw": 0.5, "loss": 0, "bye": "win"},
        "player": [{"name": n, "address": f"{n}@fleet.example", "password": f"pw-{rng.getrandbits(32):08x}"}
                   for n in ENTRANTS[:entrants]],
    }, "the demo's charter")
    outbox = folder / "outbox"
    now = datetime.now(timezone.utc)
    with Store.open(store_path) as store:
        tournaments = Tournaments(store, outbox)
        mailroom = Mailroom(tournaments.campaigns, outbox)
        tournaments.create(charter, key, now)
        mailroom.send(NAME, None)
        say(f"Tournament '{NAME}' created in {folder}: Swiss, {rounds} rounds, {entrants} players.")
        for number in range(1, rounds + 1):
            body = tournaments.pair(NAME, key, now)
            files, _, _ = mailroom.send(NAME, None)
            say(f"Round {number}: " + "; ".join(
                " v ".join(f"{p} ({s})" for s, p in g["sides"].items()) for g in body["games"]))
            credentials = _read_pairing_mail(files)
            for game in body["games"]:
                inbox_path = folder / "inbox" / game["game"]  # one Maildir per game
                inbox_path.parent.mkdir(parents=True, exist_ok=True)
                _play(game["game"], credentials[game["game"]], tournaments.campaigns, mailroom,
                      mailbox.Maildir(inbox_path, create=True), inbox_path, key, rng, charter.game, say)
            tournaments.collect(NAME, key)
            now += timedelta(days=1)
        lines = tournaments.close(NAME, key, now)
        mailroom.send(NAME, None)
        state = tournaments.state(NAME)
        record = "".join(r.to_json_line() + "\n" for r in tournaments.records(NAME))
        games = {slot.game: tournaments.campaigns.export_public(slot.game) for slot in state.slots()}
    write_bundle(folder / "public", NAME, record, games)
    audit = audit_bundle(*read_bundle(folder / "public"))
    text = "\n".join(["", standings_text(state, lines), "", render_audit(audit), "",
                      f"Mail in {folder / 'inbox'} (orders, a Maildir per game) and {outbox} (pairings, receipts, reports, results, "
                      "standings); the public bundle in " + str(folder / "public") + ".",
                      f"Check it yourself: adjudicator tournament audit --public {folder / 'public'}"])
    return TournamentDemo(audit.verified, len(games), text)


def _read_pairing_mail(files: list[Path]) -> dict[str, dict[str, dict[str, str]]]:
    """What each player learns from the pairing mail: campaign -> side -> (address, password)."""
    found: dict[str, dict[str, dict[str, str]]] = {}
    for path in files:
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        text = message.get_body(("plain",)).get_content()
        fields = dict(FIELD.findall(text))
        if {"campaign", "side", "password"} <= set(fields):
            found.setdefault(fields["campaign"], {})[fields["side"]] = {
                "address": str(message["To"]), "password": fields["password"]}
    return found


def _confirm_first_step(game: str, credentials: Mapping[str, Mapping[str, str]], match: Any,
                        inbox: mailbox.Maildir, inbox_path: Path, mailroom: Mailroom, key: Any,
                        rng: random.Random) -> None:
    """Each side's one-line confirmation of step 1 (its header and entropy, no orders),
    mailed and taken in: a game whose set-up draws waits for every side's."""
    for side, known in credentials.items():
        address = known["address"]
        text = ("BEGIN ORDERS\n" + confirmation(game, side, getattr(match.state, "turn", 1), 1, known["password"],
                                                 f"{rng.getrandbits(64):016x}") + "END ORDERS\n")
        inbox.add(player_email(text, name=address.split("@")[0].capitalize(), address=address,
                               to=REFEREE, subject=f"[{game}] step 1: confirmed"))
    mailroom.receive(inbox_path, key)


def _play(game: str, credentials: Mapping[str, Mapping[str, str]], campaigns: Campaigns, mailroom: Mailroom,
          inbox: mailbox.Maildir, inbox_path: Path, key: Any, rng: random.Random, game_name: str,
          say: Callable[[str], None]) -> None:
    players = {side: support(game_name).commander(side, rng) for side in credentials}
    steps = 0
    for _ in range(MAX_MESSAGES_PER_GAME):
        log, match = campaigns.match(game)
        if match.finished or log.forfeit is not None:
            break
        if match.decision is None:   # a game that starts with chance (a shuffled deck): every side
            if not log.batches:       # confirms step 1 first (nothing random before every side has spoken)
                _confirm_first_step(game, credentials, match, inbox, inbox_path, mailroom, key, rng)
            campaigns.adjudicate(game, key, after=mailroom.queue_reports)
            mailroom.send(game, None)
            continue
        on_file = log.orders_for(log.next_batch)  # (a stop may ask several sides: each in turn writes)
        decision = next((d for d in match.decisions if d.side not in on_file), match.decision)
        side = decision.side
        header = {"campaign": game, "side": side, "turn": getattr(match.state, "turn", None),
                  "step": log.next_batch, "password": credentials[side]["password"],
                  "entropy": f"{rng.getrandbits(64):016x}"}
        text = players[side].orders(decision, match.state, header)
        address = credentials[side]["address"]
        inbox.add(player_email(text, name=address.split("@")[0].capitalize(), address=address,
                               to=REFEREE, subject=f"[{game}] orders for step {log.next_batch}"))
        mailroom.receive(inbox_path, key)
        campaigns.adjudicate(game, key, after=mailroom.queue_reports)
        mailroom.send(game, None)
        steps += 1
    log, match = campaigns.match(game)
    say(f"  {game}: {steps} orders emails; result {getattr(match.state, 'result', None)}")
