"""SIGKILL of ``adjudicator serve`` at random moments of a step (taking the mail in,
adjudicating, writing the replies): after each kill the campaign is before or after
each transaction, its history and public record verify, and once the mail server
delivers again what was not answered ``250``, every orders email has exactly one
receipt and every step its reports."""

from __future__ import annotations

import random
import smtplib
import threading
import time
from email.utils import make_msgid

import pytest

from adjudicator.campaign import Campaigns
from adjudicator.campaign.demo import player_email
from adjudicator.campaign.verify import verify_text
from adjudicator.games.port_arthur.commander import AutoCommander
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import ADDRESSES, CAMPAIGN, PASSWORDS, REFEREE, parse_eml
from tests.conftest import soak_size
from tests.service.conftest import wait_for

KILLS = soak_size(3, 8)  # kills of serve: 8 with ADJUDICATOR_SOAK=1


def next_orders(referee, commanders, rng) -> tuple[int, str, bytes]:
    """The orders email of the side the campaign waits for: its step, Message-ID, bytes."""
    with Store.open(referee.store) as store:
        log, match = Campaigns(store).match(CAMPAIGN)
    decision = match.decision
    commander = commanders.setdefault(decision.side, AutoCommander(decision.side, rng))
    header = {"campaign": CAMPAIGN, "side": decision.side, "turn": match.state.turn, "step": log.next_batch,
              "password": PASSWORDS[decision.side]}
    text = commander.orders(decision, match.state, header)
    raw = player_email(text, name=decision.side, address=ADDRESSES[decision.side], to=REFEREE, subject="orders")
    return log.next_batch, str(parse_eml(raw)["Message-ID"]), raw


def deliver_until_answered(serve, raw: bytes, answered: dict) -> None:
    """Deliver by LMTP as a mail server does; note whether the service answered 250."""
    try:
        with smtplib.LMTP("127.0.0.1", serve.lmtp_port, timeout=30) as lmtp:
            lmtp.sendmail(ADDRESSES["japan"], [REFEREE], raw)
        answered["ok"] = True
    except (smtplib.SMTPException, OSError):
        answered["ok"] = False


def replies(referee) -> tuple[dict[str, int], int, list[int]]:
    """Receipts per orders Message-ID, reports queued, and the batches in the record."""
    with Store.open(referee.store) as store:
        mails = [parse_eml(m.eml) for m in store.outbox(CAMPAIGN)]
        log = Campaigns(store).log(CAMPAIGN)
        record = Campaigns(store).export_public(CAMPAIGN)
    assert verify_text(record).verified
    receipts: dict[str, int] = {}
    for mail in mails:
        if "accepted" in str(mail["Subject"]):
            key = str(mail["In-Reply-To"]).strip()
            receipts[key] = receipts.get(key, 0) + 1
    reports = sum("accepted" not in str(m["Subject"]) for m in mails)
    return receipts, reports, [b.body["batch"] for b in log.batches]


def answered_step(referee, message_id: str, step: int) -> bool:
    """The orders have their receipt, and their step is adjudicated with its reports."""
    receipts, reports, batches = replies(referee)
    return receipts.get(message_id) == 1 and len(batches) >= step and reports == 2 * len(batches)


@pytest.mark.soak("sized")
def test_sigkill_at_any_moment_of_a_step_leaves_each_campaign_whole_and_loses_no_message(referee, start_serve):
    rng = random.Random(1904)
    commanders: dict = {}
    delivered: list[str] = []
    serve = start_serve("--remind-hours", "0")
    for kill in range(KILLS):
        step, message_id, raw = next_orders(referee, commanders, rng)
        delivered.append(message_id)
        answered: dict = {}
        sender = threading.Thread(target=deliver_until_answered, args=(serve, raw, answered))
        sender.start()
        time.sleep(rng.uniform(0.0, 0.15))
        serve.kill()
        sender.join(30)
        receipts, reports, batches = replies(referee)  # verifies the history and the public record
        assert all(count == 1 for count in receipts.values()), receipts
        if answered.get("ok"):
            assert receipts.get(message_id) == 1, "answered 250 but not durable"
        serve = start_serve("--remind-hours", "0")
        if not answered.get("ok"):
            deliver_until_answered(serve, raw, answered)  # the mail server delivers again
            assert answered["ok"]
        wait_for(lambda: answered_step(referee, message_id, step), 30, serve.log)
    receipts, reports, batches = replies(referee)
    assert receipts == {message_id: 1 for message_id in delivered}
    assert batches == list(range(1, len(batches) + 1)) and len(batches) >= KILLS
    assert reports == 2 * len(batches)
    assert serve.terminate() == 0
