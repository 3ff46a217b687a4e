"""Copying campaigns from one store to another (SQLite <-> PostgreSQL), verified.

Each campaign is read from the source in one consistent snapshot with its history
verified and its secrets readable (and, with a ``check_secrets``, agreeing with what
the history published about them), written to the target in one transaction --
campaign, history, secrets, incoming mail taken in and the outbox, all as they were
(dates, hashes, outbox ids and states) -- and its history and secrets are then read
back from the target, the history verified again and both compared with the
source's.  A campaign is thus either wholly copied and proven identical, or not
copied at all.

A campaign already in the target with the very same history (same length and
head hash) is left alone, so an interrupted copy can simply be run again; one
with a different history is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import queries
from .errors import CampaignExists, DuplicateMessageId, HistoryCorrupt, SecretsDamaged
from .records import Campaign, Entry

if TYPE_CHECKING:
    from .store import Store

_SECRETS = "SELECT name, value, updated FROM secrets WHERE campaign = ? ORDER BY name"
_SEEN = (
    "SELECT received, message_id, content_hash, seen_at FROM mail_seen "
    "WHERE campaign = ? ORDER BY received"
)
_OUTBOX = (
    "SELECT id, message_id, recipient, eml, status, attempts, last_error, created, "
    "claimed_at, sent_at, claimed_by FROM outbox WHERE campaign = ? ORDER BY id"
)


@dataclass(frozen=True)
class CampaignSnapshot:
    """Everything stored for one campaign, as read in one transaction.

    ``secrets`` holds secret values: never print or log a snapshot.
    """

    campaign: Campaign
    entries: tuple[Entry, ...]
    secrets: tuple[tuple[Any, ...], ...]
    seen_mail: tuple[tuple[Any, ...], ...]
    outbox: tuple[tuple[Any, ...], ...]

    def __repr__(self) -> str:  # never show the secrets
        return f"CampaignSnapshot({self.campaign.id!r}, {len(self.entries)} entries)"


@dataclass(frozen=True)
class CopiedCampaign:
    """What was done with one campaign: ``copied``, or ``present`` (already there)."""

    id: str
    outcome: str
    entries: int
    head: str
    secrets: int
    seen_mail: int
    outbox: int

    def as_json(self) -> dict[str, Any]:
        return {
            "campaign": self.id, "outcome": self.outcome, "entries": self.entries,
            "head": self.head, "secrets": self.secrets, "seen_mail": self.seen_mail,
            "outbox": self.outbox,
        }


def read_snapshot(db: Any, campaign_id: str) -> CampaignSnapshot:
    """Read a campaign wholly, its history verified (:class:`HistoryCorrupt` if not)."""
    owner = queries.campaign(db, campaign_id)
    return CampaignSnapshot(
        campaign=owner,
        entries=tuple(queries.entries(db, owner, verify=True)),
        secrets=tuple(tuple(row) for row in db.all(_SECRETS, (campaign_id,))),
        seen_mail=tuple(tuple(row) for row in db.all(_SEEN, (campaign_id,))),
        outbox=tuple(tuple(row) for row in db.all(_OUTBOX, (campaign_id,))),
    )


def write_snapshot(db: Any, snapshot: CampaignSnapshot) -> None:
    """Insert a campaign read by :func:`read_snapshot` into a store that lacks it."""
    owner = snapshot.campaign
    if queries.find_campaign(db, owner.id) is not None:
        raise CampaignExists(owner.id)
    db.execute(
        "INSERT INTO campaigns (id, game, created, meta, entry_count, head_hash) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (owner.id, owner.game, owner.created, owner.meta_json, owner.entry_count,
         owner.head_hash),
    )
    for entry in snapshot.entries:
        db.execute(
            "INSERT INTO entries (campaign, seq, kind, body, prev, hash) VALUES (?, ?, ?, ?, ?, ?)",
            (owner.id, entry.seq, entry.kind, entry.body_json, entry.prev, entry.hash),
        )
    for row in snapshot.secrets:
        db.execute("INSERT INTO secrets (campaign, name, value, updated) VALUES (?, ?, ?, ?)",
                   (owner.id, *row))
    for row in snapshot.seen_mail:
        db.execute(
            "INSERT INTO mail_seen (campaign, received, message_id, content_hash, seen_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (owner.id, *row),
        )
    for row in snapshot.outbox:
        _write_outbox(db, owner.id, row)
    if snapshot.outbox:
        db.outbox_ids_taken()


def _write_outbox(db: Any, campaign_id: str, row: tuple[Any, ...]) -> None:
    """Insert one outgoing message, keeping its id unless the target already uses it."""
    outbox_id, message_id, *rest = row
    if db.one("SELECT 1 FROM outbox WHERE message_id = ?", (message_id,)):
        raise DuplicateMessageId(message_id)
    columns = ("message_id, recipient, eml, status, attempts, last_error, created, "
               "claimed_at, sent_at, claimed_by")
    values = (campaign_id, message_id, *rest)
    if db.one("SELECT 1 FROM outbox WHERE id = ?", (outbox_id,)) is None:
        db.execute(f"INSERT INTO outbox (id, campaign, {columns}) VALUES ({_marks(12)})",
                   (outbox_id, *values))
    else:
        db.execute(f"INSERT INTO outbox (campaign, {columns}) VALUES ({_marks(11)})", values)


def _marks(count: int) -> str:
    return ", ".join("?" * count)


#: Checks a campaign's secrets against its history: (campaign id, entries, each
#: secret's value by name) -> the problems found, naming secrets, never their values.
SecretsCheck = Callable[[str, list[Entry], Mapping[str, Any]], list[str]]


def copy_campaigns(
    source: Store, target: Store, campaign_ids: Iterable[str] | None = None,
    check_secrets: SecretsCheck | None = None,
) -> Iterator[CopiedCampaign]:
    """Copy campaigns (all of them by default) from ``source`` to ``target``.

    Yields the outcome of each campaign once it is committed and verified in the
    target; raises on the first campaign that cannot be copied (those before it
    stay copied).
    """
    wanted = sorted(campaign_ids) if campaign_ids else [c.id for c in source.campaigns()]
    for campaign_id in wanted:
        yield copy_campaign(source, target, campaign_id, check_secrets)


def copy_campaign(source: Store, target: Store, campaign_id: str,
                  check_secrets: SecretsCheck | None = None) -> CopiedCampaign:
    """Copy one campaign in one target transaction, then verify it on arrival."""
    snapshot = source.snapshot(campaign_id)
    secrets = _readable_secrets(snapshot, check_secrets)
    outcome = "copied"
    with target.transaction(campaign_id) as tx:
        present = tx.find_campaign()
        if present is None:
            tx.restore(snapshot)
        elif (present.entry_count, present.head_hash) == (
            snapshot.campaign.entry_count, snapshot.campaign.head_hash,
        ):
            outcome = "present"
        else:
            raise CampaignExists(campaign_id)
    arrived = target.snapshot(campaign_id)
    _check_arrival(snapshot, list(arrived.entries))
    if outcome == "copied" and _readable_secrets(arrived) != secrets:
        raise SecretsDamaged(campaign_id, ["the copy's secrets differ from the source's"])
    return CopiedCampaign(
        campaign_id, outcome, len(snapshot.entries), snapshot.campaign.head_hash,
        len(snapshot.secrets), len(snapshot.seen_mail), len(snapshot.outbox),
    )


def _readable_secrets(snapshot: CampaignSnapshot, check: SecretsCheck | None = None) -> dict[str, Any]:
    """Each secret's value by name; raise :class:`SecretsDamaged` if one is not
    readable JSON or ``check`` finds problems."""
    values, problems = {}, []
    for name, value, _updated in snapshot.secrets:
        try:
            values[name] = json.loads(value)
        except (TypeError, ValueError):
            problems.append(f"the secret {name!r} is not readable")
    if not problems and check is not None:
        problems = check(snapshot.campaign.id, list(snapshot.entries), values)
    if problems:
        raise SecretsDamaged(snapshot.campaign.id, problems)
    return values


def _check_arrival(snapshot: CampaignSnapshot, arrived: list[Entry]) -> None:
    """Raise :class:`HistoryCorrupt` unless the target holds the source's history."""
    campaign_id = snapshot.campaign.id
    for seq, (sent, got) in enumerate(zip(snapshot.entries, arrived)):
        if sent != got:
            raise HistoryCorrupt(campaign_id, seq, "the copy differs from the source's entry")
    if len(arrived) != len(snapshot.entries):
        raise HistoryCorrupt(
            campaign_id, min(len(arrived), len(snapshot.entries)),
            f"the copy holds {len(arrived)} entries, the source {len(snapshot.entries)}",
        )

