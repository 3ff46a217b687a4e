"""The store's schema, for SQLite and for PostgreSQL, and its versioning.

Both backends hold the same tables with the same columns and constraints; only
the dialect differs (``BLOB``/``bytea``, SQLite triggers/PL/pgSQL functions).

SQLite keeps the schema version in ``PRAGMA user_version`` (read before anything
else) and ``PRAGMA application_id`` marks the file as an adjudicator store, so a
foreign SQLite file is refused instead of altered.  PostgreSQL keeps the version
as the highest row of ``schema_version`` and marks that table with a comment
(:data:`POSTGRESQL_MARK`), so a foreign database is refused likewise.  On both,
every upgrade applied is recorded, with its date, in ``schema_version``.

``SQLITE_MIGRATIONS[i]`` and ``POSTGRESQL_MIGRATIONS[i]`` hold the statements
that take a store from version ``i`` to ``i + 1``; a new schema version is added
by appending a step to both, never by editing an old one.  Statements are kept
separate (not a script) because ``sqlite3.executescript`` would commit the
enclosing transaction.
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

#: Version 2: a sender records who claimed a message (so that a message left
#: ``sending`` by a crashed host names the host), and senders find queued mail
#: across all campaigns by an index.
_VERSION_2: tuple[str, ...] = (
    "ALTER TABLE outbox ADD COLUMN claimed_by TEXT",
    "CREATE INDEX outbox_by_status ON outbox (status, id)",
)

#: Upgrade steps of an SQLite store: ``[i]`` takes it from version ``i`` to ``i + 1``.
SQLITE_MIGRATIONS: tuple[tuple[str, ...], ...] = (_VERSION_1, _VERSION_2)

# -- PostgreSQL --------------------------------------------------------------

#: The comment on ``schema_version`` that marks a PostgreSQL schema as a store.
POSTGRESQL_MARK = "adjudicator campaign store"

_PG_HEX64 = "{0} ~ '^[0-9a-f]{{64}}$'"


def _pg_refusal(function: str, message: str) -> str:
    """A trigger function that refuses the change with ``message``."""
    return (
        f"CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $body$ "
        f"BEGIN RAISE EXCEPTION '{message}' USING ERRCODE = 'restrict_violation'; END "
        "$body$"
    )


_PG_VERSION_1: tuple[str, ...] = (
    """
    CREATE TABLE schema_version (
        version INTEGER PRIMARY KEY,
        applied TEXT NOT NULL
    )
    """,
    f"COMMENT ON TABLE schema_version IS '{POSTGRESQL_MARK}'",
    f"""
    CREATE TABLE campaigns (
        id          TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 63),
        game        TEXT NOT NULL CHECK (length(game) > 0),
        created     TEXT NOT NULL,
        meta        TEXT NOT NULL DEFAULT '{{}}',
        entry_count BIGINT NOT NULL DEFAULT 0 CHECK (entry_count >= 0),
        head_hash   TEXT NOT NULL CHECK ({_PG_HEX64.format('head_hash')})
    )
    """,
    _pg_refusal(
        "campaign_identity_fixed",
        "a campaign''s id, game and creation date never change",
    ),
    """
    CREATE TRIGGER campaigns_identity_fixed
    BEFORE UPDATE OF id, game, created ON campaigns
    FOR EACH ROW EXECUTE FUNCTION campaign_identity_fixed()
    """,
    f"""
    CREATE TABLE entries (
        campaign TEXT NOT NULL REFERENCES campaigns (id),
        seq      BIGINT NOT NULL CHECK (seq >= 0),
        kind     TEXT NOT NULL CHECK (length(kind) > 0),
        body     TEXT NOT NULL,
        prev     TEXT NOT NULL CHECK ({_PG_HEX64.format('prev')}),
        hash     TEXT NOT NULL CHECK ({_PG_HEX64.format('hash')}),
        PRIMARY KEY (campaign, seq),
        UNIQUE (campaign, prev)
    )
    """,
    _pg_refusal("entries_never_updated", "history entries are append-only and never change"),
    """
    CREATE TRIGGER entries_never_updated BEFORE UPDATE ON entries
    FOR EACH ROW EXECUTE FUNCTION entries_never_updated()
    """,
    _pg_refusal("entries_never_deleted", "history entries are append-only and never deleted"),
    """
    CREATE TRIGGER entries_never_deleted BEFORE DELETE ON entries
    FOR EACH ROW EXECUTE FUNCTION entries_never_deleted()
    """,
    """
    CREATE TRIGGER entries_never_truncated BEFORE TRUNCATE ON entries
    FOR EACH STATEMENT EXECUTE FUNCTION entries_never_deleted()
    """,
    """
    CREATE TABLE secrets (
        campaign TEXT NOT NULL REFERENCES campaigns (id),
        name     TEXT NOT NULL CHECK (length(name) > 0),
        value    TEXT NOT NULL,
        updated  TEXT NOT NULL,
        PRIMARY KEY (campaign, name)
    )
    """,
    """
    CREATE TABLE mail_seen (
        campaign     TEXT NOT NULL REFERENCES campaigns (id),
        received     BIGINT NOT NULL CHECK (received >= 1),
        message_id   TEXT CHECK (message_id IS NULL OR length(message_id) > 0),
        content_hash TEXT NOT NULL CHECK (length(content_hash) > 0),
        seen_at      TEXT NOT NULL,
        PRIMARY KEY (campaign, received),
        UNIQUE (campaign, message_id),
        UNIQUE (campaign, content_hash)
    )
    """,
    """
    CREATE TABLE outbox (
        id         BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        campaign   TEXT NOT NULL REFERENCES campaigns (id),
        message_id TEXT NOT NULL UNIQUE,
        recipient  TEXT NOT NULL CHECK (length(recipient) > 0),
        eml        BYTEA NOT NULL,
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

#: Upgrade steps of a PostgreSQL store, in step with :data:`SQLITE_MIGRATIONS`.
POSTGRESQL_MIGRATIONS: tuple[tuple[str, ...], ...] = (_PG_VERSION_1, _VERSION_2)

#: The schema version this code writes and understands.
SCHEMA_VERSION = len(SQLITE_MIGRATIONS)
