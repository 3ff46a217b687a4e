"""Recognising mail written by a machine: auto-replies, bounces, list traffic.

Such mail must never be taken as orders, and must never be answered (that is
how mail loops start).  A message is an automatic one when ANY of these holds:

1. ``Auto-Submitted`` is present with a value other than ``no`` (RFC 3834:
   ``auto-replied``, ``auto-generated``, ``auto-notified``, ...);
2. ``Precedence`` is ``bulk``, ``junk``, ``list`` or ``auto_reply``;
3. ``X-Autoreply`` or ``X-Autorespond`` is present (any value), as set by
   many vacation programs;
4. ``Return-Path`` is present and empty (``<>``): the null sender of bounces
   and delivery reports;
5. the content type is ``multipart/report`` (delivery status notifications,
   read receipts);
6. the sender's local part is ``mailer-daemon`` or ``postmaster``;
7. the subject, after any ``Re:``/``Fwd:``/``AW:``-style prefixes, starts with
   a known automatic phrase such as "Out of office", "Automatic reply",
   "Auto-reply", "Undeliverable", "Undelivered Mail", "Delivery Status
   Notification", "Mail delivery failed", "Delivery failure", "Returned mail",
   or the French, German, Italian and Spanish equivalents of "automatic reply"
   and "out of office" (see :data:`AUTO_SUBJECT_PREFIXES`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

AUTO_SUBJECT_PREFIXES = (
    "out of office",
    "out of the office",
    "automatic reply",
    "auto reply",
    "auto-reply",
    "autoreply",
    "auto response",
    "auto-response",
    "undeliverable",
    "undelivered mail",
    "delivery status notification",
    "delivery failure",
    "delivery has failed",
    "mail delivery failed",
    "mail delivery failure",
    "returned mail",
    "failure notice",
    "réponse automatique",
    "reponse automatique",
    "absence du bureau",
    "abwesenheitsnotiz",
    "automatische antwort",
    "risposta automatica",
    "respuesta automática",
    "respuesta automatica",
)
_AUTO_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply"})
_DAEMONS = frozenset({"mailer-daemon", "postmaster"})
_REPLY_PREFIX = re.compile(
    r"^\s*(?:(?:re|fwd?|aw|wg|tr|rv|sv|vs)\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE
)


def is_auto_reply(
    header: Callable[[str], str | None],
    *,
    subject: str,
    sender: str | None,
    content_type: str,
) -> bool:
    """Apply the rules of this module; ``header(name)`` returns a raw value or None."""
    return (
        _auto_submitted(header("Auto-Submitted"))
        or _bulk_precedence(header("Precedence"))
        or header("X-Autoreply") is not None
        or header("X-Autorespond") is not None
        or _null_return_path(header("Return-Path"))
        or content_type == "multipart/report"
        or _daemon_sender(sender)
        or is_auto_subject(subject)
    )


def is_auto_subject(subject: str) -> bool:
    """Tell whether a subject reads like an automatic reply or a bounce."""
    stripped = _REPLY_PREFIX.sub("", subject).strip().lower()
    return stripped.startswith(AUTO_SUBJECT_PREFIXES)


def _auto_submitted(value: str | None) -> bool:
    if value is None:
        return False
    keyword = value.split(";", 1)[0].strip().lower()
    return keyword != "no"


def _bulk_precedence(value: str | None) -> bool:
    return value is not None and value.strip().lower() in _AUTO_PRECEDENCE


def _null_return_path(value: str | None) -> bool:
    return value is not None and value.replace(" ", "") in ("", "<>")


def _daemon_sender(sender: str | None) -> bool:
    if not sender:
        return False
    return sender.rpartition("@")[0].lower() in _DAEMONS or sender.lower() in _DAEMONS
