"""The campaign store: many campaigns in one SQLite file or PostgreSQL database.

>>> with Store.open("campaigns.sqlite3") as store:          # doctest: +SKIP
...     with store.transaction("club-1904") as tx:
...         tx.create_campaign("a-game", {"title": "Club game"})
...         tx.append("charter", {"players": ["japan", "russia"]})
...         tx.set_secret("seed", "9f86d0...")
...     history = store.entries("club-1904")              # verified

``Store.open("postgresql://league@db.example.org/league")`` opens the same
store on a PostgreSQL server instead (see :mod:`.pg`).

Every command is one :meth:`Store.transaction`; see :mod:`.transaction` for
what is locked and for how long.  A :class:`Store` wraps one database
connection: use it from one thread, and open one per process.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import Any

from . import queries, validate
from . import pg
from .copy import CampaignSnapshot, read_snapshot
from .db import Database
from .errors import InvalidValue, StoreUnavailable, TransactionError
from .history import export_document
from .records import Campaign, Entry, MailStatus, OutboxMail, SeenMail
from .transaction import Transaction

Clock = Callable[[], datetime]
AnyDatabase = Database | pg.PostgresDatabase


def utc_now() -> datetime:
    """The default clock: the current time in UTC."""
    return datetime.now(timezone.utc)


def _iso_clock(clock: Clock) -> Callable[[], str]:
    """Wrap a clock into a function returning ISO 8601 UTC text."""
    return lambda: clock().astimezone(timezone.utc).isoformat(timespec="microseconds")


class Store:
    """A durable store of campaigns.  Create it with :meth:`Store.open`."""

    def __init__(
        self, db: AnyDatabase, busy_timeout: float, clock: Clock,
        reconnect: Callable[[], AnyDatabase],
    ) -> None:
        self._db: AnyDatabase | None = db
        self._busy_timeout = busy_timeout
        self._clock = clock
        self._active: Transaction | None = None
        self._reconnect = reconnect
        self._lost = False

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        busy_timeout: float = 5.0,
        clock: Clock = utc_now,
    ) -> Store:
        """Open the store at ``path``, creating it and its schema if needed.

        ``path`` is an SQLite file, or a ``postgresql://`` URL naming a database
        (whose current schema then holds the store).
        ``busy_timeout`` is how many seconds a writer waits for another one to
        finish before :class:`CampaignBusy`.  ``clock`` (returning an aware
        datetime) stamps bookkeeping dates; it never enters the history.

        Raises :class:`StoreVersionError` for a store written by a newer
        adjudicator, :class:`NotAStore` for a file that is not a store, and
        :class:`StoreUnavailable` when the file cannot be opened.
        """
        if not isinstance(busy_timeout, (int, float)) or busy_timeout < 0:
            raise InvalidValue(f"busy_timeout must be >= 0 seconds, not {busy_timeout!r}")
        if pg.is_url(path):
            url = str(path)

            def connect() -> AnyDatabase:
                return pg.PostgresDatabase.connect(url, busy_timeout, _iso_clock(clock))
        else:
            file = os.fspath(path)

            def connect() -> AnyDatabase:
                return Database.connect(file, busy_timeout, _iso_clock(clock))
        return cls(connect(), busy_timeout, clock, connect)

    # -- life cycle ---------------------------------------------------------

    @property
    def path(self) -> str:
        """The store file's path, or its PostgreSQL URL (without any password)."""
        return self._database().path

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._database().dialect

    @property
    def schema_version(self) -> int:
        """The schema version recorded in the store."""
        with self._reading() as db:
            return db.schema_version()

    def close(self) -> None:
        """Close the store.  Closing twice is harmless."""
        if self._db is not None:
            self._db.close()
            self._db = None
        self._lost = False

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- writing ------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self, campaign_id: str, *, durable: bool = True) -> Iterator[Transaction]:
        """Run one command on ``campaign_id`` as a single transaction.

        The command takes the campaign's lock (SQLite: the file's write lock,
        ``BEGIN IMMEDIATE``; PostgreSQL: an advisory lock on the campaign),
        waiting up to the busy timeout for another writer, then raises
        :class:`CampaignBusy`.  The
        transaction commits when the block ends and rolls back entirely if it
        raises.  Transactions do not nest.  The campaign need not exist yet:
        :meth:`Transaction.create_campaign` creates it; every other method raises
        :class:`CampaignNotFound` if it does not exist.

        ``durable=False`` is for bookkeeping a power cut may lose (a sender's lease,
        say), never for history, secrets or mail: its commit does not wait for the
        disk (SQLite ``synchronous = NORMAL`` for it, PostgreSQL ``synchronous_commit
        = off``). It is still atomic, survives the process being killed, and is made
        durable, in order, by the next durable commit.
        """
        campaign_id = validate.campaign_id(campaign_id)
        db = self._database()
        if self._active is not None:
            raise TransactionError(
                f"a transaction on campaign {self._active.campaign_id!r} is already open "
                f"on this store; finish it before starting one on {campaign_id!r}"
            )
        db = self._begin(db, lambda opened: opened.begin_command(campaign_id, self._busy_timeout, durable))
        tx = Transaction(db, campaign_id, self._now)
        self._active = tx
        try:
            yield tx
        except BaseException:
            self._end(tx, commit=False)
            raise
        self._end(tx, commit=True)

    def create_campaign(
        self, campaign_id: str, game: str, meta: dict[str, Any] | None = None
    ) -> Campaign:
        """Create an empty campaign in a transaction of its own.

        To record a charter or secrets atomically with the creation, use
        :meth:`Transaction.create_campaign` inside :meth:`transaction` instead.
        """
        with self.transaction(campaign_id) as tx:
            return tx.create_campaign(game, meta)

    # -- reading ------------------------------------------------------------

    def campaigns(self) -> list[Campaign]:
        """Return every campaign in the store, by id."""
        with self._reading() as db:
            return queries.campaigns(db)

    def campaign(self, campaign_id: str) -> Campaign:
        """Return one campaign; raises :class:`CampaignNotFound`."""
        campaign_id = validate.campaign_id(campaign_id)
        with self._reading() as db:
            return queries.campaign(db, campaign_id)

    def entries(self, campaign_id: str, *, verify: bool = True) -> list[Entry]:
        """Return a campaign's whole history, in order.

        With ``verify`` (the default) every hash and link is recomputed, and the
        end of the history is compared with the campaign's recorded head; the
        first bad entry raises :class:`HistoryCorrupt`.
        """
        campaign_id = validate.campaign_id(campaign_id)
        with self._reading() as db:
            return queries.entries(db, queries.campaign(db, campaign_id), verify)

    def derived(self, campaign_id: str, name: str, default: Any = None) -> Any:
        """Read one private value kept beside the history (as a transaction's
        ``get_secret``), outside any write transaction: for derived data such as
        the campaign's parsed orders cache."""
        campaign_id = validate.campaign_id(campaign_id)
        name = validate.name(name, "secret name")
        with self._reading() as db:
            queries.campaign(db, campaign_id)
            row = db.one("SELECT value FROM secrets WHERE campaign = ? AND name = ?", (campaign_id, name))
        return default if row is None else json.loads(row[0])

    def head(self, campaign_id: str) -> Entry | None:
        """Return a campaign's last entry (checked), or None while it has none."""
        campaign_id = validate.campaign_id(campaign_id)
        with self._reading() as db:
            return queries.head(db, queries.campaign(db, campaign_id))

    def seen_mail(self, campaign_id: str) -> list[SeenMail]:
        """Return the incoming mail taken in for a campaign, in arrival order."""
        campaign_id = validate.campaign_id(campaign_id)
        with self._reading() as db:
            queries.campaign(db, campaign_id)
            return queries.seen_mail(db, campaign_id)

    def outbox(
        self, campaign_id: str, status: MailStatus | str | None = None
    ) -> list[OutboxMail]:
        """Return a campaign's outgoing mail, oldest first, optionally of one status."""
        campaign_id = validate.campaign_id(campaign_id)
        wanted = validate.mail_status(status)
        with self._reading() as db:
            queries.campaign(db, campaign_id)
            return queries.outbox(db, campaign_id, wanted)

    def export_history(self, campaign_id: str) -> dict[str, Any]:
        """Return the campaign's stored history as a JSON-able document.

        It holds the campaign's id, game and creation date and its verified history
        exactly as stored -- the private part a campaign keeps in each entry included
        -- and never the secrets, mail or metadata kept beside it. It is a checkable
        copy of the history for the store's own use (:func:`verify_export` checks it
        with no store), **not** a public record: what may be published is the signed
        record of ``Campaigns.export_public``.
        """
        campaign_id = validate.campaign_id(campaign_id)
        with self._reading() as db:
            owner = queries.campaign(db, campaign_id)
            history = queries.entries(db, owner, verify=True)
        public = {"id": owner.id, "game": owner.game, "created": owner.created}
        return export_document(public, history)

    def snapshot(self, campaign_id: str) -> CampaignSnapshot:
        """Read everything stored for a campaign, secrets included, in one snapshot,
        its history verified; for :mod:`.copy`.  Never print or log it."""
        campaign_id = validate.campaign_id(campaign_id)
        with self._reading() as db:
            return read_snapshot(db, campaign_id)

    # -- internals ----------------------------------------------------------

    def _database(self) -> AnyDatabase:
        """Return the open database, or raise if the store is closed.

        Between commands, a connection that was lost (a failed commit, a
        database server restarted) is replaced by a new one.
        """
        if self._db is None and self._lost and self._active is None:
            self._db = self._reconnect()
            self._lost = False
        elif self._db is not None and self._active is None and self._db.broken:
            self._abandon(self._db)
            return self._database()
        if self._db is None:
            raise StoreUnavailable("<closed>", "the store has been closed; open it again")
        return self._db

    def _now(self) -> str:
        """The current time as ISO 8601 UTC text, from the store's clock."""
        return _iso_clock(self._clock)()

    def _begin(self, db: AnyDatabase, begin: Callable[[AnyDatabase], None]) -> AnyDatabase:
        """Begin a transaction with ``begin``; return the connection it runs on.

        A connection found lost only now (the server restarted, or ended it,
        while it was idle) is replaced once: nothing of the command has run yet.
        """
        try:
            begin(db)
            return db
        except StoreUnavailable:
            if not db.broken:
                raise
        self._abandon(db)
        db = self._database()
        begin(db)
        return db

    def _end(self, tx: Transaction, *, commit: bool) -> None:
        """Commit or roll back the active transaction and forget it.

        A failed commit is raised; a failed rollback is not (the exception that
        caused the rollback matters more), but in both cases the connection is
        closed, which makes the database discard the unfinished transaction.
        """
        tx._close()
        self._active = None
        db = self._db  # the connection of the transaction, never a new one
        if db is None:
            raise StoreUnavailable("<closed>", "the store was closed during the command")
        try:
            if commit:
                db.commit()
            else:
                db.rollback()
        except StoreUnavailable:
            self._abandon(db)
            if commit:
                raise

    def _abandon(self, db: AnyDatabase) -> None:
        """Give up a connection whose transaction could not be finished.

        Closing it makes the database roll back whatever was left; the next
        command opens a new connection.
        """
        with contextlib.suppress(Exception):
            db.close()
        self._db = None
        self._lost = True

    @contextlib.contextmanager
    def _reading(self) -> Iterator[AnyDatabase]:
        """Run reads on one consistent snapshot of the store.

        Inside an open transaction the reads see that transaction's state.
        """
        db = self._database()
        if self._active is not None:
            yield db
            return
        db = self._begin(db, lambda opened: opened.begin_read())
        try:
            yield db
        finally:
            db.rollback()
