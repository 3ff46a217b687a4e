"""Sending mail over SMTP.

Security (``SmtpSettings.security``):

* ``"starttls"`` (default, port 587): connect in clear, then upgrade with
  STARTTLS before anything else; a server that does not offer STARTTLS is
  refused (never a silent fall-back to clear text);
* ``"ssl"`` (port 465): TLS from the first byte;
* ``"none"`` (port 25): no encryption -- for a local relay only.

TLS certificates are verified (system trust store, or ``ca_file``), with host
name checking.  The password is never part of a repr, a log line or an error
message: every error text is scrubbed of it (and of its base64 forms) before it
leaves this module.

Delivery guarantee of :func:`send_all`: each message is reported exactly once,
``on_sent`` only after the server accepted it (250 after DATA), ``on_failed``
otherwise -- so a caller that keeps failed messages queued loses none.  The one
case SMTP cannot settle is a connection lost after the message was transmitted
but before the server's reply: it is reported failed, and retrying it may
deliver a duplicate (which receivers recognise by its unchanged Message-ID).
"""

from __future__ import annotations

import base64
import functools
import logging
import os
import smtplib
import socket
import ssl
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import getaddresses
from itertools import chain
from typing import NamedTuple, TypeVar

from .errors import (
    MessageRejected,
    RecipientsRefused,
    SendFailed,
    SmtpAuthFailed,
    SmtpConfigError,
    SmtpConnectFailed,
)

log = logging.getLogger(__name__)

SECURITY_MODES = ("starttls", "ssl", "none")
DEFAULT_PORTS = {"starttls": 587, "ssl": 465, "none": 25}
ENV_PREFIX = "ADJUDICATOR_SMTP_"

Key = TypeVar("Key")
#: How long a :class:`SmtpSession` keeps an idle connection for the next run.
KEEP_IDLE_SECONDS = 60.0


@dataclass(frozen=True)
class SmtpSettings:
    """Where and how to send mail.  ``port`` None means the mode's usual port."""

    host: str
    port: int | None = None
    security: str = "starttls"
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    timeout: float = 30.0
    ca_file: str | None = None

    def __post_init__(self) -> None:
        if not self.host or not isinstance(self.host, str):
            raise SmtpConfigError("SMTP host is missing")
        if self.security not in SECURITY_MODES:
            raise SmtpConfigError(
                f"SMTP security must be one of {', '.join(SECURITY_MODES)}, not {self.security!r}"
            )
        if self.port is not None and not (isinstance(self.port, int) and 0 < self.port < 65536):
            raise SmtpConfigError(f"SMTP port must be a number from 1 to 65535, not {self.port!r}")
        if not (isinstance(self.timeout, (int, float)) and 0 < self.timeout < float("inf")):
            raise SmtpConfigError("SMTP timeout must be a positive number of seconds")
        if bool(self.username) != bool(self.password):
            raise SmtpConfigError("SMTP user and password must be given together")

    @property
    def effective_port(self) -> int:
        """The port to connect to."""
        return self.port if self.port is not None else DEFAULT_PORTS[self.security]

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> SmtpSettings:
        """Read settings from ``ADJUDICATOR_SMTP_*`` environment variables.

        HOST (required), PORT, SECURITY (starttls | ssl | none), USER, PASSWORD,
        and optionally TIMEOUT (seconds) and CA_FILE.
        """
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(ENV_PREFIX + name, "").strip()
            return value or None

        host = get("HOST")
        if host is None:
            raise SmtpConfigError(f"{ENV_PREFIX}HOST is not set")
        timeout = _env_number(get("TIMEOUT"), "TIMEOUT", float)
        return cls(
            host=host,
            port=_env_number(get("PORT"), "PORT", int),
            security=(get("SECURITY") or "starttls").lower(),
            username=get("USER"),
            password=env.get(ENV_PREFIX + "PASSWORD") or None,
            timeout=30.0 if timeout is None else timeout,
            ca_file=get("CA_FILE"),
        )

    def describe(self) -> str:
        """A one-line description for messages and logs (never the password)."""
        user = f" as {self.username}" if self.username else ""
        return f"{self.host}:{self.effective_port} ({self.security}){user}"


