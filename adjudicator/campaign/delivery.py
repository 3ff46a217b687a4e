"""Defaults only after a notice that arrived: what became of each reminder, and the
deadline held back while a side's reminder did not reach its player.

Each reminder ``remind`` queues is followed in the campaign's metadata
(:data:`DELIVERY`: side -> the side's latest reminder; never in the public record):
the step it reminds of, its Message-ID, the address it went to, the deadline it
announced, and what became of it:

- ``queued``: not sent yet;
- ``accepted``: the SMTP server took it (or the referee marked it sent);
- ``refused``: the SMTP server refused it for good (a 5xx reply: the address is
  unknown, the mailbox is gone);
- ``bounced``: a delivery status notification (RFC 3464: a ``multipart/report``
  with ``report-type=delivery-status``) came back to the referee's address saying
  that delivery failed; it is matched to the reminder by the Message-ID in the
  headers it returns, its ``Original-Envelope-Id``, or its In-Reply-To/References;
- ``delivered``: such a notification said that it was delivered.

A side whose latest reminder for the open step was refused or bounced is not
defaulted at the deadline: the referee is told (a mail to the referee's address, and
a line in ``status``), and the step's deadline waits, at most the campaign's
:data:`GRACE_KEY` hours (``bounce_grace_hours`` in the players file of ``new`` or a
roster's ``[[campaign]]``; :data:`DEFAULT_GRACE_HOURS` by default). When the grace
runs out, the defaults apply and the report says that the reminder did not arrive.

A reminder refused for good is not tried again as it is: it announced a deadline that
no longer holds. A hold lasts its grace once it began, the side's orders arriving
too (every side was told the deadline waits); it ends sooner when a reminder sent again (``adjudicator remind
CAMPAIGN --again``, or by itself once the side's address has changed) is taken by the
server: a reminder that was taken keeps the deadline it announced (at most the grace
past the deadline), which for one sent again is the deadline as it waits.

A delivery report is never taken as orders and never answered: the intake reads it
here, notes it in the mail log, and goes no further.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from adjudicator.campaign.errors import CampaignError
from adjudicator.campaign.record_kinds import BATCH, CHARTER, ORDERS, UNDO, record_body
from adjudicator.i18n import said

if TYPE_CHECKING:  # the mail library only where a delivery report is read: 'status' never loads it
    from email.message import Message

#: The campaign's metadata keys: each side's latest reminder, and the campaign's grace.
DELIVERY, GRACE_KEY = "reminder_delivery", "bounce_grace_hours"
#: Hours a deadline waits for a side whose reminder did not arrive, unless the campaign sets its own.
DEFAULT_GRACE_HOURS = 48.0
#: What became of a reminder: the states that hold the deadline back, and the others.
FAILED = ("refused", "bounced")
QUEUED, ACCEPTED, DELIVERED = "queued", "accepted", "delivered"
#: A DSN's Action values that say the message reached its recipient (RFC 3464 §2.3.3).
ARRIVED_ACTIONS = ("delivered", "relayed", "expanded")


class BadGrace(CampaignError):
    """A ``bounce_grace_hours`` that is not a number of hours."""


# -- the campaign's grace -----------------------------------------------------------------


def grace_hours(meta: Mapping[str, Any]) -> float:
    return float(meta.get(GRACE_KEY, DEFAULT_GRACE_HOURS))


def grace_of(entry: Mapping[str, Any], where: str) -> float | None:
    """The ``bounce_grace_hours`` a players file or a roster's campaign table sets
    (None: the default); BadGrace, quoting it, when it is not 0 or more hours."""
    if GRACE_KEY not in entry:
        return None
    value = entry[GRACE_KEY]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 24 * 366:
        raise BadGrace(f"{where}: {GRACE_KEY} = {value!r}; it is a number of hours from 0 to {24 * 366} "
                       f"(how long a deadline waits for a side whose reminder did not arrive; default "
                       f"{DEFAULT_GRACE_HOURS:g})")
    return float(value)


def with_grace(hours: float | None, after: Callable[..., None] | None) -> Callable[..., None] | None:
    """``after`` (run in the transaction that creates a campaign) that first keeps the
    campaign's own grace in its metadata; ``after`` itself when ``hours`` is None."""
    if hours is None:
        return after

    def setting_grace(tx: Any, *args: Any) -> None:
        tx.set_meta({**tx.campaign().meta, GRACE_KEY: hours})
        if after is not None:
            after(tx, *args)

    return setting_grace


