"""The write side of the store: one :class:`Transaction` per command.

A transaction is opened by :meth:`Store.transaction`, which first takes the
campaign's lock.  On SQLite that is ``BEGIN IMMEDIATE``, the write lock of the
whole store file: (more than) a lock on the campaign, so while one command
writes no other process can write to any campaign of the same file.  On
PostgreSQL it is a transaction-scoped advisory lock on the campaign, so
commands on other campaigns run in parallel, from any number of hosts.  Either
way a second writer of the campaign waits up to the busy timeout and then gets
:class:`CampaignBusy`.  Keep commands short and never hold a transaction open
across network I/O (for example SMTP): claim mail in one transaction, send it,
record the outcome in another.  Readers are never blocked and see only
committed data.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from typing import Any

from . import queries, validate
from .canonical import GENESIS, canonical_json, canonical_object, entry_hash
from .copy import CampaignSnapshot, write_snapshot
from .db import Database
from .errors import (
    CampaignExists,
    DuplicateMessageId,
    InvalidValue,
    OutboxStateError,
    TransactionError,
)
from .records import Campaign, Entry, MailStatus, OutboxMail, SeenMail

_MAX_ERROR_TEXT = 2000


class Transaction:
    """The writes (and consistent reads) of one command on one campaign.

    Everything done through a transaction is committed together when the
    ``with`` block ends normally, and rolled back together if it raises.
    History entries can only be appended, never changed or removed: an undo is
    a new entry recorded by the caller.
    """

    def __init__(self, db: Database, campaign_id: str, now: Callable[[], str]) -> None:
        self._db = db
        self._campaign_id = campaign_id
        self._now = now
        self._open = True
        self._verified: list[Entry] | None = None  # the history as verified in this transaction
        # The campaign's row as this transaction last read or wrote it: only a command
        # holding the campaign's lock writes it, so it is read once, not at every call.
        self._row: Campaign | None = None

    @property
    def campaign_id(self) -> str:
        """The id of the campaign this transaction writes."""
        return self._campaign_id

    # -- campaign -----------------------------------------------------------

    def create_campaign(self, game: str, meta: dict[str, Any] | None = None) -> Campaign:
        """Create this transaction's campaign, with an empty history.

        Raises :class:`CampaignExists` if it is already stored.
        """
        self._check_open()
        game = validate.name(game, "game name")
        meta_json = canonical_object({} if meta is None else meta, what="campaign meta")
        if queries.find_campaign(self._db, self._campaign_id) is not None:
            raise CampaignExists(self._campaign_id)
        self._db.execute(
            "INSERT INTO campaigns (id, game, created, meta, entry_count, head_hash) "
            "VALUES (?, ?, ?, ?, 0, ?)",
            (self._campaign_id, game, self._now(), meta_json, GENESIS),
        )
        self._row = None
        return self.campaign()

    def find_campaign(self) -> Campaign | None:
        """Return the campaign as it stands in this transaction, or None."""
        self._check_open()
        return queries.find_campaign(self._db, self._campaign_id)

    def restore(self, snapshot: CampaignSnapshot) -> None:
        """Write a campaign copied from another store (see :mod:`.copy`): its
        history, secrets, mail taken in and outbox exactly as they were.

        Raises :class:`CampaignExists` if the campaign is already stored here.
        """
        self._check_open()
        if snapshot.campaign.id != self._campaign_id:
            raise InvalidValue(
                f"a copy of campaign {snapshot.campaign.id!r} cannot be written "
                f"as campaign {self._campaign_id!r}"
            )
        write_snapshot(self._db, snapshot)
        self._verified = None
        self._row = None

    def campaign(self) -> Campaign:
        """Return the campaign as it stands in this transaction."""
        self._check_open()
        if self._row is None:
            self._row = queries.campaign(self._db, self._campaign_id)
        return self._row

    def set_meta(self, meta: dict[str, Any]) -> Campaign:
        """Replace the campaign's metadata (not part of the hash-linked history)."""
        meta_json = canonical_object(meta, what="campaign meta")
        self.campaign()
        self._db.execute(
            "UPDATE campaigns SET meta = ? WHERE id = ?", (meta_json, self._campaign_id)
        )
        self._row = None
        return self.campaign()

    # -- history ------------------------------------------------------------

    def append(self, kind: str, body: dict[str, Any]) -> Entry:
        """Append an entry to the campaign's history and return it.

        ``kind`` is a short name (e.g. ``"orders"``), ``body`` a JSON-able dict,
        stored as canonical JSON (tuples become lists).  The history's current
        end is checked first, so nothing is ever appended to a damaged tail.
        """
        kind = validate.name(kind, "entry kind")
        body_json = canonical_object(body, what=f"the body of a {kind!r} entry")
        owner = self.campaign()
        queries.head(self._db, owner)
        seq, prev = owner.entry_count, owner.head_hash
        digest = entry_hash(owner.id, seq, kind, body_json, prev)
        self._db.execute(
            "INSERT INTO entries (campaign, seq, kind, body, prev, hash) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (owner.id, seq, kind, body_json, prev, digest),
        )
        self._db.execute(
            "UPDATE campaigns SET entry_count = ?, head_hash = ? WHERE id = ?",
            (seq + 1, digest, owner.id),
        )
        self._row = dataclasses.replace(owner, entry_count=seq + 1, head_hash=digest)
        entry = Entry(owner.id, seq, kind, body_json, prev, digest)
        if self._verified is not None:
            self._verified.append(entry)
        return entry

    def entries(self, *, verify: bool = True) -> list[Entry]:
        """Return the campaign's history as this transaction sees it.

        Read the history here, not before the transaction, so that no other
        command can append between the read and this command's writes. It is
        verified once per transaction: later reads in it add only what it appended.
        """
        if not verify:
            return queries.entries(self._db, self.campaign(), verify)
        if self._verified is None:
            self._verified = queries.entries(self._db, self.campaign(), verify)
        return list(self._verified)

    def head(self) -> Entry | None:
        """Return the last entry of the history, or None while it is empty."""
        return queries.head(self._db, self.campaign())

    # -- secrets ------------------------------------------------------------

    def set_secret(self, name: str, value: Any) -> None:
        """Store (or replace) a secret: a seed, a password hash, a key.

        Secrets live apart from the history and are never exported.  ``value``
        is any JSON-able value.
        """
        name = validate.name(name, "secret name")
        value_json = canonical_json(value, what=f"secret {name!r}")
        self.campaign()
        self._db.execute(
            "INSERT INTO secrets (campaign, name, value, updated) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (campaign, name) DO UPDATE "
            "SET value = excluded.value, updated = excluded.updated",
            (self._campaign_id, name, value_json, self._now()),
        )

    def get_secret(self, name: str, default: Any = None) -> Any:
        """Return a secret's value, or ``default`` if there is no such secret."""
        name = validate.name(name, "secret name")
        self.campaign()
        row = self._db.one(
            "SELECT value FROM secrets WHERE campaign = ? AND name = ?",
            (self._campaign_id, name),
        )
        return default if row is None else json.loads(row[0])

    def delete_secret(self, name: str) -> bool:
        """Forget a secret; return whether it existed."""
        name = validate.name(name, "secret name")
        self.campaign()
        cursor = self._db.execute(
            "DELETE FROM secrets WHERE campaign = ? AND name = ?", (self._campaign_id, name)
        )
        return cursor.rowcount > 0

    def secret_names(self) -> list[str]:
        """Return the names (never the values) of the campaign's secrets."""
        self.campaign()
        rows = self._db.all(
            "SELECT name FROM secrets WHERE campaign = ? ORDER BY name", (self._campaign_id,)
        )
        return [row[0] for row in rows]

    # -- incoming mail ------------------------------------------------------

    def mark_mail_seen(self, message_id: str | None, content_hash: str) -> bool:
        """Record an incoming email; return False if it was already taken in.

        An email counts as already seen when either its Message-ID or its
        content hash (e.g. :func:`sha256_hex` of its normalised text) matches
        one already recorded for the campaign.  ``message_id`` may be None for
        mail that has none; it is then recognised by content alone.
        """
        if message_id is not None:
            validate.header_text(message_id, "Message-ID")
        content_hash = validate.content_hash(content_hash)
        self.campaign()
        if self._already_seen(message_id, content_hash):
            return False
        received = self._db.one(
            "SELECT coalesce(max(received), 0) + 1 FROM mail_seen WHERE campaign = ?",
            (self._campaign_id,),
        )[0]
        self._db.execute(
            "INSERT INTO mail_seen (campaign, received, message_id, content_hash, seen_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (self._campaign_id, received, message_id, content_hash, self._now()),
        )
        return True

    def seen_mail(self) -> list[SeenMail]:
        """Return the campaign's accepted incoming mail in arrival order."""
        self.campaign()
        return queries.seen_mail(self._db, self._campaign_id)

    def _already_seen(self, message_id: str | None, content_hash: str) -> bool:
        """Tell whether mail with this Message-ID or content hash is recorded."""
        row = self._db.one(
            "SELECT 1 FROM mail_seen WHERE campaign = ? "
            "AND (message_id = ? OR content_hash = ?) LIMIT 1",
            (self._campaign_id, message_id, content_hash),
        )
        return row is not None

    # -- outgoing mail ------------------------------------------------------

    def queue_mail(self, message_id: str, recipient: str, eml: bytes) -> OutboxMail:
        """Put an outgoing email (the bytes of an .eml file) in the outbox.

        It is committed with the rest of the command, so it is durable before
        any sender can see it.  Raises :class:`DuplicateMessageId` if a message
        with this Message-ID is already queued or sent.
        """
        message_id = validate.header_text(message_id, "Message-ID")
        recipient = validate.header_text(recipient, "recipient")
        if not isinstance(eml, (bytes, bytearray, memoryview)) or not eml:
            raise InvalidValue("eml must be the non-empty bytes of an email message")
        self.campaign()
        eml, created = bytes(eml), self._now()
        inserted = self._db.one(
            "INSERT INTO outbox (campaign, message_id, recipient, eml, status, created) "
            "VALUES (?, ?, ?, ?, 'queued', ?) ON CONFLICT (message_id) DO NOTHING RETURNING id",
            (self._campaign_id, message_id, recipient, eml, created),
        )
        if inserted is None:
            raise DuplicateMessageId(message_id)
        # the row as just written (not read back: a report's mail is tens of kilobytes)
        return OutboxMail(int(inserted[0]), self._campaign_id, message_id, recipient, eml, MailStatus.QUEUED, 0,
                          None, created, None, None, None)

    def claim_mail(self, limit: int | None = None) -> list[OutboxMail]:
        """Claim queued mail for sending: mark it ``sending`` and return it.

        Claiming happens under the write lock, so two senders never claim the
        same message.  Commit the claim (end the transaction) before sending,
        then record the outcome with :meth:`mark_sent` or :meth:`mark_failed`
        in a new transaction.
        """
        if limit is not None and (type(limit) is not int or limit < 1):
            raise InvalidValue(f"invalid claim limit {limit!r}: give a positive integer or None")
        self.campaign()
        rows = self._db.all(
            "SELECT id FROM outbox WHERE campaign = ? AND status = 'queued' ORDER BY id"
            + ("" if limit is None else f" LIMIT {limit}"),
            (self._campaign_id,),
        )
        now, claimant = self._now(), _claimant()
        for (outbox_id,) in rows:
            self._db.execute(
                "UPDATE outbox SET status = 'sending', attempts = attempts + 1, "
                "claimed_at = ?, claimed_by = ? WHERE id = ?",
                (now, claimant, outbox_id),
            )
        return [queries.outbox_mail(self._db, self._campaign_id, r[0]) for r in rows]

    def mark_sent(self, outbox_id: int) -> OutboxMail:
        """Record that a claimed message was sent; it is never sent again."""
        self._expect_status(outbox_id, "marked sent", (MailStatus.SENDING,))
        self._db.execute(
            "UPDATE outbox SET status = 'sent', sent_at = ? WHERE id = ?",
            (self._now(), outbox_id),
        )
        return queries.outbox_mail(self._db, self._campaign_id, outbox_id)

    def mark_failed(self, outbox_id: int, error: str, *, permanent: bool = False) -> OutboxMail:
        """Record a failed attempt to send a claimed message.

        The message goes back to ``queued`` for another attempt, or to
        ``failed`` if ``permanent`` (e.g. the address was refused).
        """
        self._expect_status(outbox_id, "marked failed", (MailStatus.SENDING,))
        status = MailStatus.FAILED if permanent else MailStatus.QUEUED
        self._db.execute(
            "UPDATE outbox SET status = ?, last_error = ? WHERE id = ?",
            (status.value, str(error).replace("\0", "")[:_MAX_ERROR_TEXT], outbox_id),
        )
        return queries.outbox_mail(self._db, self._campaign_id, outbox_id)

    def requeue(self, outbox_id: int) -> OutboxMail:
        """Put a ``failed`` or ``sending`` message back in the queue.

        A message left ``sending`` by a sender that crashed may or may not have
        gone out; only the referee can decide to send it again, with this.
        """
        self._expect_status(outbox_id, "requeued", (MailStatus.FAILED, MailStatus.SENDING))
        self._db.execute("UPDATE outbox SET status = 'queued' WHERE id = ?", (outbox_id,))
        return queries.outbox_mail(self._db, self._campaign_id, outbox_id)

    def outbox(self, status: MailStatus | str | None = None) -> list[OutboxMail]:
        """Return the campaign's outgoing mail, oldest first."""
        self.campaign()
        return queries.outbox(self._db, self._campaign_id, validate.mail_status(status))

    def _expect_status(
        self, outbox_id: int, action: str, allowed: tuple[MailStatus, ...]
    ) -> OutboxMail:
        """Return the message if its status is one of ``allowed``, else raise."""
        outbox_id = validate.outbox_id(outbox_id)
        self.campaign()
        mail = queries.outbox_mail(self._db, self._campaign_id, outbox_id)
        if mail.status not in allowed:
            needed = " or ".join(repr(s.value) for s in allowed)
            raise OutboxStateError(outbox_id, mail.status.value, action, needed)
        return mail

    # -- life cycle ---------------------------------------------------------

    def _check_open(self) -> None:
        """Refuse use of a transaction whose ``with`` block has ended."""
        if not self._open:
            raise TransactionError(
                f"the transaction on campaign {self._campaign_id!r} has ended; "
                "open a new one with Store.transaction()"
            )

    def _close(self) -> None:
        """Mark the transaction ended (called by the store)."""
        self._open = False


def _claimant() -> str:
    """Who claims mail: this host and process, as recorded in the outbox."""
    import socket

    return f"{socket.gethostname()} pid {os.getpid()}"