def _env_number(value: str | None, name: str, kind: type) -> int | float | None:
    if value is None:
        return None
    try:
        return kind(value)
    except ValueError:
        raise SmtpConfigError(f"{ENV_PREFIX}{name} must be a number, not {value!r}") from None


@dataclass(frozen=True)
class SendSummary:
    """How many messages :func:`send_all` reported sent and failed."""

    sent: int
    failed: int


class FailureReason(str):
    """The reason passed to ``on_failed``: a plain string, plus whether it is permanent.

    ``permanent`` is True only when the server refused this very message with a
    5xx reply (its recipients, or its content): sending it again will fail the
    same way.  Failures of the connection, the login or the sender address are
    never permanent for a message: once the settings are fixed it can go.
    ``code`` is the SMTP reply code, if any.
    """

    permanent: bool
    code: int | None

    def __new__(
        cls, text: str, *, permanent: bool = False, code: int | None = None
    ) -> FailureReason:
        reason = super().__new__(cls, text)
        reason.permanent = permanent
        reason.code = code
        return reason

    @classmethod
    def of(cls, error: SendFailed) -> FailureReason:
        """The reason of a send error."""
        return cls(str(error), permanent=error.permanent, code=error.code)


# -- sending ----------------------------------------------------------------------


def send_message(settings: SmtpSettings, message: EmailMessage) -> dict[str, tuple[int, str]]:
    """Send one message on its own connection.

    Returns the recipients the server refused while accepting the others
    (usually empty).  Raises :class:`SendFailed` (a subclass says what failed).
    """
    connection = _Connection.open(settings)
    try:
        return connection.send(message)
    finally:
        connection.close()


def send_all(
    settings: SmtpSettings,
    messages: Iterable[tuple[Key, EmailMessage | WireMessage]],
    on_sent: Callable[[Key], None],
    on_failed: Callable[[Key, str], None],
    session: SmtpSession | None = None,
) -> SendSummary:
    """Send every message over ONE connection, reporting each exactly once.

    ``on_sent(key)`` is called as soon as the server accepted a message (also if
    it refused only some of its recipients: sending again would duplicate it for
    the others).  ``on_failed(key, reason)`` is called for a message that was
    not accepted; ``reason`` is a :class:`FailureReason`.  If the connection
    cannot be opened, or is lost, every remaining message is reported failed
    without being attempted.  No connection is opened when there is nothing to
    send.  An exception raised by a callback stops the run and propagates.

    With a ``session`` the connection it kept from an earlier run is used, and the
    connection is kept there afterwards unless it was lost. If a kept connection
    turns out to be closed by the server meanwhile (the first message finds it
    gone), a new one is opened and that message is sent on it.
    """
    pending = iter(messages)
    first = next(pending, None)
    if first is None:
        return SendSummary(0, 0)
    try:
        connection, kept = session.take(settings) if session is not None else (_Connection.open(settings), False)
    except SendFailed as exc:
        reason = FailureReason(f"not sent: {exc}", code=exc.code)
        return _fail_all(chain([first], pending), reason, on_failed)
    first_failure: FailureReason | None = None
    first_sent = False
    if kept:
        try:
            connection.send(first[1])
        except SmtpConnectFailed:  # closed by the server while kept: a new connection, the same message
            connection.close()
            try:
                connection = _Connection.open(settings)
            except SendFailed as exc:
                reason = FailureReason(f"not sent: {exc}", code=exc.code)
                return _fail_all(chain([first], pending), reason, on_failed)
        except SendFailed as exc:
            first_failure = FailureReason.of(exc)
        else:
            first_sent = True
    try:
        if first_sent or first_failure is not None:
            if first_sent:
                on_sent(first[0])
            else:
                on_failed(first[0], first_failure)
            rest, lost = _send_each(connection, pending, on_sent, on_failed)
            summary = SendSummary(rest.sent + first_sent, rest.failed + (not first_sent))
        else:
            summary, lost = _send_each(connection, chain([first], pending), on_sent, on_failed)
    except BaseException:
        connection.close()
        raise
    if session is not None and not lost:
        session.keep(settings, connection)
    else:
        connection.close()
    return summary


