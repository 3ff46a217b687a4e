"""The referee's desk: the one thread of ``serve`` that owns the campaign store.

Mail sources hand it messages (:meth:`DeskThread.submit`) and wait for the answer,
which comes once the message is durable: taken in, with its receipt or refusal queued,
in one transaction (:meth:`Mailroom.take`, as ``receive`` does). Then, still on this
thread, the campaign is adjudicated as far as its orders allow and its mail is sent,
each in its own transaction as ``adjudicate`` and ``send`` do. A kill at any moment
leaves every campaign before or after each of these, and a restart picks up what is
left: orders taken but not adjudicated, mail queued but not sent.

Between messages the desk keeps the service's clock: every ``tick`` seconds it applies
the defaults of campaigns whose deadline has passed, reminds the side a campaign waits
for when its deadline is near, relays the press whose courier delay has passed, and
retries mail that could not be sent. A campaign
created while the service runs (``new`` in another process) is taken up at the next
tick as at a start: adjudicated as far as its orders allow, and its mail sent.
"""

from __future__ import annotations

import gc
import logging
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

from adjudicator.campaign import Campaigns
from adjudicator.campaign.campaign import step_deadline
from adjudicator.campaign.pause import pause_over_due
from adjudicator.campaign.press import deliver as deliver_press, press_due
from adjudicator.campaign.errors import CampaignError, CampaignOver
from adjudicator.campaign.mailroom import Mailroom, Taken
from adjudicator.campaign.verified_passwords import VerifiedPasswords
from adjudicator.engine import EngineError
from adjudicator.mail import SmtpSession, SmtpSettings, parse_message
from adjudicator.service.settings import ServiceSettings
from adjudicator.store import Store, StoreError

log = logging.getLogger("adjudicator.serve")


@dataclass
class Tally:
    """What the service has done since it started (for the health line)."""

    started: float = field(default_factory=time.monotonic)
    taken: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("accepted", "refused", "duplicate", "ignored"), 0))
    steps: int = 0
    sent: int = 0
    failures: int = 0
    errors: int = 0
    last_error: str = ""

    def note_error(self, text: str) -> None:
        self.errors += 1
        self.last_error = text


