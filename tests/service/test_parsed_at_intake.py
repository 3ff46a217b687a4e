"""Orders taken in by mail are parsed once: the intake keeps the order set it read in
the campaign's parsed-orders cache (in the transaction that records them), and the
adjudication that follows reads it back from there. What it reads back is what a
fresh parse of the stored text gives, so the game goes exactly as before."""

from __future__ import annotations

import random
from datetime import datetime, timezone
from pathlib import Path

from adjudicator.campaign import Campaigns
from adjudicator.campaign.log import read_log
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.campaign.parsed import PARSED_ORDERS, cached_orders, load
from adjudicator.campaign.running import stored_orders
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import generate_keypair
from adjudicator.games.port_arthur.commander import AutoCommander
from adjudicator.mail import parse_message
from adjudicator.orders import parse_orders
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import ADDRESSES, CAMPAIGN, PASSWORDS, PLAYERS, REFEREE, email

STEPS = 10


def test_orders_taken_by_mail_are_adjudicated_from_the_cache_as_a_fresh_parse_reads_them(tmp_path: Path):
    key = generate_keypair()[0]
    rng = random.Random(1905)
    commanders = {side: AutoCommander(side, rng) for side in PASSWORDS}
    with Store.open(tmp_path / "campaigns.sqlite3") as store:
        campaigns = Campaigns(store)
        campaigns.create(CAMPAIGN, "port-arthur", PLAYERS, key, referee_address=REFEREE,
                         now=datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc))
        mailroom = Mailroom(campaigns, tmp_path / "outbox")
        for number in range(STEPS):
            log, match = campaigns.match(CAMPAIGN)
            decision = match.decision
            if decision is None or match.finished:
                break
            header = {"campaign": CAMPAIGN, "side": decision.side, "turn": match.state.turn,
                      "step": log.next_batch, "password": PASSWORDS[decision.side],
                      "entropy": f"{rng.getrandbits(40):010x}"}
            text = commanders[decision.side].orders(decision, match.state, header)
            raw = email(text, sender=f"Player <{ADDRESSES[decision.side]}>", message_id=f"<o{number}@test>")
            taken = mailroom.take(parse_message(raw, own_address=REFEREE, origin="test"), key, None)
            assert taken.outcome == "accepted", taken

            accepted = read_log(CAMPAIGN, store.entries(CAMPAIGN)).orders[-1]
            known = load(store.derived(CAMPAIGN, PARSED_ORDERS), _cache_key(log))
            kept = cached_orders(accepted.text, known)
            assert kept is not None, "the intake kept the order set it read"
            assert kept == parse_orders(accepted.text, "port-arthur")  # what a fresh parse reads

            parsed_before = stored_orders.cache_info().misses
            campaigns.adjudicate(CAMPAIGN, key, after=mailroom.queue_reports)
            assert stored_orders.cache_info().misses == parsed_before, "the adjudication parsed the orders again"
        assert verify_text(campaigns.export_public(CAMPAIGN)).verified


def _cache_key(log) -> str:
    from adjudicator.campaign.games import support
    from adjudicator.campaign.parsed import cache_key

    return cache_key(support(log.charter["game"]).data_hashes())
