"""Reads shared by :class:`Store` (outside transactions) and :class:`Transaction`."""

from __future__ import annotations

from . import checked
from .canonical import GENESIS
from .db import Database
from .errors import CampaignNotFound, HistoryCorrupt, OutboxMailNotFound
from .history import check_entry, check_tail, entries_from_rows, verified_entries
from .records import Campaign, Entry, MailStatus, OutboxMail, SeenMail

_CAMPAIGN = "SELECT id, game, created, meta, entry_count, head_hash FROM campaigns"
_ENTRY_COLUMNS = ("kind", "body", "prev", "hash")
_SEEN = "SELECT campaign, received, message_id, content_hash, seen_at FROM mail_seen"
_OUTBOX = (
    "SELECT id, campaign, message_id, recipient, eml, status, attempts, last_error, "
    "created, claimed_at, sent_at, claimed_by FROM outbox"
)


def _entry_rows(db: Database) -> str:
    """The query of a campaign's entry rows, text columns as stored bytes."""
    columns = ", ".join(db.as_bytes(column) for column in _ENTRY_COLUMNS)
    return f"SELECT seq, {columns} FROM entries WHERE campaign = ?"


def find_campaign(db: Database, campaign_id: str) -> Campaign | None:
    """Return the campaign, or None if it is not stored."""
    row = db.one(f"{_CAMPAIGN} WHERE id = ?", (campaign_id,))
    return Campaign(*row) if row else None


def campaign(db: Database, campaign_id: str) -> Campaign:
    """Return the campaign, raising :class:`CampaignNotFound` if it is not stored."""
    found = find_campaign(db, campaign_id)
    if found is None:
        raise CampaignNotFound(campaign_id)
    return found


def campaigns(db: Database) -> list[Campaign]:
    """Return every stored campaign, by id."""
    return [Campaign(*row) for row in db.all(f"{_CAMPAIGN} ORDER BY id")]


def entries(db: Database, owner: Campaign, verify: bool) -> list[Entry]:
    """Return the campaign's whole history, verified if ``verify``."""
    rows = db.all(f"{_entry_rows(db)} ORDER BY seq", (owner.id,))
    if not verify:
        return list(entries_from_rows(owner.id, rows))
    mark = checked.recall(owner.id, rows)
    found = _verified(owner.id, rows, mark)
    last = found[-1].hash if found else GENESIS
    check_tail(owner.id, len(found), last, owner.entry_count, owner.head_hash)
    if found and (mark is None or len(found) > mark.count):
        checked.remember(owner.id, found[0].hash, checked.Mark(len(found), last))
    return found


def _verified(campaign_id: str, rows: list, mark: checked.Mark | None) -> list[Entry]:
    """The verified entries of ``rows``: the bodies a fitting ``mark`` covers are not
    parsed again; any failure is reported as a whole check reports it."""
    if mark is not None:
        try:
            return list(verified_entries(campaign_id, rows, mark.count))
        except HistoryCorrupt:
            pass
    return list(verified_entries(campaign_id, rows))


def head(db: Database, owner: Campaign) -> Entry | None:
    """Return the last entry, checked against the campaign's recorded head."""
    row = db.one(f"{_entry_rows(db)} ORDER BY seq DESC LIMIT 1", (owner.id,))
    if row is None:
        check_tail(owner.id, 0, GENESIS, owner.entry_count, owner.head_hash)
        return None
    last = next(entries_from_rows(owner.id, [row]))
    check_entry(last, last.seq, last.prev)
    check_tail(owner.id, last.seq + 1, last.hash, owner.entry_count, owner.head_hash)
    return last


def seen_mail(db: Database, campaign_id: str) -> list[SeenMail]:
    """Return the campaign's accepted incoming mail in arrival order."""
    rows = db.all(f"{_SEEN} WHERE campaign = ? ORDER BY received", (campaign_id,))
    return [SeenMail(*row) for row in rows]


def outbox(db: Database, campaign_id: str, status: MailStatus | None) -> list[OutboxMail]:
    """Return the campaign's outgoing mail, oldest first, optionally of one status."""
    if status is None:
        rows = db.all(f"{_OUTBOX} WHERE campaign = ? ORDER BY id", (campaign_id,))
    else:
        rows = db.all(
            f"{_OUTBOX} WHERE campaign = ? AND status = ? ORDER BY id",
            (campaign_id, MailStatus(status).value),
        )
    return [_outbox_mail(row) for row in rows]


def outbox_mail(db: Database, campaign_id: str, outbox_id: int) -> OutboxMail:
    """Return one outgoing message of the campaign."""
    row = db.one(f"{_OUTBOX} WHERE id = ? AND campaign = ?", (outbox_id, campaign_id))
    if row is None:
        raise OutboxMailNotFound(campaign_id, outbox_id)
    return _outbox_mail(row)


def _outbox_mail(row: tuple) -> OutboxMail:
    """Build an :class:`OutboxMail` from a row."""
    values = list(row)
    values[4] = bytes(values[4])
    values[5] = MailStatus(values[5])
    return OutboxMail(*values)
