"""The campaign store: many campaigns in one SQLite file.

>>> with Store.open("campaigns.sqlite3") as store:          # doctest: +SKIP
...     with store.transaction("club-1904") as tx:
...         tx.create_campaign("a-game", {"title": "Club game"})
...         tx.append("charter", {"players": ["japan", "russia"]})
...         tx.set_secret("seed", "9f86d0...")
...     history = store.entries("club-1904")              # verified

Every command is one :meth:`Store.transaction`; see :mod:`.transaction` for
what is locked and for how long.  A :class:`Store` wraps one SQLite connection:
use it from one thread, and open one per process.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import Any

from . import queries, validate
from .db import Database, is_busy
from .errors import CampaignBusy, InvalidValue, StoreUnavailable, TransactionError
from .history import export_document
from .records import Campaign, Entry, MailStatus, OutboxMail, SeenMail
from .transaction import Transaction

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The default clock: the current time in UTC."""
    return datetime.now(timezone.utc)


def _iso_clock(clock: Clock) -> Callable[[], str]:
    """Wrap a clock into a function returning ISO 8601 UTC text."""
    return lambda: clock().astimezone(timezone.utc).isoformat(timespec="microseconds")


class Store:
    """A durable store of campaigns.  Create it with :meth:`Store.open`."""

    def __init__(self, db: Database, busy_timeout: float, clock: Clock) -> None:
        self._db: Database | None = db
        self._busy_timeout = busy_timeout
        self._clock = clock
        self._active: Transaction | None = None

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        busy_timeout: float = 5.0,
        clock: Clock = utc_now,
    ) -> Store:
        """Open the store file at ``path``, creating it and its schema if needed.

        ``busy_timeout`` is how many seconds a writer waits for another one to
        finish before :class:`CampaignBusy`.  ``clock`` (returning an aware
        datetime) stamps bookkeeping dates; it never enters the history.

        Raises :class:`StoreVersionError` for a store written by a newer
        adjudicator, :class:`NotAStore` for a file that is not a store, and
        :class:`StoreUnavailable` when the file cannot be opened.
        """
        if not isinstance(busy_timeout, (int, float)) or busy_timeout < 0:
            raise InvalidValue(f"busy_timeout must be >= 0 seconds, not {busy_timeout!r}")
        db = Database.connect(os.fspath(path), busy_timeout, _iso_clock(clock))
        return cls(db, busy_timeout, clock)

    # -- life cycle ---------------------------------------------------------

    @property
    def path(self) -> str:
        """The store file's path."""
        return self._database().path

    @property
    def schema_version(self) -> int:
        """The schema version recorded in the store file."""
        with self._reading() as db:
            return db.one("PRAGMA user_version")[0]

    def close(self) -> None:
        """Close the store.  Closing twice is harmless."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- writing ------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self, campaign_id: str) -> Iterator[Transaction]:
        """Run one command on ``campaign_id`` as a single transaction.

        ``BEGIN IMMEDIATE`` takes the store's write lock, waiting up to the busy
        timeout for another writer, then raises :class:`CampaignBusy`.  The
        transaction commits when the block ends and rolls back entirely if it
        raises.  Transactions do not nest.  The campaign need not exist yet:
        :meth:`Transaction.create_campaign` creates it; every other method raises
        :class:`CampaignNotFound` if it does not exist.
        """
        campaign_id = validate.campaign_id(campaign_id)
        db = self._database()
        if self._active is not None:
            raise TransactionError(
                f"a transaction on campaign {self._active.campaign_id!r} is already open "
                f"on this store; finish it before starting one on {campaign_id!r}"
            )
        self._begin(db, campaign_id)
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

    def export_public(self, campaign_id: str) -> dict[str, Any]:
        """Return the campaign's public record as a JSON-able document.

        It holds the campaign's id, game and creation date and its verified
        history; never secrets, mail or metadata.  Anyone can check it with
        :func:`verify_export`.
        """
        campaign_id = validate.campaign_id(campaign_id)
        with self._reading() as db:
            owner = queries.campaign(db, campaign_id)
            history = queries.entries(db, owner, verify=True)
        public = {"id": owner.id, "game": owner.game, "created": owner.created}
        return export_document(public, history)

    # -- internals ----------------------------------------------------------

    def _database(self) -> Database:
        """Return the open database, or raise if the store is closed."""
        if self._db is None:
            raise StoreUnavailable("<closed>", "the store has been closed; open it again")
        return self._db

    def _now(self) -> str:
        """The current time as ISO 8601 UTC text, from the store's clock."""
        return _iso_clock(self._clock)()

    def _begin(self, db: Database, campaign_id: str) -> None:
        """Take the write lock, or raise :class:`CampaignBusy`."""
        try:
            db.begin(immediate=True)
        except sqlite3.OperationalError as error:
            if is_busy(error):
                raise CampaignBusy(campaign_id, self._busy_timeout) from None
            raise StoreUnavailable(db.path, str(error)) from error

    def _end(self, tx: Transaction, *, commit: bool) -> None:
        """Commit or roll back the active transaction and forget it.

        A failed commit is raised; a failed rollback is not (the exception that
        caused the rollback matters more), but in both cases the connection is
        closed, which makes SQLite discard the unfinished transaction.
        """
        tx._close()
        self._active = None
        db = self._database()
        try:
            if commit:
                db.commit()
            else:
                db.rollback()
        except StoreUnavailable:
            self._abandon(db)
            if commit:
                raise

    def _abandon(self, db: Database) -> None:
        """Give up a connection whose transaction could not be finished.

        Closing it makes SQLite roll back whatever was left; the store is then
        closed and must be opened again.
        """
        with contextlib.suppress(sqlite3.Error):
            db.close()
        self._db = None

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Database]:
        """Run reads on one consistent snapshot of the store.

        Inside an open transaction the reads see that transaction's state.
        """
        db = self._database()
        if self._active is not None:
            yield db
            return
        db.begin(immediate=False)
        try:
            yield db
        finally:
            db.rollback()
