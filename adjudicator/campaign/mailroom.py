"""The campaign's mail: orders in, receipts and reports out.

- ``receive``: every message of a Maildir, mbox, ``.eml`` files or standard input is
  taken at most once (Message-ID and content hash); our own mail and auto-replies
  are ignored; orders are authenticated by password or signature (never by the From
  header) and answered with a receipt or every error, in one transaction per message.
- ``queue_opening``: when a campaign is created, one opening mail per player: the
  campaign id, the referee key's fingerprint, the situation, the first question with
  its template and deadline, how to reply.
- ``queue_reports``: after an adjudication, one report per player, queued in the same
  transaction as the batch it reports (durable before anything is sent).
- ``send``: queued mail is written as ``.eml`` files to the outbox folder and, when
  SMTP is configured, sent; a failed send stays queued, and nothing is sent twice.
- ``remind``: before a deadline, a reminder to the side the game waits for.
"""

from __future__ import annotations

import html
import time
import uuid
from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.campaign.campaign import Campaigns, StepResult, replay_game, step_deadline, utc
from adjudicator.campaign.delivery import (
    grace_ran_out_notes,
    note_reminder,
    note_send_outcomes,
    resend_due,
    step_opened,
)
from adjudicator.campaign.games import support
from adjudicator.campaign.intake_marker import marker_alive, process_marker
from adjudicator.campaign.log import CampaignLog, read_log
from adjudicator.campaign.mail_intake import ORDERS_MAIL, Intake, Taken
from adjudicator.engine import Match
from adjudicator.fairdice import referee_fingerprint
from adjudicator.files import sync_folder
from adjudicator.mail import (
    IncomingMail,
    eml_filename,
    message_from_bytes,
    message_headers,
    outgoing_mail,
    read_messages,
    write_eml,
    write_eml_bytes,
)
from adjudicator.i18n import N_, language_of, say_in, side_title, words
from adjudicator.mail.plain import fit_text

if TYPE_CHECKING:  # SMTP (and TLS) are loaded only when mail is sent by SMTP
    from adjudicator.mail import SmtpSession, SmtpSettings

__all__ = ["Mailroom", "Taken"]

SENDERS = "senders"
#: Outbox ids the mail server took whose outcome a 'send' has not yet recorded: a 'send'
#: that takes over after a kill records these as sent instead of sending them again.
ACCEPTED = "accepted"
#: A lease of a sender on another host not refreshed for this long was left by a killed 'send'.
SEND_STALE_AFTER = timedelta(minutes=10)
#: In a long 'send', the outcomes so far are recorded (and the lease refreshed) this often.
RECORD_EVERY_SECONDS = 30.0


#: The opening mail's subject after the campaign's tag.
OPENING_SUBJECT = N_("%(game)s: the campaign opens - you play %(side)s")


def _as_written(message: str) -> str:
    return message


def opening_lines(campaign: str, title: str, side: str, key_fingerprint: str, referee: str,
                  confirm_turn: Any = None, deadline: datetime | None = None, tr: Any = _as_written) -> list[str]:
    """The opening mail's introduction: who runs what, how to check and how to reply;
    with ``confirm_turn`` (a game whose set-up draws before it asks anything), the
    one-line confirmation that step 1 waits for, as a template, with its ``deadline``.
    In the language of ``tr`` (a gettext; English without)."""
    values = {"campaign": campaign, "game": title, "side": tr(side.capitalize()), "fingerprint": key_fingerprint,
              "referee": referee}
    return [
        tr("Campaign %(campaign)s of %(game)s opens. You play %(side)s.") % values,
        tr("Campaign id: %(campaign)s (the 'campaign:' line of every orders mail).") % values,
        tr("The referee's key fingerprint: %(fingerprint)s. Every public record of this campaign is "
            "signed with this key: check that later reports name the same one.") % values,
        tr("How to reply: answer this mail (to %(referee)s) with your orders between BEGIN ORDERS and "
            "END ORDERS, as in the template below, with your password. You get a receipt for every "
            "orders mail, or every error in it; send again to replace your orders before the deadline.") % values,
        tr("Nothing random is drawn before every side has spoken: if step 1 asks you nothing, confirm it "
            "by replying with the header lines alone (campaign, side, turn, 'step: 1', your password) and an "
            "'entropy:' line of any text you like; the first dice depend on it."),
        *([] if confirm_turn is None else confirmation_template(campaign, side, confirm_turn, deadline, tr)),
    ]