# -- the reminders followed ---------------------------------------------------------------


def step_opened(entries: Sequence[Any]) -> str:
    """When the open step opened (the charter, the last batch or an undo), as stored:
    what tells a reminder of this step from one of an earlier step of the same number."""
    from adjudicator.campaign.summary import _opened

    for entry in reversed(entries):
        if entry.kind in (CHARTER, BATCH, UNDO) and (opened := _opened(entry.body_json)) is not None:
            return opened
    return ""


def note_reminder(tx: Any, side: str, step: int, opened: str, message_id: str, address: str,
                  announced: datetime) -> None:
    """Follow the reminder just queued for ``side`` (it replaces the side's earlier one)."""
    meta = tx.campaign().meta
    record = {"step": step, "opened": opened, "message_id": message_id, "address": address,
              "announced": announced.isoformat(), "status": QUEUED, "at": None, "detail": ""}
    tx.set_meta({**meta, DELIVERY: {**meta.get(DELIVERY, {}), side: record}})


def failed_for_step(meta: Mapping[str, Any], opened: str) -> dict[str, dict[str, Any]]:
    """The sides whose latest reminder for the step opened at ``opened`` was refused or bounced."""
    return {side: record for side, record in meta.get(DELIVERY, {}).items()
            if record.get("opened") == opened and record.get("status") in FAILED}


def resend_due(meta: Mapping[str, Any], opened: str, again: bool) -> set[str]:
    """The sides whose reminder for this step failed and is to be sent again: every one
    with ``again``, else those whose registered address has changed since."""
    players = meta.get("players", {})
    return {side for side, record in failed_for_step(meta, opened).items()
            if again or players.get(side, {}).get("address", "").lower() != record.get("address", "").lower()}


def note_send_outcomes(tx: Any, outcomes: Iterable[tuple[str, str | None]], now: datetime | None = None) -> set[str]:
    """Record what the SMTP server (or the referee, marking mail sent) did with the
    reminders among ``outcomes`` (Message-ID, the failure or None); the referee is told
    of a reminder refused for good. Returns the Message-IDs of those refused for good
    (not to be tried again: ``remind --again`` sends a new one)."""
    meta = tx.campaign().meta
    followed = meta.get(DELIVERY, {})
    if not followed:
        return set()
    by_id = {record["message_id"]: side for side, record in followed.items()}
    changed, told = dict(followed), []
    when = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    for message_id, failure in outcomes:
        side = by_id.get(message_id)
        if side is None:
            continue
        record = changed[side]
        if failure is None and record["status"] == QUEUED:
            changed[side] = {**record, "status": ACCEPTED, "at": when, "detail": "sent"}
        elif failure is not None and getattr(failure, "permanent", False) and record["status"] == QUEUED:
            changed[side] = {**record, "status": "refused", "at": when, "detail": str(failure)}
            told.append(side)
    if changed != followed:
        meta = {**meta, DELIVERY: changed}
        tx.set_meta(meta)
    for side in told:
        tell_referee(tx, meta, side)
    return {changed[side]["message_id"] for side in told}


def orders_arrived(entries: Sequence[Any], side: str, step: int) -> bool:
    """Whether orders of ``side`` for ``step`` are on file (read from the records'
    bodies, the newest first, back to the step's opening)."""
    for entry in reversed(entries):
        if entry.kind in (CHARTER, BATCH, UNDO):
            return False
        if entry.kind == ORDERS:
            body = record_body(entry)
            if body.get("side") == side and body.get("step") == step:
                return True
    return False


