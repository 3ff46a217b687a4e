"""Child process used by the store's concurrency and kill tests.

Run as ``python store_worker.py COMMAND PATH CAMPAIGN [ARGS...]``.  It prints
progress lines on standard output so that the test can synchronise with it.
"""

from __future__ import annotations

import os
import sys
import time

from adjudicator.store import CampaignExists, Store, sha256_hex

BLOCK = 5  # entries written by each transaction of the kill loop


def ensure_campaign(store: Store, campaign: str) -> None:
    """Create the campaign unless another process already did."""
    try:
        store.create_campaign(campaign, "test-game")
    except CampaignExists:
        pass


def kill_loop(path: str, campaign: str) -> None:
    """Append blocks of entries (plus secret, mail) forever, until killed."""
    with Store.open(path, busy_timeout=30) as store:
        ensure_campaign(store, campaign)
        print("ready", flush=True)
        while True:
            with store.transaction(campaign) as tx:
                number = tx.campaign().entry_count // BLOCK
                for index in range(BLOCK):
                    tx.append("step", {"tx": number, "i": index, "pad": "x" * 200 * index})
                tx.set_secret("last-tx", number)
                tx.queue_mail(f"<tx-{number}@kill.test>", "player@example.org", b"report")
                tx.mark_mail_seen(f"<in-{number}@kill.test>", sha256_hex(b"%d" % number))


def writer(path: str, campaign: str, name: str, count: str, go: str) -> None:
    """Write ``count`` transactions of BLOCK entries, slowly, tagged ``name``.

    Writing starts once the file ``go`` exists, so that writers start together.
    """
    with Store.open(path, busy_timeout=60) as store:
        ensure_campaign(store, campaign)
        print("ready", flush=True)
        while not os.path.exists(go):
            time.sleep(0.001)
        for number in range(int(count)):
            with store.transaction(campaign) as tx:
                for index in range(BLOCK):
                    tx.append("step", {"writer": name, "tx": number, "i": index})
                    time.sleep(0.002)
            time.sleep(0.02)  # leave the other writer a chance to take the lock


def hold(path: str, campaign: str, seconds: str) -> None:
    """Append one entry and keep the transaction open for ``seconds``."""
    with Store.open(path, busy_timeout=30) as store:
        with store.transaction(campaign) as tx:
            tx.append("held", {"by": "holder"})
            print("locked", flush=True)
            time.sleep(float(seconds))
        print("released", flush=True)


def claimer(path: str, campaign: str) -> None:
    """Claim queued mail one message at a time and mark it sent, until none is left."""
    with Store.open(path, busy_timeout=60) as store:
        print("ready", flush=True)
        while True:
            with store.transaction(campaign) as tx:
                claimed = tx.claim_mail(limit=1)
            if not claimed:
                return
            time.sleep(0.001)  # "sending", outside any transaction
            with store.transaction(campaign) as tx:
                tx.mark_sent(claimed[0].id)
            print(f"sent {claimed[0].id}", flush=True)


COMMANDS = {"kill-loop": kill_loop, "writer": writer, "hold": hold, "claimer": claimer}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
