"""The store on a real PostgreSQL server (started by the tests): its schema and the
refusal of foreign databases, per-campaign locks, a connection lost in the middle of a
command, hosts starting together, and many referee hosts receiving and adjudicating a
league's campaigns at once, one of them killed."""

from __future__ import annotations

import mailbox
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from adjudicator.campaign import Campaigns
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import generate_keypair, save_private_key
from adjudicator.store import (
    SCHEMA_VERSION,
    CampaignBusy,
    NotAStore,
    Store,
    StoreUnavailable,
    StoreVersionError,
)
from adjudicator.store.pg import redacted
from adjudicator.store.schema import POSTGRESQL_MARK
from tests.pipeline.pipeline_helpers import PLAYERS, REFEREE, T0, batch_count, email, orders_text, reports

REPO = Path(__file__).resolve().parents[2]
LEAGUE_WORKER = Path(__file__).with_name("league_worker.py")


def sql(url, statement, params=None):
    with psycopg.connect(url, autocommit=True) as raw:
        cursor = raw.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def backend_pid(store) -> int:
    return store._database()._connection.info.backend_pid


def terminate(url, pid) -> None:
    sql(url, "SELECT pg_terminate_backend(%s)", (pid,))


# -- schema ------------------------------------------------------------------------------


def test_the_schema_is_created_versioned_and_marked(postgres_url):
    with Store.open(postgres_url) as store:
        assert (store.backend, store.schema_version) == ("postgresql", SCHEMA_VERSION)
    assert sql(postgres_url, "SELECT version FROM schema_version ORDER BY version") == [
        (v,) for v in range(1, SCHEMA_VERSION + 1)]
    assert sql(postgres_url, "SELECT obj_description('schema_version'::regclass)") == [(POSTGRESQL_MARK,)]
    with Store.open(postgres_url) as store:  # opening again changes nothing
        assert store.campaigns() == []
    assert len(sql(postgres_url, "SELECT * FROM schema_version")) == SCHEMA_VERSION


def test_a_database_of_another_application_is_refused_and_left_alone(postgres_url):
    sql(postgres_url, "CREATE TABLE things (x int)")
    with pytest.raises(NotAStore, match="another application's tables"):
        Store.open(postgres_url)
    assert sql(postgres_url, "SELECT to_regclass('campaigns')") == [(None,)]


def test_another_applications_schema_version_table_is_refused(postgres_url):
    sql(postgres_url, "CREATE TABLE schema_version (version int)")
    with pytest.raises(NotAStore, match="another application"):
        Store.open(postgres_url)


def test_a_newer_schema_is_refused_unchanged(postgres_url):
    Store.open(postgres_url).close()
    sql(postgres_url, "INSERT INTO schema_version VALUES (99, 'later')")
    with pytest.raises(StoreVersionError, match="upgrade the adjudicator") as caught:
        Store.open(postgres_url)
    assert caught.value.found == 99


def test_an_unreachable_database_is_reported_without_its_password(postgres_cluster):
    url = postgres_cluster.url("no_such_database").replace("adjudicator@", "adjudicator:s3cret@")
    with pytest.raises(StoreUnavailable, match="no_such_database") as caught:
        Store.open(url)
    assert "s3cret" not in str(caught.value)
    assert "adjudicator:***@" in str(caught.value)


@pytest.mark.parametrize("url, shown", [
    ("postgresql://league:s3cret@db.test/league", "postgresql://league:***@db.test/league"),
    ("postgresql://league@db.test/league?sslmode=require&password=s3cret",
     "postgresql://league@db.test/league?sslmode=require&password=***"),
    ("postgresql:///league?host=/run/postgresql", "postgresql:///league?host=/run/postgresql"),
])
def test_a_store_url_is_shown_without_its_password(url, shown):
    assert redacted(url) == shown