class SmtpSession:
    """One SMTP connection kept open from one :func:`send_all` to the next, for a
    resident sender (``serve``): connecting, TLS and logging in are done once, not
    for every email answered. A connection idle for :data:`KEEP_IDLE_SECONDS` is
    closed (servers wait at least five minutes, RFC 5321 4.5.3.2.7). One thread's."""

    def __init__(self) -> None:
        self._connection: _Connection | None = None
        self._settings: SmtpSettings | None = None
        self._idle_since = 0.0

    def take(self, settings: SmtpSettings) -> tuple[_Connection, bool]:
        """The kept connection (and True), or a new one (and False); raises SendFailed."""
        connection, self._connection = self._connection, None
        if connection is not None:
            if self._settings == settings and time.monotonic() - self._idle_since < KEEP_IDLE_SECONDS:
                return connection, True
            connection.close()
        return _Connection.open(settings), False

    def keep(self, settings: SmtpSettings, connection: _Connection) -> None:
        self.close()
        self._connection, self._settings, self._idle_since = connection, settings, time.monotonic()

    def close_idle(self) -> None:
        """Close the kept connection if it has been idle too long."""
        if self._connection is not None and time.monotonic() - self._idle_since >= KEEP_IDLE_SECONDS:
            self.close()

    def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()


def _send_each(
    connection: _Connection,
    pending: Iterable[tuple[Key, EmailMessage]],
    on_sent: Callable[[Key], None],
    on_failed: Callable[[Key, str], None],
) -> tuple[SendSummary, bool]:
    """Send each message; returns the summary and whether the connection was lost."""
    sent = failed = 0
    lost: FailureReason | None = None
    for key, message in pending:
        if lost is not None:
            on_failed(key, lost)
            failed += 1
            continue
        try:
            connection.send(message)
        except SmtpConnectFailed as exc:
            reason = FailureReason.of(exc)
            lost = FailureReason(f"not attempted: {exc}", code=exc.code)
            on_failed(key, reason)
            failed += 1
        except SendFailed as exc:
            on_failed(key, FailureReason.of(exc))
            failed += 1
        else:
            on_sent(key)
            sent += 1
    return SendSummary(sent, failed), lost is not None


def _fail_all(
    pending: Iterable[tuple[Key, EmailMessage]],
    reason: FailureReason,
    on_failed: Callable[[Key, str], None],
) -> SendSummary:
    failed = 0
    for key, _message in pending:
        on_failed(key, reason)
        failed += 1
    return SendSummary(0, failed)


class _Connection:
    """An open, logged-in SMTP connection whose errors are made into SendFailed."""

    def __init__(self, settings: SmtpSettings, smtp: smtplib.SMTP) -> None:
        self._settings = settings
        self._smtp = smtp

    @classmethod
    def open(cls, settings: SmtpSettings) -> _Connection:
        """Connect, secure and log in as the settings say."""
        smtp = _connect(settings)
        try:
            _secure(settings, smtp)
            _login(settings, smtp)
        except BaseException:
            _close_quietly(smtp)
            raise
        log.debug("connected to %s", settings.describe())
        return cls(settings, smtp)

    def send(self, message: EmailMessage | WireMessage) -> dict[str, tuple[int, str]]:
        """Send one message; return refused recipients; raise SendFailed."""
        settings, label = self._settings, _label(message.headers if isinstance(message, WireMessage) else message)
        try:
            refused = self._send(message)
        except smtplib.SMTPRecipientsRefused as exc:
            raise _refused(settings, label, exc.recipients) from None
        except smtplib.SMTPSenderRefused as exc:  # the settings' fault, not the message's
            text = f"{label}: sender refused by the SMTP server"
            raise _rejected(settings, text, exc, permanent=False) from None
        except smtplib.SMTPResponseException as exc:
            raise _rejected(settings, f"{label}: refused by the SMTP server", exc) from None
        except (smtplib.SMTPException, OSError) as exc:
            where = settings.describe()
            text = f"connection to {where} lost while sending {label}"
            raise _failure(settings, SmtpConnectFailed, text, exc) from None
        except (ValueError, TypeError, UnicodeError) as exc:
            text = f"{label} cannot be sent"
            raise _failure(settings, MessageRejected, text, exc, permanent=True) from None
        log.info("sent %s", label)
        return {address: (code, _text(reply)) for address, (code, reply) in refused.items()}

    def close(self) -> None:
        """Say goodbye to the server, ignoring any error."""
        _close_quietly(self._smtp)

    def _send(self, message: EmailMessage | WireMessage) -> dict:
        if not isinstance(message, WireMessage):
            return self._smtp.send_message(message)
        envelope = message.envelope()
        if envelope is None:  # Bcc to drop, resent mail or non-ASCII addresses: as smtplib does it
            from .outgoing import message_from_bytes

            return self._smtp.send_message(message_from_bytes(message.data))
        return self._smtp.sendmail(*envelope, message.data)


