"""The PostgreSQL connection behind a store: a league's store on a database server.

A store URL (``postgresql://user@host/dbname``, or ``postgres://``, with any
libpq parameter, e.g. ``?host=/run/postgresql`` for a Unix socket) opens the
store in the database's current schema (``search_path``).  Passwords are best
kept out of the URL, in ``~/.pgpass`` or ``PGPASSFILE``; the URL shown in
messages never carries one.

The guarantees are those of the SQLite store, kept by the database server:

* every command is one transaction (``BEGIN`` ... ``COMMIT``); a killed process
  or a lost connection leaves it uncommitted, and the server rolls it back;
* a command first takes a transaction-scoped advisory lock on its campaign
  (``pg_advisory_xact_lock``), so two commands on one campaign -- from two
  processes or two hosts -- never write at once, while commands on different
  campaigns run in parallel.  A command that waits longer than the busy timeout
  (``lock_timeout``) gets :class:`CampaignBusy`;
* reads outside a command run in a ``REPEATABLE READ READ ONLY`` transaction:
  one consistent snapshot;
* schema creation and upgrades run under a store-wide advisory lock, so hosts
  started together upgrade once.

The connection is in autocommit mode and the store issues ``BEGIN``/``COMMIT``
itself, exactly as with SQLite.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

from .db import Queries
from .errors import CampaignBusy, NotAStore, StoreUnavailable, StoreVersionError
from .schema import APPLICATION_ID, POSTGRESQL_MARK, POSTGRESQL_MIGRATIONS, SCHEMA_VERSION

#: URL schemes that name a PostgreSQL store.
SCHEMES = ("postgresql", "postgres")

_CONNECT_TIMEOUT = 10  # seconds to reach the server before giving up
_MIGRATION_LOCK = APPLICATION_ID  # advisory lock key (one bigint) of schema upgrades


def is_url(location: object) -> bool:
    """Tell whether ``location`` (text or path-like) names a PostgreSQL store, not a file."""
    if not isinstance(location, (str, os.PathLike)):
        return False
    return re.match(r"(?i)(postgresql|postgres)://", str(location)) is not None


def redacted(url: str) -> str:
    """The URL without its password (``user:***@host``, ``password=***``), safe for
    messages and logs."""
    parts = urlsplit(url)
    if parts.password is not None:
        credentials, host = parts.netloc.rsplit("@", 1)
        url = url.replace(parts.netloc, f"{credentials.split(':', 1)[0]}:***@{host}", 1)
    return re.sub(r"(?i)([?&]password=)[^&#]*", r"\1***", url)


def url_passwords(url: str) -> list[str]:
    """The passwords a store URL holds (after ``user:`` and in ``password=``), so that
    a log can be kept free of them."""
    parts = urlsplit(url)
    query = {key.lower(): values for key, values in parse_qs(parts.query).items()}
    return [p for p in [parts.password, *query.get("password", [])] if p]


def campaign_lock_key(campaign_id: str) -> int:
    """The advisory lock key (a signed 32-bit integer) of a campaign."""
    return int.from_bytes(hashlib.sha256(campaign_id.encode()).digest()[:4], "big", signed=True)


def _psycopg():
    """Import psycopg, or say how to install it."""
    try:
        import psycopg
    except ImportError:
        raise StoreUnavailable(
            "postgresql://",
            "the PostgreSQL driver is not installed; install it with "
            "pip install 'adjudicator[postgresql]' (psycopg 3)",
        ) from None
    return psycopg


class PostgresDatabase(Queries):
    """A connection to a store in a PostgreSQL database, turning server errors
    into :class:`StoreUnavailable` that name the (password-free) URL."""

    dialect = "postgresql"

    def __init__(self, connection: Any, url: str) -> None:
        self._connection = connection
        self.path = redacted(url)
        self._errors = _psycopg().errors

    @classmethod
    def connect(cls, url: str, busy_timeout: float, now: Callable[[], str]) -> PostgresDatabase:
        """Connect to the store at ``url``, creating or upgrading its schema."""
        psycopg = _psycopg()
        try:
            defaults = {"connect_timeout": _CONNECT_TIMEOUT, "application_name": "adjudicator"}
            given = psycopg.conninfo.conninfo_to_dict(url)
            connection = psycopg.connect(
                url, autocommit=True, **{k: v for k, v in defaults.items() if k not in given}
            )
        except psycopg.Error as error:
            raise StoreUnavailable(redacted(url), _first_line(error)) from None
        database = cls(connection, url)
        try:
            database._check_encoding()
            database._ensure_schema(now, busy_timeout)
        except BaseException:
            connection.close()
            raise
        return database

    # -- statements ------------------------------------------------------------

    @property
    def broken(self) -> bool:
        """Whether the connection to the server was lost."""
        return self._connection.closed or self._connection.broken

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open on this connection."""
        status = self._connection.info.transaction_status
        return status != _psycopg().pq.TransactionStatus.IDLE

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement (``?`` placeholders); errors become :class:`StoreUnavailable`."""
        try:
            if params:
                return self._connection.execute(_placeholders(sql), tuple(params))
            return self._connection.execute(sql)
        except _psycopg().Error as error:
            raise self._unavailable(error) from error

    # -- transactions ----------------------------------------------------------

    def begin_command(self, campaign_id: str, busy_timeout: float, durable: bool = True) -> None:
        """Start a command's transaction holding the campaign's advisory lock.

        Waits up to ``busy_timeout`` for a command of another process or host
        on the same campaign, then raises :class:`CampaignBusy`. Not ``durable``:
        the commit does not wait for the server's disk (``synchronous_commit = off``).
        """
        timeout_ms = max(1, int(busy_timeout * 1000))
        lock = f"{APPLICATION_ID}, {campaign_lock_key(campaign_id)}"  # two integers
        relaxed = "" if durable else "SET LOCAL synchronous_commit = off; "
        try:  # one round trip to the server
            self._connection.execute(
                f"BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL lock_timeout = {timeout_ms}; {relaxed}"
                f"SELECT pg_advisory_xact_lock({lock})"
            )
        except self._errors.LockNotAvailable:
            self.rollback()
            raise CampaignBusy(campaign_id, busy_timeout) from None
        except _psycopg().Error as error:
            self._rollback_quietly()
            raise self._unavailable(error) from error
        except BaseException:
            self._rollback_quietly()
            raise

    def begin_read(self) -> None:
        """Start a read-only transaction: one consistent snapshot."""
        self.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def outbox_ids_taken(self) -> None:
        """Move the outbox id sequence past rows inserted with their own ids."""
        self.execute(
            "SELECT setval(pg_get_serial_sequence('outbox', 'id'), "
            "(SELECT max(id) FROM outbox))"
        )

    def commit(self) -> None:
        """Commit the open transaction; a transaction that failed is refused.

        (The server answers ``COMMIT`` of a failed transaction by rolling it
        back without an error; that must never pass for a commit.)
        """
        if self._connection.info.transaction_status == _psycopg().pq.TransactionStatus.INERROR:
            self._rollback_quietly()
            raise StoreUnavailable(
                self.path, "a statement of the command failed, so nothing of it was recorded"
            )
        self.execute("COMMIT")

    def rollback(self) -> None:
        """Roll back the open transaction, if any."""
        if not self._connection.closed and self.in_transaction:
            self.execute("ROLLBACK")

    def close(self) -> None:
        """Close the connection; the server rolls back an unfinished transaction."""
        self._connection.close()

    def schema_version(self) -> int:
        """The schema version recorded in the store."""
        return self._version()

    @staticmethod
    def as_bytes(column: str) -> str:
        """SQL reading a text column (a UTF-8 database holds only valid text)."""
        return column

    # -- opening -----------------------------------------------------------------

    def _unavailable(self, error: Exception) -> StoreUnavailable:
        """Describe a server or connection error as a :class:`StoreUnavailable`."""
        if self.broken:
            why = f"the connection to the database was lost ({_first_line(error)}); try again"
        else:
            why = _first_line(error)
        return StoreUnavailable(self.path, why)

    def _rollback_quietly(self) -> None:
        """Roll back after an error, ignoring a second error."""
        try:
            self.rollback()
        except StoreUnavailable:
            pass

    def _check_encoding(self) -> None:
        """Refuse a database that cannot hold any UTF-8 text."""
        encoding = self.one("SHOW server_encoding")[0]
        if encoding.upper() not in ("UTF8", "UTF-8"):
            raise StoreUnavailable(
                self.path,
                f"the database's encoding is {encoding}; create it with ENCODING 'UTF8'",
            )

    def _version(self) -> int:
        """The store's schema version, 0 for an empty schema; refuses foreign ones."""
        marked = self.one(
            "SELECT obj_description(to_regclass('schema_version'), 'pg_class')"
        )[0]
        if marked is None:
            if self.one("SELECT to_regclass('schema_version')")[0] is not None:
                raise NotAStore(self.path, "its table schema_version belongs to another application")
            tables = self.one(
                "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
            )[0]
            if tables:
                raise NotAStore(self.path, "its schema already holds another application's tables")
            return 0
        if marked != POSTGRESQL_MARK:
            raise NotAStore(self.path, f"its table schema_version is marked {marked!r}")
        return self.one("SELECT coalesce(max(version), 0) FROM schema_version")[0]

    def _ensure_schema(self, now: Callable[[], str], busy_timeout: float) -> None:
        """Create or upgrade the schema, in one transaction, if it is not current."""
        try:
            version: int | None = self._version()
        except NotAStore:
            # Read without the lock, the catalogue may show another host's schema half
            # way through its commit (one statement before it, the next after): look
            # again under the lock, where nobody else is creating it.
            version = None
        if version is not None and version > SCHEMA_VERSION:
            raise StoreVersionError(self.path, version, SCHEMA_VERSION)
        if version == SCHEMA_VERSION:
            return
        # The lock is taken before the transaction begins, so that the transaction
        # sees (catalogue caches included) whatever a host before us created.
        self.execute("SELECT pg_advisory_lock(?)", (_MIGRATION_LOCK,))
        try:
            self.execute("BEGIN")
            try:
                self._upgrade(self._version(), now())
                self.commit()
            except BaseException:
                self._rollback_quietly()
                raise
        finally:
            if not self.broken:
                self.execute("SELECT pg_advisory_unlock(?)", (_MIGRATION_LOCK,))

    def _upgrade(self, version: int, when: str) -> None:
        """Apply the upgrade steps from ``version`` to :data:`SCHEMA_VERSION`."""
        if version > SCHEMA_VERSION:
            raise StoreVersionError(self.path, version, SCHEMA_VERSION)
        for step in range(version, SCHEMA_VERSION):
            for statement in POSTGRESQL_MIGRATIONS[step]:
                self.execute(statement)
            self.execute("INSERT INTO schema_version VALUES (?, ?)", (step + 1, when))


def _placeholders(sql: str) -> str:
    """Turn the store's ``?`` placeholders into psycopg's ``%s``."""
    return sql.replace("%", "%%").replace("?", "%s")


def _first_line(error: Exception) -> str:
    """The first line of a server message (the rest is context for developers)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