def confirmation_template(campaign: str, side: str, turn: Any, deadline: datetime | None = None,
                          tr: Any = _as_written) -> list[str]:
    """The reply that confirms step 1 of a game whose set-up draws: the orders header
    alone, with an entropy line (docs/dice.md §8.1), and by when it is due."""
    due = "" if deadline is None else tr(" (deadline %(deadline)s)") % {
        "deadline": deadline.strftime('%Y-%m-%d %H:%M UTC')}
    return ["", tr("This game draws its set-up before it asks anything: step 1 waits for every side's "
                    "confirmation%(due)s. Reply with:") % {"due": due}, "",
            "BEGIN ORDERS", f"campaign: {campaign}", f"side: {side}",
            *([] if turn is None else [f"turn: {turn}"]), "step: 1", "password: " + tr("(yours)"),
            "entropy: " + tr("(any word you like)"), "END ORDERS"]



def answered_on_file(log: CampaignLog, match: Match, game_support: Any) -> set[str]:
    """The sides asked at a stop that asks several sides at once whose orders on file
    already answer their question: their answer was taken back, to be recorded with
    the others' once every side's is in (``running.run_from_orders``), and it will be
    given again then, so their reports say that they need send nothing."""
    from adjudicator.campaign.running import orders_in_force
    from adjudicator.engine import IllegalAnswer

    if len(match.decisions) < 2:
        return set()
    in_force = orders_in_force(log, log.next_batch, getattr(match.state, "turn", None), game_support.name)
    found = set()
    for decision in match.decisions:
        orders = in_force.get(decision.side)
        answer = None if orders is None else game_support.answers.answer_for(decision, match.state, orders)
        if answer is None:
            continue
        try:
            decision.accept(answer)
        except IllegalAnswer:
            continue
        found.add(decision.side)
    return found


