"""Shared fixtures."""

from __future__ import annotations

import pytest

from adjudicator.games.port_arthur import PortArthur


@pytest.fixture(scope="session")
def port_arthur() -> PortArthur:
    return PortArthur()
