"""Fixtures of the mail-pipeline tests: a store, the referee's key, a campaign created
at a fixed time, and its mailroom."""

from __future__ import annotations

import mailbox
from types import SimpleNamespace

import pytest

from adjudicator.campaign import Campaigns
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.fairdice import generate_keypair
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import CAMPAIGN, DEADLINE_HOURS, PLAYERS, REFEREE, T0, cli


@pytest.fixture
def store(store_location):
    """The campaign store: an SQLite file, or a PostgreSQL database with
    ADJUDICATOR_TEST_STORE=postgresql."""
    with Store.open(store_location) as opened:
        yield opened


@pytest.fixture(scope="package")
def referee_key():
    return generate_keypair()[0]


@pytest.fixture
def campaigns(store):
    return Campaigns(store)


@pytest.fixture
def mailroom(campaigns, tmp_path):
    return Mailroom(campaigns, tmp_path / "outbox")


@pytest.fixture
def campaign(campaigns, referee_key):
    """Campaign c1 (Port Arthur, rulebook options) opened at T0; Japan is asked to sortie."""
    campaigns.create(CAMPAIGN, "port-arthur", PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    return CAMPAIGN


@pytest.fixture
def inbox(tmp_path):
    """An empty Maildir; ``inbox.path`` is its folder."""
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    box.path = tmp_path / "inbox"
    return box


@pytest.fixture(scope="package")
def demo_run(tmp_path_factory):
    """``adjudicator demo DIR --quiet``, run once: the folder and the finished command."""
    folder = tmp_path_factory.mktemp("demo") / "campaign"
    done = cli("demo", folder, "--quiet", "--seed", "1905", timeout=120)
    return SimpleNamespace(folder=folder, done=done)
