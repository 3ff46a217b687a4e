"""Immutable records returned by the store.

JSON payloads are kept as their canonical text (``*_json`` fields) so that the
records are truly immutable and hashable; the ``body``/``meta``/``value``
properties parse a fresh copy on every access, which the caller may change freely.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Campaign:
    """A stored campaign.

    ``entry_count`` and ``head_hash`` record the length of the history and the hash
    of its last entry (:data:`~adjudicator.store.GENESIS` while it is empty); they
    let verification notice entries removed from the end.
    """

    id: str
    game: str
    created: str
    meta_json: str
    entry_count: int
    head_hash: str

    @property
    def meta(self) -> dict[str, Any]:
        """The campaign's metadata, parsed afresh."""
        return json.loads(self.meta_json)


@dataclass(frozen=True)
class Entry:
    """One entry of a campaign's append-only, hash-linked history.

    ``hash`` is :func:`~adjudicator.store.entry_hash` of ``(campaign, seq, kind,
    body_json, prev)`` and ``prev`` is the hash of entry ``seq - 1`` (or
    :data:`~adjudicator.store.GENESIS` for entry 0).
    """

    campaign: str
    seq: int
    kind: str
    body_json: str
    prev: str
    hash: str

    @property
    def body(self) -> dict[str, Any]:
        """The entry's body, parsed afresh."""
        return json.loads(self.body_json)


@dataclass(frozen=True)
class SeenMail:
    """An incoming email already taken in for a campaign.

    ``received`` numbers the campaign's accepted mail in arrival order, from 1.
    """

    campaign: str
    received: int
    message_id: str | None
    content_hash: str
    seen_at: str


class MailStatus(enum.StrEnum):
    """Where an outgoing message stands.

    ``queued`` -> (claimed by a sender) ``sending`` -> ``sent``; a failed attempt
    goes back to ``queued`` or, when permanent, to ``failed``.
    """

    QUEUED = "queued"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"


@dataclass(frozen=True)
class OutboxMail:
    """An outgoing email kept in the outbox until it has been sent.

    ``claimed_by`` names the sender (host and process) that last claimed it, so
    that a message left ``sending`` by a sender that crashed says whose it was.
    """

    id: int
    campaign: str
    message_id: str
    recipient: str
    eml: bytes
    status: MailStatus
    attempts: int
    last_error: str | None
    created: str
    claimed_at: str | None
    sent_at: str | None
    claimed_by: str | None = None
