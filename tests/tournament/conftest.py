"""Shared fixtures: a referee key, a store, and charters for small events."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from adjudicator.fairdice import generate_keypair
from adjudicator.store import Store
from adjudicator.tournament.charter import charter_from_toml
from adjudicator.tournament.service import Tournaments

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="session")
def referee_key():
    return generate_keypair()[0]


@pytest.fixture
def tournaments(tmp_path):
    with Store.open(tmp_path / "store.sqlite3") as store:
        yield Tournaments(store, tmp_path / "outbox")


def charter(name: str = "cup", players: int = 4, **event: Any):
    sections = {k: event.pop(k) for k in ("scoring", "clocks", "abandonment") if k in event}
    data = {"tournament": {"name": name, "game": "port-arthur", **event},
            "player": [{"name": f"p{i}", "address": f"p{i}@fleet.example", "password": f"secret-{i}"}
                       for i in range(players)],
            "standby": [{"name": "reserve", "address": "reserve@fleet.example", "password": "secret-r"}],
            **sections}
    return charter_from_toml(data)
