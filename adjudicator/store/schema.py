"""The store's SQLite schema and its versioning.

The schema version lives in ``PRAGMA user_version`` (read before anything else)
and every upgrade applied is also recorded, with its date, in the
``schema_version`` table.  ``PRAGMA application_id`` marks the file as an
adjudicator store, so a foreign SQLite file is refused instead of altered.

``MIGRATIONS[i]`` holds the statements that take a store from version ``i`` to
``i + 1``; a new schema version is added by appending a step, never by editing
an old one.  Statements are kept separate (not a script) because
``sqlite3.executescript`` would commit the enclosing transaction.
"""

from __future__ import annotations

#: ``PRAGMA application_id`` of an adjudicator store: the bytes "ADJU".
APPLICATION_ID = int.from_bytes(b"ADJU", "big")

_HEX64 = "length({0}) = 64 AND {0} NOT GLOB '*[^0-9a-f]*'"

_VERSION_1: tuple[str, ...] = (
    """
    CREATE TABLE schema_version (
        version INTEGER PRIMARY KEY,
        applied TEXT NOT NULL
    )
    """,
    f"""
    CREATE TABLE campaigns (
        id          TEXT PRIMARY KEY NOT NULL
                    CHECK (typeof(id) = 'text' AND length(id) BETWEEN 1 AND 63),
        game        TEXT NOT NULL CHECK (typeof(game) = 'text' AND length(game) > 0),
        created     TEXT NOT NULL,
        meta        TEXT NOT NULL DEFAULT '{{}}',
        entry_count INTEGER NOT NULL DEFAULT 0
                    CHECK (typeof(entry_count) = 'integer' AND entry_count >= 0),
        head_hash   TEXT NOT NULL CHECK ({_HEX64.format('head_hash')})
    ) WITHOUT ROWID
    """,
    """
    CREATE TRIGGER campaigns_identity_fixed
    BEFORE UPDATE OF id, game, created ON campaigns
    BEGIN
        SELECT RAISE(ABORT, 'a campaign''s id, game and creation date never change');
    END
    """,
    f"""
    CREATE TABLE entries (
        campaign TEXT NOT NULL REFERENCES campaigns (id),
        seq      INTEGER NOT NULL CHECK (typeof(seq) = 'integer' AND seq >= 0),
        kind     TEXT NOT NULL CHECK (typeof(kind) = 'text' AND length(kind) > 0),
        body     TEXT NOT NULL CHECK (typeof(body) = 'text'),
        prev     TEXT NOT NULL CHECK ({_HEX64.format('prev')}),
        hash     TEXT NOT NULL CHECK ({_HEX64.format('hash')}),
        PRIMARY KEY (campaign, seq),
        UNIQUE (campaign, prev)
    ) WITHOUT ROWID
    """,
    """
    CREATE TRIGGER entries_never_updated BEFORE UPDATE ON entries
    BEGIN
        SELECT RAISE(ABORT, 'history entries are append-only and never change');
    END
    """,
    """
    CREATE TRIGGER entries_never_deleted BEFORE DELETE ON entries
    BEGIN
        SELECT RAISE(ABORT, 'history entries are append-only and never deleted');
    END
    """,
    """
    CREATE TABLE secrets (
        campaign TEXT NOT NULL REFERENCES campaigns (id),
        name     TEXT NOT NULL CHECK (length(name) > 0),
        value    TEXT NOT NULL,
        updated  TEXT NOT NULL,
        PRIMARY KEY (campaign, name)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE mail_seen (
        campaign     TEXT NOT NULL REFERENCES campaigns (id),
        received     INTEGER NOT NULL CHECK (received >= 1),
        message_id   TEXT CHECK (message_id IS NULL OR length(message_id) > 0),
        content_hash TEXT NOT NULL CHECK (length(content_hash) > 0),
        seen_at      TEXT NOT NULL,
        PRIMARY KEY (campaign, received),
        UNIQUE (campaign, message_id),
        UNIQUE (campaign, content_hash)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE outbox (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        campaign   TEXT NOT NULL REFERENCES campaigns (id),
        message_id TEXT NOT NULL UNIQUE,
        recipient  TEXT NOT NULL CHECK (length(recipient) > 0),
        eml        BLOB NOT NULL,
        status     TEXT NOT NULL DEFAULT 'queued'
                   CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
        attempts   INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        last_error TEXT,
        created    TEXT NOT NULL,
        claimed_at TEXT,
        sent_at    TEXT,
        CHECK ((status = 'sent') = (sent_at IS NOT NULL))
    )
    """,
    "CREATE INDEX outbox_by_campaign_status ON outbox (campaign, status, id)",
)

#: Upgrade steps: ``MIGRATIONS[i]`` takes a store from version ``i`` to ``i + 1``.
MIGRATIONS: tuple[tuple[str, ...], ...] = (_VERSION_1,)

#: The schema version this code writes and understands.
SCHEMA_VERSION = len(MIGRATIONS)
