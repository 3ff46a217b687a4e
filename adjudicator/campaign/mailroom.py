"""The campaign's mail: orders in, receipts and reports out.

- ``receive``: every message of a Maildir, mbox, ``.eml`` files or standard input is
  taken at most once (Message-ID and content hash); our own mail and auto-replies
  are ignored; orders are authenticated by password or signature (never by the From
  header) and answered with a receipt or every error, in one transaction per message.
- ``queue_reports``: after an adjudication, one report per player, queued in the same
  transaction as the batch it reports (durable before anything is sent).
- ``send``: queued mail is written as ``.eml`` files to the outbox folder and, when
  SMTP is configured, sent; a failed send stays queued, and nothing is sent twice.
- ``remind``: before a deadline, a reminder to the side the game waits for.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.campaign.campaign import Campaigns, StepResult, step_deadline, utc
from adjudicator.campaign.errors import CampaignError
from adjudicator.campaign.games import support
from adjudicator.campaign.log import CampaignLog, read_log
from adjudicator.engine import EngineError, Match
from adjudicator.mail import (
    IncomingMail,
    MailError,
    SmtpSettings,
    build_message,
    eml_filename,
    message_bytes,
    message_from_bytes,
    read_messages,
    send_all,
    write_eml,
)
from adjudicator.orders import OrdersError
from adjudicator.orders.text import clean
from adjudicator.reports import render
from adjudicator.reports.context import report_context
from adjudicator.store import CampaignNotFound, InvalidCampaignId

CAMPAIGN_LINE = re.compile(r"^\s*campaign\s*:\s*([A-Za-z0-9][A-Za-z0-9-]*)\s*(?:#.*)?$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Taken:
    """What became of one incoming message."""

    origin: str
    campaign: str | None
    outcome: str  # "accepted", "refused", "duplicate", "ignored"
    detail: str


def orders_hash(sender: str | None, text: str) -> str:
    """What makes two deliveries the same mail: the sender and the text read from
    it (not the headers a relay or a resend changes: Message-ID, Date, Received)."""
    normalised = "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n")).strip()
    return hashlib.sha256(f"{sender or ''}\n{normalised}".encode("utf-8", "surrogatepass")).hexdigest()


def campaign_named_in(text: str) -> str | None:
    """The campaign an orders text names in its header, if any."""
    try:
        cleaned = "\n".join(clean(text).lines)
    except Exception:  # noqa: BLE001 - a text we cannot even clean names nothing
        cleaned = text
    found = CAMPAIGN_LINE.search(cleaned)
    return found.group(1).lower() if found else None


class Mailroom:
    """Mail for the campaigns of one store."""

    def __init__(self, campaigns: Campaigns, outbox: Path) -> None:
        self.campaigns = campaigns
        self.store = campaigns.store
        self.outbox = outbox

    # -- in ----------------------------------------------------------------------------

    def receive(self, source: str | Path, key: Ed25519PrivateKey, default_campaign: str | None = None,
                own_address: str | None = None) -> list[Taken]:
        """Take in every message of ``source``; answer each with a receipt or the errors."""
        return [self.take(mail, key, default_campaign)
                for mail in read_messages(source, own_address=own_address)]

    def take(self, mail: IncomingMail, key: Ed25519PrivateKey, default_campaign: str | None) -> Taken:
        if mail.is_own:
            return Taken(mail.origin, None, "ignored", "our own mail")
        if mail.is_auto_reply:
            return Taken(mail.origin, None, "ignored", "an automatic reply")
        text = "\n\n".join([mail.text, *(body for _, body in mail.attachments_text)])
        campaign = campaign_named_in(text) or default_campaign
        if campaign is None:
            return Taken(mail.origin, None, "ignored", "names no campaign (no 'campaign:' line)")
        try:
            with self.store.transaction(campaign) as tx:
                if not tx.mark_mail_seen(mail.message_id, orders_hash(mail.sender, text)):
                    return Taken(mail.origin, campaign, "duplicate", "already taken in")
                try:
                    receipt = self.campaigns.submit_in(tx, text, key)
                except (OrdersError, CampaignError, EngineError) as err:
                    self._reply(tx, mail, "Your orders were not accepted", _refusal(err))
                    return Taken(mail.origin, campaign, "refused", _first_line(err))
                self._reply(tx, mail, "Orders accepted", receipt.render())
                return Taken(mail.origin, campaign, "accepted", receipt.sha256)
        except (CampaignNotFound, InvalidCampaignId):
            return Taken(mail.origin, campaign, "ignored", f"no campaign {campaign!r} in this store")

    def _reply(self, tx: Any, mail: IncomingMail, heading: str, body: str) -> None:
        if not mail.sender:
            return
        meta = tx.campaign().meta
        try:
            message = build_message(
                sender=meta["referee_address"], to=mail.sender,
                subject=f"[{tx.campaign_id}] {heading}", text=body + "\n",
                in_reply_to=mail.message_id, references=mail.references,
            )
        except MailError:
            return  # an address we cannot write to: the referee sees the outcome in 'receive'
        tx.queue_mail(message["Message-ID"], mail.sender, message_bytes(message))

    # -- out: reports ----------------------------------------------------------------------

    def queue_reports(self, tx: Any, log: CampaignLog, match: Match, step: StepResult) -> None:
        """Queue each player's report of ``step`` (called inside the adjudication's transaction)."""
        meta = tx.campaign().meta
        game_support = support(log.charter["game"])
        deadline = step_deadline(tx.entries(), meta)
        previous = dict(meta.get("last_report", {}))
        for side, player in meta["players"].items():
            context = report_context(
                log=log, match=match, events=step.events, side=side, player=player["address"],
                deadline=deadline, game_support=game_support, defaults=step.defaults,
                default_notes=step.default_notes,
                refused=step.refused, batch=log.batches[-1], openings=step.openings.get(side, ()),
            )
            report = render(context)
            earlier = previous.get(player["address"])
            message = build_message(
                sender=meta["referee_address"], to=player["address"], subject=report.subject,
                text=report.text, html=report.html, in_reply_to=earlier,
                references=[earlier] if earlier else (),
            )
            tx.queue_mail(message["Message-ID"], player["address"], message_bytes(message))
            previous[player["address"]] = message["Message-ID"]
        tx.set_meta({**meta, "last_report": previous})

    # -- out: sending -----------------------------------------------------------------------

    def requeue_interrupted(self, campaign: str) -> int:
        """Put back in the queue mail that a 'send' claimed and never finished (it was
        killed): the server may or may not have taken it, so it may arrive twice."""
        with self.store.transaction(campaign) as tx:
            stuck = tx.outbox("sending")
            for mail in stuck:
                tx.requeue(mail.id)
        return len(stuck)

    def send(self, campaign: str, smtp: SmtpSettings | None) -> tuple[list[Path], int, list[str]]:
        """Write queued mail as .eml files; with SMTP, send it. Returns (files, sent, failures)."""
        files = [self._write_once(mail.eml) for mail in self.store.outbox(campaign, "queued")]
        if smtp is None:
            return files, 0, []
        with self.store.transaction(campaign) as tx:
            claimed = tx.claim_mail()
        failures: list[str] = []
        sent = 0

        def on_sent(outbox_id: int) -> None:
            nonlocal sent
            with self.store.transaction(campaign) as tx:
                tx.mark_sent(outbox_id)
            sent += 1

        def on_failed(outbox_id: int, reason: str) -> None:
            with self.store.transaction(campaign) as tx:
                tx.mark_failed(outbox_id, str(reason))
            failures.append(f"mail {outbox_id}: {reason}")

        send_all(smtp, ((mail.id, message_from_bytes(mail.eml)) for mail in claimed), on_sent, on_failed)
        return files, sent, failures

    def _write_once(self, eml: bytes) -> Path:
        """Write a queued message as an .eml file, unless an earlier 'send' did."""
        message = message_from_bytes(eml)
        path = self.outbox / eml_filename(message)
        return path if path.exists() else write_eml(message, self.outbox)

    # -- deadlines ----------------------------------------------------------------------------

    def remind(self, campaign: str, hours_before: float, now: datetime | None = None) -> str | None:
        """Queue a reminder for the side the game waits for, if its orders for the
        current step are not in and the deadline is within ``hours_before`` hours.
        One reminder per step. Returns the side reminded, if any."""
        now = utc(now)
        with self.store.transaction(campaign) as tx:
            log = read_log(campaign, tx.entries())
            match = log.replay(support(log.charter["game"]).game())
            decision = match.decision
            meta = tx.campaign().meta
            step = log.next_batch
            deadline = step_deadline(tx.entries(), meta)
            if (decision is None or decision.side in log.orders_for(step)
                    or meta.get("reminded") == step or not now <= deadline <= now + timedelta(hours=hours_before)):
                return None
            address = meta["players"][decision.side]["address"]
            text = (f"Reminder: campaign {campaign} waits for your orders for step {step} "
                    f"(turn {getattr(match.state, 'turn', '?')}).\n{decision.prompt}\n"
                    f"Deadline: {deadline.strftime('%Y-%m-%d %H:%M UTC')}. Without orders by then, "
                    f"the documented defaults are used (docs/orders.md).\n")
            message = build_message(sender=meta["referee_address"], to=address,
                                    subject=f"[{campaign}] Reminder: orders due", text=text)
            tx.queue_mail(message["Message-ID"], address, message_bytes(message))
            tx.set_meta({**meta, "reminded": step})
            return decision.side


def _first_line(err: Exception) -> str:
    if isinstance(err, OrdersError):
        return f"{len(err.problems)} problem(s) in the orders"
    return str(err)


def _refusal(err: Exception) -> str:
    if isinstance(err, OrdersError):
        lines = [f"Your orders were not accepted: {len(err.problems)} problem(s). Nothing was recorded;",
                 "correct them and send the whole orders again.", ""]
        lines += [problem.render() for problem in err.problems]
        return "\n".join(lines)
    return f"Your orders were not accepted, and nothing was recorded:\n\n  {err}\n"


