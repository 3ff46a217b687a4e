"""Shared fixtures.

``ADJUDICATOR_TEST_STORE=postgresql`` runs every test that takes ``store_location``
against a real PostgreSQL server started by the tests (tests/pg_cluster.py) instead of
an SQLite file; tests that need PostgreSQL itself take ``postgres_url`` and run in
both passes.

``ADJUDICATOR_SOAK=1`` runs the long soaks, which the default run leaves short: a test
marked ``soak`` is skipped without it, and one marked ``soak("sized")`` runs a smaller
form of itself (its size read from :func:`soak_size`; the cases a parametrized test adds
when sized up are marked by :func:`soak_cases`). ``ADJUDICATOR_SOAK=1 pytest -m soak``
runs just the soaks, in full.
"""

from __future__ import annotations

import os

import pytest

from adjudicator.games.port_arthur import PortArthur

#: Whether the long soaks run in full (ADJUDICATOR_SOAK=1).
SOAK = os.environ.get("ADJUDICATOR_SOAK", "") not in ("", "0")


def soak_size(default: int, full: int, variable: str | None = None) -> int:
    """How many rounds a sized soak runs: ``variable`` from the environment if set,
    else ``full`` with ADJUDICATOR_SOAK=1, else ``default``."""
    given = os.environ.get(variable) if variable else None
    return int(given) if given else full if SOAK else default


def soak_cases(cases) -> list:
    """The cases a sized soak adds to a parametrized test, marked ``soak("sized")``: they
    run whenever they are asked for, and ``-m soak`` selects them without the default
    cases (a tuple is one case of several arguments)."""
    sized = pytest.mark.soak("sized")
    return [pytest.param(*case, marks=sized) if isinstance(case, tuple) else pytest.param(case, marks=sized)
            for case in cases]


def pytest_configure(config):
    config.addinivalue_line("markers", "soak: a long soak; skipped unless ADJUDICATOR_SOAK=1 "
                            "(soak(\"sized\"): run smaller unless ADJUDICATOR_SOAK=1)")


def pytest_collection_modifyitems(config, items):
    if SOAK:
        return
    skip = pytest.mark.skip(reason="a long soak: ADJUDICATOR_SOAK=1 runs it")
    for item in items:
        marker = item.get_closest_marker("soak")
        if marker is not None and "sized" not in marker.args:
            item.add_marker(skip)


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
