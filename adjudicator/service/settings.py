"""What a referee configures for ``adjudicator serve``: where mail comes from, where it
goes, and the service's clock. Every value is checked here, with a message that says
what to write instead."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from adjudicator.errors import AdjudicatorError

IMAP_SECURITY = ("ssl", "starttls", "none")
IMAP_PORTS = {"ssl": 993, "starttls": 143, "none": 143}
IMAP_ENV = "ADJUDICATOR_IMAP_"


class ServiceError(AdjudicatorError):
    """Base class of the resident service's errors."""


class SettingsError(ServiceError, ValueError):
    """A setting of the service that cannot be used (the message says what to write)."""


@dataclass(frozen=True)
class LmtpEndpoint:
    """Where the LMTP endpoint listens: a Unix socket, or a host and port."""

    socket: Path | None = None
    host: str = "127.0.0.1"
    port: int | None = None

    @classmethod
    def parse(cls, text: str) -> LmtpEndpoint:
        """``unix:/run/adjudicator/lmtp``, ``/path/to/socket``, ``HOST:PORT`` or ``PORT``."""
        text = text.strip()
        if text.startswith("unix:") or text.startswith("/") or text.startswith("./"):
            path = text.removeprefix("unix:")
            if not path:
                raise SettingsError(f"--lmtp {text!r} names no socket file: write unix:/run/adjudicator/lmtp")
            return cls(socket=Path(path))
        host, _, port = text.rpartition(":")
        host = host.strip("[]") or "127.0.0.1"
        try:
            number = int(port)
        except ValueError:
            raise SettingsError(f"--lmtp {text!r} is neither a Unix socket (unix:/path) nor HOST:PORT "
                                "(e.g. 127.0.0.1:2424)") from None
        if not 0 <= number <= 65535:
            raise SettingsError(f"--lmtp port {number} is not a port number (1-65535)")
        return cls(host=host, port=number)

    @property
    def is_loopback(self) -> bool:
        if self.socket is not None:
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return self.host == "localhost"

    def describe(self) -> str:
        return f"unix:{self.socket}" if self.socket is not None else f"{self.host}:{self.port}"


@dataclass(frozen=True)
class ImapSettings:
    """The IMAP mailbox to wait on. The password is never shown (``repr`` hides it)."""

    host: str
    user: str
    password: str = field(repr=False)
    port: int | None = None
    security: str = "ssl"
    folder: str = "INBOX"

    def __post_init__(self) -> None:
        if self.security not in IMAP_SECURITY:
            raise SettingsError(f"IMAP security {self.security!r} is not one of {', '.join(IMAP_SECURITY)}")
        if not self.host:
            raise SettingsError("the IMAP host is empty: give --imap HOST (or ADJUDICATOR_IMAP_HOST)")
        if not self.user:
            raise SettingsError("the IMAP user is missing: give --imap-user (or ADJUDICATOR_IMAP_USER)")
        if not self.password:
            raise SettingsError("the IMAP password is missing: set ADJUDICATOR_IMAP_PASSWORD")

    @property
    def effective_port(self) -> int:
        return self.port or IMAP_PORTS[self.security]

    def describe(self) -> str:
        return f"{self.user}@{self.host}:{self.effective_port}/{self.folder} ({self.security})"

    @classmethod
    def from_values(cls, host: str | None, user: str | None, folder: str | None, security: str | None,
                    environ: Mapping[str, str]) -> ImapSettings | None:
        """From the command line's values, else ``ADJUDICATOR_IMAP_*``; None when no host is given."""
        host = host or environ.get(IMAP_ENV + "HOST")
        if not host:
            return None
        port = None
        name, sep, number = host.rpartition(":")
        if sep and number.isdigit():
            host, port = name, int(number)
        elif environ.get(IMAP_ENV + "PORT"):
            try:
                port = int(environ[IMAP_ENV + "PORT"])
            except ValueError:
                raise SettingsError(f"ADJUDICATOR_IMAP_PORT {environ[IMAP_ENV + 'PORT']!r} is not a number") from None
        return cls(host=host, port=port, user=user or environ.get(IMAP_ENV + "USER", ""),
                   password=environ.get(IMAP_ENV + "PASSWORD", ""),
                   security=(security or environ.get(IMAP_ENV + "SECURITY") or "ssl").lower(),
                   folder=folder or environ.get(IMAP_ENV + "FOLDER") or "INBOX")


@dataclass(frozen=True)
class ServiceSettings:
    """Everything ``serve`` runs with (the key and SMTP settings come separately).

    ``tick`` is the clock's period in seconds (deadlines, reminders, retrying mail);
    ``remind_hours`` how long before a deadline the waited-for side is reminded (0: never);
    ``poll`` the Maildir polling period in seconds."""

    store: Path
    outbox: Path
    lmtp: LmtpEndpoint | None = None
    imap: ImapSettings | None = None
    maildirs: tuple[Path, ...] = ()
    default_campaign: str | None = None
    own_address: str | None = None
    tick: float = 30.0
    remind_hours: float = 12.0
    poll: float = 1.0
    health_file: Path | None = None
    requeue: bool = False
    site_dir: Path | None = None  # each campaign's public archive, rebuilt here after each step

    def __post_init__(self) -> None:
        for name in ("tick", "poll"):
            if not getattr(self, name) > 0:
                raise SettingsError(f"--{name} must be a positive number of seconds, not {getattr(self, name)}")
        if self.remind_hours < 0:
            raise SettingsError(f"--remind-hours must be 0 (never) or more, not {self.remind_hours}")
        for folder in self.maildirs:
            if not (folder / "new").is_dir() or not (folder / "cur").is_dir():
                raise SettingsError(f"--maildir {folder} is not a Maildir (it needs new/ and cur/ folders)")

    def sources(self) -> list[str]:
        """The mail sources, in words, for the log."""
        found = [f"LMTP on {self.lmtp.describe()}"] if self.lmtp else []
        found += [f"IMAP {self.imap.describe()}"] if self.imap else []
        found += [f"Maildir {folder}" for folder in self.maildirs]
        return found