class WireMessage(NamedTuple):
    """A message already in its wire form (a queued message's bytes, CRLF line ends, as
    :func:`~adjudicator.mail.outgoing.message_bytes` made it) with its parsed headers:
    sent as it is, without parsing and printing the whole message again."""

    headers: EmailMessage
    data: bytes

    def envelope(self) -> tuple[str, list[str]] | None:
        """(sender, recipients) as ``smtplib.send_message`` takes them from the headers;
        None when the message needs smtplib's own handling (Bcc or Resent- headers, or
        addresses that need SMTPUTF8)."""
        headers = self.headers
        if "From" not in headers or any(name in headers for name in ("Bcc", "Resent-Bcc", "Resent-Date")):
            return None
        sender = getaddresses([str(headers["Sender"] if "Sender" in headers else headers["From"])])[0][1]
        recipients = [address for _, address in getaddresses(
            [str(value) for value in (headers["To"], headers["Cc"]) if value is not None])]
        if not "".join([sender, *recipients]).isascii():
            return None
        return sender, recipients


def _connect(settings: SmtpSettings) -> smtplib.SMTP:
    host, port, timeout = settings.host, settings.effective_port, settings.timeout
    where = settings.describe()
    try:
        if settings.security == "ssl":
            return smtplib.SMTP_SSL(host, port, timeout=timeout, context=_tls_context(settings),
                                    local_hostname=_local_hostname())
        return smtplib.SMTP(host, port, timeout=timeout, local_hostname=_local_hostname())
    except smtplib.SMTPResponseException as exc:
        text = f"SMTP server {where} refused the connection"
        raise _failure(settings, SmtpConnectFailed, text, exc, permanent=False) from None
    except (smtplib.SMTPException, OSError) as exc:
        text = f"cannot connect to SMTP server {where}"
        raise _failure(settings, SmtpConnectFailed, text, exc) from None


@functools.lru_cache(maxsize=1)
def _local_hostname() -> str:
    """The name given in EHLO, as smtplib finds it (``socket.getfqdn``, a resolver
    lookup), found once per process rather than once per connection."""
    return smtplib.SMTP(local_hostname=None).local_hostname


def _secure(settings: SmtpSettings, smtp: smtplib.SMTP) -> None:
    """Greet the server; upgrade to TLS with STARTTLS when the settings ask for it."""
    where = settings.describe()
    try:
        smtp.ehlo()
        if settings.security != "starttls":
            return
        if not smtp.has_extn("starttls"):
            raise SmtpConnectFailed(
                f"SMTP server {where} does not offer STARTTLS; refusing to send in clear "
                "text (set security to 'none' only for a local relay)"
            )
        smtp.starttls(context=_tls_context(settings))
        smtp.ehlo()
    except SmtpConnectFailed:
        raise
    except smtplib.SMTPResponseException as exc:
        text = f"SMTP server {where} refused TLS"
        raise _failure(settings, SmtpConnectFailed, text, exc, permanent=False) from None
    except (smtplib.SMTPException, OSError) as exc:
        text = f"cannot secure the connection to {where}"
        raise _failure(settings, SmtpConnectFailed, text, exc) from None


