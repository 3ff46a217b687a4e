"""The durable campaign store: many campaigns in one SQLite file, or in a
PostgreSQL database for a hosted league (``Store.open("postgresql://...")``).

What is stored, per campaign:

* ``entries`` -- the append-only, hash-linked history (the public record).
  Entry ``n`` carries ``prev`` = hash of entry ``n - 1`` and ``hash`` =
  SHA-256 over a length-prefixed encoding of ``(campaign, seq, kind, canonical
  JSON body, prev)``; see :mod:`.canonical`.  Entries are never changed or
  deleted (SQL triggers refuse it too); an undo is a new entry.
* ``secrets`` -- referee seeds, password hashes, keys; kept apart from the
  history so that exporting the public record never touches them.
* ``mail_seen`` -- incoming mail already taken in (by Message-ID and by content
  hash), so the same email is never taken twice.
* ``outbox`` -- outgoing mail, written in the same transaction as the history
  it reports, so it is durable before it is sent, and claimed atomically so
  that it is never sent twice.

Every command is one transaction (``with store.transaction(campaign_id) as
tx:``) that commits wholly or not at all, even if the process is killed.
On SQLite, ``BEGIN IMMEDIATE`` takes the write lock for the whole file, which
serves as the per-campaign lock; on PostgreSQL an advisory lock per campaign
does, so commands on different campaigns run in parallel.  Either way two
commands on one campaign can never write at once, and the second waits up to
the busy timeout, then gets :class:`CampaignBusy`.  :mod:`.copy` moves
campaigns between stores, verified on arrival.
"""

from adjudicator.lazy import exports

from .errors import (
    CampaignBusy,
    CampaignExists,
    CampaignNotFound,
    DuplicateMessageId,
    HistoryCorrupt,
    SecretsDamaged,
    InvalidCampaignId,
    InvalidValue,
    NotAStore,
    OutboxMailNotFound,
    OutboxStateError,
    StoreError,
    StoreUnavailable,
    StoreVersionError,
    TransactionError,
)

#: the other public names -> their module, imported on first use (``status`` reads a
#: campaign without the copying and export machinery)
_HOMES = {
    **dict.fromkeys(("CopiedCampaign", "copy_campaigns"), "copy"),
    **dict.fromkeys(("ENTRY_HASH_DOMAIN", "GENESIS", "canonical_json", "entry_hash", "sha256_hex"), "canonical"),
    **dict.fromkeys(("verify_chain", "verify_export"), "history"),
    **dict.fromkeys(("Campaign", "Entry", "MailStatus", "OutboxMail", "SeenMail"), "records"),
    "SCHEMA_VERSION": "schema",
    "Store": "store",
    "Transaction": "transaction",
}
__getattr__ = exports(__name__, _HOMES)

__all__ = [
    "ENTRY_HASH_DOMAIN",
    "GENESIS",
    "SCHEMA_VERSION",
    "Campaign",
    "CopiedCampaign",
    "CampaignBusy",
    "CampaignExists",
    "CampaignNotFound",
    "DuplicateMessageId",
    "Entry",
    "HistoryCorrupt",
    "SecretsDamaged",
    "InvalidCampaignId",
    "InvalidValue",
    "MailStatus",
    "NotAStore",
    "OutboxMail",
    "OutboxMailNotFound",
    "OutboxStateError",
    "SeenMail",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "StoreVersionError",
    "Transaction",
    "TransactionError",
    "canonical_json",
    "copy_campaigns",
    "entry_hash",
    "sha256_hex",
    "verify_chain",
    "verify_export",
]
