"""The parsed orders kept beside a campaign's history: a later command reads them
instead of parsing every order set again, and a cache that does not match (altered,
for other game data, naming a foreign type) is never used."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from adjudicator.campaign.log import read_log
from adjudicator.campaign.parsed import PARSED_ORDERS, cached_orders, load, text_key
from adjudicator.campaign.running import orders_in_force
from adjudicator.campaign.verify import verify_text
from adjudicator.games.port_arthur.commander import AutoCommander
from tests.campaign.conftest import PLAYERS, confirm

PASSWORDS = {p.side: p.password for p in PLAYERS}


@pytest.fixture
def played(campaigns, referee_key):
    """A campaign eight steps in, by orders files."""
    campaigns.create("c1", "port-arthur", PLAYERS, referee_key, now=datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc))
    rng = random.Random(11)
    commanders = {side: AutoCommander(side, rng) for side in PASSWORDS}
    for _ in range(8):
        log, match = campaigns.match("c1")
        decision = match.decision
        header = {"campaign": "c1", "side": decision.side, "turn": match.state.turn, "step": log.next_batch,
                  "password": PASSWORDS[decision.side], "entropy": f"{rng.getrandbits(40):010x}"}
        campaigns.submit("c1", commanders[decision.side].orders(decision, match.state, header), referee_key)
        campaigns.adjudicate("c1", referee_key)
    return campaigns


def cached_log(campaigns):
    from adjudicator.campaign.campaign import with_parsed
    return with_parsed(campaigns.log("c1"), campaigns.store.derived("c1", PARSED_ORDERS))


def in_force(log, match):
    return orders_in_force(log, log.next_batch, match.state.turn, "port-arthur")


def test_every_order_set_in_force_is_read_back_from_the_cache_as_its_text_says(played):
    log = cached_log(played)
    in_cache = [o for o in log.orders if cached_orders(o.text, log.parsed) is not None]
    assert log.orders[-1] in in_cache and all(text_key(o.text) in log.parsed for o in in_cache)
    match = played.match("c1")[1]
    plain = read_log("c1", played.store.entries("c1"))
    assert in_force(log, match) == in_force(plain, match)
    assert not log.parsed_added  # nothing had to be parsed again
    assert verify_text(played.export_public("c1")).verified


def test_an_altered_cache_entry_is_not_used_and_the_orders_are_parsed_again(played, referee_key):
    log = cached_log(played)
    text = log.orders[-1].text
    stored = played.store.derived("c1", PARSED_ORDERS)
    entry = stored["orders"][text_key(text)]
    entry["header"]["turn"] = (entry["header"]["turn"] or 0) + 7  # the orders now say another turn
    with played.store.transaction("c1") as tx:
        tx.set_secret(PARSED_ORDERS, stored)
    tampered = cached_log(played)
    assert cached_orders(text, tampered.parsed) is None
    match = played.match("c1")[1]
    plain = read_log("c1", played.store.entries("c1"))
    assert in_force(tampered, match) == in_force(plain, match)
    assert tampered.parsed_added  # parsed again from the text, and the cache mended


def test_a_cache_made_for_other_game_data_is_ignored(played):
    stored = played.store.derived("c1", PARSED_ORDERS)
    assert load(stored, "another adjudicator or other data files") == {}
    with played.store.transaction("c1") as tx:
        tx.set_secret(PARSED_ORDERS, {**stored, "key": "stale"})
    assert cached_log(played).parsed == {}


def test_a_cache_naming_a_type_that_is_not_an_orders_type_is_not_read(played):
    log = cached_log(played)
    text = log.orders[0].text
    assert cached_orders(text, {text_key(text): {"@type": "os:system", "command": "true"}}) is None
    assert cached_orders(text, {text_key(text): "not orders"}) is None


def test_a_step_after_an_undo_gives_the_record_a_full_parse_gives(played, referee_key):
    played.undo("c1", referee_key, "a ruling was wrong")
    confirm(played, referee_key, "c1")  # a fresh contribution from every side
    played.adjudicate("c1", referee_key, reuse_orders=True)  # the orders on file, again
    with played.store.transaction("c1") as tx:
        tx.delete_secret(PARSED_ORDERS)
    log = cached_log(played)
    match = played.match("c1")[1]
    assert in_force(log, match) == in_force(read_log("c1", played.store.entries("c1")), match)
    assert verify_text(played.export_public("c1")).verified


def test_the_cache_keeps_only_the_order_sets_still_read_so_it_does_not_grow(played):
    stored = played.store.derived("c1", PARSED_ORDERS)["orders"]
    log = cached_log(played)
    assert 0 < len(stored) < len(log.orders)


def test_orders_in_force_read_from_the_kinds_kept_with_each_set_are_those_of_every_set(played):
    """Working out the orders in force on the kinds of blocks kept with each order set
    (reading only the sets that still give a block) gives what reading every set
    gives, at every step and for every game turn."""
    from dataclasses import replace
    log = read_log("c1", played.store.entries("c1"))
    assert all(o.blocks is not None for o in log.orders)
    without = replace(log, orders=[replace(o, blocks=None) for o in log.orders], read_orders={}, parsed={})
    turns = {o.turn for o in log.orders} | {None}
    for step in range(1, log.next_batch + 1):
        for turn in turns:
            assert (orders_in_force(log, step, turn, "port-arthur")
                    == orders_in_force(without, step, turn, "port-arthur")), (step, turn)


def test_orders_taken_by_submit_are_kept_parsed_and_the_adjudication_parses_nothing(played, referee_key,
                                                                                    monkeypatch):
    from adjudicator.campaign import running
    from adjudicator.orders import parse_orders

    log, match = played.match("c1")
    decision = match.decision
    header = {"campaign": "c1", "side": decision.side, "turn": match.state.turn, "step": log.next_batch,
              "password": PASSWORDS[decision.side], "entropy": "0123456789"}
    text = AutoCommander(decision.side, random.Random(5)).orders(decision, match.state, header)
    played.submit("c1", text, referee_key)
    log = cached_log(played)
    kept = cached_orders(log.orders[-1].text, log.parsed)
    assert kept is not None and kept == parse_orders(log.orders[-1].text, "port-arthur")

    def parse_again(text, game):
        raise AssertionError("orders accepted by submit were parsed again")

    monkeypatch.setattr(running, "stored_orders", parse_again)
    assert played.adjudicate("c1", referee_key).batch == log.next_batch


def test_the_cache_keeps_only_order_sets_a_step_still_reads(played):
    log = cached_log(played)
    assert len(log.parsed) < len(log.orders)  # after eight steps, not every order set ever sent
    assert set(log.parsed) <= {text_key(o.text) for o in log.orders}