def test_hosts_starting_together_create_the_schema_once(postgres_url):
    code = "import sys; from adjudicator.store import Store; Store.open(sys.argv[1]).close()"
    hosts = [subprocess.Popen([sys.executable, "-c", code, postgres_url], env=dict(os.environ, PYTHONPATH=str(REPO)),
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for host in hosts:
        assert host.wait(timeout=60) == 0, host.stderr.read()
    assert len(sql(postgres_url, "SELECT * FROM schema_version")) == SCHEMA_VERSION


# -- locks -------------------------------------------------------------------------------


def test_commands_on_different_campaigns_do_not_wait_for_each_other(postgres_url):
    with Store.open(postgres_url) as first, Store.open(postgres_url, busy_timeout=0.2) as second:
        first.create_campaign("pa-1", "port-arthur")
        second.create_campaign("pa-2", "port-arthur")
        with first.transaction("pa-1") as tx:
            tx.append("held", {})
            with second.transaction("pa-2") as other:  # another campaign: no waiting
                other.append("free", {})
            with pytest.raises(CampaignBusy, match="'pa-1' is busy"):
                with second.transaction("pa-1"):
                    pass
        assert [e.kind for e in second.entries("pa-2")] == ["free"]
        assert [e.kind for e in second.entries("pa-1")] == ["held"]


# -- a lost connection -------------------------------------------------------------------


def test_a_connection_lost_before_the_commit_records_nothing(postgres_url):
    with Store.open(postgres_url) as store:
        store.create_campaign("pa-1", "port-arthur")
        with pytest.raises(StoreUnavailable, match="connection to the database was lost"):
            with store.transaction("pa-1") as tx:
                tx.append("turn", {"n": 1})
                tx.queue_mail("<report-1@league.test>", "togo@japan.test", b"report")
                terminate(postgres_url, backend_pid(store))
        with Store.open(postgres_url) as other:
            assert other.entries("pa-1") == []
            assert other.outbox("pa-1") == []
        with store.transaction("pa-1") as tx:  # the next command gets a new connection
            tx.append("turn", {"n": 1})
        assert [e.body for e in store.entries("pa-1")] == [{"n": 1}]


def test_a_connection_lost_in_the_middle_of_a_command_records_nothing(postgres_url):
    with Store.open(postgres_url) as store:
        store.create_campaign("pa-1", "port-arthur")
        with pytest.raises(StoreUnavailable, match="lost"):
            with store.transaction("pa-1") as tx:
                tx.append("turn", {"n": 1})
                terminate(postgres_url, backend_pid(store))
                tx.append("turn", {"n": 2})
        assert store.entries("pa-1") == []
        assert store.campaign("pa-1").entry_count == 0


def test_a_connection_lost_between_commands_is_replaced(postgres_url):
    with Store.open(postgres_url) as store:
        store.create_campaign("pa-1", "port-arthur")
        terminate(postgres_url, backend_pid(store))
        time.sleep(0.1)
        assert [c.id for c in store.campaigns()] == ["pa-1"]


def test_a_failed_statement_is_never_committed(postgres_url):
    """A command that swallowed a database error must not pass for committed: the
    server would silently turn its COMMIT into a rollback."""
    with Store.open(postgres_url) as store:
        store.create_campaign("pa-1", "port-arthur")
        with pytest.raises(StoreUnavailable, match="nothing of it was recorded"):
            with store.transaction("pa-1") as tx:
                tx.append("turn", {"n": 1})
                with pytest.raises(StoreUnavailable):
                    tx._db.execute("SELECT no_such_column FROM campaigns")
        assert store.entries("pa-1") == []


# -- a league: many hosts at once --------------------------------------------------------


LEAGUE = [f"league-{n}" for n in range(6)]


@pytest.fixture
def league(postgres_url, tmp_path):
    """Six campaigns on one PostgreSQL store, Japan's orders for each in a mail folder."""
    key = generate_keypair()[0]
    save_private_key(tmp_path / "referee.key", key, None)
    mail = tmp_path / "mail"
    mail.mkdir()
    with Store.open(postgres_url) as store:
        campaigns = Campaigns(store)
        for campaign in LEAGUE:
            campaigns.create(campaign, "port-arthur", PLAYERS, key, referee_address=REFEREE, now=T0)
            message = email(orders_text("japan", campaign=campaign), message_id=f"<orders-{campaign}@japan.test>")
            (mail / f"{campaign}.eml").write_bytes(message)
    return postgres_url, tmp_path / "referee.key", mail


def start_host(url, key, mail) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(LEAGUE_WORKER), url, str(key), str(mail), *LEAGUE],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(REPO)))


