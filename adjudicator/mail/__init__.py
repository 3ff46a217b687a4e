"""The email layer: reading received mail, building, writing and sending mail.

It knows nothing of games or orders; the campaign layer calls it.

* :mod:`.intake` -- :func:`read_messages` (Maildir, mbox, ``.eml`` files,
  standard input) and :func:`parse_message` yield :class:`IncomingMail`:
  decoded headers, the body text (HTML converted when there is no plain
  text), text attachments, auto-reply and own-mail flags, and ``problems``
  instead of exceptions for malformed mail;
* :mod:`.outgoing` -- :func:`build_message` (text, or text + HTML alternative,
  threaded, header-injection safe) and :func:`write_eml` (atomic);
* :mod:`.smtp` -- :class:`SmtpSettings`, :func:`send_message` and
  :func:`send_all` (one connection, one report per message);
* :mod:`.errors` -- :class:`MailError` and one subclass per kind of failure.
"""

from adjudicator.lazy import exports

from .errors import (
    HeaderInjection,
    InvalidAddress,
    InvalidHeader,
    MailError,
    MailSourceError,
    MessageRejected,
    RecipientsRefused,
    SendFailed,
    SmtpAuthFailed,
    SmtpConfigError,
    SmtpConnectFailed,
)

#: the rest of the public names -> their module, imported on first use (a command that
#: only builds a message does not load SMTP and TLS, nor the mailbox readers)
_HOMES = {
    **dict.fromkeys(("AUTO_SUBJECT_PREFIXES", "is_auto_subject"), "autoreply"),
    "html_to_text": "htmltext",
    **dict.fromkeys(("OWN_HEADER", "IncomingMail", "content_hash", "parse_message", "read_messages"), "intake"),
    **dict.fromkeys(("OutgoingMail", "build_message", "eml_filename", "message_bytes", "message_from_bytes",
                     "message_headers", "new_message_id", "normalise_message_id", "outgoing_mail",
                     "write_eml", "write_eml_bytes"), "outgoing"),
    **dict.fromkeys(("FailureReason", "SendSummary", "SmtpSession", "SmtpSettings", "WireMessage", "send_all",
                     "send_message"), "smtp"),
}


__getattr__ = exports(__name__, _HOMES)


__all__ = [
    "AUTO_SUBJECT_PREFIXES",
    "OWN_HEADER",
    "FailureReason",
    "HeaderInjection",
    "IncomingMail",
    "InvalidAddress",
    "InvalidHeader",
    "MailError",
    "MailSourceError",
    "MessageRejected",
    "OutgoingMail",
    "RecipientsRefused",
    "SendFailed",
    "SendSummary",
    "SmtpAuthFailed",
    "SmtpConfigError",
    "SmtpConnectFailed",
    "SmtpSession",
    "SmtpSettings",
    "WireMessage",
    "build_message",
    "content_hash",
    "eml_filename",
    "html_to_text",
    "is_auto_subject",
    "message_bytes",
    "message_from_bytes",
    "message_headers",
    "new_message_id",
    "normalise_message_id",
    "outgoing_mail",
    "parse_message",
    "read_messages",
    "send_all",
    "send_message",
    "write_eml",
    "write_eml_bytes",
]
