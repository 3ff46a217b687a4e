"""An IMAP client that waits on a mailbox with IDLE (RFC 2177): e.g. the referee's
ordinary mail account, so no mail server needs configuring.

Each message is fetched without marking it read (``BODY.PEEK[]``: the referee's mail
program still shows it as new), handed to the desk, and only once it is durable in the
store flagged with the keyword ``$Adjudicated``; the watcher takes every message of
the folder without that keyword. A kill between the two leaves the keyword unset, and
the store recognises the message as a duplicate when it is fetched again. Nothing is
moved or deleted. A server that does not keep keywords gets ``\\Seen`` instead.

A lost connection is retried, waiting longer each time (up to a minute); the IDLE is
renewed every few minutes, as servers drop idle clients after 30.
"""

from __future__ import annotations

import logging
import ssl
import threading
import time
from typing import Any, Callable

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from adjudicator.service.settings import ImapSettings

log = logging.getLogger("adjudicator.serve")

KEYWORD = "$Adjudicated"
IDLE_RENEW_SECONDS = 9 * 60
FETCH_BATCH = 50


class ImapWatcher(threading.Thread):
    """Fetch what is new, hand it to the desk, then wait with IDLE; until stopped."""

    def __init__(self, settings: ImapSettings, submit: Callable[[bytes, str], Any],
                 stop: threading.Event) -> None:
        super().__init__(name="imap", daemon=True)
        self.settings = settings
        self.submit = submit
        self.stopping = stop
        self.state = "starting"
        self.failures: dict[int, float] = {}  # uid -> when to try again

    def run(self) -> None:
        backoff = 1.0
        while not self.stopping.is_set():
            try:
                self._session()
                backoff = 1.0
            except (IMAPClientError, OSError, ssl.SSLError) as err:
                self.state = "reconnecting"
                log.warning("IMAP %s: %s; trying again in %.0f s", self.settings.describe(), err, backoff)
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, 60.0)
        self.state = "stopped"

    def _connect(self) -> IMAPClient:
        settings = self.settings
        context = ssl.create_default_context()
        client = IMAPClient(settings.host, port=settings.effective_port, ssl=settings.security == "ssl",
                            ssl_context=context, timeout=60)
        if settings.security == "starttls":
            client.starttls(context)
        client.login(settings.user, settings.password)
        return client

    def _session(self) -> None:
        client = self._connect()
        try:
            selected = client.select_folder(self.settings.folder)
            flags = selected.get(b"PERMANENTFLAGS", ())
            keyword = KEYWORD if b"\\*" in flags or KEYWORD.encode() in flags else "\\Seen"
            log.info("IMAP %s: watching (marking taken mail with %s)", self.settings.describe(), keyword)
            while not self.stopping.is_set():
                self.state = "fetching"
                self._take_new(client, keyword)
                self.state = "idle"
                self._idle(client)
        finally:
            try:
                client.logout()
            except (IMAPClientError, OSError):
                pass

    def _take_new(self, client: IMAPClient, keyword: str) -> None:
        criteria = ["UNDELETED", "NOT", "KEYWORD", keyword] if keyword != "\\Seen" else ["UNDELETED", "UNSEEN"]
        now = time.monotonic()
        uids = [uid for uid in client.search(criteria) if self.failures.get(uid, 0) <= now]
        for start in range(0, len(uids), FETCH_BATCH):
            chunk = uids[start:start + FETCH_BATCH]
            for uid, data in sorted(client.fetch(chunk, ["BODY.PEEK[]"]).items()):
                if self.stopping.is_set():
                    return
                raw = data.get(b"BODY[]")
                if raw is None:
                    continue
                try:
                    self.submit(bytes(raw), f"imap:{self.settings.folder}/{uid}").result()
                except Exception:  # noqa: BLE001 - the desk logged it; the message stays unflagged
                    self.failures[uid] = time.monotonic() + 60
                    continue
                self.failures.pop(uid, None)
                client.add_flags([uid], [keyword], silent=True)

    def _idle(self, client: IMAPClient) -> None:
        """Wait until the server says mail arrived, the renewal is due, or we stop."""
        client.idle()
        renew = time.monotonic() + IDLE_RENEW_SECONDS
        try:
            while not self.stopping.is_set() and time.monotonic() < renew:
                responses = client.idle_check(timeout=1)
                if any(isinstance(r, tuple) and len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in responses):
                    return
                if self.failures and min(self.failures.values()) <= time.monotonic():
                    return
        finally:
            client.idle_done()
