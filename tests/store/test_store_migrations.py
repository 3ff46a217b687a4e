"""Schema upgrades, on both backends: a store written by the first schema, with
campaigns, history, secrets, mail taken in and an outbox, is upgraded when opened,
loses nothing, and its histories still verify."""

from __future__ import annotations

import sqlite3

import psycopg
import pytest

from adjudicator.store import GENESIS, SCHEMA_VERSION, Store, entry_hash
from adjudicator.store.schema import APPLICATION_ID, POSTGRESQL_MIGRATIONS, SQLITE_MIGRATIONS
from tests.store import raw

CAMPAIGN = "pa-1"
THEN = "2025-01-01T00:00:00.000000+00:00"


@pytest.fixture(params=["sqlite", "postgresql"])
def first_schema_store(request, tmp_path):
    """A store at schema version 1, as the first adjudicator wrote it."""
    if request.param == "sqlite":
        location = tmp_path / "old.sqlite3"
        connection = sqlite3.connect(location, isolation_level=None)
        for statement in SQLITE_MIGRATIONS[0]:
            connection.execute(statement)
        connection.execute("INSERT INTO schema_version VALUES (1, ?)", (THEN,))
        connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        connection.execute("PRAGMA user_version = 1")
        connection.close()
    else:
        location = request.getfixturevalue("postgres_url")
        with psycopg.connect(location, autocommit=True) as connection:
            for statement in POSTGRESQL_MIGRATIONS[0]:
                connection.execute(statement)
            connection.execute("INSERT INTO schema_version VALUES (1, %s)", (THEN,))
    fill_version_1(location)
    return location


def fill_version_1(location) -> None:
    """A campaign of three entries, a secret, mail taken in, mail queued and sending."""
    raw.execute(location, "INSERT INTO campaigns VALUES (?, 'port-arthur', ?, '{\"title\":\"old\"}', 3, ?)",
                (CAMPAIGN, THEN, history()[-1][4]))
    for row in history():
        raw.execute(location, "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?)", (CAMPAIGN, *row))
    raw.execute(location, "INSERT INTO secrets VALUES (?, 'seed', '\"c0ffee\"', ?)", (CAMPAIGN, THEN))
    raw.execute(location, "INSERT INTO mail_seen VALUES (?, 1, '<in-1@x.test>', ?, ?)",
                (CAMPAIGN, "ab" * 32, THEN))
    for number, status in ((1, "queued"), (2, "sending")):
        raw.execute(
            location,
            "INSERT INTO outbox (campaign, message_id, recipient, eml, status, attempts, created) "
            "VALUES (?, ?, 'togo@japan.test', ?, ?, ?, ?)",
            (CAMPAIGN, f"<out-{number}@x.test>", b"report %d" % number, status, number - 1, THEN),
        )


def history() -> list[tuple]:
    rows, prev = [], GENESIS
    for seq in range(3):
        body = '{"turn":%d}' % seq
        digest = entry_hash(CAMPAIGN, seq, "turn", body, prev)
        rows.append((seq, "turn", body, prev, digest))
        prev = digest
    return rows


def test_a_first_schema_store_is_upgraded_on_opening_and_loses_nothing(first_schema_store):
    with Store.open(first_schema_store) as store:
        assert store.schema_version == SCHEMA_VERSION
        entries = store.entries(CAMPAIGN, verify=True)
        assert [(e.seq, e.kind, e.body_json, e.prev, e.hash) for e in entries] == history()
        assert store.campaign(CAMPAIGN).meta == {"title": "old"}
        assert [m.message_id for m in store.seen_mail(CAMPAIGN)] == ["<in-1@x.test>"]
        mails = store.outbox(CAMPAIGN)
        assert [(m.status.value, m.eml, m.claimed_by) for m in mails] == [
            ("queued", b"report 1", None), ("sending", b"report 2", None)]
        with store.transaction(CAMPAIGN) as tx:
            assert tx.get_secret("seed") == "c0ffee"
            (claimed,) = tx.claim_mail()  # the upgraded outbox records the claimant
            assert claimed.claimed_by and " pid " in claimed.claimed_by
            tx.append("turn", {"turn": 3})
        assert len(store.entries(CAMPAIGN, verify=True)) == 4
    versions = raw.execute(first_schema_store, "SELECT version, applied FROM schema_version ORDER BY version")
    assert [v for v, _ in versions] == list(range(1, SCHEMA_VERSION + 1))
    assert versions[0][1] == THEN


def test_an_upgraded_store_is_opened_again_unchanged(first_schema_store):
    Store.open(first_schema_store).close()
    Store.open(first_schema_store).close()
    assert len(raw.execute(first_schema_store, "SELECT * FROM schema_version")) == SCHEMA_VERSION


def test_both_backends_have_every_schema_step():
    assert len(SQLITE_MIGRATIONS) == len(POSTGRESQL_MIGRATIONS) == SCHEMA_VERSION >= 2
