"""The SQLite connection behind a store: opening, configuration, schema upgrade.

(:mod:`.pg` is the same for PostgreSQL; both offer the methods used here by
:class:`~adjudicator.store.Store`, :class:`~adjudicator.store.Transaction` and
:mod:`.queries`.)

Every connection runs with:

* ``journal_mode = WAL`` -- readers never block the writer nor the writer them,
  and a killed process leaves the last committed state intact;
* ``synchronous = FULL`` -- a committed transaction survives a power cut, which
  is what "durable before any email goes out" asks;
* ``foreign_keys = ON`` and ``busy_timeout`` -- a writer that finds the store
  locked waits up to the timeout before giving up.

Transactions are controlled explicitly (the connection is in autocommit mode and
the store issues ``BEGIN``/``COMMIT``/``ROLLBACK`` itself).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from .errors import CampaignBusy, NotAStore, StoreUnavailable, StoreVersionError
from .schema import APPLICATION_ID, SCHEMA_VERSION, SQLITE_MIGRATIONS

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_NOTADB = 26


def is_busy(error: sqlite3.Error) -> bool:
    """Tell whether ``error`` means the database was locked by another connection."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    return "locked" in str(error) or "busy" in str(error)


class Queries:
    """Reading rows, on top of a backend's ``execute``."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """Run a query and return its first row, or None."""
        cursor = self.execute(sql, params)
        try:
            return cursor.fetchone()
        finally:
            cursor.close()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run a query and return all its rows.

        Queries are always read to the end and their cursors closed: a cursor
        left open (say, kept alive by a traceback) would pin the connection to
        an old snapshot of the store.
        """
        cursor = self.execute(sql, params)
        try:
            return cursor.fetchall()
        finally:
            cursor.close()


def _create_private(path: str) -> None:
    """Create a new store file readable and writable by its owner only (0600): it
    holds the secret seed chain, password hashes, private orders and queued reports.
    SQLite gives its -wal and -shm files the same mode. An existing file is left as is."""
    if path == ":memory:" or path.startswith("file:"):
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return
    except OSError as error:
        raise StoreUnavailable(path, f"cannot be created: {error.strerror or error}") from None


