"""The store under two commands at once and under SIGKILL: a campaign is always either
before or after a command, its history verifies, and its reports exist exactly when
the batch they report exists."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adjudicator.campaign import Campaigns
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import save_private_key
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import (
    CAMPAIGN,
    COMMAND,
    PLAYERS,
    REFEREE,
    T0,
    assert_no_traceback,
    batch_count,
    command_env,
    orders_text,
    reports,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL")

JAPAN_TURN = """sortie:
  Mikasa, Asahi, Shikishima, Fuji to Yellow Sea
  Izumo, Iwate, Asama to Tsushima
  Tokiwa, Yakumo to East China Sea
operations:
  1. battle anywhere if stronger there
  2. move squadron from Tsushima to Yellow Sea if enemy there
  3. pass
dice: auto
hits: auto
criticals: auto
seize: yes
reroll: yes
blockade: yes
mines: auto
"""
RUSSIA_TURN = """sortie:
  Tsesarevich, Retvizan, Pobeda, Peresvet to Yellow Sea
  Bayan, Askold, Novik to Tsushima
  Rossia, Gromoboi, Rurik to Sea of Japan
operations:
  1. battle anywhere if stronger there
  2. pass
dice: auto
hits: auto
criticals: auto
seize: yes
reroll: yes
return: auto
mines: auto
"""

WORKER = """
import sys
from pathlib import Path
from adjudicator.campaign import Campaigns
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.fairdice import load_private_key
from adjudicator.store import Store

store_path, key_path, campaign = sys.argv[1:4]
key = load_private_key(key_path, None)
with Store.open(store_path, busy_timeout=30) as store:
    campaigns = Campaigns(store)
    mailroom = Mailroom(campaigns, Path(store_path).with_name("outbox"))
    print("ready", flush=True)
    step = campaigns.adjudicate(campaign, key, after=mailroom.queue_reports)
    print("done", step.batch, flush=True)
"""


@pytest.fixture(scope="module")
def pending(tmp_path_factory, referee_key):
    """A closed store whose campaign has a whole turn of orders pending from both sides
    (each side's orders sent several times over: the newest counts), and the key file."""
    folder = tmp_path_factory.mktemp("pending")
    save_private_key(folder / "referee.key", referee_key, None)
    with Store.open(folder / "template.sqlite3") as store:
        campaigns = Campaigns(store)
        campaigns.create(CAMPAIGN, "port-arthur", PLAYERS, referee_key, referee_address=REFEREE, now=T0)
        for round_ in range(6):
            for side, body in (("japan", JAPAN_TURN), ("russia", RUSSIA_TURN)):
                campaigns.submit(CAMPAIGN, orders_text(side, body=body, entropy=f"{side}-{round_}"), referee_key)
        before = campaigns.export_public(CAMPAIGN)
    assert not Path(f"{folder / 'template.sqlite3'}-wal").exists()
    return folder, before


def fresh_copy(pending, name: str) -> Path:
    folder, _ = pending
    target = folder / name / "campaigns.sqlite3"
    target.parent.mkdir()
    shutil.copyfile(folder / "template.sqlite3", target)
    return target


def start_worker(store_path: Path, key_path: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", WORKER, str(store_path), str(key_path), CAMPAIGN],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=command_env())


def state_of(store_path: Path) -> tuple[str, int, int]:
    """(public record, number of batches, number of reports) of the store, after
    checking every hash and link of its history and verifying its public record."""
    with Store.open(store_path) as store:
        store.entries(CAMPAIGN, verify=True)
        record = Campaigns(store).export_public(CAMPAIGN)
        counts = batch_count(store), len(reports(store))
        assert len(store.outbox(CAMPAIGN)) == counts[1]  # no mail but the reports
    assert verify_text(record).verified
    return record, *counts


def test_two_adjudicate_commands_at_once_write_one_batch(tmp_path, referee_key):
    save_private_key(tmp_path / "referee.key", referee_key, None)
    store_path = tmp_path / "campaigns.sqlite3"
    with Store.open(store_path) as store:
        campaigns = Campaigns(store)
        campaigns.create(CAMPAIGN, "port-arthur", PLAYERS, referee_key, referee_address=REFEREE, now=T0)
        campaigns.submit(CAMPAIGN, orders_text("japan"), referee_key)
        before = campaigns.export_public(CAMPAIGN)
    argv = [*COMMAND, "adjudicate", CAMPAIGN, "--store", str(store_path), "--key", str(tmp_path / "referee.key")]

    processes = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=command_env()) for _ in range(2)]
    results = [(p.wait(timeout=60), *p.communicate()) for p in processes]

    for code, out, err in results:
        assert code == 0, err
        assert_no_traceback(subprocess.CompletedProcess([], code, out, err))
    idle = [out for _, out, _ in results if out.startswith("Nothing to adjudicate")]
    busy = [out for _, out, _ in results if out.startswith("== Turn 1: Sortie Phase of the Japanese Fleet")]
    assert (len(idle), len(busy)) == (1, 1), results  # the one that waited saw the other's batch
    with Store.open(store_path) as store:
        entries = store.entries(CAMPAIGN, verify=True)
        record = Campaigns(store).export_public(CAMPAIGN)
        queued = reports(store)
    batches = [e.body["record"]["body"]["batch"] for e in entries if e.kind == "batch"]
    assert batches == [1]
    assert len(queued) == 2  # one report per player, not one per command
    assert record.startswith(before) and verify_text(record).verified


@pytest.mark.soak
def test_a_killed_adjudication_leaves_the_campaign_before_or_after_it(pending):
    folder, before = pending
    key_path = folder / "referee.key"

    # a run to the end: what "after" is, and how long the command takes once ready
    reference = fresh_copy(pending, "reference")
    worker = start_worker(reference, key_path)
    assert worker.stdout.readline().strip() == "ready"
    began = time.monotonic()
    out, err = worker.communicate(timeout=60)
    took = time.monotonic() - began
    assert worker.returncode == 0 and out.startswith("done 1"), err
    after, after_batches, after_reports = state_of(reference)
    assert (after_batches, after_reports) == (1, 2)
    assert after.startswith(before) and after != before

    seed = 1904
    rng = random.Random(seed)
    outcomes = []
    window = took * 1.2
    for attempt in range(40):
        killed = [batches for code, batches in outcomes if code == -signal.SIGKILL]
        if len(outcomes) >= 10 and len(killed) >= 5 and 0 in killed:
            break  # ten tries at least, enough of them killed mid-way, however loaded the machine
        store_path = fresh_copy(pending, f"kill-{attempt}")
        worker = start_worker(store_path, key_path)
        assert worker.stdout.readline().strip() == "ready"
        delay = rng.uniform(0, window)
        time.sleep(delay)
        worker.send_signal(signal.SIGKILL)
        worker.communicate(timeout=30)

        record, batches, queued = state_of(store_path)
        where = f"attempt {attempt} (seed {seed}), killed {delay:.3f}s after ready"
        assert record in (before, after), where
        assert (batches, queued) in ((0, 0), (1, 2)), where
        assert (record == after) == (batches == 1), where
        outcomes.append((worker.returncode, batches))
        if worker.returncode == 0:
            window *= 0.7  # the machine got faster than the reference run: kill sooner

    assert len(outcomes) >= 10
    assert sum(code == -signal.SIGKILL for code, _ in outcomes) >= 5
    assert any(batches == 0 and code == -signal.SIGKILL for code, batches in outcomes)
