"""The referee's actions are visible: an undo is mailed to every player with its
reason, a voided step is not re-rolled on the same orders without saying so, and
``verify`` names every voided step and says when a record may have been cut short."""

from __future__ import annotations

import json

import pytest

from adjudicator.campaign.errors import FreshOrdersNeeded
from adjudicator.campaign.verify import render_verdict, verify_text
from adjudicator.fairdice.keys import save_private_key
from adjudicator.mail import parse_message
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    HOUR,
    T0,
    cli,
    email,
    orders_text,
    outgoing,
)

REASON = "Russia's orders were lost by the mail server"


def first_step(campaigns, mailroom, referee_key):
    """Japan's sortie orders taken in by mail and adjudicated: batch 1."""
    assert mailroom.take(parse_message(email(orders_text())), referee_key, None).outcome == "accepted"
    assert campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR).batch == 1


def test_an_undo_mails_every_player_the_voided_step_and_its_reason(campaign, campaigns, mailroom, store,
                                                                   referee_key):
    first_step(campaigns, mailroom, referee_key)
    campaigns.undo(CAMPAIGN, referee_key, REASON)
    notices = [m for m in outgoing(store) if "voided" in m.subject]
    assert sorted(m.recipient for m in notices) == sorted(ADDRESSES.values())
    for notice in notices:
        assert "Step 1 voided by the referee" in notice.subject
        assert REASON in notice.words and "step 2" in notice.words
        assert campaigns.log(CAMPAIGN).records[-1].hash in notice.words  # the head to check against


def confirm_by_mail(mailroom, referee_key, side, step):
    """A side's one-line confirmation of a step, by mail: the header and an entropy line."""
    text = orders_text(side, step=step, body="", entropy=f"{side}-confirms-{step}")
    mail = email(text, sender=ADDRESSES[side], message_id=f"<confirm-{side}-{step}@test>")
    assert mailroom.take(parse_message(mail), referee_key, None).outcome == "accepted"


def test_a_voided_step_needs_a_fresh_contribution_from_every_side_even_with_reuse(campaign, campaigns, mailroom,
                                                                                  referee_key):
    first_step(campaigns, mailroom, referee_key)
    campaigns.undo(CAMPAIGN, referee_key, REASON)
    for reuse in (False, True):
        with pytest.raises(FreshOrdersNeeded, match="every side: waiting for japan, russia"):
            campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR, reuse_orders=reuse)
    assert campaigns.log(CAMPAIGN).next_batch == 2  # nothing adjudicated
    for side in ("japan", "russia"):
        confirm_by_mail(mailroom, referee_key, side, 2)
    assert campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR, reuse_orders=True).batch == 2
    redo = campaigns.log(CAMPAIGN).batches[-1].body
    assert sorted(redo["contributions"]) == ["japan", "russia"] and redo["reused_orders"]


def test_a_voided_step_is_adjudicated_again_with_the_fresh_orders_sent_after_the_undo(
        campaign, campaigns, mailroom, referee_key):
    first_step(campaigns, mailroom, referee_key)
    campaigns.undo(CAMPAIGN, referee_key, REASON)
    fresh = email(orders_text(step=2), message_id="<orders-2@japan.test>")
    assert mailroom.take(parse_message(fresh), referee_key, None).outcome == "accepted"
    confirm_by_mail(mailroom, referee_key, "russia", 2)
    assert campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR).batch == 2


def test_the_adjudicate_command_refuses_a_voided_step_without_fresh_orders(campaign, campaigns, mailroom,
                                                                          referee_key, store, tmp_path):
    first_step(campaigns, mailroom, referee_key)
    campaigns.undo(CAMPAIGN, referee_key, REASON)
    key = tmp_path / "referee.key"
    save_private_key(key, referee_key, None)
    done = cli("adjudicate", CAMPAIGN, "--store", store.path, "--key", key, cwd=tmp_path)
    assert done.returncode == 2 and "--reuse-orders" in done.stderr and "Traceback" not in done.stderr


def test_verify_lists_every_voided_step_with_its_reason_in_text_and_json(campaign, campaigns, mailroom,
                                                                         referee_key):
    first_step(campaigns, mailroom, referee_key)
    campaigns.undo(CAMPAIGN, referee_key, REASON)
    for side in ("japan", "russia"):
        confirm_by_mail(mailroom, referee_key, side, 2)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR, reuse_orders=True)
    verdict = verify_text(campaigns.export_public(CAMPAIGN))
    assert verdict.verified, verdict.reason
    undo_seq = campaigns.log(CAMPAIGN).of_kind("undo")[0].seq
    assert verdict.to_json()["voided"] == [{"batch": 1, "record": undo_seq, "reason": REASON}]
    assert (f"batch 1 voided by the referee (record {undo_seq}): reason {REASON!r}; its dice were revealed"
            in render_verdict(verdict))
    json.dumps(verdict.to_json())


