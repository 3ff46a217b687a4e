"""Start the service, keep its health line, and stop it gracefully.

Order of start: the desk opens the store and resumes (adjudicates what orders on file
allow, sends what is queued), then the sources start. Order of stop (SIGTERM, SIGINT):
the sources stop taking mail (an LMTP delivery not yet answered is delivered again by
the mail server), the desk finishes every message already handed to it, the store is
closed, the health line says ``stopped``.
"""

from __future__ import annotations

import logging
import signal
import threading
from typing import Any

from adjudicator.mail import SmtpSettings
from adjudicator.service.desk import Desk, DeskThread, Tally
from adjudicator.service.health import health_line, write_health
from adjudicator.service.settings import ServiceError, ServiceSettings
from adjudicator.store.pg import redacted

log = logging.getLogger("adjudicator.serve")

HEALTH_PERIOD = 5.0
STOP_GRACE_SECONDS = 60.0


class ServiceFailed(ServiceError, RuntimeError):
    """The service could not start, or its desk stopped working."""


class Service:
    """One resident service over one store."""

    def __init__(self, settings: ServiceSettings, key: Any, smtp: SmtpSettings | None) -> None:
        self.settings = settings
        self.smtp = smtp
        self.stopping = threading.Event()
        self.tally = Tally()
        self.desk = DeskThread(lambda: Desk(settings, key, smtp, self.tally), settings.tick)
        self.lmtp: Any = None
        self.watchers: list[Any] = []

    # -- running ---------------------------------------------------------------------------

    def run(self) -> None:
        """Run until SIGTERM or SIGINT (or :meth:`stop`); raises ServiceFailed."""
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: self.stop())
        self._health("starting")
        try:
            self._start()
            log.info("ready: %s; %s; clock every %.0f s", "; ".join(self.settings.sources()) or "no mail source "
                     "(only the clock: deadlines, reminders, sending)",
                     f"replies to {self.settings.outbox}" + (f" and by SMTP ({self.smtp.describe()})" if self.smtp else ""),
                     self.settings.tick)
            self._health("ok")
            while not self.stopping.wait(min(HEALTH_PERIOD, self.settings.tick)):
                if not self.desk.is_alive():
                    raise ServiceFailed("the desk stopped: see the log above")
                self._health("ok")
        except BaseException as err:
            self._health("failed", str(err))
            self._shutdown()
            raise
        self._shutdown()

    def stop(self) -> None:
        self.stopping.set()

    def _start(self) -> None:
        self.desk.start()
        self.desk.ready.wait()
        if self.desk.failed is not None:
            raise ServiceFailed(f"cannot open the store {redacted(str(self.settings.store))}: {self.desk.failed}")
        if not self.desk.is_alive():
            raise ServiceFailed("the desk stopped while resuming: see the log above")
        if self.settings.lmtp is not None:
            from adjudicator.service.lmtp import LmtpServer

            self.lmtp = LmtpServer(self.settings.lmtp, self.desk.submit)
            self.lmtp.start()
        if self.settings.imap is not None:
            from adjudicator.service.imap import ImapWatcher

            self.watchers.append(ImapWatcher(self.settings.imap, self.desk.submit, self.stopping))
        if self.settings.maildirs:
            from adjudicator.service.maildir import MaildirWatcher

            self.watchers += [MaildirWatcher(folder, self.settings.poll, self.desk.submit, self.stopping)
                              for folder in self.settings.maildirs]
        for watcher in self.watchers:
            watcher.start()

    def _shutdown(self) -> None:
        self.stopping.set()
        self._health("stopping")
        log.info("stopping: finishing the messages already taken")
        if self.lmtp is not None:
            self.lmtp.stop()
        for watcher in self.watchers:
            watcher.join(STOP_GRACE_SECONDS)
        if self.desk.is_alive():
            self.desk.stop()
            self.desk.join(STOP_GRACE_SECONDS)
        self._health("stopped")
        log.info("stopped")

    # -- health ----------------------------------------------------------------------------

    def sources_state(self) -> dict[str, str]:
        states = {"desk": "working" if self.desk.is_alive() else "stopped"}
        if self.settings.lmtp is not None:
            states["lmtp"] = "listening" if self.lmtp is not None and not self.stopping.is_set() else "closed"
        for watcher in self.watchers:
            states[watcher.name.split(":", 1)[0]] = watcher.state
        return states

    def _health(self, status: str, error: str = "") -> None:
        if self.settings.health_file is None:
            return
        line = health_line(status, self.tally, self.desk.backlog, self.sources_state(),
                           error or self.tally.last_error)
        try:
            write_health(self.settings.health_file, line)
        except OSError as err:
            log.warning("cannot write the health line to %s: %s", self.settings.health_file, err)
