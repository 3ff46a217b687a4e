"""A slow or hostile mail never holds the store, and an adjudication that runs while a
delivery is being taken in never uses a player's older orders when newer ones had
arrived: reading and checking happen outside the write transaction, each message is
its own short transaction, and adjudicate waits for the intake to finish."""

from __future__ import annotations

import os
import threading

from adjudicator.campaign import Campaigns
from adjudicator.campaign.intake_marker import INTAKE_MARKER
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import deliver, CAMPAIGN, HOUR, T0, email, orders_text




def test_orders_are_read_and_checked_while_other_commands_can_write(
        campaign, store, campaigns, mailroom, referee_key, inbox, monkeypatch):
    deliver(inbox, email(orders_text()), 1_000)
    prepare = Campaigns.prepare
    probes = []

    def probing_prepare(self, name, data):
        with Store.open(store.path, busy_timeout=0) as other:
            with other.transaction(CAMPAIGN) as tx:  # CampaignBusy if the intake held the lock
                tx.campaign()
            probes.append("written")
        return prepare(self, name, data)

    monkeypatch.setattr(Campaigns, "prepare", probing_prepare)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "accepted"
    assert probes == ["written"]


def test_adjudicate_during_an_intake_waits_and_uses_the_newest_orders(
        campaign, store, campaigns, mailroom, referee_key, inbox, monkeypatch):
    deliver(inbox, email(orders_text(body="sortie:\n  Mikasa to Tsushima\n"), message_id="<old@japan.test>"), 1_000)
    deliver(inbox, email(orders_text(body="sortie:\n  Mikasa to Pacific Ocean\n"),
                         message_id="<new@japan.test>"), 2_000)
    prepare = Campaigns.prepare
    results = {}

    def adjudicate_elsewhere():
        with Store.open(store.path, busy_timeout=30) as other:
            step = Campaigns(other, intake_wait=60).adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
            results["batch"] = step.batch
            results["events"] = [e.text for e in step.events]

    adjudication = threading.Thread(target=adjudicate_elsewhere)

    def prepare_and_adjudicate_after_the_first(self, name, data):
        if "Pacific" in data and not adjudication.is_alive():
            adjudication.start()  # the referee adjudicates while the second mail is read
            adjudication.join(timeout=1.0)
            assert adjudication.is_alive(), "adjudicate did not wait for the intake"
        return prepare(self, name, data)

    monkeypatch.setattr(Campaigns, "prepare", prepare_and_adjudicate_after_the_first)

    taken = mailroom.receive(inbox.path, referee_key)
    adjudication.join(timeout=60)

    assert [t.outcome for t in taken] == ["accepted", "accepted"]
    assert results["batch"] == 1
    assert any("Mikasa" in e and "Pacific Ocean" in e for e in results["events"]), results["events"]
    assert INTAKE_MARKER not in store.campaign(CAMPAIGN).meta


def test_a_marker_left_by_a_killed_intake_does_not_hold_adjudication(campaign, store, campaigns, referee_key):
    with store.transaction(CAMPAIGN) as tx:
        meta = tx.campaign().meta
        tx.set_meta({**meta, INTAKE_MARKER: {"host": os.uname().nodename, "pid": 2**22 + 7,
                                             "beat": "2026-12-01T00:00:00+00:00"}})

    step = Campaigns(store, intake_wait=1).adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)

    assert step is not None


def test_no_write_lock_outlives_a_message(campaign, store, mailroom, referee_key, inbox):
    for number in range(3):
        deliver(inbox, email(orders_text(), message_id=f"<m{number}@japan.test>"), 1_000 + number)
    mailroom.receive(inbox.path, referee_key)
    with Store.open(store.path, busy_timeout=0) as other:
        with other.transaction(CAMPAIGN) as tx:
            tx.campaign()