class Mailroom:
    """Mail for the campaigns of one store."""

    def __init__(self, campaigns: Campaigns, outbox: Path) -> None:
        self.campaigns = campaigns
        self.store = campaigns.store
        self.outbox = outbox

    # -- in ----------------------------------------------------------------------------

    def receive(self, source: str | Path, key: Ed25519PrivateKey, default_campaign: str | None = None,
                own_address: str | None = None) -> list[Taken]:
        """Take in every message of ``source``; answer each with a receipt or the errors
        (see :mod:`adjudicator.campaign.mail_intake`)."""
        mails = list(read_messages(source, own_address=own_address))
        reports = {number: taken for number, mail in enumerate(mails)
                   if (taken := self._delivery_report(mail)) is not None}
        others = iter(Intake(self.campaigns, key).take_all(
            [mail for number, mail in enumerate(mails) if number not in reports], default_campaign))
        return [reports[number] if number in reports else next(others) for number in range(len(mails))]

    def take(self, mail: IncomingMail, key: Ed25519PrivateKey, default_campaign: str | None) -> Taken:
        """Take in one message (answered, or refused on its own; never raises for its content).
        A delivery report about a reminder is recorded, never answered
        (:mod:`adjudicator.campaign.delivery`)."""
        report = self._delivery_report(mail)
        return report if report is not None else Intake(self.campaigns, key).take(mail, default_campaign)

    def _delivery_report(self, mail: IncomingMail) -> Taken | None:
        """``mail`` taken as a delivery report about a reminder (None: it is none); one
        that cannot be taken in is set aside, never answered, and never stops the
        intake of the mail beside it."""
        from adjudicator.campaign.delivery import take_delivery_report
        from adjudicator.campaign.mail_intake import STORE_FAILURES

        try:
            return take_delivery_report(self.store, mail)
        except STORE_FAILURES:
            raise
        except Exception as err:  # noqa: BLE001 - one message must never stop the intake
            return Taken(mail.origin, None, "refused",
                         f"a delivery report that could not be taken in ({type(err).__name__}); nothing recorded, "
                         "never answered")

    # -- out: the opening mail ------------------------------------------------------------

    def queue_opening(self, tx: Any, log: CampaignLog, match: Match) -> None:
        """Queue each player's opening mail (inside the transaction that creates the
        campaign): the first question with its template, or, when the game's set-up
        draws first, the one-line confirmation each side is asked for."""
        from adjudicator.reports.render import render  # the templates only when reports are written: not for receive or send
        from adjudicator.reports.context import report_context
        from adjudicator.reports.mailed import report_mail

        meta = tx.campaign().meta
        game_support = support(log.charter["game"])
        deadline = step_deadline(tx.entries(), meta)
        key = referee_fingerprint(log.charter) or "(unreadable key)"
        confirm = match.decision is None and not match.finished  # nothing asked: the set-up draws first
        for side, player in meta["players"].items():
            language = language_of(player)
            translations = words(language)
            report = render(report_context(
                log=log, match=match, events=match.events, side=side, player=player["address"], deadline=deadline,
                game_support=game_support, language=language))
            intro = opening_lines(log.campaign, game_support.title, side, key, meta["referee_address"],
                                  getattr(match.state, "turn", None) if confirm else None, deadline,
                                  translations.gettext)
            intro_html = "".join(f"<p>{html.escape(line)}</p>" for line in intro if line)
            message = report_mail(
                sender=meta["referee_address"], to=player["address"],
                subject=f"[{log.campaign}] " + translations.gettext(OPENING_SUBJECT) % {
                    "game": game_support.title, "side": side_title(side, translations)},
                text=fit_text("\n".join(intro)) + "\n\n" + report.text,
                html=report.html.replace("<body>", "<body>\n" + intro_html, 1),
            )
            tx.queue_mail(message.message_id, player["address"], message.data)

    # -- out: reports ----------------------------------------------------------------------

    def queue_reports(self, tx: Any, log: CampaignLog, match: Match, step: StepResult) -> None:
        """Queue each player's report of ``step`` (called inside the adjudication's transaction)."""
        from adjudicator.reports.render import render
        from adjudicator.reports.context import report_context
        from adjudicator.reports.mailed import report_mail

        meta = tx.campaign().meta
        game_support = support(log.charter["game"])
        deadline = step_deadline(tx.entries(), meta)
        previous = dict(meta.get("last_report", {}))
        digests = dict(meta.get("digest", {}))
        orders_mail = dict(meta.get(ORDERS_MAIL, {}))
        on_file = answered_on_file(log, match, game_support)
        for side, player in meta["players"].items():
            events = step.events
            if player.get("reports") == "turn":
                seen = digests.get(side, {"turn": getattr(match.state, "turn", None), "events": 0})
                if not _digest_due(match, side, seen):
                    continue
                events = tuple(_events_since(log, match, seen["events"]))
                digests[side] = {"turn": getattr(match.state, "turn", None), "events": match.event_count}
            context = report_context(
                log=log, match=match, events=events, side=side, player=player["address"],
                deadline=deadline, game_support=game_support, defaults=step.defaults,
                default_notes=step.default_notes + grace_ran_out_notes(meta, step.batch, step.defaults),
                refused=step.refused, batch=log.batches[-1], openings=step.openings.get(side, ()),
                not_carried_out=step.not_carried_out.get(side, ()), language=language_of(player),
                earlier_events=len(events) - len(step.events), answered_on_file=side in on_file,
            )
            report = render(context)
            earlier = previous.get(player["address"])
            answered = orders_mail.pop(player["address"].lower(), None)
            message = report_mail(
                sender=meta["referee_address"], to=player["address"], subject=report.subject,
                text=report.text, html=report.html, in_reply_to=answered or earlier,
                references=[ref for ref in (earlier, answered) if ref],
            )
            tx.queue_mail(message.message_id, player["address"], message.data)
            previous[player["address"]] = message.message_id
        tx.set_meta({**meta, "last_report": previous, ORDERS_MAIL: orders_mail,
                     **({"digest": digests} if digests else {})})

    # -- out: sending -----------------------------------------------------------------------

    def settle_interrupted(self, campaign: str, force: bool = False) -> tuple[int, int]:
        """Settle mail that a killed 'send' claimed and never finished: what the server
        had taken is recorded as sent (with the referee's copy); the rest is put back in
        the queue (the server may have taken the last of it just before the kill, so
        that one may arrive twice). Returns (how many recorded as sent, how many queued
        again); (0, 0) while another 'send' runs, unless ``force``. ``send`` does this
        by itself when no other 'send' is running."""
        with self.store.transaction(campaign) as tx:
            if not force and self._live_senders(tx):
                return 0, 0
            recovered, requeued = _settle_interrupted(tx)
        outcomes = _Outcomes(self, campaign, recovered)
        for mail in recovered:
            outcomes.note(mail.id, None)
        outcomes.record()
        return len(recovered), requeued

    def backlog(self, campaign: str) -> list[int]:
        """Outbox ids of unsent mail older than the current step: the reports of earlier
        steps and anything queued before them (the receipts of the orders that led to
        the latest reports are not backlog: they go with them)."""
        outbox = self.store.outbox(campaign)
        latest = set(self.store.campaign(campaign).meta.get("last_report", {}).values())
        earlier = {ref for m in outbox if m.message_id in latest
                   for ref in str(message_headers(m.eml)["References"] or "").split()}
        boundary = max((m.id for m in outbox if m.message_id in earlier), default=None)
        if boundary is None:
            return []
        return [m.id for m in outbox if m.status.value in ("queued", "sending") and m.id <= boundary]

    def send(self, campaign: str, smtp: SmtpSettings | None, *, mark_sent: bool = False,
             hold: Collection[int] = (), session: SmtpSession | None = None) -> tuple[list[Path], int, list[str]]:
        """Write unsent mail as .eml files (each once) and, with SMTP, send it; without
        SMTP, ``mark_sent`` records it as delivered (the referee sends the files).
        Of the mail a killed 'send' left half-sent, what the server had taken is
        recorded as sent, and the rest is sent again first (same Message-ID: at least
        once). ``hold`` keeps those outbox ids queued. Returns (the .eml files
        newly written, how many were sent or marked sent, the failures). What became
        of each reminder is followed (:mod:`adjudicator.campaign.delivery`).

        With SMTP the mail goes first and the referee's .eml copies are written after,
        so that players are not kept waiting by the files; each outcome is recorded
        once the copies are written (all in one transaction, or every
        :data:`RECORD_EVERY_SECONDS` in a long run, which also refreshes the lease). A
        kill before that leaves the mail 'sending', to be sent again by the next 'send'
        (at least once, as above). A ``session`` keeps the SMTP connection open for the
        next 'send' (a resident service's).

        Each message the server takes is also noted at once in a transaction of its
        own (:meth:`_note_accepted`): one transaction per message, kept on purpose, so
        that a 'send' killed before it records the outcomes is not followed by one that
        sends that message again."""
        claim = smtp is not None or mark_sent
        token, claimed, recovered = self._take_lease(campaign, claim, hold)
        try:
            outcomes = _Outcomes(self, campaign, claimed + recovered)
            for mail in recovered:  # taken by the server before a 'send' was killed
                outcomes.note(mail.id, None)
            if not claim:
                unsent = [m for m in self.store.outbox(campaign, "queued") if m.id not in hold]
                files = self._write_all(unsent)
                if outcomes.record(drop=token):
                    token = None
                return files + outcomes.files, 0, []
            try:
                if smtp is None:
                    for mail in claimed:
                        outcomes.note(mail.id, None)
                else:
                    self._send_claimed(smtp, claimed, token, outcomes, session)
            finally:
                if outcomes.record(drop=token):
                    token = None
            return outcomes.files, len(claimed) - len(outcomes.failures), outcomes.failures
        finally:
            if token is not None:
                self._drop_lease(campaign, token)

    def _write_all(self, mails: list[Any], headers: Mapping[int, Any] | None = None) -> list[Path]:
        """Write each message's .eml copy unless an earlier 'send' did; the folder is
        flushed to disk once, after the last."""
        written = [self._write_once(m.eml, (headers or {}).get(m.id)) for m in mails]
        if any(path is not None for path in written):
            sync_folder(self.outbox)
        return [path for path in written if path is not None]

    def _send_claimed(self, smtp: SmtpSettings, claimed: list[Any], token: str, outcomes: _Outcomes,
                      session: SmtpSession | None) -> None:
        """Send; each outcome goes to ``outcomes``, and in a long run those so far are
        recorded every :data:`RECORD_EVERY_SECONDS`, which also refreshes the lease."""
        from adjudicator.mail import WireMessage, send_all

        recorded = time.monotonic()

        def note(outbox_id: int, failure: str | None) -> None:
            nonlocal recorded
            outcomes.note(outbox_id, failure)
            if failure is None:
                self._note_accepted(outcomes.campaign, outbox_id)
            if time.monotonic() - recorded >= RECORD_EVERY_SECONDS:
                outcomes.record(lease=token)
                recorded = time.monotonic()

        send_all(smtp, ((mail.id, WireMessage(outcomes.headers[mail.id], mail.eml)) for mail in claimed),
                 lambda outbox_id: note(outbox_id, None), lambda outbox_id, reason: note(outbox_id, reason),
                 session)

    # A 'send' holds a lease in the campaign's metadata while it runs. A 'send' that
    # finds no live lease but mail left 'sending' knows that mail's sender was killed:
    # it records as sent what the server had taken (ACCEPTED) and queues the rest again.

    # The lease, the claim and the note of each message the server took are bookkeeping:
    # a power cut that loses them leaves the mail 'queued' or 'sending', which the next
    # 'send' sends again (at least once), so their transaction need not wait for the
    # disk. The outcomes are recorded durably.

    def _take_lease(self, campaign: str, claim: bool,
                    hold: Collection[int]) -> tuple[str, list[Any], list[Any]]:
        """Take a lease and, if ``claim``, claim the queued mail (marked 'sending') except
        the ``hold`` ids, in one transaction; returns the lease's token, the mail claimed,
        and the mail a killed 'send' left half-sent that the server had taken (to be
        recorded as sent)."""
        token = f"{uuid.uuid4().hex}"
        claimed: list[Any] = []
        recovered: list[Any] = []
        with self.store.transaction(campaign, durable=False) as tx:
            senders = self._live_senders(tx)
            if not senders:
                recovered, _ = _settle_interrupted(tx)
            meta = tx.campaign().meta
            senders[token] = process_marker()
            tx.set_meta({**meta, SENDERS: senders})
            if claim:
                claimed = tx.claim_mail()
                for held in [m for m in claimed if m.id in hold]:
                    tx.requeue(held.id)
        return token, [m for m in claimed if m.id not in hold], recovered

    def _live_senders(self, tx: Any) -> dict[str, Any]:
        """The leases of the 'send' runs still alive (a killed one's is dropped)."""
        return {token: marker for token, marker in tx.campaign().meta.get(SENDERS, {}).items()
                if marker_alive(marker, stale_after=SEND_STALE_AFTER)}

    def _note_accepted(self, campaign: str, outbox_id: int) -> None:
        """Note at once that the server took a message, so that a 'send' killed before
        it records the outcome is not followed by one that sends the message again."""
        with self.store.transaction(campaign, durable=False) as tx:
            meta = tx.campaign().meta
            tx.set_meta({**meta, ACCEPTED: [*meta.get(ACCEPTED, []), outbox_id]})

    def _beat(self, tx: Any, token: str) -> None:
        meta = tx.campaign().meta
        tx.set_meta({**meta, SENDERS: {**meta.get(SENDERS, {}), token: process_marker()}})

    def _drop_lease(self, campaign: str, token: str) -> None:
        with self.store.transaction(campaign, durable=False) as tx:
            self._release(tx, token)

    def _release(self, tx: Any, token: str) -> None:
        meta = tx.campaign().meta
        senders = dict(meta.get(SENDERS, {}))
        senders.pop(token, None)
        tx.set_meta({**meta, SENDERS: senders})

    def _write_once(self, eml: bytes, headers: Any = None) -> Path | None:
        """Write a queued message as an .eml file, unless an earlier 'send' did (None);
        the folder is not flushed (:meth:`_write_all` does it)."""
        headers = message_headers(eml) if headers is None else headers
        if headers.get("Message-ID") is None:  # named after its content: the whole message is needed
            message = message_from_bytes(eml)
            path = self.outbox / eml_filename(message)
            return None if path.exists() else write_eml(message, self.outbox)
        name = eml_filename(headers)
        return None if (self.outbox / name).exists() else write_eml_bytes(eml, name, self.outbox, sync_folder=False)

    # -- deadlines ----------------------------------------------------------------------------

    def tell_pause_over(self, campaign: str, now: datetime | None = None) -> bool:
        """Queue to every player, once, that the campaign's last pause is over, when it
        is by ``now`` (:mod:`adjudicator.campaign.pause`); whether it was queued."""
        from adjudicator.campaign.pause import pause_over_due, tell_pause_over

        now = utc(now)
        if not pause_over_due(self.store.entries(campaign, verify=False), self.store.campaign(campaign).meta, now):
            return False
        with self.store.transaction(campaign) as tx:
            return tell_pause_over(tx, now)

    def remind(self, campaign: str, hours_before: float, now: datetime | None = None,
               again: bool = False) -> str | None:
        """Queue a reminder for each side the game waits for (several, where a stop
        asks several sides), if its orders for the current step are not in and the
        deadline is within ``hours_before`` hours. One reminder per step, and none while
        the campaign is paused (a pause just over is told to every player first).
        A side whose reminder was refused or bounced is reminded again, before the
        deadline, once its address has changed, or at once with ``again``
        (:mod:`adjudicator.campaign.delivery`). Returns the sides reminded
        ("japan, russia"), if any."""
        from adjudicator.campaign.pause import in_force, pause_records, tell_pause_over

        now = utc(now)
        with self.store.transaction(campaign) as tx:
            tell_pause_over(tx, now)
            if in_force(pause_records(tx.entries()), now) is not None:
                return None
            log = read_log(campaign, tx.entries())
            match = replay_game(log, tx.get_secret)
            meta = tx.campaign().meta
            step = log.next_batch
            deadline = step_deadline(tx.entries(), meta)
            due = [d for d in match.decisions if d.side not in log.orders_for(step)]
            opened = step_opened(tx.entries())
            if meta.get("reminded") == step or not now <= deadline <= now + timedelta(hours=hours_before):
                resend = resend_due(meta, opened, again)  # a reminder that did not arrive, sent again
                due = [d for d in due if d.side in resend and now <= deadline]
            if not due:
                return None
            for decision in due:
                address = meta["players"][decision.side]["address"]
                tr = words(language_of(meta["players"][decision.side])).gettext
                text = (tr("Reminder: campaign %(campaign)s waits for your orders for step %(step)s "
                            "(turn %(turn)s).") % {"campaign": campaign, "step": step,
                                                   "turn": getattr(match.state, 'turn', '?')}
                        + f"\n{say_in(decision.prompt, tr)}\n"
                        + tr("Deadline: %(deadline)s. Without orders by then, the documented defaults are "
                              "used (docs/orders.md).") % {"deadline": deadline.strftime('%Y-%m-%d %H:%M UTC')}
                        + "\n")
                message = outgoing_mail(sender=meta["referee_address"], to=address,
                                        subject=f"[{campaign}] " + tr("Reminder: orders due"), text=fit_text(text))
                tx.queue_mail(message.message_id, address, message.data)
                note_reminder(tx, decision.side, step, opened, message.message_id, address, deadline)
            tx.set_meta({**tx.campaign().meta, "reminded": step})
            return ", ".join(decision.side for decision in due)


