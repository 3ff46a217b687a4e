"""A campaign's log read back from the store."""

from __future__ import annotations

from tests.campaign.conftest import PLAYERS


def test_a_logs_record_hashes_are_the_records_own(campaigns, referee_key):
    campaigns.create("c1", "port-arthur", PLAYERS, referee_key)
    log = campaigns.log("c1")
    assert log.record_hash(0) == log.records[0].hash
    assert log.record_hash(-1) == log.records[-1].hash == log.record_hash(len(log.records) - 1)