def held_deadline(entries: Sequence[Any], meta: Mapping[str, Any],
                  deadline_of: Callable[[Sequence[Any], Mapping[str, Any]], datetime]) -> datetime:
    """The step's deadline (``deadline_of`` the campaign without its reminders' fate),
    held back by the campaign's grace while a side's latest reminder for the step was
    refused or bounced, or kept where a reminder sent again announced it (at most the
    grace past the deadline). A hold lasts its grace once it began, the side's orders
    arriving too: every side was told the deadline waits, and a deadline that went back
    could already have passed (the step is adjudicated sooner anyway once every side's
    orders are in)."""
    plain = {name: value for name, value in meta.items() if name != DELIVERY}
    deadline = deadline_of(entries, plain)
    opened, grace = step_opened(entries), timedelta(hours=grace_hours(meta))
    held = deadline
    for side, record in meta.get(DELIVERY, {}).items():
        if record.get("opened") != opened:
            continue
        if record["status"] in FAILED:
            held = max(held, deadline + grace)
        else:
            announced = datetime.fromisoformat(record["announced"])
            held = max(held, min(announced, deadline + grace))
    return held


# -- telling the referee ----------------------------------------------------------------------


def tell_referee(tx: Any, meta: Mapping[str, Any], side: str) -> None:
    """A mail to the referee's address: ``side``'s reminder did not arrive, and what follows."""
    from adjudicator.campaign.summary import step_deadline
    from adjudicator.mail import MailError, outgoing_mail
    from adjudicator.mail.plain import fit_text

    record = meta[DELIVERY][side]
    entries = tx.entries(verify=False)
    if record.get("opened") != step_opened(entries):
        return  # a reminder of a step already adjudicated: it holds nothing ('history' lists the report)
    held = step_deadline(entries, meta).strftime("%Y-%m-%d %H:%M UTC")
    what = "was refused by the mail server" if record["status"] == "refused" else "bounced"
    text = "\n".join([
        f"The reminder of step {record['step']} of campaign {tx.campaign_id} to the {side} player "
        f"({record['address']}) {what}:", "",
        textwrap.fill(record["detail"], width=76, initial_indent="  ", subsequent_indent="  "), "",
        f"So {side.capitalize()} is not defaulted at the deadline: the deadline waits, at most "
        f"{grace_hours(meta):g} hours, until {held}. Then the defaults apply, and the report says "
        "that the reminder did not arrive.",
        "The hold ends sooner only when the reminder, sent again, is taken by the "
        f"mail server: correct the player's address or reach the player another way, then run "
        f"'adjudicator remind {tx.campaign_id} --again'.",
    ])
    try:
        message = outgoing_mail(sender=meta["referee_address"], to=meta["referee_address"],
                                subject=f"[{tx.campaign_id}] The reminder to {side} did not arrive",
                                text=fit_text(text) + "\n")
    except MailError:
        return  # a referee's address no mail can go to: 'status' still says it
    tx.queue_mail(message.message_id, meta["referee_address"], message.data)


