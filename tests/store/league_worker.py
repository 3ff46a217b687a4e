"""A referee host of a league, run as a child process by the PostgreSQL tests.

``python league_worker.py STORE KEY MAIL CAMPAIGN...``: takes in every email of the
folder MAIL (each host gets the same mail, as when mail is delivered to several
hosts), then adjudicates each campaign, in an order of its own; prints ``ready``
once the store is open and ``done`` at the end.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from adjudicator.campaign import Campaigns
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.fairdice import load_private_key
from adjudicator.store import Store


def main(store_url: str, key_path: str, mail: str, *campaign_ids: str) -> None:
    key = load_private_key(key_path, None)
    order = list(campaign_ids)
    random.Random().shuffle(order)
    with Store.open(store_url, busy_timeout=60) as store:
        campaigns = Campaigns(store)
        mailroom = Mailroom(campaigns, Path(mail).with_name("outbox"))
        print("ready", flush=True)
        taken = mailroom.receive(mail, key)
        print("taken", " ".join(sorted(t.outcome for t in taken)), flush=True)
        for campaign in order:
            step = campaigns.adjudicate(campaign, key, after=mailroom.queue_reports)
            print("adjudicated", campaign, step.batch, flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
