"""Exceptions of the mail layer: one class per kind of failure.

Everything derives from :class:`MailError`, so a caller can catch the whole
layer at once.  Sending failures derive from :class:`SendFailed` and say
whether retrying can help (``permanent``).  No message of any of these
exceptions ever contains an SMTP password.
"""

from __future__ import annotations

from adjudicator.errors import AdjudicatorError


class MailError(AdjudicatorError):
    """Base class of every error raised by :mod:`adjudicator.mail`."""


class MailSourceError(MailError):
    """A mail source is missing, unreadable, or of no kind we can read."""


class HeaderInjection(MailError):
    """A header value (a name, a subject, ...) contains a line break."""


class InvalidHeader(MailError):
    """An extra header has an illegal name or may not be set by the caller."""


class InvalidAddress(MailError):
    """An email address cannot be parsed or cannot be sent to."""


class SmtpConfigError(MailError):
    """The SMTP settings are incomplete or inconsistent."""


class SendFailed(MailError):
    """A message could not be sent.

    ``permanent`` is True when trying again unchanged will fail the same way: a
    5xx refusal of the message's recipients or content, a refused login, an
    unreadable CA file.  Connection trouble and a refused sender address are
    not permanent.  ``code`` is the SMTP reply code when there is one.
    """

    def __init__(self, message: str, *, permanent: bool = False, code: int | None = None):
        super().__init__(message)
        self.permanent = permanent
        self.code = code


class SmtpConnectFailed(SendFailed):
    """No usable connection to the SMTP server (network, TLS, greeting)."""


class SmtpAuthFailed(SendFailed):
    """The SMTP server refused the login (or offers no way to log in)."""


class RecipientsRefused(SendFailed):
    """The SMTP server refused every recipient of a message."""


class MessageRejected(SendFailed):
    """The SMTP server refused the sender or the message content."""