def hold_status(entries: Sequence[Any], meta: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The sides whose reminder for the open step did not arrive, for ``status``: what
    became of it, and whether their orders have come since."""
    opened = step_opened(entries)
    return [{"side": side, "step": record["step"], "status": record["status"], "at": record.get("at"),
             "detail": record.get("detail", ""), "orders_arrived": orders_arrived(entries, side, record["step"]),
             "grace_hours": grace_hours(meta)}
            for side, record in sorted(failed_for_step(meta, opened).items())]


def hold_status_lines(holds: Sequence[Mapping[str, Any]]) -> list[str]:
    """The same, one line each."""
    lines = []
    for hold in holds:
        what = "was refused by the mail server" if hold["status"] == "refused" else "bounced"
        if hold["orders_arrived"]:
            lines.append(f"reminder to {hold['side']} for step {hold['step']} {what}; its orders have come since "
                         f"(the deadline still waits its {hold['grace_hours']:g} hours, as every side was told)")
        else:
            lines.append(f"reminder to {hold['side']} for step {hold['step']} {what} ({hold['detail']}): not "
                         f"defaulted, the deadline waits (at most {hold['grace_hours']:g} hours); "
                         "'remind --again' once the address is right")
    return lines


def grace_ran_out_notes(meta: Mapping[str, Any], step: int, defaulted: Iterable[str]) -> tuple[str, ...]:
    """For the report of ``step``: the defaulted sides whose reminder did not arrive."""
    followed = meta.get(DELIVERY, {})
    notes = []
    for side in defaulted:
        record = followed.get(side)
        if record is not None and record.get("step") == step and record.get("status") in FAILED:
            values = {"side": said(side.capitalize()), "step": step, "hours": format(grace_hours(meta), "g")}
            notes.append(said("%(side)s: the reminder for step %(step)s was refused by the mail server; the deadline "
                              "waited the %(hours)s hours of grace, then the defaults applied", **values)
                         if record["status"] == "refused" else
                         said("%(side)s: the reminder for step %(step)s bounced; the deadline waited the %(hours)s "
                              "hours of grace, then the defaults applied", **values))
    return tuple(notes)


# -- delivery reports by mail ---------------------------------------------------------------------


@dataclass(frozen=True)
class DeliveryReport:
    """What a delivery status notification says: the ids that name the message it is
    about, and each recipient's action and status (with the diagnostic, if any)."""

    about: tuple[str, ...]  # Message-IDs, the surest first
    actions: tuple[tuple[str, str, str], ...]  # (recipient, action, "status diagnostic")

    @property
    def failed(self) -> bool:
        return any(action == "failed" for _, action, _ in self.actions)

    @property
    def arrived(self) -> bool:
        return bool(self.actions) and all(action in ARRIVED_ACTIONS for _, action, _ in self.actions)

    def detail(self) -> str:
        return "; ".join(f"{recipient or 'the recipient'}: {action}" + (f", {why}" if why else "")
                         for recipient, action, why in self.actions) or "no recipient named"


def read_delivery_report(raw: bytes) -> DeliveryReport | None:
    """The delivery status notification in ``raw`` (RFC 3464), or None when it is none."""
    from email import policy
    from email.parser import BytesParser

    from adjudicator.mail.headers import message_id, message_ids

    try:
        message = BytesParser(policy=policy.compat32).parsebytes(raw)
        if message.get_content_type() != "multipart/report" or \
                str(message.get_param("report-type", "")).lower() not in ("delivery-status", "global-delivery-status"):
            return None
        about: list[str] = []
        actions: list[tuple[str, str, str]] = []
        for part in message.walk():
            kind = part.get_content_type()
            if kind in ("message/delivery-status", "message/global-delivery-status"):
                fields = _status_blocks(part)
                if fields:
                    about += [i for i in [message_id(fields[0].get("Original-Envelope-Id"))] if i]
                for block in fields[1:]:
                    action = str(block.get("Action", "")).strip().lower()
                    recipient = _address(block.get("Final-Recipient") or block.get("Original-Recipient"))
                    why = " ".join(" ".join(str(block[name]).split()) for name in ("Status", "Diagnostic-Code")
                                   if block.get(name))
                    actions.append((recipient, action, why[:300]))
            elif kind in ("text/rfc822-headers", "message/rfc822", "message/global", "message/global-headers"):
                returned = _returned_headers(part)
                if returned is not None:
                    about = [i for i in [message_id(returned.get("Message-ID"))] if i] + about
        about += list(message_ids(message.get("In-Reply-To"))) + list(message_ids(message.get("References")))
        return DeliveryReport(tuple(dict.fromkeys(about)), tuple(actions))
    except Exception:  # noqa: BLE001 - a report we cannot read is one we cannot match: ignored as before
        return None


def _status_blocks(part: Message) -> list[Message]:
    """The header blocks of a delivery-status part (per message, then per recipient)."""
    from email.message import Message
    from email.parser import HeaderParser

    payload = part.get_payload()
    if isinstance(payload, list):
        return [block for block in payload if isinstance(block, Message)]
    text = payload if isinstance(payload, str) else ""
    blocks = [b for b in text.replace("\r\n", "\n").split("\n\n") if b.strip()]
    return [HeaderParser().parsestr(block) for block in blocks]


def _returned_headers(part: Message) -> Message | None:
    """The headers of the message a report returns (whole, or its headers alone)."""
    from email.message import Message
    from email.parser import HeaderParser

    payload = part.get_payload()
    if isinstance(payload, list) and payload and isinstance(payload[0], Message):
        return payload[0]
    if isinstance(payload, str):
        data = part.get_payload(decode=True) or payload.encode("utf-8", "replace")
        return HeaderParser().parsestr(data.decode("utf-8", "replace"))
    return None


def _address(value: str | None) -> str:
    if not value:
        return ""
    return str(value).split(";", 1)[-1].strip()


def take_delivery_report(store: Any, mail: Any) -> Any | None:
    """Read ``mail`` (an IncomingMail) as a delivery report about a reminder: the
    intake's outcome (a Taken, never answered), or None when it is not a delivery
    report (the intake takes it as usual)."""
    from adjudicator.campaign.mail_intake import Taken, mail_identity, note_mail

    if mail.is_own or not mail.is_auto_reply:  # (every delivery report is an automatic one)
        return None
    report = read_delivery_report(mail.raw)
    if report is None:
        return None
    found = _reminder_of(store, report.about)
    if found is None:
        return Taken(mail.origin, None, "ignored", "a delivery report about no reminder: never answered")
    campaign, side = found
    identity = mail_identity(mail)
    with store.transaction(campaign) as tx:
        if not tx.mark_mail_seen(*identity):
            return Taken(mail.origin, campaign, "duplicate", "already taken in")
        meta = tx.campaign().meta
        record = meta.get(DELIVERY, {}).get(side)
        if record is None or record.get("message_id") not in report.about:  # a reminder sent since replaced it
            taken = Taken(mail.origin, campaign, "ignored", f"a delivery report about an earlier reminder to {side}")
            note_mail(tx, mail, taken, identity[1])
            return taken
        if report.failed:
            status, outcome = "bounced", f"a delivery report: the reminder to {side} bounced ({report.detail()})"
        elif report.arrived:
            status, outcome = DELIVERED, f"a delivery report: the reminder to {side} was delivered"
        else:
            status, outcome = None, f"a delivery report about the reminder to {side}: {report.detail()}"
        if status is not None and record["status"] != status:
            now = datetime.now(timezone.utc).isoformat(timespec="seconds")
            meta = {**meta, DELIVERY: {**meta[DELIVERY], side: {**record, "status": status, "at": now,
                                                                "detail": report.detail()[:500]}}}
            tx.set_meta(meta)
            if status == "bounced":
                tell_referee(tx, meta, side)
        taken = Taken(mail.origin, campaign, "ignored", outcome + "; recorded, never answered")
        note_mail(tx, mail, taken, identity[1])
    return taken


def _reminder_of(store: Any, ids: Sequence[str]) -> tuple[str, str] | None:
    """(campaign, side) of the latest reminder named by one of ``ids``."""
    wanted = set(ids)
    if not wanted:
        return None
    for campaign in store.campaigns():
        for side, record in campaign.meta.get(DELIVERY, {}).items():
            if record.get("message_id") in wanted:
                return campaign.id, side
    return None
