"""Helpers of the mail-pipeline tests: players, orders texts, emails as a player's mail
program writes them, reading the outbox back, the command line as a subprocess. (The
SMTP server on the loopback interface is in tests/smtp_loopback.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime
from pathlib import Path


from adjudicator.campaign import Player

CAMPAIGN = "c1"
REFEREE = "referee@adjudicator.test"
PLAYERS = [
    Player("japan", "togo@japan.test", "Togo-1904"),
    Player("russia", "makarov@russia.test", "Makarov-1904"),
]
PASSWORDS = {p.side: p.password for p in PLAYERS}
ADDRESSES = {p.side: p.address for p in PLAYERS}
T0 = datetime(1904, 2, 8, 12, 0, tzinfo=timezone.utc)
HOUR = timedelta(hours=1)
DEADLINE_HOURS = 72
MAIL_DATE = datetime(1904, 2, 8, 13, 0, tzinfo=timezone.utc)

MIKASA_TO_TSUSHIMA = "sortie:\n  Mikasa to Tsushima\n"
#: The eight bytes every PNG file begins with (a report's pictures are PNG parts).
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def orders_text(side: str = "japan", step: int = 1, turn: int = 1, body: str = MIKASA_TO_TSUSHIMA, *,
                password: str | None = None, campaign: str = CAMPAIGN, entropy: str | None = None) -> str:
    """A whole orders file, header and blocks."""
    lines = [f"campaign: {campaign}", f"side: {side}", f"turn: {turn}", f"step: {step}"]
    if password is None:
        password = PASSWORDS[side]
    if password:
        lines.append(f"password: {password}")
    if entropy is not None:
        lines.append(f"entropy: {entropy}")
    return "\n".join(lines) + "\n" + body


def email(text: str | None = None, *, sender: str = "Heihachiro Togo <togo@japan.test>",
          message_id: str | None = "<orders-1@japan.test>", subject: str = "Orders",
          html: str | None = None, headers: dict[str, str] | None = None) -> bytes:
    """An email as a player's mail program sends it (fixed date: same input, same bytes)."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = REFEREE
    message["Subject"] = subject
    message["Date"] = format_datetime(MAIL_DATE)
    if message_id is not None:
        message["Message-ID"] = message_id
    for name, value in (headers or {}).items():
        message[name] = value
    if html is not None:
        message.set_content(html, subtype="html")
    else:
        message.set_content(text or "")
    return bytes(message)


def deliver(inbox, raw: bytes, moment: int) -> Path:
    """Deliver ``raw`` into a Maildir with modification time ``moment`` (arrival order)."""
    key = inbox.add(raw)
    (path,) = [p for p in inbox.path.glob("new/*") if p.name.split(":")[0] == key]
    os.utime(path, (moment, moment))
    return path


# -- reading mail back ----------------------------------------------------------------


def parse_eml(data: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(data)


def part_text(message: EmailMessage, subtype: str) -> str | None:
    """The decoded text/<subtype> part of a message, if it has one."""
    for part in message.walk():
        if part.get_content_type() == f"text/{subtype}":
            return part.get_content()
    return None


def decoded_text(data: bytes) -> str:
    """Every header and every decoded text part of a message, as one string."""
    message = parse_eml(data)
    pieces = [f"{name}: {value}" for name, value in message.items()]
    for part in message.walk():
        if part.get_content_maintype() == "text":
            pieces.append(part.get_content())
    return "\n".join(pieces)


@dataclass(frozen=True)
class Outgoing:
    """A message of the store's outbox, parsed."""

    id: int
    recipient: str
    status: str
    message: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def text(self) -> str:
        return part_text(self.message, "plain") or ""

    @property
    def words(self) -> str:
        """The text part with its lines joined and runs of spaces made one (a phrase
        is found whichever space the 78-column lines broke it at)."""
        return " ".join(self.text.split())

    @property
    def html(self) -> str | None:
        return part_text(self.message, "html")


def outgoing(store, campaign: str = CAMPAIGN, status: str | None = None) -> list[Outgoing]:
    return [Outgoing(m.id, m.recipient, m.status.value, parse_eml(m.eml)) for m in store.outbox(campaign, status)]


def reports(store, campaign: str = CAMPAIGN) -> list[Outgoing]:
    """The turn reports in the outbox (not the receipts, refusals or reminders)."""
    return [m for m in outgoing(store, campaign) if " - report for " in m.subject]


def batch_count(store, campaign: str = CAMPAIGN) -> int:
    return sum(1 for entry in store.entries(campaign) if entry.kind == "batch")


# -- the command line -------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]
_SCRIPT = Path(sys.executable).with_name("adjudicator")
COMMAND = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "adjudicator"]


def command_env(**extra: str) -> dict[str, str]:
    """The environment of a command: ours without any ADJUDICATOR_ setting, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADJUDICATOR_")}
    env["PYTHONPATH"] = str(REPO)
    env.update(extra)
    return env


def cli(*args: str, env: dict[str, str] | None = None, input: bytes | None = None,
        cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the ``adjudicator`` command; stdout and stderr are returned as text."""
    done = subprocess.run([*COMMAND, *map(str, args)], input=input, capture_output=True,
                          env=env or command_env(), cwd=cwd, timeout=timeout)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def assert_no_traceback(done: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr
