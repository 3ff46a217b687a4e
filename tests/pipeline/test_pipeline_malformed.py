"""One malformed message is refused on its own (answered when it can be) and never stops
the intake of the messages delivered with it: a UTF-7 body decoding to a lone
surrogate, a From longer than 998 characters, broken MIME, and 2,000 fuzzed mails."""

from __future__ import annotations

import mailbox

import pytest

from adjudicator.campaign import passwords
from adjudicator.fairdice import save_private_key
from tests.conftest import soak_size
from tests.pipeline.malformed_mail import BROKEN_MIME, LONG_FROM, UTF7_LONE_SURROGATE, malformed_mails
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    PLAYERS,
    REFEREE,
    T0,
    assert_no_traceback,
    cli,
    email,
    orders_text,
    outgoing,
)


def mbox_of(path, mails):
    box = mailbox.mbox(path, create=True)
    for raw in mails:
        box.add(raw)
    box.close()
    return path


def good(number: int) -> bytes:
    body = "sortie:\n  Mikasa to Tsushima\n" if number % 2 else "sortie:\n  Mikasa to Yellow Sea\n"
    return email(orders_text(body=body), message_id=f"<good-{number}@japan.test>")


@pytest.mark.parametrize("raw", [UTF7_LONE_SURROGATE, LONG_FROM, BROKEN_MIME], ids=["utf7", "long-from", "mime"])
def test_a_malformed_message_is_refused_alone_and_the_good_one_behind_it_is_accepted(
        raw, campaign, store, mailroom, referee_key, tmp_path):
    source = mbox_of(tmp_path / "in.mbox", [raw, good(1)])

    bad, fine = mailroom.receive(source, referee_key)

    assert bad.outcome in ("refused", "accepted") and bad.detail
    assert fine.outcome == "accepted", fine.detail
    for mail in outgoing(store):
        assert "\ufffd" not in mail.recipient and len(mail.recipient) < 255
    assert store.entries(CAMPAIGN)  # the history still verifies


def test_a_utf7_lone_surrogate_is_answered_with_a_replacement_character_not_a_crash(
        campaign, store, mailroom, referee_key, tmp_path):
    (taken,) = mailroom.receive(mbox_of(tmp_path / "in.mbox", [UTF7_LONE_SURROGATE]), referee_key)

    assert taken.outcome == "refused"
    (reply,) = [m for m in outgoing(store) if m.recipient == ADDRESSES["japan"]]
    assert "wrong password" in reply.text or "problem" in reply.text


def test_a_from_longer_than_998_characters_gets_no_reply_and_records_nothing(
        campaign, campaigns, store, mailroom, referee_key, tmp_path):
    (taken,) = mailroom.receive(mbox_of(tmp_path / "in.mbox", [LONG_FROM]), referee_key)

    # the password is right: the orders are the side's, and the side's own address is told
    assert taken.outcome == "accepted"
    assert [m.recipient for m in outgoing(store)] == [ADDRESSES["japan"]]


def test_the_receive_command_takes_the_good_mail_behind_malformed_ones_and_exits_0(
        campaign, store, referee_key, tmp_path):
    save_private_key(tmp_path / "referee.key", referee_key, None)
    source = mbox_of(tmp_path / "in.mbox", [UTF7_LONE_SURROGATE, LONG_FROM, BROKEN_MIME, good(1)])

    done = cli("receive", source, "--store", store.path, "--key", tmp_path / "referee.key")
    again = cli("receive", source, "--store", store.path, "--key", tmp_path / "referee.key")

    assert done.returncode == 0, done.stderr
    assert_no_traceback(done)
    assert len(done.stdout.splitlines()) == 4
    assert done.stdout.splitlines()[-1].startswith("accepted")
    assert again.returncode == 0 and "4 duplicate" in again.stderr


#: How many fuzzed mails: 2,000 with ADJUDICATOR_SOAK=1 (minutes on a loaded machine),
#: 160 by default; FUZZ_MAIL=N (a multiple of 8) for another count.
FUZZ_MAIL = soak_size(160, 2000, "FUZZ_MAIL")


@pytest.mark.soak("sized")
def test_two_thousand_malformed_mails_never_stop_the_intake(campaigns, store, mailroom, referee_key,
                                                            tmp_path, monkeypatch):
    # a cheap password hash for this campaign (2,000 checks), kept while the test runs
    monkeypatch.setattr(passwords, "ARGON2_MEMORY_KIB", 64)
    monkeypatch.setattr(passwords, "ARGON2_PASSES", 1)
    campaigns.create(CAMPAIGN, "port-arthur", PLAYERS, referee_key, referee_address=REFEREE, now=T0)
    mails = malformed_mails(FUZZ_MAIL)
    delivery = []
    for number, raw in enumerate(mails):
        delivery.append(raw)
        if number % (FUZZ_MAIL // 8) == 0:
            delivery.append(good(number))
    source = mbox_of(tmp_path / "fuzz.mbox", delivery)

    taken = mailroom.receive(source, referee_key, default_campaign=CAMPAIGN)

    assert len(taken) == len(delivery)
    assert all(t.outcome in ("accepted", "answered", "refused", "duplicate", "ignored") and t.detail for t in taken)
    goods = [t for raw, t in zip(delivery, taken) if raw.startswith(b"From: Heihachiro") and b"good-" in raw]
    assert len(goods) == 8 and {t.outcome for t in goods} == {"accepted"}
    assert store.entries(CAMPAIGN)  # verifies
    assert all(m.message["To"] for m in outgoing(store))


def test_the_step_command_takes_the_good_mail_behind_malformed_ones_and_adjudicates(
        campaign, store, referee_key, tmp_path):
    save_private_key(tmp_path / "referee.key", referee_key, None)
    source = mbox_of(tmp_path / "in.mbox", [UTF7_LONE_SURROGATE, LONG_FROM, BROKEN_MIME, good(1)])

    done = cli("step", CAMPAIGN, source, "--store", store.path, "--key", tmp_path / "referee.key",
               "--outbox", tmp_path / "out", "--now", "1904-02-08T13:00:00+00:00")

    assert done.returncode == 0, done.stderr
    assert_no_traceback(done)
    assert "step 1 adjudicated" in done.stdout
