"""Defaults only after a notice that arrived: a reminder refused by a real SMTP server on
the loopback interface, or bounced by a delivery status notification (a multipart/report
built as a mail server writes one) that comes back through 'receive', holds the side's
default back: the referee is told, 'status' says so, and the deadline waits up to the
campaign's grace, after which the defaults apply and the report says why. A reminder
the server takes holds nothing; the reminder sent again and taken ends the hold, the
side's orders arriving do not move it back. A delivery report is never answered."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.campaign.delivery import DELIVERY, GRACE_KEY, read_delivery_report
from adjudicator.campaign.roster import BadRoster, create_roster, read_roster
from adjudicator.campaign.summary import step_deadline
from adjudicator.fairdice.keys import save_private_key
from adjudicator.mail import SmtpSettings, parse_message
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    DEADLINE_HOURS,
    HOUR,
    PLAYERS,
    REFEREE,
    T0,
    assert_no_traceback,
    cli,
    deliver,
    email,
    orders_text,
    outgoing,
    reports,
)
from tests.smtp_loopback import HOST as SMTP_HOST
from tests.smtp_loopback import RecordingHandler, smtp_server

DEADLINE = T0 + DEADLINE_HOURS * HOUR
GRACE = 48 * HOUR
UNKNOWN_USER = "550 5.1.1 <togo@japan.test>: Recipient address rejected: User unknown"


def smtp(port: int) -> SmtpSettings:
    return SmtpSettings(host=SMTP_HOST, port=port, security="none", timeout=5)


def reminders(store):
    return [m for m in outgoing(store) if "Reminder" in m.subject]


def to_referee(store):
    return [m for m in outgoing(store) if m.recipient == REFEREE]


def delivery(store, side: str = "japan") -> dict:
    return store.campaign(CAMPAIGN).meta[DELIVERY][side]


def send(mailroom, handler: RecordingHandler) -> tuple[int, list[str]]:
    with smtp_server(handler) as port:
        _, sent, failures = mailroom.send(CAMPAIGN, smtp(port))
    return sent, failures


def remind_and_send(mailroom, handler: RecordingHandler) -> None:
    assert mailroom.remind(CAMPAIGN, 12, now=DEADLINE - 11 * HOUR) == "japan"
    send(mailroom, handler)


def dsn(original: bytes, *, action: str = "failed", status: str = "5.1.1", whole: bool = False,
        message_id: str = "<20260101.dsn1@mx.japan.test>") -> bytes:
    """A delivery status notification as Postfix writes one (RFC 3464): an explanation,
    the machine-readable report, and the returned message (its headers, or whole)."""
    head = original.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0].decode("ascii")
    returned = (original.replace(b"\r\n", b"\n").decode("ascii") if whole else head + "\n")
    kind = "message/rfc822" if whole else "text/rfc822-headers"
    text = f"""Return-Path: <>
From: MAILER-DAEMON@mx.japan.test (Mail Delivery System)
To: {REFEREE}
Subject: Undelivered Mail Returned to Sender
Date: Fri, 1 Jan 2026 10:00:00 +0000
Message-ID: {message_id}
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="3F2A1.1767261600/mx.japan.test"

This is a MIME-encapsulated message.

--3F2A1.1767261600/mx.japan.test
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.japan.test.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients.

<togo@japan.test>: host mx.japan.test[192.0.2.7] said: {UNKNOWN_USER}

--3F2A1.1767261600/mx.japan.test
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.japan.test
X-Postfix-Queue-ID: 3F2A1
X-Postfix-Sender: rfc822; {REFEREE}
Arrival-Date: Fri, 1 Jan 2026 09:59:58 +0000

Final-Recipient: rfc822; togo@japan.test
Original-Recipient: rfc822;togo@japan.test
Action: {action}
Status: {status}
Remote-MTA: dns; mx.japan.test
Diagnostic-Code: smtp; {UNKNOWN_USER}

--3F2A1.1767261600/mx.japan.test
Content-Description: Undelivered Message
Content-Type: {kind}

