"""Every message gets an answer, to the right address only: an unknown campaign (with
"did you mean"), a mail without orders, a stranger's mail (never quoted back), group
syntax or a crafted From (never answered), stale orders for another turn, and signed
orders sent again (a replay)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from adjudicator.campaign import Player
from adjudicator.campaign.errors import AuthenticationFailed, StepOver
from adjudicator.campaign.signing import sign_orders
from adjudicator.fairdice import generate_keypair, public_key_to_text, save_private_key
from adjudicator.mail import parse_message
from tests.pipeline.pipeline_helpers import (
    deliver,
    ADDRESSES,
    CAMPAIGN,
    HOUR,
    REFEREE,
    T0,
    assert_no_traceback,
    cli,
    email,
    orders_text,
    outgoing,
)




def orders_records(store):
    return [e for e in store.entries(CAMPAIGN) if e.kind == "orders"]


# -- unknown campaign, no orders ----------------------------------------------------------


def test_a_misspelt_campaign_gets_a_reply_with_did_you_mean(campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email(orders_text(campaign="c2")), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "refused" and "no campaign 'c2'" in taken.detail
    (reply,) = outgoing(store)
    assert reply.recipient == ADDRESSES["japan"]
    assert "there is no campaign 'c2' here; did you mean 'c1'?" in reply.words
    assert orders_records(store) == []
    assert [t.outcome for t in mailroom.receive(inbox.path, referee_key)] == ["duplicate"]
    assert len(outgoing(store)) == 1


def test_receive_and_step_answer_a_misspelt_campaign_the_same_way(campaign, store, referee_key, tmp_path):
    save_private_key(tmp_path / "referee.key", referee_key, None)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "1.eml").write_bytes(email(orders_text(campaign="c2"), message_id="<a@japan.test>"))
    (tmp_path / "b" / "1.eml").write_bytes(email(orders_text(campaign="c2"), message_id="<b@japan.test>"))
    common = ["--store", store.path, "--key", tmp_path / "referee.key"]

    received = cli("receive", tmp_path / "a", *common)
    stepped = cli("step", CAMPAIGN, tmp_path / "b", *common, "--outbox", tmp_path / "out",
                  "--now", "1904-02-08T13:00:00+00:00")

    for done in (received, stepped):
        assert done.returncode == 0, done.stderr
        assert_no_traceback(done)
    replies = [m for m in outgoing(store) if "did you mean 'c1'" in m.words]
    assert [m.recipient for m in replies] == [ADDRESSES["japan"]] * 2


def test_a_players_mail_without_orders_is_answered(campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email("Thank you for the report, a fine battle.\nTogo\n"), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "refused"
    (reply,) = outgoing(store)
    assert reply.recipient == ADDRESSES["japan"] and "names no campaign" in reply.words


def test_a_strangers_chat_without_orders_is_not_answered(campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email("Hello, do you sell ships?\n", sender="someone@elsewhere.test"), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key, default_campaign=CAMPAIGN)

    assert taken.outcome == "ignored"
    assert outgoing(store) == []


def test_a_reply_to_a_stranger_never_quotes_the_mails_text(campaign, store, mailroom, referee_key, inbox):
    spam = "campaign: c1\nBuy cheap watches at spam.example today\n"
    deliver(inbox, email(spam, sender="victim@elsewhere.test"), 1_000)
    deliver(inbox, email(spam.replace("c1", "c2"), sender="victim@elsewhere.test",
                         message_id="<other@elsewhere.test>"), 2_000)

    taken = mailroom.receive(inbox.path, referee_key)

    assert [t.outcome for t in taken] == ["refused", "refused"]
    replies = outgoing(store)
    assert [m.recipient for m in replies] == ["victim@elsewhere.test"] * 2
    for reply in replies:
        assert "watches" not in reply.text and "spam.example" not in reply.text and "c2" not in reply.text


# -- where replies go -------------------------------------------------------------------------


@pytest.mark.parametrize("sender", [
    "team: togo@japan.test, victim@elsewhere.test;",
    "togo@japan.test, victim@elsewhere.test",
    '"togo@japan.test" <victim@elsewhere.test>, x@y.test',
    "victim" + "x" * 300 + "@elsewhere.test",
])
def test_a_crafted_from_gets_no_reply_but_the_side_is_told(sender, campaign, store, mailroom, referee_key):
    raw = (f"From: {sender}\r\nTo: {REFEREE}\r\nSubject: Orders\r\nMessage-ID: <crafted@x.test>\r\n\r\n"
           + orders_text(password="wrong").replace("\n", "\r\n")).encode()

    taken = mailroom.take(parse_message(raw), referee_key, None)

    assert taken.outcome == "refused"
    assert [m.recipient for m in outgoing(store)] == [ADDRESSES["japan"]]


def test_new_refuses_a_from_address_with_a_line_break(store, referee_key, tmp_path):
    save_private_key(tmp_path / "referee.key", referee_key, None)
    players = tmp_path / "players.toml"
    players.write_text('[[player]]\nside = "japan"\naddress = "togo@japan.test"\npassword = "p1"\n'
                       '[[player]]\nside = "russia"\naddress = "makarov@russia.test"\npassword = "p2"\n')
    base = ["new", "c9", "--game", "port-arthur", "--players", players, "--store", store.path, "--key", tmp_path / "referee.key"]

    injected = cli(*base, "--from", "referee@x.test\r\nBcc: victim@elsewhere.test")
    bad_player = tmp_path / "bad.toml"
    bad_player.write_text(players.read_text().replace("togo@japan.test", "togo@japan.test\\nBcc: v@x.test"))
    injected_player = cli(*base[:5], bad_player, *base[6:], "--from", "referee@x.test")

    for done in (injected, injected_player):
        assert done.returncode == 2, done.stdout + done.stderr
        assert_no_traceback(done)
        assert "line break" in done.stderr
    assert store.campaigns() == []


# -- stale orders ---------------------------------------------------------------------------


def test_orders_for_another_turn_without_a_step_line_are_refused_as_early_or_stale(
        campaign, campaigns, store, mailroom, referee_key):
    early = orders_text(turn=3).replace("step: 1\n", "")

    taken = mailroom.take(parse_message(email(early)), referee_key, None)

    assert taken.outcome == "refused"
    assert "for turn 3, but the game is at turn 1" in taken.detail
    assert "turn 3 has not begun" in outgoing(store)[-1].words and "'turn: 1'" in outgoing(store)[-1].text
    assert orders_records(store) == []
    with pytest.raises(StepOver, match="turn 2 has not begun"):
        campaigns.submit(CAMPAIGN, orders_text(turn=2), referee_key)
    assert campaigns.submit(CAMPAIGN, orders_text(turn=1).replace("step: 1\n", ""), referee_key).sha256


# -- signed orders cannot be replayed ----------------------------------------------------------


def test_signed_orders_sent_again_over_newer_ones_are_refused_as_a_replay(campaigns, store, mailroom, referee_key):
    japan_key = generate_keypair()[0]
    players = [Player("japan", "togo@japan.test", public_key=public_key_to_text(japan_key.public_key())),
               Player("russia", "makarov@russia.test", "Makarov-1904")]
    campaigns.create(CAMPAIGN, "port-arthur", players, referee_key, referee_address=REFEREE, now=T0)
    text = orders_text(password="")
    monday = datetime(2026, 12, 2, 10, 14, tzinfo=timezone.utc)
    older = sign_orders(text, japan_key, "port-arthur", now=monday)
    newer = sign_orders(text.replace("Tsushima", "Yellow Sea"), japan_key, "port-arthur", now=monday + HOUR)

    assert campaigns.submit(CAMPAIGN, older, referee_key).sha256
    assert campaigns.submit(CAMPAIGN, newer, referee_key).sha256
    replayed = older + "# with a comment added by a third party\n"
    with pytest.raises(AuthenticationFailed, match="cannot be sent again"):
        campaigns.submit(CAMPAIGN, replayed, referee_key)
    taken = mailroom.take(parse_message(email(replayed, sender="thief@elsewhere.test")), referee_key, None)
    assert taken.outcome == "refused"
    assert len(orders_records(store)) == 2
    with pytest.raises(AuthenticationFailed, match="no signing time"):
        campaigns.submit(CAMPAIGN, text + "signature: AAAA\n", referee_key)
    assert campaigns.submit(CAMPAIGN, sign_orders(text, japan_key, "port-arthur",
                                                  now=monday + timedelta(days=1)), referee_key).sha256


def test_history_shows_the_sender_of_each_submission(campaign, campaigns, store, mailroom, referee_key, tmp_path):
    mailroom.take(parse_message(email(orders_text(), sender="Togo <h.togo@elsewhere.test>")), referee_key, None)
    campaigns.submit(CAMPAIGN, orders_text(), referee_key)

    done = cli("history", CAMPAIGN, "--store", store.path)

    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if " orders " in line]
    assert "from h.togo@elsewhere.test at " in lines[0]
    assert "by hand" in lines[1]