class Desk:
    """Receive, adjudicate, send and keep the clock, over the campaigns of one store.
    Every method runs on the desk's thread (SQLite connections stay in their thread)."""

    def __init__(self, settings: ServiceSettings, key: Any, smtp: SmtpSettings | None, tally: Tally) -> None:
        self.settings = settings
        self.key = key
        self.smtp = smtp
        self.tally = tally
        self.store = Store.open(settings.store)
        self.campaigns = Campaigns(self.store, verified_passwords=VerifiedPasswords())
        self.mailroom = Mailroom(self.campaigns, settings.outbox)
        self.session = SmtpSession()  # one SMTP connection, kept open between messages
        self.settled: dict[str, str] = {}   # campaign -> head at which the clock found nothing to do
        self.reminded: dict[str, str] = {}  # campaign -> head at which a reminder was considered
        self.failed_at: dict[str, float] = {}  # campaign -> when (monotonic) its last send left mail unsent
        self.known: set[str] = set()  # campaigns taken up since the start (the others are new: taken up at a tick)

    def close(self) -> None:
        self.session.close()
        self.store.close()

    # -- mail in ---------------------------------------------------------------------------

    def take(self, raw: bytes, origin: str) -> Taken:
        """Take one message in (durable when this returns); raises StoreError when the
        store cannot take it now (the source keeps the message and tries again)."""
        mail = parse_message(raw, own_address=self.settings.own_address, origin=origin)
        taken = self.mailroom.take(mail, self.key, self.settings.default_campaign)
        self.tally.taken[taken.outcome] = self.tally.taken.get(taken.outcome, 0) + 1
        log.info("%s: %s %s -> %s (%s)", origin, taken.outcome, mail.sender or "(no sender)",
                 taken.campaign or "-", taken.detail)
        return taken

    def after_taking(self, taken: Taken) -> None:
        """Answer at once: adjudicate what new orders allow, and send the mail."""
        if taken.outcome == "ignored" and taken.campaign is not None and self.retry_due(taken.campaign) \
                and self.store.outbox(taken.campaign, "queued"):
            self.send(taken.campaign)  # a delivery report's notice to the referee goes at once
            return
        if taken.outcome in ("duplicate", "ignored"):
            return
        if taken.campaign is None:  # answered from the campaign the sender plays in: send what waits
            for record in self.store.campaigns():
                if self.store.outbox(record.id, "queued"):
                    self.send(record.id)
            return
        if taken.outcome == "accepted":
            self.step_and_send(taken.campaign)
        else:
            self.send(taken.campaign)

    # -- adjudicate and send ---------------------------------------------------------------

    def step_and_send(self, campaign: str, now: datetime | None = None) -> bool:
        """Adjudicate ``campaign`` as far as its orders allow, send its mail, then (after
        a step, with ``site_dir``) rebuild its archive: the players' mail never waits for
        the site. True if a step was recorded."""
        stepped = self.advance(campaign, now)
        self.send(campaign)
        if stepped:
            self.publish_site(campaign)
        return stepped

    def advance(self, campaign: str, now: datetime | None = None) -> bool:
        """Adjudicate ``campaign`` as far as its orders allow; True if a step was recorded."""
        try:
            result = self.campaigns.adjudicate(campaign, self.key, now, after=self.mailroom.queue_reports)
        except CampaignOver:
            return False
        except (CampaignError, EngineError) as err:
            log.info("%s: not adjudicated: %s", campaign, err)
            return False
        if result.batch is None and result.result is None:
            return False
        self.tally.steps += result.batch is not None
        waiting = (f"waiting for {result.waiting.side} ({result.waiting.kind})" if result.waiting else
                   f"the game is over: {result.result}")
        defaults = f"; defaults for {', '.join(result.defaults)}" if result.defaults else ""
        log.info("%s: step %s adjudicated%s; %s", campaign, result.batch or "-", defaults, waiting)
        return True

    def publish_site(self, campaign: str) -> None:
        """Rebuild the campaign's public archive in ``site_dir/<campaign>``, if the
        service has one. Whatever goes wrong is logged and counted, never raised: the
        archive is rebuilt at the next step, and the desk goes on serving."""
        if self.settings.site_dir is None:
            return
        from adjudicator.site import build_site

        try:
            build_site(self.campaigns.export_public(campaign), self.settings.site_dir / campaign, self.key)
        except CampaignError as err:  # SiteError among them: a folder that cannot be written
            log.warning("%s: site not rebuilt: %s", campaign, err)
        except Exception as err:  # noqa: BLE001 - a fault of the archive's build (a template, a record)
            self.tally.note_error(f"{campaign}: site not rebuilt: {err!r}")
            log.error("%s: site not rebuilt: %r", campaign, err, exc_info=True)

    def send(self, campaign: str) -> None:
        """Write the campaign's queued mail to the outbox and, with SMTP, send it."""
        files, sent, failures = self.mailroom.send(campaign, self.smtp, session=self.session)
        self.tally.sent += sent
        self.tally.failures += len(failures)
        if sent or (files and self.smtp is None):
            log.info("%s: %s", campaign, f"{sent} message(s) sent" if self.smtp else
                     f"{len(files)} queued message(s) in {self.settings.outbox}")
        for failure in failures:
            log.warning("%s: not sent, still queued: %s", campaign, failure)
        if failures:
            self.failed_at[campaign] = time.monotonic()
        else:
            self.failed_at.pop(campaign, None)

    def retry_due(self, campaign: str) -> bool:
        """Whether mail left unsent should be tried again now: a ``tick`` after the
        last try, not at once (the clock's first round follows the start's own send,
        which would only fail and be logged twice)."""
        failed = self.failed_at.get(campaign)
        return failed is None or time.monotonic() - failed >= self.settings.tick

    # -- start and clock -------------------------------------------------------------------

    def resume(self) -> None:
        """After a start (or a restart after a kill): adjudicate what orders on file
        allow, send what is queued, and say what an interrupted send left half-sent."""
        for record in self.store.campaigns():
            self._guarded(record.id, self._resume_one)

    def _resume_one(self, campaign: str) -> None:
        self.known.add(campaign)
        stuck = len(self.store.outbox(campaign, "sending"))
        if stuck:
            recorded, requeued = self.mailroom.settle_interrupted(campaign, force=self.settings.requeue)
            if recorded or requeued:
                log.warning("%s: %d message(s) were being sent when the service stopped: %d the mail server "
                            "had taken are recorded as sent, %d sent again (the first of those may arrive "
                            "twice)", campaign, stuck, recorded, requeued)
            else:
                log.warning("%s: %d message(s) are being sent by another running 'send'; if it was stopped "
                            "on another host, 'send --requeue' sends them again", campaign, stuck)
        self.step_and_send(campaign)

    def tick(self, now: datetime | None = None) -> None:
        """The clock: deadlines, reminders and mail to retry, for every campaign."""
        now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
        self.session.close_idle()
        for record in self.store.campaigns():
            if record.id not in self.known:  # created since the start
                self._guarded(record.id, self._resume_one)
            if press_due(record.meta):  # the courier's round (the metadata at hand: no query)
                self._guarded(record.id, lambda campaign: self._courier(campaign, now))
            self._guarded(record.id, lambda campaign: self._tick_one(campaign, record.head_hash, now))

    def _courier(self, campaign: str, now: datetime) -> None:
        if deliver_press(self.store, campaign, now) and self.smtp is not None:
            self.send(campaign)

    def _tick_one(self, campaign: str, head: str, now: datetime) -> None:
        if self.settled.get(campaign) == head:
            return
        entries, meta = self.store.entries(campaign), self.store.campaign(campaign).meta
        if pause_over_due(entries, meta, now) and self.mailroom.tell_pause_over(campaign, now):
            if self.smtp is not None:  # every player told at once
                self.send(campaign)
        deadline = step_deadline(entries, meta)
        if now >= deadline:
            if not self.step_and_send(campaign, now):
                self.settled[campaign] = head
            return
        hours = self.settings.remind_hours
        if hours and deadline - timedelta(hours=hours) <= now and self.reminded.get(campaign) != head:
            self.reminded[campaign] = head
            side = self.mailroom.remind(campaign, hours, now)
            if side:
                log.info("%s: reminder queued for %s (deadline %s)", campaign, side,
                         deadline.strftime("%Y-%m-%d %H:%M UTC"))
        if self.smtp is not None and self.retry_due(campaign) and self.store.outbox(campaign, "queued"):
            self.send(campaign)

    def _guarded(self, campaign: str, work: Callable[[str], None]) -> None:
        """One campaign's trouble is logged and never stops the others."""
        try:
            work(campaign)
        except (StoreError, CampaignError, EngineError, OSError, ValueError) as err:
            self.tally.note_error(f"{campaign}: {err}")
            log.error("%s: %s", campaign, err)