class Database(Queries):
    """A configured connection to one store file, turning SQLite errors into
    :class:`StoreUnavailable` that name the file."""

    #: The name of the SQL dialect, as in the schema's migration tables.
    dialect = "sqlite"

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self._connection = connection
        self.path = path
        self._synchronous = "FULL"  # as _configure sets it

    @classmethod
    def connect(cls, path: str, busy_timeout: float, now: Callable[[], str]) -> Database:
        """Open (creating if needed) the store file at ``path`` and bring its
        schema up to :data:`SCHEMA_VERSION`."""
        _create_private(path)
        try:
            connection = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreUnavailable(path, str(error)) from None
        database = cls(connection, path)
        try:
            database._configure(busy_timeout)
            database._ensure_schema(now)
        except BaseException:
            connection.close()
            raise
        return database

    @property
    def broken(self) -> bool:
        """Whether the connection can no longer be used (never, for a file)."""
        return False

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open on this connection."""
        return self._connection.in_transaction

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Run one statement that returns no rows (use :meth:`one`/:meth:`all`
        for queries); SQLite errors become :class:`StoreUnavailable`."""
        try:
            return self._connection.execute(sql, params)
        except sqlite3.DatabaseError as error:
            raise self._unavailable(error) from error

    def begin(self, immediate: bool) -> None:
        """Start a transaction; ``immediate`` takes the write lock at once.

        Raises the raw :class:`sqlite3.OperationalError` when the store stays
        locked beyond the busy timeout, so that the caller can name the campaign.
        """
        self._connection.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")

    def begin_command(self, campaign_id: str, busy_timeout: float, durable: bool = True) -> None:
        """Start a command's transaction, holding the store's write lock.

        ``BEGIN IMMEDIATE`` locks the whole file, which is (more than) a lock on
        the campaign; raises :class:`CampaignBusy` after the busy timeout.
        Not ``durable``: the transaction commits with ``synchronous = NORMAL`` (in
        WAL mode: no wait for the disk; the next ``FULL`` commit syncs it too).
        """
        self._set_synchronous("FULL" if durable else "NORMAL")
        try:
            self.begin(immediate=True)
        except sqlite3.OperationalError as error:
            self._relax_no_more()
            if is_busy(error):
                raise CampaignBusy(campaign_id, busy_timeout) from None
            raise StoreUnavailable(self.path, str(error)) from error

    def begin_read(self) -> None:
        """Start a read-only transaction: one consistent snapshot."""
        self.begin(immediate=False)

    def schema_version(self) -> int:
        """The schema version recorded in the store file."""
        return self._pragma("user_version")

    @staticmethod
    def as_bytes(column: str) -> str:
        """SQL reading a text column as stored bytes (to catch invalid UTF-8)."""
        return f"CAST({column} AS BLOB)"

    def outbox_ids_taken(self) -> None:
        """Note outbox rows inserted with their own ids (AUTOINCREMENT follows them)."""

    def commit(self) -> None:
        """Commit the open transaction."""
        try:
            self.execute("COMMIT")
        finally:
            self._relax_no_more()

    def rollback(self) -> None:
        """Roll back the open transaction, if any."""
        try:
            if self._connection.in_transaction:
                self.execute("ROLLBACK")
        finally:
            self._relax_no_more()

    def _set_synchronous(self, level: str) -> None:
        """Set how commits wait for the disk (between transactions): ``FULL``, the
        store's setting, or ``NORMAL`` for one transaction that is not durable.
        Every command sets it as it begins, so a level left behind never lasts."""
        if self._synchronous != level:
            self.execute(f"PRAGMA synchronous = {level}")
            self._synchronous = level

    def _relax_no_more(self) -> None:
        """Back to ``FULL`` after a transaction that was not durable (best effort:
        the next command sets its level again anyway)."""
        if self._synchronous != "FULL" and not self._connection.in_transaction:
            try:
                self._set_synchronous("FULL")
            except StoreUnavailable:
                pass

    def close(self) -> None:
        """Close the connection; an open transaction is rolled back by SQLite."""
        self._connection.close()

    def _unavailable(self, error: sqlite3.Error) -> StoreUnavailable:
        """Describe a SQLite error as a :class:`StoreUnavailable`."""
        if is_busy(error):
            return StoreUnavailable(
                self.path, f"{error} (another process holds it; try again later)"
            )
        return StoreUnavailable(self.path, f"{error}; check the disk, permissions and file")

    def _configure(self, busy_timeout: float) -> None:
        """Set the per-connection pragmas described in the module docstring."""
        try:
            self._connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            self._connection.execute("PRAGMA foreign_keys = ON")
            mode = self._connection.execute("PRAGMA journal_mode = WAL").fetchall()[0][0]
            self._connection.execute("PRAGMA synchronous = FULL")
        except sqlite3.DatabaseError as error:
            raise self._not_a_store_or_unavailable(error) from None
        if str(mode).lower() != "wal":
            raise StoreUnavailable(
                self.path,
                f"its journal mode cannot be set to WAL (it is {mode!r}); keep the "
                "store in a file on a local file system",
            )

    def _not_a_store_or_unavailable(self, error: sqlite3.Error) -> Exception:
        """Map an error met while opening to NotAStore or StoreUnavailable."""
        code = getattr(error, "sqlite_errorcode", None)
        if (code is not None and code & 0xFF == _SQLITE_NOTADB) or "not a database" in str(
            error
        ):
            return NotAStore(self.path, "it is not an SQLite database")
        return self._unavailable(error)

    def _pragma(self, name: str) -> int:
        """Read an integer pragma."""
        try:
            return int(self._connection.execute(f"PRAGMA {name}").fetchall()[0][0])
        except sqlite3.DatabaseError as error:
            raise self._not_a_store_or_unavailable(error) from None

    def _check_identity(self) -> int:
        """Return the schema version after checking the file is (or can become) a store."""
        version, app = self._pragma("user_version"), self._pragma("application_id")
        if app not in (0, APPLICATION_ID):
            raise NotAStore(self.path, f"its application id is {app:#010x}")
        if app == 0 and version != 0:
            raise NotAStore(self.path, f"it is another application's database (version {version})")
        if version > SCHEMA_VERSION:
            raise StoreVersionError(self.path, version, SCHEMA_VERSION)
        if version == 0 and self.one("SELECT count(*) FROM sqlite_master")[0]:
            raise NotAStore(self.path, "it already holds another application's tables")
        return version

    def _ensure_schema(self, now: Callable[[], str]) -> None:
        """Create or upgrade the schema, in one transaction, if it is not current."""
        if self._check_identity() == SCHEMA_VERSION:
            return
        try:
            self.begin(immediate=True)
        except sqlite3.OperationalError as error:
            raise self._unavailable(error) from None
        try:
            self._upgrade(self._check_identity(), now())
            self.commit()
        except BaseException:
            self.rollback()
            raise

    def _upgrade(self, version: int, when: str) -> None:
        """Apply the upgrade steps from ``version`` to :data:`SCHEMA_VERSION`."""
        for step in range(version, SCHEMA_VERSION):
            for statement in SQLITE_MIGRATIONS[step]:
                self.execute(statement)
            self.execute("INSERT INTO schema_version VALUES (?, ?)", (step + 1, when))
        self.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        self.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
