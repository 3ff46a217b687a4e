"""``adjudicator store copy FROM TO``: SQLite to PostgreSQL and back, everything kept
(history, secrets, mail taken in, outbox with its ids and states), every history
verified on arrival, a damaged source refused, a copy that can be run again."""

from __future__ import annotations

import json

import pytest

from adjudicator.store import CampaignExists, Store, copy_campaigns, sha256_hex
from tests.pipeline.pipeline_helpers import assert_no_traceback, cli, command_env
from tests.store.raw import tamper

SECRET = "seed-that-must-stay-hidden"


def fill(store: Store, campaign: str, turns: int) -> None:
    with store.transaction(campaign) as tx:
        tx.create_campaign("port-arthur", {"title": campaign})
        for turn in range(turns):
            tx.append("turn", {"turn": turn, "text": "Mikasa to Tsushima \u2693"})
        tx.set_secret("seed", SECRET)
        tx.set_secret("password:japan", {"hash": "argon2id$..."})
        tx.mark_mail_seen(f"<orders@{campaign}.test>", sha256_hex(campaign.encode()))
        for number in range(3):
            tx.queue_mail(f"<report-{number}@{campaign}.test>", "togo@japan.test", b"report \x00\xff %d" % number)
    with store.transaction(campaign) as tx:
        first, second = tx.claim_mail(limit=2)
        tx.mark_sent(first.id)
        tx.mark_failed(second.id, "mailbox full", permanent=True)


def everything(store: Store, campaign: str):
    with store.transaction(campaign) as tx:
        secrets = {name: tx.get_secret(name) for name in tx.secret_names()}
    return (store.campaign(campaign), store.entries(campaign), store.seen_mail(campaign),
            store.outbox(campaign), secrets)


@pytest.fixture
def source(tmp_path):
    location = tmp_path / "club.sqlite3"
    with Store.open(location) as store:
        fill(store, "pa-1", 5)
        fill(store, "pa-2", 2)
    return location


def test_a_store_copied_to_postgresql_and_back_is_the_same(source, postgres_url, tmp_path):
    back = tmp_path / "back.sqlite3"
    with Store.open(source) as club, Store.open(postgres_url) as league:
        outcomes = list(copy_campaigns(club, league))
        assert [(c.id, c.outcome, c.entries, c.outbox) for c in outcomes] == [
            ("pa-1", "copied", 5, 3), ("pa-2", "copied", 2, 3)]
        with Store.open(back) as again:
            list(copy_campaigns(league, again))
            for campaign in ("pa-1", "pa-2"):
                assert everything(league, campaign) == everything(club, campaign)
                assert everything(again, campaign) == everything(club, campaign)
        copied = max(m.id for c in ("pa-1", "pa-2") for m in league.outbox(c))
        with league.transaction("pa-1") as tx:  # new mail gets a new id, after the copied ones
            mail = tx.queue_mail("<new@pa-1.test>", "togo@japan.test", b"new")
        assert mail.id > copied


def test_copying_again_leaves_what_is_there_and_a_different_campaign_is_refused(source, postgres_url):
    with Store.open(source) as club, Store.open(postgres_url) as league:
        list(copy_campaigns(club, league, ["pa-1"]))
        assert [c.outcome for c in copy_campaigns(club, league)] == ["present", "copied"]
        with club.transaction("pa-2") as tx:
            tx.append("turn", {"turn": 99})
        with pytest.raises(CampaignExists):
            list(copy_campaigns(club, league, ["pa-2"]))
        assert len(league.entries("pa-2")) == 2


def test_the_copy_command_moves_a_store_to_postgresql_and_shows_no_secret(source, postgres_url):
    done = cli("store", "copy", source, postgres_url)
    assert done.returncode == 0, done.stderr
    assert "pa-1: copied; 5 entries" in done.stdout and "pa-2: copied; 2 entries" in done.stdout
    assert "every history verified" in done.stdout
    assert SECRET not in done.stdout + done.stderr
    again = cli("store", "copy", source, postgres_url, "--format", "json")
    assert again.returncode == 0, again.stderr
    assert [c["outcome"] for c in json.loads(again.stdout)["copied"]] == ["present", "present"]


