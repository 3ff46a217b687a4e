"""Fixtures of the resident service's tests: a store with a campaign opened now, the
referee's key on disk, ``adjudicator serve`` as a real process, the loopback SMTP
server that captures its replies, and mail delivered by LMTP."""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import pytest

from adjudicator.campaign import Campaigns
from adjudicator.fairdice import generate_keypair, save_private_key
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import CAMPAIGN, PLAYERS, REFEREE, parse_eml
from tests.smtp_loopback import HOST, RecordingHandler, free_port, smtp_server

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Referee:
    """A referee's files: the store (campaign c1 opened now), the key, the outbox."""

    folder: Path
    key: object

    @property
    def store(self) -> Path:
        return self.folder / "campaigns.sqlite3"

    @property
    def key_file(self) -> Path:
        return self.folder / "referee.key"

    @property
    def outbox(self) -> Path:
        return self.folder / "outbox"

    def open_campaign(self, name: str = CAMPAIGN, deadline_hours: float = 72) -> None:
        with Store.open(self.store) as store:
            Campaigns(store).create(name, "port-arthur", PLAYERS, self.key, referee_address=REFEREE,
                                    deadline_hours=deadline_hours, now=datetime.now(timezone.utc))


@pytest.fixture
def referee(tmp_path) -> Referee:
    key = generate_keypair()[0]
    save_private_key(tmp_path / "referee.key", key, None)
    made = Referee(tmp_path, key)
    made.open_campaign()
    return made


@pytest.fixture
def smtp_capture():
    """The loopback SMTP server the service sends its replies to: (handler, port)."""
    handler = RecordingHandler()
    with smtp_server(handler) as port:
        yield handler, port


@dataclass
class Serve:
    """``adjudicator serve`` running as a separate process."""

    process: subprocess.Popen
    health_file: Path
    log_file: Path
    lmtp_port: int | None

    def log(self) -> str:
        return self.log_file.read_text(encoding="utf-8", errors="replace")

    def health(self) -> str:
        try:
            return self.health_file.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return ""

    def wait_ready(self, timeout: float = 30) -> None:
        wait_for(lambda: self.health().startswith("ok ") or self.process.poll() is not None, timeout,
                 lambda: f"the service did not become ready; log:\n{self.log()}")
        assert self.process.poll() is None, f"the service stopped:\n{self.log()}"

    def deliver(self, raw: bytes, sender: str = "togo@japan.test", recipients=(REFEREE,)) -> dict:
        """Deliver one message by LMTP, as a mail server does; the refused recipients."""
        with smtplib.LMTP(HOST, self.lmtp_port, timeout=30) as lmtp:
            return lmtp.sendmail(sender, list(recipients), raw)

    def terminate(self, timeout: float = 30) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


@pytest.fixture
def start_serve(referee, tmp_path):
    """Start ``adjudicator serve`` on the referee's store: ``start_serve(*args, smtp_port=...)``."""
    started: list[Serve] = []

    def start(*args: str, smtp_port: int | None = None, lmtp: bool = True, env: dict | None = None) -> Serve:
        port = free_port() if lmtp else None
        health = tmp_path / "serve.health"
        health.unlink(missing_ok=True)
        log_file = tmp_path / f"serve-{len(started)}.log"
        environ = {k: v for k, v in os.environ.items() if not k.startswith("ADJUDICATOR_")}
        environ.update(ADJUDICATOR_STORE=str(referee.store), ADJUDICATOR_KEY=str(referee.key_file),
                       ADJUDICATOR_KEY_PASSPHRASE="", ADJUDICATOR_OUTBOX=str(referee.outbox), **(env or {}))
        if smtp_port is not None:
            environ.update(ADJUDICATOR_SMTP_HOST=HOST, ADJUDICATOR_SMTP_PORT=str(smtp_port),
                           ADJUDICATOR_SMTP_SECURITY="none")
        command = [sys.executable, "-m", "adjudicator", "serve", "--health-file", str(health), *args]
        if port is not None:
            command += ["--lmtp", f"{HOST}:{port}"]
        with open(log_file, "wb") as log_out:
            process = subprocess.Popen(command, env=environ, cwd=tmp_path, stdout=log_out, stderr=subprocess.STDOUT)
        serve = Serve(process, health, log_file, port)
        started.append(serve)
        serve.wait_ready()
        return serve

    yield start
    for serve in started:
        if serve.process.poll() is None:
            serve.kill()


def wait_for(condition: Callable[[], object], timeout: float, message: Callable[[], str] | str = "timed out"):
    """Poll ``condition`` until it is true; fail with ``message`` after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    pytest.fail(message() if callable(message) else message)


@dataclass
class Mailbag:
    """What the loopback SMTP server received, read as messages."""

    handler: RecordingHandler
    seen: list = field(default_factory=list)

    def messages(self) -> list:
        return [parse_eml(item.content) for item in self.handler.received]

    def replies_to(self, message_id: str) -> list:
        """The receipts and refusals answering ``message_id`` (reports thread under the
        player's orders mail too, and are not counted here)."""
        return [m for m in self.messages() if str(m.get("In-Reply-To", "")).strip() == message_id
                and " - report for " not in str(m["Subject"])]

    def reports(self) -> list:
        return [m for m in self.messages() if "Orders accepted" not in str(m["Subject"])
                and "not accepted" not in str(m["Subject"]) and "Reminder" not in str(m["Subject"])]
