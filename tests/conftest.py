"""Shared fixtures.

``ADJUDICATOR_TEST_STORE=postgresql`` runs every test that takes ``store_location``
against a real PostgreSQL server started by the tests (tests/pg_cluster.py) instead of
an SQLite file; tests that need PostgreSQL itself take ``postgres_url`` and run in
both passes.
"""

from __future__ import annotations

import os

import pytest

from adjudicator.games.port_arthur import PortArthur

TEST_STORE = os.environ.get("ADJUDICATOR_TEST_STORE", "sqlite").lower()
if TEST_STORE not in ("sqlite", "postgresql"):
    raise pytest.UsageError(f"ADJUDICATOR_TEST_STORE={TEST_STORE!r}: use sqlite or postgresql")


@pytest.fixture(scope="session")
def port_arthur() -> PortArthur:
    return PortArthur()


@pytest.fixture(scope="session")
def postgres_cluster():
    """A private PostgreSQL server for the whole run (started on first use)."""
    from tests.pg_cluster import PostgresCluster

    cluster = PostgresCluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster) -> str:
    """The URL of a new, empty PostgreSQL database."""
    return postgres_cluster.new_database()


@pytest.fixture
def store_location(request, tmp_path):
    """Where a test's store lives: an SQLite file, or with ADJUDICATOR_TEST_STORE=postgresql
    a new PostgreSQL database (its URL)."""
    if TEST_STORE == "postgresql":
        return request.getfixturevalue("postgres_url")
    return tmp_path / "campaigns.sqlite3"