{returned}
--3F2A1.1767261600/mx.japan.test--
"""
    return text.encode("ascii")


def bounce_reminder(store, mailroom, referee_key, inbox, **options) -> list:
    """The reminder taken by the server, then bounced by a delivery report through 'receive'."""
    remind_and_send(mailroom, RecordingHandler())
    (reminder,) = store.outbox(CAMPAIGN, "sent")[-1:]
    deliver(inbox, dsn(reminder.eml, **options), 1)
    return mailroom.receive(inbox.path, referee_key)


def test_a_reminder_the_server_takes_holds_nothing_and_the_default_comes_at_the_deadline(
        campaign, campaigns, store, mailroom, referee_key):
    handler = RecordingHandler()
    remind_and_send(mailroom, handler)

    assert [a.rcpt_tos for a in handler.received] == [[ADDRESSES["japan"]]]
    assert delivery(store)["status"] == "accepted"
    assert campaigns.deadline(CAMPAIGN) == DEADLINE
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=DEADLINE + HOUR, after=mailroom.queue_reports)
    assert step.defaults == ("japan",)
    assert all("grace" not in r.words for r in reports(store))
    assert to_referee(store) == []


def test_a_reminder_refused_by_the_server_holds_the_default_back_until_the_grace_runs_out(
        campaign, campaigns, store, mailroom, referee_key):
    refusing = RecordingHandler(refuse_rcpt={ADDRESSES["japan"]: UNKNOWN_USER})
    remind_and_send(mailroom, refusing)

    record = delivery(store)
    assert record["status"] == "refused" and "550 5.1.1" in record["detail"] and record["step"] == 1
    assert [m.status for m in reminders(store)] == ["failed"]  # not tried again with a deadline gone by
    assert campaigns.deadline(CAMPAIGN) == DEADLINE + GRACE
    (told,) = to_referee(store)
    assert "did not arrive" in told.subject and "japan" in told.subject
    assert "refused by the mail server" in told.words and "550 5.1.1" in told.words
    assert "remind c1 --again" in told.words and "1904-02-13 12:00 UTC" in told.words
    assert all(len(line) <= 78 for line in told.text.splitlines())

    held = campaigns.adjudicate(CAMPAIGN, referee_key, now=DEADLINE + HOUR, after=mailroom.queue_reports)
    assert held.batch is None and reports(store) == []  # not defaulted at the deadline

    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=DEADLINE + GRACE + HOUR, after=mailroom.queue_reports)
    assert step.batch == 1 and step.defaults == ("japan",)
    latest = reports(store)
    assert sorted(r.recipient for r in latest) == sorted(ADDRESSES.values())
    for report in latest:
        assert ("Japan: the reminder for step 1 was refused by the mail server; the deadline waited the 48 "
                "hours of grace, then the defaults applied") in report.words


def test_a_bounce_that_comes_back_through_receive_holds_the_default_back_and_is_never_answered(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    (taken,) = bounce_reminder(store, mailroom, referee_key, inbox)

    assert taken.outcome == "ignored" and taken.campaign == CAMPAIGN
    assert "bounced" in taken.detail and "never answered" in taken.detail
    record = delivery(store)
    assert record["status"] == "bounced" and "5.1.1" in record["detail"]
    queued = outgoing(store, status="queued")
    assert [m.recipient for m in queued] == [REFEREE]  # the referee is told; the bounce gets no answer
    assert "bounced" in queued[0].words
    assert campaigns.deadline(CAMPAIGN) == DEADLINE + GRACE
    assert campaigns.adjudicate(CAMPAIGN, referee_key, now=DEADLINE + 47 * HOUR).batch is None

    again = mailroom.receive(inbox.path, referee_key)  # the same report read again: taken once
    assert [t.outcome for t in again] == ["duplicate"] and len(to_referee(store)) == 1

    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=DEADLINE + GRACE, after=mailroom.queue_reports)
    assert step.defaults == ("japan",)
    assert all("Japan: the reminder for step 1 bounced; the deadline waited the 48 hours of grace" in r.words
               for r in reports(store))


def test_a_bounce_returning_the_whole_reminder_is_matched_as_well(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    (taken,) = bounce_reminder(store, mailroom, referee_key, inbox, whole=True)

    assert taken.outcome == "ignored" and delivery(store)["status"] == "bounced"
    assert campaigns.deadline(CAMPAIGN) == DEADLINE + GRACE


def test_a_delay_notice_is_no_bounce_and_holds_nothing(campaign, campaigns, store, mailroom, referee_key, inbox):
    (taken,) = bounce_reminder(store, mailroom, referee_key, inbox, action="delayed", status="4.4.1")

    assert taken.outcome == "ignored" and "delayed" in taken.detail
    assert delivery(store)["status"] == "accepted"
    assert campaigns.deadline(CAMPAIGN) == DEADLINE and to_referee(store) == []


def test_a_delivery_report_about_no_reminder_is_ignored_and_never_answered(
        campaign, store, mailroom, referee_key, inbox):
    report = dsn(email(orders_text(), message_id="<someone-else@japan.test>"))
    deliver(inbox, report, 1)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "ignored" and "no reminder" in taken.detail
    assert outgoing(store, status="queued") == []


def test_orders_arriving_do_not_move_a_held_deadline_back(campaign, campaigns, store, mailroom, referee_key,
                                                         inbox):
    """The other side was told the deadline waits: the bounced side's orders, arriving
    after the deadline the hold replaced, must not bring back a deadline already past."""
    bounce_reminder(store, mailroom, referee_key, inbox)
    assert campaigns.deadline(CAMPAIGN) == DEADLINE + GRACE

    taken = mailroom.take(parse_message(email(orders_text())), referee_key, None)

    assert taken.outcome == "accepted"
    assert campaigns.deadline(CAMPAIGN) == DEADLINE + GRACE


def test_the_reminder_sent_again_and_taken_ends_the_hold_at_the_deadline_it_announced(
        campaign, campaigns, store, mailroom, referee_key):
    remind_and_send(mailroom, RecordingHandler(refuse_rcpt={ADDRESSES["japan"]: UNKNOWN_USER}))
    assert mailroom.remind(CAMPAIGN, 12, now=DEADLINE - 10 * HOUR) is None  # once per step, unless told

    assert mailroom.remind(CAMPAIGN, 12, now=DEADLINE - 10 * HOUR, again=True) == "japan"
    resent = reminders(store)[-1]
    assert "1904-02-13 12:00 UTC" in resent.words  # the deadline as it waits
    working = RecordingHandler()
    send(mailroom, working)

    assert [a.rcpt_tos for a in working.received if "Reminder" in str(a.message["Subject"])] == [
        [ADDRESSES["japan"]]]  # the new reminder alone: the refused one is not tried again
    assert delivery(store)["status"] == "accepted"
    assert campaigns.deadline(CAMPAIGN) == DEADLINE + GRACE  # as the reminder that arrived said
    assert campaigns.adjudicate(CAMPAIGN, referee_key, now=DEADLINE + GRACE - HOUR).batch is None
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=DEADLINE + GRACE, after=mailroom.queue_reports)
    assert step.defaults == ("japan",)
    assert all("grace" not in r.words for r in reports(store))  # the reminder did arrive


def test_status_tells_the_referee_of_a_reminder_that_did_not_arrive(campaign, store, mailroom):
    remind_and_send(mailroom, RecordingHandler(refuse_rcpt={ADDRESSES["japan"]: UNKNOWN_USER}))

    text = cli("status", CAMPAIGN, "--store", store.path)
    data = cli("status", CAMPAIGN, "--store", store.path, "--format", "json")

    assert text.returncode == 0 and data.returncode == 0, text.stderr + data.stderr
    assert "reminder to japan for step 1 was refused by the mail server" in text.stdout
    assert "not defaulted, the deadline waits (at most 48 hours)" in text.stdout
    assert f"deadline: {(DEADLINE + GRACE).isoformat()}" in text.stdout
    (hold,) = json.loads(data.stdout)["reminders_not_delivered"]
    assert (hold["side"], hold["status"], hold["orders_arrived"]) == ("japan", "refused", False)


def test_the_campaign_sets_its_grace_in_the_players_file(store, referee_key, tmp_path):
    players = tmp_path / "players.toml"
    players.write_text("bounce_grace_hours = 12\n" + "".join(
        f'[[player]]\nside = "{p.side}"\naddress = "{p.address}"\npassword = "{p.password}"\n' for p in PLAYERS))
    key = tmp_path / "referee.key"
    save_private_key(key, referee_key, None)
    done = cli("new", "g1", "--game", "port-arthur", "--players", players, "--store", store.path, "--key", key)
    bad = players.read_text().replace("= 12", '= "two days"')
    (tmp_path / "bad.toml").write_text(bad)
    refused = cli("new", "g2", "--game", "port-arthur", "--players", tmp_path / "bad.toml", "--store", store.path,
                  "--key", key)

    assert done.returncode == 0, done.stderr
    assert store.campaign("g1").meta[GRACE_KEY] == 12
    assert refused.returncode != 0 and "bounce_grace_hours = 'two days'" in refused.stderr
    assert_no_traceback(refused)


@pytest.mark.parametrize("whole", [False, True])
def test_a_delivery_report_names_the_reminder_it_is_about(campaign, store, mailroom, whole):
    mailroom.remind(CAMPAIGN, 12, now=DEADLINE - HOUR)
    (reminder,) = store.outbox(CAMPAIGN)[-1:]

    report = read_delivery_report(dsn(reminder.eml, whole=whole))

    assert report is not None and report.failed and not report.arrived
    assert report.about[0] == reminder.message_id
    assert report.actions[0][:2] == ("togo@japan.test", "failed")
    assert read_delivery_report(email(orders_text())) is None


def test_a_roster_sets_each_campaigns_grace_and_refuses_one_that_is_no_number(campaigns, mailroom, referee_key):
    players = "".join(f'[[player]]\nname = "{p.side}"\naddress = "{p.address}"\npassword = "{p.password}"\n'
                      for p in PLAYERS)
    text = players + ('[[campaign]]\nid = "r1"\nplayers = { japan = "japan", russia = "russia" }\n'
                      'bounce_grace_hours = 6\n')
    create_roster(campaigns, read_roster(text, "league.toml", ("japan", "russia")), "port-arthur", referee_key,
                  referee_address=REFEREE, deadline_hours=DEADLINE_HOURS, now=T0)

    assert campaigns.store.campaign("r1").meta[GRACE_KEY] == 6
    assert mailroom.remind("r1", 12, now=DEADLINE - HOUR) == "japan"
    with smtp_server(RecordingHandler(refuse_rcpt={ADDRESSES["japan"]: UNKNOWN_USER})) as port:
        mailroom.send("r1", smtp(port))
    assert campaigns.deadline("r1") == DEADLINE + 6 * HOUR  # the campaign's grace, not the default
    with pytest.raises(BadRoster, match="bounce_grace_hours = -1"):
        read_roster(text.replace("= 6", "= -1"), "league.toml", ("japan", "russia"))


STATES = ("queued", "accepted", "delivered", "refused", "bounced")


@settings(max_examples=200, deadline=None)
@given(records=st.dictionaries(st.sampled_from(["japan", "russia"]), st.tuples(
           st.sampled_from(STATES), st.integers(-200, 200), st.booleans()), max_size=2),
       grace=st.integers(0, 100), orders_in=st.booleans())
def test_the_deadline_waits_no_less_than_it_was_and_no_more_than_the_grace(records, grace, orders_in):
    """Whatever became of the reminders, the deadline never comes sooner than without
    them nor later than the grace; a reminder of this step that did not arrive holds
    it the whole grace, whether the side's orders came since or not."""
    opened = T0.isoformat()
    entries = [SimpleNamespace(kind="charter", body_json=json.dumps({"private": {"opened": opened}}))]
    if orders_in:
        entries.append(SimpleNamespace(kind="orders", body_json=json.dumps(
            {"record": {"body": {"side": "japan", "step": 1}}})))
    meta = {"deadline_hours": DEADLINE_HOURS, GRACE_KEY: grace, DELIVERY: {
        side: {"step": 1, "opened": opened if this_step else "1904-01-01T00:00:00+00:00", "status": status,
               "announced": (DEADLINE + shift * HOUR).isoformat(), "message_id": f"<{side}@x>", "address": "a@b"}
        for side, (status, shift, this_step) in records.items()}}

    held = step_deadline(entries, meta)

    assert DEADLINE <= held <= DEADLINE + grace * HOUR
    failed = [side for side, (status, _, this_step) in records.items()
              if this_step and status in ("refused", "bounced")]
    assert (held == DEADLINE + grace * HOUR) or not failed


