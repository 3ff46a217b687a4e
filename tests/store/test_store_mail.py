"""Incoming mail taken once; outgoing mail claimed atomically and sent once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.store import (
    DuplicateMessageId,
    InvalidValue,
    MailStatus,
    OutboxMailNotFound,
    OutboxStateError,
    Store,
    sha256_hex,
)

CAMPAIGN = "pa-1"
WORKER = Path(__file__).with_name("store_worker.py")
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def path(store_location):
    return store_location


@pytest.fixture
def store(path):
    with Store.open(path) as opened:
        opened.create_campaign(CAMPAIGN, "port-arthur")
        yield opened


def seen(store, message_id, content):
    with store.transaction(CAMPAIGN) as tx:
        return tx.mark_mail_seen(message_id, sha256_hex(content))


# -- incoming mail --------------------------------------------------------------


def test_same_message_id_is_taken_once(store):
    assert seen(store, "<a@example.org>", b"orders 1") is True
    assert seen(store, "<a@example.org>", b"orders 1") is False
    assert seen(store, "<a@example.org>", b"different bytes, same id") is False


def test_same_content_is_taken_once(store):
    assert seen(store, "<a@example.org>", b"orders") is True
    assert seen(store, "<b@example.org>", b"orders") is False
    assert seen(store, None, b"orders") is False


def test_mail_without_message_id_is_deduplicated_by_content(store):
    assert seen(store, None, b"first") is True
    assert seen(store, None, b"second") is True
    assert seen(store, None, b"first") is False


def test_received_order_is_arrival_order(store):
    for n in range(4):
        seen(store, f"<{n}@example.org>", b"%d" % n)
    seen(store, "<1@example.org>", b"1")  # a duplicate takes no number
    taken = store.seen_mail(CAMPAIGN)
    assert [m.received for m in taken] == [1, 2, 3, 4]
    assert [m.message_id for m in taken] == [f"<{n}@example.org>" for n in range(4)]


def test_seen_mail_is_per_campaign_and_durable(store, path):
    store.create_campaign("other", "port-arthur")
    seen(store, "<a@example.org>", b"x")
    with store.transaction("other") as tx:
        assert tx.mark_mail_seen("<a@example.org>", sha256_hex(b"x")) is True
    store.close()
    with Store.open(path) as reopened:
        with reopened.transaction(CAMPAIGN) as tx:
            assert tx.mark_mail_seen("<a@example.org>", sha256_hex(b"x")) is False


@pytest.mark.parametrize("message_id", ["", "  ", "<a@b>\r\nBcc: x", 5])
def test_bad_message_ids_are_refused(store, message_id):
    with pytest.raises(InvalidValue, match="Message-ID"):
        with store.transaction(CAMPAIGN) as tx:
            tx.mark_mail_seen(message_id, sha256_hex(b"x"))


@pytest.mark.parametrize("content_hash", ["", "XYZ", "ABCDEF0123456789", b"00" * 32])
def test_bad_content_hashes_are_refused(store, content_hash):
    with pytest.raises(InvalidValue, match="content hash"):
        with store.transaction(CAMPAIGN) as tx:
            tx.mark_mail_seen("<a@b>", content_hash)


# -- outgoing mail ----------------------------------------------------------------


def queue(store, n, campaign=CAMPAIGN):
    with store.transaction(campaign) as tx:
        return tx.queue_mail(f"<report-{n}@ref.example.org>", f"p{n}@example.org", b"eml %d" % n)


def test_queue_claim_send(store):
    queued = queue(store, 1)
    assert queued.status is MailStatus.QUEUED and queued.attempts == 0
    assert queued.eml == b"eml 1"
    with store.transaction(CAMPAIGN) as tx:
        claimed = tx.claim_mail()
    assert [m.id for m in claimed] == [queued.id]
    assert claimed[0].status is MailStatus.SENDING and claimed[0].attempts == 1
    with store.transaction(CAMPAIGN) as tx:
        assert tx.claim_mail() == []  # already claimed: nobody else gets it
        sent = tx.mark_sent(queued.id)
    assert sent.status is MailStatus.SENT and sent.sent_at is not None
    with pytest.raises(OutboxStateError, match="'sent', so it cannot be marked sent"):
        with store.transaction(CAMPAIGN) as tx:
            tx.mark_sent(queued.id)
    with store.transaction(CAMPAIGN) as tx:
        assert tx.claim_mail() == []
    assert store.outbox(CAMPAIGN, "sent") == [sent]


def test_unclaimed_mail_cannot_be_marked_sent(store):
    queued = queue(store, 1)
    with pytest.raises(OutboxStateError, match="'queued'"):
        with store.transaction(CAMPAIGN) as tx:
            tx.mark_sent(queued.id)


def test_failure_requeues_until_permanent(store):
    queued = queue(store, 1)
    with store.transaction(CAMPAIGN) as tx:
        tx.claim_mail()
        again = tx.mark_failed(queued.id, "451 try later")
    assert again.status is MailStatus.QUEUED and again.last_error == "451 try later"
    with store.transaction(CAMPAIGN) as tx:
        assert tx.claim_mail()[0].attempts == 2
        failed = tx.mark_failed(queued.id, "550 no such user", permanent=True)
    assert failed.status is MailStatus.FAILED
    with store.transaction(CAMPAIGN) as tx:
        assert tx.claim_mail() == []
        assert tx.requeue(queued.id).status is MailStatus.QUEUED
        assert [m.id for m in tx.claim_mail()] == [queued.id]


def test_claim_limit_and_order(store):
    ids = [queue(store, n).id for n in range(5)]
    with store.transaction(CAMPAIGN) as tx:
        first = tx.claim_mail(limit=2)
        rest = tx.claim_mail()
    assert [m.id for m in first] == ids[:2]
    assert [m.id for m in rest] == ids[2:]


def test_claims_are_per_campaign(store):
    store.create_campaign("other", "port-arthur")
    queue(store, 1, "other")
    with store.transaction(CAMPAIGN) as tx:
        assert tx.claim_mail() == []
    with pytest.raises(OutboxMailNotFound):
        with store.transaction(CAMPAIGN) as tx:
            tx.mark_sent(store.outbox("other")[0].id)


def test_duplicate_outgoing_message_id_is_refused(store):
    queue(store, 1)
    with pytest.raises(DuplicateMessageId, match="<report-1@ref.example.org>"):
        queue(store, 1)


def test_unknown_status_is_refused(store):
    with pytest.raises(InvalidValue, match="unknown mail status 'lost'"):
        store.outbox(CAMPAIGN, "lost")


def test_two_sender_processes_never_send_twice(store, path):
    ids = {queue(store, n).id for n in range(30)}
    env = dict(os.environ, PYTHONPATH=str(REPO))
    senders = [
        subprocess.Popen(
            [sys.executable, str(WORKER), "claimer", str(path), CAMPAIGN],
            stdout=subprocess.PIPE, text=True, env=env,
        )
        for _ in range(2)
    ]
    sent_by = [proc.communicate(timeout=60)[0].split("\n") for proc in senders]
    assert [proc.returncode for proc in senders] == [0, 0]
    sent = [int(line.split()[1]) for lines in sent_by for line in lines if line.startswith("sent")]
    assert sorted(sent) == sorted(ids)  # each exactly once
    outbox = store.outbox(CAMPAIGN)
    assert all(m.status is MailStatus.SENT and m.attempts == 1 for m in outbox)


def test_queued_mail_is_returned_as_the_outbox_then_holds_it(store):
    with store.transaction(CAMPAIGN) as tx:
        queued = tx.queue_mail("<report@example.org>", "p@example.org", bytearray(b"Subject: x\r\n\r\nbody\r\n"))
        assert tx.outbox() == [queued]
    assert store.outbox(CAMPAIGN) == [queued]
    assert queued.status is MailStatus.QUEUED and isinstance(queued.eml, bytes) and queued.attempts == 0