@pytest.mark.soak
def test_the_demo_campaign_moved_to_postgresql_is_served_and_verifies_there(tmp_path, postgres_url):
    demo = cli("demo", tmp_path / "demo", "--quiet", timeout=180)
    assert demo.returncode == 0, demo.stderr
    club = tmp_path / "demo" / "campaigns.sqlite3"
    assert cli("store", "copy", club, postgres_url).returncode == 0
    league = command_env(ADJUDICATOR_STORE=postgres_url)
    exported = cli("export", "demo", env=league)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout == cli("export", "demo", "--store", club).stdout
    (tmp_path / "record.jsonl").write_text(exported.stdout, encoding="utf-8")
    assert cli("verify", tmp_path / "record.jsonl").returncode == 0
    status = cli("status", "demo", env=league)
    assert status.returncode == 0 and "ended" in status.stdout, status.stderr


def test_a_damaged_source_history_is_refused_and_not_copied(source, postgres_url):
    tamper(source, "UPDATE entries SET body = '{\"turn\":7}' WHERE campaign = 'pa-2' AND seq = 1")
    done = cli("store", "copy", source, postgres_url)
    assert done.returncode == 1
    assert_no_traceback(done)
    assert "'pa-2' is corrupt at entry 1" in done.stderr
    with Store.open(postgres_url) as league:
        assert [c.id for c in league.campaigns()] == ["pa-1"]  # copied before pa-2 was met


@pytest.mark.parametrize("args, message", [
    (["missing.sqlite3", "x.sqlite3"], "no campaign store at missing.sqlite3"),
    (["same.sqlite3", "same.sqlite3"], "the same store"),
])
def test_unusable_copy_arguments_are_refused(tmp_path, args, message):
    (tmp_path / "same.sqlite3").touch()
    done = cli("store", "copy", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert_no_traceback(done)


def test_an_unreadable_secret_is_refused_by_name_and_not_copied(source, tmp_path):
    tamper(source, "UPDATE secrets SET value = '{\"hash\": \"argon2' WHERE campaign = 'pa-2' AND name = 'password:japan'")
    done = cli("store", "copy", source, tmp_path / "copy.sqlite3")
    assert done.returncode == 1
    assert_no_traceback(done)
    assert "the secrets of campaign 'pa-2' are damaged: the secret 'password:japan' is not readable" in done.stderr
    assert "argon2" not in done.stderr + done.stdout
    with Store.open(tmp_path / "copy.sqlite3") as copy:
        assert [c.id for c in copy.campaigns()] == ["pa-1"]


def test_a_seed_chain_that_no_longer_matches_its_published_commitment_is_refused(tmp_path):
    from datetime import datetime, timezone

    from adjudicator.campaign import Campaigns
    from adjudicator.fairdice import generate_keypair
    from tests.campaign.conftest import PLAYERS

    club = tmp_path / "club.sqlite3"
    with Store.open(club) as store:
        Campaigns(store).create("c1", "port-arthur", PLAYERS, generate_keypair()[0],
                                now=datetime(2026, 12, 1, tzinfo=timezone.utc))
        with store.transaction("c1") as tx:
            (chain,) = tx.get_secret("referee-chain")
            damaged = chain["final_seed"][:-1] + ("0" if chain["final_seed"][-1] != "0" else "1")
            tx.set_secret("referee-chain", [{**chain, "final_seed": damaged}])
    done = cli("store", "copy", club, tmp_path / "copy.sqlite3")
    assert done.returncode == 1
    assert_no_traceback(done)
    assert "the secret 'referee-chain', chain 1: missing, unreadable, or its seed does not hash" in done.stderr
    assert damaged not in done.stderr + done.stdout
    with Store.open(tmp_path / "copy.sqlite3") as copy:
        assert copy.campaigns() == []
