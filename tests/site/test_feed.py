"""The signed feed of a campaign's public events (``feed.json``): one document signed
with the referee's key as every record is, drawn from the public record alone."""

from __future__ import annotations

import json

import pytest

from adjudicator.fairdice import generate_keypair, records_from_jsonl
from adjudicator.site import build_site
from adjudicator.site.feed import NotTheRefereeKey, feed_is_signed
from tests.site.conftest import PLAYERS, play


@pytest.fixture
def running(campaigns, referee_key):
    campaigns.create("club-1904", "port-arthur", PLAYERS, referee_key, options={"fog_of_war": True})
    play(campaigns, referee_key, "club-1904", steps=4)
    return "club-1904"


def test_the_feed_is_signed_by_the_referee_key_of_the_charter_and_names_the_record_s_head(
        campaigns, referee_key, running, tmp_path):
    record = campaigns.export_public(running)
    build_site(record, tmp_path / "site", referee_key)
    records = records_from_jsonl(record)
    feed = (tmp_path / "site" / "feed.json").read_text(encoding="utf-8")
    charter_key = records[0].body["referee_key"]
    assert feed_is_signed(feed, charter_key, head=records[-1].hash)
    body = json.loads(feed)["body"]
    assert [event["seq"] for event in body["events"]] == [r.seq for r in records]
    assert [event["hash"] for event in body["events"]] == [r.hash for r in records]
    batches = [event for event in body["events"] if event["kind"] == "batch"]
    assert batches and all(event["sealed"] >= 0 and "dice" in event for event in batches)
    assert any(event["sealed"] > 0 for event in batches)   # the fog of war: a step's orders are sealed
    assert body["campaign"] == running and body["result"] is None and body["waiting"]


def test_a_changed_feed_or_another_key_does_not_check(campaigns, referee_key, running, tmp_path):
    record = campaigns.export_public(running)
    build_site(record, tmp_path / "site", referee_key)
    feed = json.loads((tmp_path / "site" / "feed.json").read_text(encoding="utf-8"))
    charter_key = records_from_jsonl(record)[0].body["referee_key"]
    feed["body"]["waiting"] = {"side": "nobody", "ask": "anything"}
    assert not feed_is_signed(json.dumps(feed), charter_key)
    assert not feed_is_signed("not json", charter_key)
    with pytest.raises(NotTheRefereeKey, match="not the referee key of campaign 'club-1904'"):
        build_site(record, tmp_path / "other", generate_keypair()[0])


def test_without_the_key_the_site_is_written_without_a_feed(campaigns, referee_key, running, tmp_path):
    written = build_site(campaigns.export_public(running), tmp_path / "site")
    assert not written.feed and not (tmp_path / "site" / "feed.json").exists()
    assert (tmp_path / "site" / "index.html").is_file()