def test_a_bounce_of_a_step_already_adjudicated_holds_nothing_and_tells_nobody(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    remind_and_send(mailroom, RecordingHandler())
    (reminder,) = store.outbox(CAMPAIGN, "sent")[-1:]
    assert campaigns.adjudicate(CAMPAIGN, referee_key, now=DEADLINE + HOUR).defaults == ("japan",)
    deliver(inbox, dsn(reminder.eml), 1)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "ignored" and "bounced" in taken.detail
    assert to_referee(store) == [] and outgoing(store, status="queued") == []
    assert campaigns.deadline(CAMPAIGN) == DEADLINE + HOUR + DEADLINE_HOURS * HOUR


def test_a_delivery_report_that_cannot_be_taken_in_is_set_aside_and_the_mail_beside_it_is_taken(
        campaign, store, mailroom, referee_key, inbox, monkeypatch):
    """A fault while a report is taken in (here, the reminder it names cannot be looked
    up) sets that report aside, unanswered; the orders in the same mailbox are taken."""
    import adjudicator.campaign.delivery as delivery_module

    remind_and_send(mailroom, RecordingHandler())
    (reminder,) = store.outbox(CAMPAIGN, "sent")[-1:]
    deliver(inbox, dsn(reminder.eml), 1)
    deliver(inbox, email(orders_text()), 2)

    def broken(store, about):
        raise RuntimeError("the reminder cannot be looked up")

    monkeypatch.setattr(delivery_module, "_reminder_of", broken)
    taken = mailroom.receive(inbox.path, referee_key)

    assert sorted(t.outcome for t in taken) == ["accepted", "refused"]
    (set_aside,) = [t for t in taken if t.outcome == "refused"]
    assert "delivery report" in set_aside.detail and "never answered" in set_aside.detail
