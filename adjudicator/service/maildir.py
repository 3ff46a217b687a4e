"""A Maildir watched by polling (``new/`` and ``cur/``, as ``receive`` reads them).

The Maildir is never changed: a mail program may share it. Each file is handed to the
desk once per run, recognised by its unique name (the part before ``:2,``, which a mail
program keeps when it moves or flags the file); after a restart every file is read
again and the store answers ``duplicate`` for what it already took.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger("adjudicator.serve")

RETRY_SECONDS = 60.0


def unique_name(file_name: str) -> str:
    """A Maildir file's unique name, without its flags."""
    return file_name.split(":", 1)[0]


class MaildirWatcher(threading.Thread):
    """Every ``poll`` seconds, hand the desk each file not handed yet (oldest first)."""

    def __init__(self, folder: Path, poll: float, submit: Callable[[bytes, str], Any],
                 stop: threading.Event) -> None:
        super().__init__(name=f"maildir:{folder}", daemon=True)
        self.folder = folder
        self.poll = poll
        self.submit = submit
        self.stopping = stop
        self.done: set[str] = set()
        self.failures: dict[str, float] = {}  # unique name -> when to try again
        self.state = "starting"

    def run(self) -> None:
        log.info("Maildir %s: watching every %.1f s", self.folder, self.poll)
        while not self.stopping.is_set():
            self.state = "polling"
            try:
                self.scan()
            except OSError as err:
                self.state = "error"
                log.warning("Maildir %s: %s", self.folder, err)
            self.stopping.wait(self.poll)
        self.state = "stopped"

    def scan(self) -> int:
        """Hand over every file not handed yet; returns how many were."""
        handed = 0
        for name, path in self._waiting():
            if self.stopping.is_set():
                break
            try:
                raw = path.read_bytes()
            except FileNotFoundError:
                continue  # moved by a mail program meanwhile: found under its new name next time
            try:
                self.submit(raw, f"maildir:{path.parent.name}/{path.name}").result()
            except Exception:  # noqa: BLE001 - the desk logged it; try again later
                self.failures[name] = time.monotonic() + RETRY_SECONDS
                continue
            self.failures.pop(name, None)
            self.done.add(name)
            handed += 1
        return handed

    def _waiting(self) -> list[tuple[str, Path]]:
        now = time.monotonic()
        found = []
        for sub in ("new", "cur"):
            with os.scandir(self.folder / sub) as entries:
                for entry in entries:
                    name = unique_name(entry.name)
                    if entry.name.startswith(".") or name in self.done or self.failures.get(name, 0) > now:
                        continue
                    try:
                        found.append((entry.stat().st_mtime, name, Path(entry.path)))
                    except FileNotFoundError:
                        continue
        return [(name, path) for _, name, path in sorted(found)]
