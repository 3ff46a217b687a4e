"""Two processes at once, and processes killed at random moments."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adjudicator.store import CampaignBusy, Store, sha256_hex
from tests.store.raw import is_postgresql

WORKER = Path(__file__).with_name("store_worker.py")
REPO = Path(__file__).resolve().parents[2]
BLOCK = 5  # entries per transaction in the worker
CAMPAIGN = "pa-1"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL")


def start(*args):
    """Start the worker with ``args``; its standard output is a text pipe."""
    return subprocess.Popen(
        [sys.executable, str(WORKER), *map(str, args)],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )


def wait_for(process, line):
    """Read the worker's output until ``line`` appears."""
    while True:
        got = process.stdout.readline()
        assert got, f"worker ended before printing {line!r}"
        if got.strip() == line:
            return


def test_second_process_waits_or_is_busy(store_location):
    path = store_location
    with Store.open(path) as store:
        store.create_campaign(CAMPAIGN, "port-arthur")
    holder = start("hold", path, CAMPAIGN, 1.0)
    try:
        wait_for(holder, "locked")
        with Store.open(path, busy_timeout=0.2) as impatient:
            began = time.monotonic()
            with pytest.raises(CampaignBusy, match="'pa-1' is busy"):
                with impatient.transaction(CAMPAIGN) as tx:
                    tx.append("impatient", {})
            assert time.monotonic() - began >= 0.15
        with Store.open(path, busy_timeout=20) as patient:
            with patient.transaction(CAMPAIGN) as tx:
                tx.append("patient", {})
            kinds = [e.kind for e in patient.entries(CAMPAIGN)]
        assert kinds == ["held", "patient"]
    finally:
        holder.communicate(timeout=20)
    assert holder.returncode == 0


def test_concurrent_writers_never_interleave(store_location, tmp_path):
    path = store_location
    with Store.open(path) as store:
        store.create_campaign(CAMPAIGN, "port-arthur")
    go = tmp_path / "go"
    writers = [start("writer", path, CAMPAIGN, name, 12, go) for name in ("left", "right")]
    for writer in writers:
        wait_for(writer, "ready")
    go.touch()
    for writer in writers:
        writer.communicate(timeout=60)
        assert writer.returncode == 0
    with Store.open(path) as store:
        history = store.entries(CAMPAIGN)
    assert len(history) == 2 * 12 * BLOCK
    blocks = [history[i : i + BLOCK] for i in range(0, len(history), BLOCK)]
    for block in blocks:
        bodies = [e.body for e in block]
        assert len({(b["writer"], b["tx"]) for b in bodies}) == 1, bodies
        assert [b["i"] for b in bodies] == list(range(BLOCK))
    for name in ("left", "right"):
        mine = [b[0].body["tx"] for b in blocks if b[0].body["writer"] == name]
        assert mine == list(range(12))
    # the writers did run at the same time: their transactions alternate
    owners = [b[0].body["writer"] for b in blocks]
    assert sum(1 for a, b in zip(owners, owners[1:]) if a != b) >= 2, owners


def check_whole_transactions(path):
    """Open the killed store and check every transaction is all there or absent.

    Returns the number of complete transactions found.
    """
    with Store.open(path) as store:
        if not store.campaigns():
            return 0
        history = store.entries(CAMPAIGN, verify=True)
        assert len(history) % BLOCK == 0, f"{len(history)} entries: a transaction was cut"
        done = len(history) // BLOCK
        for number in range(done):
            block = history[number * BLOCK : (number + 1) * BLOCK]
            assert [e.body["tx"] for e in block] == [number] * BLOCK
            assert [e.body["i"] for e in block] == list(range(BLOCK))
        with store.transaction(CAMPAIGN) as tx:
            assert tx.get_secret("last-tx") == (done - 1 if done else None)
            assert [m.message_id for m in tx.outbox()] == [
                f"<tx-{n}@kill.test>" for n in range(done)
            ]
            assert [m.message_id for m in tx.seen_mail()] == [
                f"<in-{n}@kill.test>" for n in range(done)
            ]
            if done:
                last = done - 1
                assert not tx.mark_mail_seen(f"<in-{last}@kill.test>", sha256_hex(b"%d" % last))
        return done


@pytest.mark.soak
def test_kill_at_random_moments_leaves_whole_transactions(store_location):
    path = store_location
    # a command on a database server takes several round trips: leave it more time;
    # the limit only catches a hang (30 processes start, on a machine that may be busy)
    window = 0.5 if is_postgresql(path) else 0.12
    limit = 120
    chooser = random.Random(20240208)
    progress = []
    began = time.monotonic()
    for attempt in range(30):
        worker = start("kill-loop", path, CAMPAIGN)
        if attempt % 3:
            wait_for(worker, "ready")
            time.sleep(chooser.uniform(0.0, window))
        else:  # sometimes kill during start-up or schema creation
            time.sleep(chooser.uniform(0.0, 0.25))
        worker.send_signal(signal.SIGKILL)
        worker.communicate(timeout=20)
        assert worker.returncode == -signal.SIGKILL
        progress.append(check_whole_transactions(path))
    print("complete transactions after each kill:", progress)
    assert progress == sorted(progress)  # nothing committed was ever lost
    assert progress[-1] >= 10, progress  # the workers did real work
    assert time.monotonic() - began < limit
