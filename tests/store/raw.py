"""Changing a store behind its back, as an attacker or a bad disk would, on either
backend: SQLite files are opened with sqlite3, PostgreSQL databases with psycopg."""

from __future__ import annotations

import sqlite3

from adjudicator.store.pg import is_url


def is_postgresql(location) -> bool:
    return is_url(str(location))


def tamper(location, sql: str, params=()) -> None:
    """Run ``sql`` (``?`` placeholders) with the history's append-only triggers off."""
    if is_postgresql(location):
        import psycopg

        with psycopg.connect(str(location), autocommit=False) as raw:
            raw.execute("SET LOCAL session_replication_role = replica")  # no triggers
            raw.execute(sql.replace("?", "%s"), params)
        return
    raw = sqlite3.connect(location)
    try:
        raw.execute("DROP TRIGGER IF EXISTS entries_never_updated")
        raw.execute("DROP TRIGGER IF EXISTS entries_never_deleted")
        raw.execute(sql, params)
        raw.commit()
    finally:
        raw.close()


def execute(location, sql: str, params=()) -> list[tuple]:
    """Run ``sql`` as any client of the database would (triggers on); return its rows."""
    if is_postgresql(location):
        import psycopg

        with psycopg.connect(str(location), autocommit=True) as raw:
            cursor = raw.execute(sql.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []
    raw = sqlite3.connect(location)
    try:
        rows = raw.execute(sql, params).fetchall()
        raw.commit()
        return rows
    finally:
        raw.close()
