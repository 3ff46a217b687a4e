"""A whole campaign by email, between two automatic players, through the real pipeline
(any game whose support has an automatic player that writes orders; the command's
default is the first game, Port Arthur): each player's orders go as an email into a Maildir; ``receive`` takes
them in and queues a receipt; ``adjudicate`` runs the step with the next batch of
verifiable dice and queues the reports; ``send`` writes every message as an .eml
file; at the end the public record is exported and verified."""

from __future__ import annotations

import mailbox
import random
import secrets
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Mapping

from adjudicator.campaign.campaign import Campaigns, Player
from adjudicator.campaign.errors import CampaignError
from adjudicator.campaign.examples import confirmation
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.campaign.verify import render_verdict, verify_text
from adjudicator.fairdice import generate_keypair, save_private_key
from adjudicator.campaign.games import support
from adjudicator.store import Store

CAMPAIGN = "demo"
REFEREE = "referee@adjudicator.example"
ADMIRALS = {"japan": ("Heihachiro Togo", "togo@japan.example"),
            "russia": ("Stepan Makarov", "makarov@russia.example")}
MAX_MESSAGES = 400


class DemoFolderInUse(CampaignError):
    """The demo's folder already holds a campaign."""


@dataclass(frozen=True)
class DemoSummary:
    verified: bool
    result: str | None
    messages: int
    steps: int
    text: str


def player_email(text: str, *, name: str, address: str, to: str, subject: str) -> bytes:
    """An orders email as a player's mail program would send it."""
    message = EmailMessage()
    message["From"] = f"{name} <{address}>"
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(datetime.now(timezone.utc))
    message["Message-ID"] = make_msgid(domain=address.split("@")[1])
    message.set_content(f"Admiral,\n\nmy orders follow.\n\n{text}\n-- \n{name}\n")
    return bytes(message)


def run_demo(folder: Path, seed: int, options: Mapping[str, Any],
             progress: Callable[[str], None] | None = None, *, game: str,
             store_location: str | Path | None = None) -> DemoSummary:
    """Play the demo campaign in ``folder`` (mail, outbox, key, public record); its
    store is ``folder/campaigns.sqlite3`` unless ``store_location`` names another, e.g.
    a ``postgresql://`` URL."""
    say = progress or (lambda line: None)
    plugin = support(game)
    if plugin.commander is None:
        raise CampaignError(f"{plugin.title} has no automatic player that writes orders: no demo")
    store_path = folder / "campaigns.sqlite3" if store_location is None else store_location
    if store_location is None and store_path.exists():
        raise DemoFolderInUse(f"{folder} already holds a demo campaign: remove it or name another folder")
    if store_location is not None and _holds_demo(store_location):
        raise DemoFolderInUse(f"the store already holds a campaign named {CAMPAIGN!r}: use another store")
    folder.mkdir(parents=True, exist_ok=True)
    key = generate_keypair()[0]
    save_private_key(folder / "referee.key", key, None, overwrite=True)
    passwords = {side: secrets.token_urlsafe(12) for side in ADMIRALS}
    players = [Player(side, address, passwords[side]) for side, (_, address) in ADMIRALS.items()]
    inbox_path = folder / "inbox"
    inbox = mailbox.Maildir(inbox_path, create=True)
    rng = random.Random(seed)
    commanders = {side: plugin.commander(side, rng) for side in ADMIRALS}
    with Store.open(store_path) as store:
        campaigns = Campaigns(store)
        mailroom = Mailroom(campaigns, folder / "outbox")
        campaigns.create(CAMPAIGN, plugin.name, players, key, options=options, referee_address=REFEREE)
        say(f"Campaign '{CAMPAIGN}' created in {folder}: {plugin.title}, {options or 'rulebook options'}.")
        messages = 0
        for _ in range(MAX_MESSAGES):
            log, match = campaigns.match(CAMPAIGN)
            if match.finished or log.forfeit is not None:
                break
            decision = match.decision
            if log.next_batch == 1:  # nothing random is drawn before every side has spoken: each confirms
                for side in ADMIRALS:
                    if decision is None or side != decision.side:
                        inbox.add(_confirmation_email(side, match.state.turn, passwords[side], rng))
                        messages += 1
                mailroom.receive(inbox_path, key)
            if decision is None:            # a game that starts with chance (a shuffled deck): run it first
                campaigns.adjudicate(CAMPAIGN, key, after=mailroom.queue_reports)
                mailroom.send(CAMPAIGN, None)
                continue
            for decision in match.decisions:  # (a stop may ask several sides at once: each writes)
                header = {"campaign": CAMPAIGN, "side": decision.side, "turn": match.state.turn,
                          "step": log.next_batch, "password": passwords[decision.side],
                          "entropy": f"{rng.getrandbits(64):016x}"}
                text = commanders[decision.side].orders(decision, match.state, header)
                name, address = ADMIRALS[decision.side]
                inbox.add(player_email(text, name=name, address=address, to=REFEREE,
                                       subject=f"[{CAMPAIGN}] orders for step {log.next_batch}"))
                messages += 1
                taken = [t for t in mailroom.receive(inbox_path, key) if t.outcome != "duplicate"]
                for item in taken:
                    say(f"  mail from {decision.side}: {item.outcome} ({item.detail[:16]})")
            step = campaigns.adjudicate(CAMPAIGN, key, after=mailroom.queue_reports)
            mailroom.send(CAMPAIGN, None)
            where = f"turn {match.state.turn}, {match.state.phase}"
            asked = f"asks {step.waiting.side} ({step.waiting.kind})" if step.waiting else f"result: {step.result}"
            say(f"Step {step.batch} ({where}): {len(step.events)} events, "
                f"{sum(len(d) for _, d in step.dice)} dice; {asked}")
        record = campaigns.export_public(CAMPAIGN)
        (folder / "public-record.jsonl").write_text(record, encoding="utf-8")
        log, _ = campaigns.match(CAMPAIGN)
    verdict = verify_text(record)
    outbox = len(list((folder / "outbox").glob("*.eml")))
    text = "\n".join([
        "",
        f"{messages} orders emails in {inbox_path}, {outbox} receipts and reports in {folder / 'outbox'},",
        f"{len(log.batches)} adjudication steps; public record in {folder / 'public-record.jsonl'}.",
        "",
        render_verdict(verdict),
        "",
        f"Check it yourself: adjudicator verify {folder / 'public-record.jsonl'}",
    ])
    return DemoSummary(verdict.verified, verdict.result, messages, len(log.batches), text)


def _confirmation_email(side: str, turn: Any, password: str, rng: random.Random) -> bytes:
    """The one-line confirmation a side sends for step 1: its header and entropy, no orders."""
    name, address = ADMIRALS[side]
    entropy = f"{rng.getrandbits(64):016x}"
    text = "BEGIN ORDERS\n" + confirmation(CAMPAIGN, side, turn, 1, password, entropy) + "END ORDERS\n"
    return player_email(text, name=name, address=address, to=REFEREE, subject=f"[{CAMPAIGN}] step 1: confirmed")


def _holds_demo(location: str | Path) -> bool:
    with Store.open(location) as store:
        return any(c.id == CAMPAIGN for c in store.campaigns())