def check_league(url) -> None:
    """Every campaign took its orders once and was adjudicated once; all verifies."""
    with Store.open(url) as store:
        campaigns = Campaigns(store)
        for campaign in LEAGUE:
            store.entries(campaign, verify=True)
            assert len(store.seen_mail(campaign)) == 1, campaign
            assert sum(e.kind == "orders" for e in store.entries(campaign)) == 1, campaign
            assert batch_count(store, campaign) == 1, campaign
            assert len(reports(store, campaign)) == 2, campaign  # one per player
            assert len(store.outbox(campaign)) == 3, campaign  # and one receipt
            assert verify_text(campaigns.export_public(campaign)).verified


@pytest.mark.soak
def test_many_hosts_receiving_and_adjudicating_at_once_write_each_step_once(league):
    url, key, mail = league
    hosts = [start_host(url, key, mail) for _ in range(4)]
    outputs = [host.communicate(timeout=240) for host in hosts]
    for host, (out, err) in zip(hosts, outputs):
        assert host.returncode == 0, err
        assert out.rstrip().endswith("done")
    taken = " ".join(line for out, _ in outputs for line in out.splitlines() if line.startswith("taken"))
    assert taken.count("accepted") == len(LEAGUE)  # each email taken in by one host only
    assert taken.count("duplicate") == 3 * len(LEAGUE)
    check_league(url)


@pytest.mark.soak
def test_a_host_killed_at_a_random_moment_leaves_every_campaign_whole(league):
    url, key, mail = league
    victim = start_host(url, key, mail)
    assert victim.stdout.readline().strip() == "ready"
    time.sleep(random.Random(1905).uniform(0.0, 1.5))
    victim.send_signal(signal.SIGKILL)
    victim.communicate(timeout=30)
    with Store.open(url) as store:  # whatever it left is whole: each history verifies
        for campaign in LEAGUE:
            store.entries(campaign, verify=True)
            assert batch_count(store, campaign) in (0, 1)
            assert len(store.seen_mail(campaign)) == sum(e.kind == "orders" for e in store.entries(campaign))
    survivors = [start_host(url, key, mail) for _ in range(2)]
    for host in survivors:
        _, err = host.communicate(timeout=240)
        assert host.returncode == 0, err
    check_league(url)


# -- the commands and the resident service on a PostgreSQL store -------------------------


def test_a_campaign_made_and_served_on_postgresql_answers_its_mail(postgres_url, tmp_path):
    """`new` through ADJUDICATOR_STORE, then `serve` watching a Maildir: the orders are
    taken, the step adjudicated and its mail written, all in the database."""
    from tests.pipeline.pipeline_helpers import COMMAND, cli, command_env

    (tmp_path / "players.toml").write_text(
        "".join(f'[[player]]\nside = "{p.side}"\naddress = "{p.address}"\npassword = "{p.password}"\n\n'
                for p in PLAYERS))
    league = command_env(ADJUDICATOR_STORE=postgres_url, ADJUDICATOR_KEY=str(tmp_path / "referee.key"))
    assert cli("keys", "new", tmp_path / "referee.key", "--no-passphrase", env=league).returncode == 0
    made = cli("new", "c1", "--game", "port-arthur", "--players", tmp_path / "players.toml",
               "--from", REFEREE, env=league)
    assert made.returncode == 0, made.stderr
    inbox = mailbox.Maildir(tmp_path / "inbox", create=True)
    inbox.add(email(orders_text("japan", campaign="c1")))
    service = subprocess.Popen([*COMMAND, "serve", "--maildir", str(tmp_path / "inbox"), "--outbox",
                                str(tmp_path / "outbox"), "--poll", "0.2"], env=league,
                               stderr=subprocess.PIPE, text=True)
    try:
        with Store.open(postgres_url) as store:
            deadline = time.monotonic() + 90
            while len(reports(store, "c1")) < 2 and time.monotonic() < deadline:  # after the opening mails
                time.sleep(0.3)
            assert batch_count(store, "c1") == 1
            assert len(reports(store, "c1")) == 2
    finally:
        service.send_signal(signal.SIGTERM)
        _, log = service.communicate(timeout=60)
    assert service.returncode == 0, log
    assert "accepted togo@japan.test -> c1" in log
    assert "waiting for russia" in cli("status", "c1", env=league).stdout