STOP = object()


class DeskThread(threading.Thread):
    """The desk on a thread of its own, fed through a queue: one message at a time,
    the clock between messages."""

    def __init__(self, make_desk: Callable[[], Desk], tick: float) -> None:
        super().__init__(name="desk", daemon=True)
        self.make_desk = make_desk
        self.tick_seconds = tick
        self.jobs: queue.Queue[Any] = queue.Queue()
        self.ready = threading.Event()
        self.failed: BaseException | None = None
        self.last_beat = time.monotonic()

    def submit(self, raw: bytes, origin: str) -> Future[Taken]:
        """Hand a message to the desk; the future resolves once it is durable."""
        future: Future[Taken] = Future()
        self.jobs.put((raw, origin, future))
        return future

    def stop(self) -> None:
        self.jobs.put(STOP)

    @property
    def backlog(self) -> int:
        return self.jobs.qsize()

    def run(self) -> None:
        try:
            desk = self.make_desk()
        except BaseException as err:  # noqa: BLE001 - reported by the service, which stops
            self.failed = err
            self.ready.set()
            return
        try:
            desk.resume()
            desk.tick()
            settle_heap()
            self.ready.set()
            self._serve(desk)
        finally:
            desk.close()
            self.ready.set()

    def _serve(self, desk: Desk) -> None:
        settled = False  # the heap once more after the first message: what it loaded stays
        next_tick = time.monotonic() + self.tick_seconds
        while True:
            self.last_beat = time.monotonic()
            if self.last_beat >= next_tick:
                desk.tick()
                next_tick = time.monotonic() + self.tick_seconds
            try:
                job = self.jobs.get(timeout=max(0.0, next_tick - time.monotonic()))
            except queue.Empty:
                continue
            if job is STOP:
                return
            raw, origin, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                taken = desk.take(raw, origin)
            except Exception as err:  # noqa: BLE001 - the source keeps the message and retries
                desk.tally.note_error(f"{origin}: {err}")
                log.error("%s: not taken in, the source will deliver it again: %s", origin, err)
                future.set_exception(err)
                continue
            future.set_result(taken)
            desk._guarded(taken.campaign or "-", lambda _: desk.after_taking(taken))
            if not settled and taken.outcome == "accepted":
                settle_heap()
                settled = True


def settle_heap() -> None:
    """Set what the service has loaded so far (modules, the orders grammar, templates,
    game data) aside from the garbage collector, after one collection: a full
    collection would otherwise walk all of it again every few hundred messages. Little
    of it ever becomes garbage, and what does is kept: a one-time, bounded cost."""
    gc.collect()
    gc.freeze()