def _login(settings: SmtpSettings, smtp: smtplib.SMTP) -> None:
    """Log in when the settings have a user name."""
    if not settings.username:
        return
    where = settings.describe()
    try:
        smtp.login(settings.username, settings.password or "")
    except smtplib.SMTPAuthenticationError as exc:
        text = f"SMTP login to {where} failed (check the user name and password)"
        raise _failure(settings, SmtpAuthFailed, text, exc, permanent=True) from None
    except smtplib.SMTPNotSupportedError:
        text = f"SMTP server {where} does not offer login (AUTH)"
        raise SmtpAuthFailed(text, permanent=True) from None
    except (smtplib.SMTPException, OSError) as exc:
        raise _failure(settings, SmtpAuthFailed, f"SMTP login to {where} failed", exc) from None


def _tls_context(settings: SmtpSettings) -> ssl.SSLContext:
    try:
        return ssl.create_default_context(cafile=settings.ca_file)
    except (OSError, ssl.SSLError) as exc:
        text = f"cannot load CA file {settings.ca_file!r}"
        raise _failure(settings, SmtpConnectFailed, text, exc, permanent=True) from None


def _failure(
    settings: SmtpSettings,
    kind: type[SendFailed],
    text: str,
    exc: BaseException | None = None,
    *,
    permanent: bool | None = None,
) -> SendFailed:
    """Build a ``kind`` error: ``text``, then the server's reply or the error, scrubbed.

    Unless ``permanent`` is given, a failure is permanent when the server's
    reply code is 5xx.
    """
    code = None
    if isinstance(exc, smtplib.SMTPResponseException):
        code = exc.smtp_code
        text = f"{text}: {code} {_text(exc.smtp_error)}"
    elif exc is not None:
        text = f"{text}: {_describe(exc)}"
    if permanent is None:
        permanent = code is not None and 500 <= code < 600
    return kind(_scrub(settings, text), permanent=permanent, code=code)


def _refused(settings: SmtpSettings, label: str, recipients: dict) -> RecipientsRefused:
    details = "; ".join(
        f"{addr}: {code} {_text(reply)}" for addr, (code, reply) in recipients.items()
    )
    codes = [code for code, _reply in recipients.values()]
    return RecipientsRefused(
        _scrub(settings, f"all recipients of {label} were refused: {details}"),
        permanent=bool(codes) and all(500 <= code < 600 for code in codes),
        code=codes[0] if codes else None,
    )


def _rejected(
    settings: SmtpSettings,
    text: str,
    exc: smtplib.SMTPResponseException,
    *,
    permanent: bool | None = None,
) -> SendFailed:
    """A refusal of one message; 421 (closing) or -1 (no reply) means the link is gone."""
    if exc.smtp_code in (-1, 421):
        return _failure(settings, SmtpConnectFailed, text, exc, permanent=False)
    return _failure(settings, MessageRejected, text, exc, permanent=permanent)


def _label(message: EmailMessage) -> str:
    message_id = message.get("Message-ID")
    to = message.get("To")
    parts = [f"message {str(message_id).strip()}" if message_id else "message"]
    if to:
        parts.append(f"to {str(to).strip()}")
    return " ".join(parts)


def _text(reply: object) -> str:
    if isinstance(reply, bytes):
        return reply.decode("utf-8", errors="replace")
    return str(reply)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, socket.timeout):
        return "timed out"
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _scrub(settings: SmtpSettings, text: str) -> str:
    """Remove the password (and the base64 forms AUTH uses) from ``text``."""
    password = settings.password
    if not password:
        return text
    secrets = {password}
    user = settings.username or ""
    for raw in (password, f"\0{user}\0{password}", f"{user}\0{password}"):
        secrets.add(base64.b64encode(raw.encode("utf-8")).decode("ascii"))
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _close_quietly(smtp: smtplib.SMTP) -> None:
    try:
        smtp.quit()
    except (smtplib.SMTPException, OSError):
        try:
            smtp.close()
        except OSError:
            pass
