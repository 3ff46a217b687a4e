"""Opening the store, campaigns, round trips, transactions and errors."""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime, timezone

import pytest

from adjudicator.store import (
    GENESIS,
    SCHEMA_VERSION,
    Campaign,
    CampaignBusy,
    CampaignExists,
    CampaignNotFound,
    Entry,
    InvalidCampaignId,
    InvalidValue,
    NotAStore,
    Store,
    StoreError,
    StoreUnavailable,
    StoreVersionError,
    TransactionError,
    sha256_hex,
)


@pytest.fixture
def path(store_location):
    return store_location


@pytest.fixture
def sqlite_path(tmp_path):
    return tmp_path / "campaigns.sqlite3"


@pytest.fixture
def store(path):
    with Store.open(path) as opened:
        yield opened


def fixed_clock():
    return datetime(1904, 2, 8, 23, 30, tzinfo=timezone.utc)


# -- opening and schema -----------------------------------------------------


def test_open_creates_schema_with_version(sqlite_path):
    with Store.open(sqlite_path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.campaigns() == []
    raw = sqlite3.connect(sqlite_path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert raw.execute("SELECT version FROM schema_version").fetchall() == [
        (v,) for v in range(1, SCHEMA_VERSION + 1)]
    tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"campaigns", "entries", "secrets", "mail_seen", "outbox"} <= tables
    raw.close()


def test_reopen_keeps_data_and_schema(sqlite_path):
    with Store.open(sqlite_path) as store:
        store.create_campaign("pa-1", "port-arthur")
    with Store.open(sqlite_path) as store:
        assert [c.id for c in store.campaigns()] == ["pa-1"]
    raw = sqlite3.connect(sqlite_path)
    assert raw.execute("SELECT count(*) FROM schema_version").fetchone()[0] == SCHEMA_VERSION
    raw.close()


def test_connection_pragmas(sqlite_path):
    store = Store.open(sqlite_path)
    connection = store._database()._connection
    assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert connection.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_newer_schema_version_is_refused(sqlite_path):
    Store.open(sqlite_path).close()
    raw = sqlite3.connect(sqlite_path)
    raw.execute("PRAGMA user_version = 99")
    raw.commit()
    raw.close()
    with pytest.raises(StoreVersionError) as caught:
        Store.open(sqlite_path)
    assert caught.value.found == 99
    assert "99" in str(caught.value) and "upgrade the adjudicator" in str(caught.value)
    assert str(sqlite_path) in str(caught.value)


def test_file_that_is_not_a_database_is_refused(tmp_path):
    text = tmp_path / "orders.txt"
    text.write_text("this is not a database, just some orders " * 40)
    with pytest.raises(NotAStore, match="not an SQLite database"):
        Store.open(text)


def test_other_applications_database_is_refused(tmp_path):
    other = tmp_path / "other.sqlite3"
    raw = sqlite3.connect(other)
    raw.execute("CREATE TABLE things (x)")
    raw.commit()
    raw.close()
    with pytest.raises(NotAStore, match="another application"):
        Store.open(other)


def test_unopenable_path_is_reported(tmp_path):
    with pytest.raises(StoreUnavailable, match="missing-folder"):
        Store.open(tmp_path / "missing-folder" / "store.sqlite3")


def test_closed_store_refuses_use(path):
    store = Store.open(path)
    store.close()
    store.close()
    with pytest.raises(StoreUnavailable, match="closed"):
        store.campaigns()


# -- campaigns ----------------------------------------------------------------


def test_create_and_read_campaign(path):
    with Store.open(path, clock=fixed_clock) as store:
        made = store.create_campaign("pa-1", "port-arthur", {"title": "Club game"})
        assert made == Campaign(
            "pa-1", "port-arthur", "1904-02-08T23:30:00.000000+00:00",
            '{"title":"Club game"}', 0, GENESIS,
        )
        assert store.campaign("pa-1").meta == {"title": "Club game"}
        assert store.head("pa-1") is None
        assert store.entries("pa-1") == []


def test_many_campaigns_in_one_file(store):
    for cid in ("b-2", "a-1", "c-3"):
        store.create_campaign(cid, "port-arthur")
    for round_ in range(3):
        for cid in ("a-1", "b-2", "c-3"):
            with store.transaction(cid) as tx:
                tx.append("turn", {"round": round_})
    assert [c.id for c in store.campaigns()] == ["a-1", "b-2", "c-3"]
    histories = {cid: store.entries(cid) for cid in ("a-1", "b-2", "c-3")}
    for cid, history in histories.items():
        assert [e.seq for e in history] == [0, 1, 2]
        assert all(e.campaign == cid for e in history)
    # same bodies, different campaigns: different hashes
    assert histories["a-1"][0].hash != histories["b-2"][0].hash


def test_duplicate_campaign_is_refused(store):
    store.create_campaign("pa-1", "port-arthur")
    with pytest.raises(CampaignExists, match="'pa-1' already exists"):
        store.create_campaign("pa-1", "tsushima")
    assert store.campaign("pa-1").game == "port-arthur"


def test_unknown_campaign_is_reported(store):
    with pytest.raises(CampaignNotFound, match="'nowhere' does not exist"):
        store.entries("nowhere")
    with pytest.raises(CampaignNotFound):
        with store.transaction("nowhere") as tx:
            tx.append("x", {})


@pytest.mark.parametrize(
    "bad", ["", "Port-Arthur", "pa 1", "-pa", "pa_1", "x" * 64, "pa-1\n", "é", 7, None]
)
def test_invalid_campaign_ids(store, bad):
    with pytest.raises(InvalidCampaignId) as caught:
        store.campaign(bad)
    assert repr(bad) in str(caught.value)
    assert isinstance(caught.value, (StoreError, ValueError))


@pytest.mark.parametrize("good", ["a", "0", "pa-1", "russo-japanese-war-1904", "x" * 63])
def test_valid_campaign_ids(store, good):
    assert store.create_campaign(good, "g").id == good


def test_set_meta_replaces_metadata(store):
    store.create_campaign("pa-1", "port-arthur", {"a": 1})
    with store.transaction("pa-1") as tx:
        tx.set_meta({"b": 2})
    assert store.campaign("pa-1").meta == {"b": 2}


# -- appending and reading ------------------------------------------------------


def test_append_read_round_trip(store):
    bodies = [
        {"charter": {"players": ["japan", "russia"], "seed_anchor": "ab" * 32}},
        {"orders": "sortie\nmines 3", "unicode": "Порт-Артур 旅順"},
        {"numbers": [0, -1, 2**70, 1.5, -0.25], "flags": [True, False, None]},
        {},
    ]
    with store.transaction("pa-1") as tx:
        tx.create_campaign("port-arthur")
        written = [tx.append(f"kind-{i}", body) for i, body in enumerate(bodies)]
    read = store.entries("pa-1")
    assert read == written
    assert [e.body for e in read] == bodies
    assert [e.kind for e in read] == ["kind-0", "kind-1", "kind-2", "kind-3"]
    assert store.head("pa-1") == written[-1]
    assert store.campaign("pa-1").entry_count == 4


def test_tuples_are_stored_as_lists(store):
    store.create_campaign("pa-1", "port-arthur")
    with store.transaction("pa-1") as tx:
        entry = tx.append("dice", {"roll": (3, 6)})
    assert entry.body == {"roll": [3, 6]}
    assert store.entries("pa-1")[0].body == {"roll": [3, 6]}


def test_body_copies_are_independent(store):
    store.create_campaign("pa-1", "port-arthur")
    with store.transaction("pa-1") as tx:
        entry = tx.append("k", {"list": [1]})
    entry.body["list"].append(2)
    assert entry.body == {"list": [1]}


@pytest.mark.parametrize(
    "body, fragment",
    [
        ([1, 2], "must be a JSON object"),
        ({"x": float("nan")}, "non-finite"),
        ({"x": {1, 2}}, "set"),
        ({1: "a"}, "int key"),
        ({"x": b"bytes"}, "bytes"),
        ({"x": "\ud800"}, "surrogate"),
    ],
)
def test_non_json_bodies_are_refused(store, body, fragment):
    store.create_campaign("pa-1", "port-arthur")
    with pytest.raises(InvalidValue, match=fragment):
        with store.transaction("pa-1") as tx:
            tx.append("k", body)
    assert store.entries("pa-1") == []


def test_cyclic_body_is_refused(store):
    store.create_campaign("pa-1", "port-arthur")
    body = {"a": []}
    body["a"].append(body)
    with pytest.raises(InvalidValue, match="cycle"):
        with store.transaction("pa-1") as tx:
            tx.append("k", body)


@pytest.mark.parametrize("kind", ["", " orders", "orders\n", "a" * 65, None])
def test_invalid_kinds_are_refused(store, kind):
    store.create_campaign("pa-1", "port-arthur")
    with pytest.raises(InvalidValue, match="entry kind"):
        with store.transaction("pa-1") as tx:
            tx.append(kind, {})


def test_entry_is_frozen(store):
    store.create_campaign("pa-1", "port-arthur")
    with store.transaction("pa-1") as tx:
        entry = tx.append("k", {})
    with pytest.raises(AttributeError):
        entry.seq = 5  # type: ignore[misc]
    assert isinstance(hash(entry), int)
    assert isinstance(entry, Entry)


# -- transactions -----------------------------------------------------------------


def test_exception_rolls_back_everything(store):
    store.create_campaign("pa-1", "port-arthur")
    with store.transaction("pa-1") as tx:
        tx.append("charter", {"v": 1})
        tx.set_secret("seed", "old")
    before = store.entries("pa-1")
    with pytest.raises(RuntimeError, match="boom"):
        with store.transaction("pa-1") as tx:
            tx.append("orders", {"v": 2})
            tx.append("orders", {"v": 3})
            tx.set_secret("seed", "new")
            tx.set_meta({"changed": True})
            tx.mark_mail_seen("<m@x>", sha256_hex(b"m"))
            tx.queue_mail("<out@x>", "p@x", b"eml")
            raise RuntimeError("boom")
    assert store.entries("pa-1") == before
    assert store.campaign("pa-1").entry_count == 1
    assert store.campaign("pa-1").meta == {}
    assert store.outbox("pa-1") == []
    assert store.seen_mail("pa-1") == []
    with store.transaction("pa-1") as tx:
        assert tx.get_secret("seed") == "old"
        assert tx.mark_mail_seen("<m@x>", sha256_hex(b"m")) is True


def test_rolled_back_creation_leaves_no_campaign(store):
    with pytest.raises(KeyError):
        with store.transaction("pa-1") as tx:
            tx.create_campaign("port-arthur")
            tx.append("charter", {})
            raise KeyError("abandon")
    assert store.campaigns() == []
    store.create_campaign("pa-1", "port-arthur")  # the id is free again


def test_creation_and_charter_in_one_transaction(store):
    with store.transaction("pa-1") as tx:
        tx.create_campaign("port-arthur")
        tx.append("charter", {"players": 2})
        tx.set_secret("seed", "s" * 64)
        assert tx.entries() == [tx.head()]
    assert store.campaign("pa-1").entry_count == 1


def test_transactions_do_not_nest(store):
    store.create_campaign("pa-1", "port-arthur")
    with store.transaction("pa-1"):
        with pytest.raises(TransactionError, match="already open"):
            with store.transaction("pa-1"):
                pass
    with store.transaction("pa-1") as tx:
        tx.append("k", {})  # the store is still usable


def test_ended_transaction_refuses_use(store):
    store.create_campaign("pa-1", "port-arthur")
    with store.transaction("pa-1") as tx:
        pass
    with pytest.raises(TransactionError, match="has ended"):
        tx.append("k", {})


def test_reads_inside_transaction_see_its_writes(store):
    store.create_campaign("pa-1", "port-arthur")
    with store.transaction("pa-1") as tx:
        tx.append("k", {"n": 1})
        assert len(store.entries("pa-1")) == 1
        assert len(tx.entries()) == 1


def test_the_campaign_a_transaction_shows_follows_its_own_writes(store):
    store.create_campaign("pa-1", "port-arthur", {"v": 0})
    with store.transaction("pa-1") as tx:
        assert tx.campaign().entry_count == 0
        first = tx.append("k", {"n": 1})
        second = tx.append("k", {"n": 2})
        assert (tx.campaign().entry_count, tx.campaign().head_hash) == (2, second.hash)
        assert second.prev == first.hash
        tx.set_meta({"v": 1})
        assert tx.campaign().meta == {"v": 1} and tx.campaign().entry_count == 2
    assert store.campaign("pa-1") == store.campaign("pa-1") and store.campaign("pa-1").meta == {"v": 1}
    assert [e.hash for e in store.entries("pa-1")] == [first.hash, second.hash]


def test_second_writer_gets_campaign_busy(path):
    with Store.open(path) as first, Store.open(path, busy_timeout=0.1) as second:
        first.create_campaign("pa-1", "port-arthur")
        with first.transaction("pa-1") as tx:
            tx.append("k", {})
            with pytest.raises(CampaignBusy) as caught:
                with second.transaction("pa-1"):
                    pass
            assert "'pa-1' is busy" in str(caught.value)
            assert "try again" in str(caught.value)
            assert second.entries("pa-1") == []  # readers are not blocked
        assert len(second.entries("pa-1")) == 1
        with second.transaction("pa-1") as tx:
            tx.append("k", {})


def _commit_waits_for_disk(tx) -> bool:
    """Whether the transaction's commit waits for the disk as the store's other commits
    do (SQLite: synchronous FULL; PostgreSQL: the server's own synchronous_commit, which
    the test servers may set off, unchanged by the transaction)."""
    if tx._db.dialect == "sqlite":
        return tx._db.one("PRAGMA synchronous")[0] == 2
    setting, server = tx._db.one("SELECT setting, reset_val FROM pg_settings WHERE name = 'synchronous_commit'")
    return setting == server


def _commit_may_skip_the_disk(tx) -> bool:
    if tx._db.dialect == "sqlite":
        return tx._db.one("PRAGMA synchronous")[0] == 1
    return tx._db.one("SHOW synchronous_commit")[0] == "off"


def test_a_transaction_that_need_not_be_durable_is_still_atomic_and_leaves_the_next_durable(store):
    store.create_campaign("c1", "g")
    with store.transaction("c1", durable=False) as tx:
        assert _commit_may_skip_the_disk(tx)
        tx.set_meta({"lease": "a"})
    assert store.campaign("c1").meta == {"lease": "a"}
    with pytest.raises(RuntimeError):
        with store.transaction("c1", durable=False) as tx:
            tx.set_meta({"lease": "b"})
            raise RuntimeError("killed")
    assert store.campaign("c1").meta == {"lease": "a"}
    with store.transaction("c1") as tx:  # every other command commits durably, as before
        assert _commit_waits_for_disk(tx)
        tx.append("charter", {"game": "g"})
    assert len(store.entries("c1")) == 1


# -- secrets -------------------------------------------------------------------------


def test_secrets_round_trip(store):
    store.create_campaign("pa-1", "port-arthur")
    with store.transaction("pa-1") as tx:
        tx.set_secret("seed", "ab" * 32)
        tx.set_secret("password:russia", {"salt": "00", "hash": "ff"})
        tx.set_secret("seed", "cd" * 32)
    with store.transaction("pa-1") as tx:
        assert tx.get_secret("seed") == "cd" * 32
        assert tx.get_secret("password:russia") == {"salt": "00", "hash": "ff"}
        assert tx.get_secret("missing") is None
        assert tx.get_secret("missing", default=0) == 0
        assert tx.secret_names() == ["password:russia", "seed"]
        assert tx.delete_secret("seed") is True
        assert tx.delete_secret("seed") is False


def test_secrets_are_per_campaign(store):
    store.create_campaign("a", "g")
    store.create_campaign("b", "g")
    with store.transaction("a") as tx:
        tx.set_secret("seed", 1)
    with store.transaction("b") as tx:
        assert tx.get_secret("seed") is None


def test_secrets_kept_beside_the_history_never_reach_its_export(store):
    store.create_campaign("pa-1", "port-arthur", {"referee": "ref@example.org"})
    with store.transaction("pa-1") as tx:
        tx.append("charter", {"anchor": "00" * 32})
        tx.set_secret("seed", "TOP-SECRET-SEED")
    exported = repr(store.export_history("pa-1"))
    assert "TOP-SECRET-SEED" not in exported
    assert "ref@example.org" not in exported


def test_error_messages_never_quote_secret_values(store):
    store.create_campaign("pa-1", "port-arthur")
    with pytest.raises(InvalidValue) as caught:
        with store.transaction("pa-1") as tx:
            tx.set_secret("seed", {"key": b"TOP-SECRET"})
    assert "TOP-SECRET" not in str(caught.value)
    assert "'seed'" in str(caught.value)


@pytest.mark.parametrize("game", ["", "Port Arthur", None])
def test_invalid_game_names_are_refused(store, game):
    with pytest.raises(InvalidValue, match=f"invalid game name {game!r}"):
        store.create_campaign("pa-1", game)
    assert store.campaigns() == []


def test_a_new_store_file_and_its_journal_files_are_readable_by_the_owner_only(tmp_path):
    old_umask = os.umask(0o022)
    try:
        with Store.open(tmp_path / "campaigns.sqlite3") as store:
            with store.transaction("c1") as tx:
                tx.create_campaign("port-arthur", {})
                tx.set_secret("seed", "secret")
            modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
    finally:
        os.umask(old_umask)
    assert modes["campaigns.sqlite3"] == 0o600
    assert all(mode == 0o600 for mode in modes.values()), modes