class _Outcomes:
    """What became of each claimed mail in one 'send', recorded in the store only once
    the referee's .eml copies of those mails are written (a kill before that leaves
    them 'sending', to be sent again); the copies newly written and the failures."""

    def __init__(self, mailroom: Mailroom, campaign: str, claimed: list[Any]) -> None:
        self._mailroom, self.campaign = mailroom, campaign
        self._claimed = {mail.id: mail for mail in claimed}
        self.headers = {mail.id: message_headers(mail.eml) for mail in claimed}  # read once: sent, then written
        self._pending: list[tuple[int, str | None]] = []  # (outbox id, the failure or None: sent)
        self.files: list[Path] = []
        self.failures: list[str] = []

    def note(self, outbox_id: int, failure: str | None) -> None:
        self._pending.append((outbox_id, failure))
        if failure is not None:
            self.failures.append(f"mail {outbox_id}: {failure}")

    def record(self, lease: str | None = None, drop: str | None = None) -> bool:
        """Write the copies of the mail noted so far, then record its outcomes (and
        refresh the ``lease``, or release the lease ``drop``) in one transaction.
        Returns whether that transaction ran (with nothing noted, nothing is done)."""
        if not self._pending:
            return False
        self.files += self._mailroom._write_all([self._claimed[outbox_id] for outbox_id, _ in self._pending],
                                                self.headers)
        with self._mailroom.store.transaction(self.campaign) as tx:
            refused = note_send_outcomes(tx, [(self._claimed[outbox_id].message_id, failure)
                                              for outbox_id, failure in self._pending])
            _record_outcomes(tx, self._pending, {outbox_id for outbox_id, _ in self._pending
                                                 if self._claimed[outbox_id].message_id in refused})
            if lease is not None:
                self._mailroom._beat(tx, lease)
            if drop is not None:
                self._mailroom._release(tx, drop)
        self._pending = []
        return True