def test_verify_without_head_says_a_running_campaign_may_be_cut_short(campaign, campaigns, mailroom,
                                                                      referee_key):
    first_step(campaigns, mailroom, referee_key)
    text = campaigns.export_public(CAMPAIGN)
    verdict = verify_text(text)
    assert verdict.verified and verdict.to_json()["may_be_cut_short"] is True
    assert "no end-of-game record" in render_verdict(verdict) and "--head" in render_verdict(verdict)
    checked = verify_text(text, campaigns.log(CAMPAIGN).records[-1].hash)
    assert checked.verified and not checked.may_be_cut_short
    assert "no end-of-game record" not in render_verdict(checked)


def test_new_queues_an_opening_mail_to_every_player_with_the_first_question(store, tmp_path, referee_key):
    key = tmp_path / "referee.key"
    save_private_key(key, referee_key, None)
    players = [f"{side}={address}:pw-{side}-1904" for side, address in ADDRESSES.items()]
    done = cli("new", "opening", "--game", "port-arthur", *(a for p in players for a in ("--player", p)),
               "--from", "referee@adjudicator.test", "--store", store.path, "--key", key,
               "--now", T0.isoformat(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    fingerprint = done.stdout.split("referee key fingerprint: ")[1].split()[0]
    mails = outgoing(store, "opening")
    assert sorted(m.recipient for m in mails) == sorted(ADDRESSES.values())
    for mail in mails:
        assert "opens" in mail.subject and "[opening]" in mail.subject
        assert "Campaign id: opening" in mail.text and fingerprint in mail.text
        assert "How to reply" in mail.text and "BEGIN ORDERS" in mail.text
        assert "1904-02-11 12:00 UTC" in " ".join(mail.text.split())  # the first deadline (72 hours), maybe wrapped
        assert fingerprint in (mail.html or "") and "--head" in mail.text  # the head to check against
    japan = next(m for m in mails if m.recipient == ADDRESSES["japan"])
    assert "WHAT IS ASKED OF YOU" in japan.text and "side: japan" in japan.text


def test_step_after_an_undo_waits_for_fresh_orders_and_still_sends_the_notices(campaign, campaigns, mailroom,
                                                                               referee_key, store, tmp_path):
    first_step(campaigns, mailroom, referee_key)
    campaigns.undo(CAMPAIGN, referee_key, REASON)
    key = tmp_path / "referee.key"
    save_private_key(key, referee_key, None)
    done = cli("step", CAMPAIGN, "--store", store.path, "--key", key, "--outbox", tmp_path / "outbox", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "--reuse-orders" in done.stdout and campaigns.log(CAMPAIGN).next_batch == 2
    assert any("voided" in path.read_text() for path in (tmp_path / "outbox").glob("*.eml"))


def test_a_redo_without_reuse_orders_does_not_use_the_voided_steps_orders(campaign, campaigns, mailroom,
                                                                          referee_key):
    first_step(campaigns, mailroom, referee_key)  # japan's sortie answered from its orders for step 1
    campaigns.undo(CAMPAIGN, referee_key, REASON)
    for side in ("japan", "russia"):
        confirm_by_mail(mailroom, referee_key, side, 2)
    in_force = campaigns.orders_in_force_for(CAMPAIGN, "japan")  # the voided step's sortie is not in force
    assert in_force is None or in_force.block("sortie") is None
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR)
    redo = campaigns.log(CAMPAIGN).batches[-1].body
    assert "reused_orders" not in redo
    assert step.waiting is not None and step.waiting.side == "japan" and step.waiting.kind == "sortie"
    assert verify_text(campaigns.export_public(CAMPAIGN)).verified


def test_a_redo_with_reuse_orders_answers_from_the_voided_steps_orders(campaign, campaigns, mailroom,
                                                                       referee_key):
    first_step(campaigns, mailroom, referee_key)
    campaigns.undo(CAMPAIGN, referee_key, REASON)
    for side in ("japan", "russia"):
        confirm_by_mail(mailroom, referee_key, side, 2)
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR, reuse_orders=True)
    assert step.waiting.side == "russia"  # japan's sortie was answered from its orders for step 1
    assert campaigns.log(CAMPAIGN).batches[-1].body["reused_orders"]
    assert verify_text(campaigns.export_public(CAMPAIGN)).verified
