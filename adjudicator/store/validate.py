"""Checks on the names and identifiers given to the store."""

from __future__ import annotations

import re

from .errors import InvalidCampaignId, InvalidValue
from .records import MailStatus

CAMPAIGN_ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
_CAMPAIGN_ID_RULE = (
    "use 1 to 63 characters among lowercase letters a-z, digits and '-', "
    "starting with a letter or a digit"
)

#: Entry kinds, game names and secret names: a short word, dotted or dashed.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/-]{0,63}")
_NAME_RULE = (
    "use 1 to 64 characters among letters, digits and _ . : / -, "
    "starting with a letter or a digit"
)

_MAX_HEADER_TEXT = 998  # the longest line RFC 5322 allows


def campaign_id(value: object) -> str:
    """Return ``value`` if it is a valid campaign id, else raise InvalidCampaignId."""
    if not isinstance(value, str) or not CAMPAIGN_ID_PATTERN.fullmatch(value):
        raise InvalidCampaignId(value, _CAMPAIGN_ID_RULE)
    return value


def name(value: object, what: str) -> str:
    """Return ``value`` if it is a valid kind, game or secret name."""
    if not isinstance(value, str) or not NAME_PATTERN.fullmatch(value):
        raise InvalidValue(f"invalid {what} {value!r}: {_NAME_RULE}")
    return value


def header_text(value: object, what: str) -> str:
    """Return ``value`` if it is a non-empty single line of at most 998 characters."""
    if (
        not isinstance(value, str)
        or not value.strip()
        or len(value) > _MAX_HEADER_TEXT
        or any(c in value for c in "\r\n\0")
    ):
        raise InvalidValue(
            f"invalid {what} {value!r}: give a non-empty single line of at most "
            f"{_MAX_HEADER_TEXT} characters"
        )
    return value


def content_hash(value: object) -> str:
    """Return ``value`` if it looks like a hex digest (16 to 128 hex digits)."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{16,128}", value):
        raise InvalidValue(
            f"invalid content hash {value!r}: give a lowercase hex digest, "
            "e.g. from adjudicator.store.sha256_hex(raw_bytes)"
        )
    return value


def outbox_id(value: object) -> int:
    """Return ``value`` if it is a positive integer outbox id."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidValue(f"invalid outbox id {value!r}: give the id of an outbox mail")
    return value


def mail_status(value: MailStatus | str | None) -> MailStatus | None:
    """Turn a status name into a :class:`MailStatus` (None stays None)."""
    if value is None:
        return None
    try:
        return MailStatus(value)
    except ValueError:
        names = ", ".join(s.value for s in MailStatus)
        raise InvalidValue(f"unknown mail status {value!r}: use one of {names}") from None