def _record_outcomes(tx: Any, outcomes: list[tuple[int, str | None]], for_good: Collection[int] = ()) -> None:
    """Record each claimed message as sent (no failure) or failed (queued again, but
    those ``for_good``: a reminder refused for good is sent again only as a new one,
    with the deadline as it waits), and forget the notes that the server took those sent."""
    for outbox_id, failure in outcomes:
        if failure is None:
            tx.mark_sent(outbox_id)
        else:
            tx.mark_failed(outbox_id, failure, permanent=outbox_id in for_good)
    meta = tx.campaign().meta
    if meta.get(ACCEPTED):
        done = {outbox_id for outbox_id, failure in outcomes if failure is None}
        tx.set_meta({**meta, ACCEPTED: [i for i in meta[ACCEPTED] if i not in done]})


def _settle_interrupted(tx: Any) -> tuple[list[Any], int]:
    """Of the mail a killed 'send' left 'sending': the messages the server had taken
    (still 'sending', for the caller to record as sent once their copies are written),
    and how many others were queued again."""
    taken = set(tx.campaign().meta.get(ACCEPTED, []))
    recovered, requeued = [], 0
    for mail in tx.outbox("sending"):
        if mail.id in taken:
            recovered.append(mail)
        else:
            tx.requeue(mail.id)
            requeued += 1
    meta = tx.campaign().meta
    if meta.get(ACCEPTED):
        tx.set_meta({**meta, ACCEPTED: [m.id for m in recovered]})
    return recovered, requeued


def _events_since(log: CampaignLog, match: Match, count: int) -> list:
    """The game's events after its first ``count``; from the whole game replayed when
    ``match`` was run from a later snapshot (the campaign keeps its snapshot before the
    events a per-turn report still has to tell, so this is rare)."""
    found = match.events_since(count)
    if found is None:
        found = log.replay(support(log.charter["game"]).game()).events[count:]
    return found


def _digest_due(match: Match, side: str, seen: Mapping[str, Any]) -> bool:
    """Whether a player who asked for one report per turn gets one now: when they are
    asked something, when a new turn has begun since their last report, or at the end."""
    return (match.finished or match.decision_for(side) is not None
            or getattr(match.state, "turn", None) != seen["turn"])
