"""Deadlines: one reminder per step, only when the deadline is near and the side asked
has sent nothing; after the deadline a silent side gets the documented defaults, and
the reports say so."""

from __future__ import annotations

import json

import pytest

from adjudicator.campaign.verify import verify_text
from adjudicator.games.port_arthur.report import answer_hint
from adjudicator.mail import parse_message
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
    email,
    orders_text,
    outgoing,
    reports,
)

DEADLINE = T0 + DEADLINE_HOURS * HOUR


def reminders(store):
    return [m for m in outgoing(store) if "Reminder" in m.subject]


def test_a_reminder_is_queued_once_per_step_only_when_the_deadline_is_near(campaign, store, mailroom):
    assert mailroom.remind(CAMPAIGN, 12, now=T0 + HOUR) is None  # 71 hours to go
    assert reminders(store) == []

    assert mailroom.remind(CAMPAIGN, 12, now=DEADLINE - 11 * HOUR) == "japan"
    assert mailroom.remind(CAMPAIGN, 12, now=DEADLINE - 10 * HOUR) is None
    assert mailroom.remind(CAMPAIGN, 12, now=DEADLINE - HOUR) is None

    (reminder,) = reminders(store)
    assert reminder.recipient == ADDRESSES["japan"]
    assert f"[{CAMPAIGN}]" in reminder.subject
    assert "step 1" in reminder.text and "1904-02-11 12:00 UTC" in reminder.text
    assert "sortie" in reminder.text


def test_no_reminder_after_the_deadline(campaign, store, mailroom):
    assert mailroom.remind(CAMPAIGN, 12, now=DEADLINE + HOUR) is None
    assert reminders(store) == []


def test_no_reminder_to_a_side_whose_orders_are_in(campaign, store, mailroom, referee_key):
    assert mailroom.take(parse_message(email(orders_text())), referee_key, None).outcome == "accepted"

    assert mailroom.remind(CAMPAIGN, 12, now=DEADLINE - HOUR) is None
    assert reminders(store) == []


def test_each_step_reminds_the_side_it_waits_for(campaign, campaigns, store, mailroom, referee_key):
    assert mailroom.remind(CAMPAIGN, 12, now=DEADLINE - HOUR) == "japan"
    mailroom.take(parse_message(email(orders_text())), referee_key, None)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR)
    second_deadline = campaigns.deadline(CAMPAIGN)
    assert second_deadline == T0 + 2 * HOUR + DEADLINE_HOURS * HOUR

    assert mailroom.remind(CAMPAIGN, 12, now=second_deadline - 2 * HOUR) == "russia"
    assert mailroom.remind(CAMPAIGN, 12, now=second_deadline - HOUR) is None

    assert [m.recipient for m in reminders(store)] == [ADDRESSES["japan"], ADDRESSES["russia"]]


def test_the_remind_command_takes_the_time_from_now(campaign, store):
    near = (DEADLINE - 3 * HOUR).isoformat()

    early = cli("remind", CAMPAIGN, "--store", store.path, "--hours", "2", "--now", near)
    first = cli("remind", CAMPAIGN, "--store", store.path, "--hours", "6", "--now", near)
    second = cli("remind", CAMPAIGN, "--store", store.path, "--hours", "6", "--now", near)
    garbled = cli("remind", CAMPAIGN, "--store", store.path, "--now", "next tuesday")
    as_json = cli("remind", CAMPAIGN, "--store", store.path, "--hours", "6", "--now", near, "--format", "json")

    assert (early.returncode, early.stdout.strip()) == (0, "no reminder due")
    assert (first.returncode, first.stdout.strip()) == (0, "reminder queued for japan")
    assert (second.returncode, second.stdout.strip()) == (0, "no reminder due")
    assert garbled.returncode == 2 and "'next tuesday'" in garbled.stderr
    assert_no_traceback(garbled)
    assert len(reminders(store)) == 1
    assert (as_json.returncode, json.loads(as_json.stdout)) == (0, {"reminded": []})   # already reminded


def test_the_remind_command_says_whom_it_reminded_in_json(campaign, store):
    near = (DEADLINE - 3 * HOUR).isoformat()
    done = cli("remind", CAMPAIGN, "--store", store.path, "--hours", "6", "--now", near, "--format", "json")
    assert (done.returncode, json.loads(done.stdout)) == (0, {"reminded": ["japan"]})


def test_after_the_deadline_a_silent_side_gets_the_defaults_and_the_reports_say_so(
        campaign, campaigns, store, mailroom, referee_key):
    mailroom.take(parse_message(email(orders_text())), referee_key, None)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    deadline = campaigns.deadline(CAMPAIGN)

    early = campaigns.adjudicate(CAMPAIGN, referee_key, now=deadline - HOUR, after=mailroom.queue_reports)
    assert early.batch is None and len(reports(store)) == 2  # before the deadline: nothing to do

    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=deadline + HOUR, after=mailroom.queue_reports)

    assert step.batch == 2 and "russia" in step.defaults
    log, match = campaigns.match(CAMPAIGN)
    assert log.batches[-1].body["defaults"] == ["russia"]
    assert all(ship.at in ("Port Arthur", "Vladivostok") or ship.at.startswith("turn ")
               for ship in match.state.ships.values() if ship.side == "russia")
    latest = reports(store)[-2:]
    assert sorted(r.recipient for r in latest) == sorted(ADDRESSES.values())
    for report in latest:
        assert "No orders from Russia by the deadline" in report.text
        assert "No orders from Russia by the deadline" in report.html
    assert verify_text(campaigns.export_public(CAMPAIGN)).verified


def test_the_report_tells_the_defaults_of_a_silent_side_before_what_they_brought_about(
        campaign, campaigns, store, mailroom, referee_key):
    """The defaults answer the question open at the deadline, so play goes on from them:
    the report says so before the events they brought about, not after them, where it
    reads as the answer to the question now asked."""
    mailroom.take(parse_message(email(orders_text())), referee_key, None)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    deadline = campaigns.deadline(CAMPAIGN)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=deadline + HOUR, after=mailroom.queue_reports)
    for report in reports(store)[-2:]:
        for text in (report.text, report.html):
            said = text.index("No orders from Russia by the deadline")
            assert said < text.index("Russia keeps its ships in port"), text[:said + 200]


def test_the_report_says_once_that_a_silent_side_got_the_defaults(campaigns, store, mailroom, referee_key):
    name = "late"
    campaigns.create(name, "port-arthur", PLAYERS, referee_key, referee_address=REFEREE, now=T0)
    mailroom.take(parse_message(email(orders_text(campaign=name), message_id=f"<{name}@japan.test>")),
                  referee_key, None)
    campaigns.adjudicate(name, referee_key, now=T0 + HOUR)
    step = campaigns.adjudicate(name, referee_key, now=T0 + 100 * HOUR, after=mailroom.queue_reports)
    assert step.defaults == ("russia",)

    for report in reports(store, name):
        assert report.text.count("No orders from Russia by the deadline") == 1


def test_status_shows_the_deadline(campaign, store):
    done = cli("status", CAMPAIGN, "--store", store.path, "--format", "json")

    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert info["deadline"] == DEADLINE.isoformat()
    assert info["waiting"] == {"side": "japan", "ask": "sortie"}
    assert (info["campaign"], info["turn"], info["next_step"]) == (CAMPAIGN, 1, 1)


def test_a_missed_question_defaults_that_question_only_and_the_next_gets_a_fresh_deadline(
        campaign, campaigns, store, mailroom, referee_key):
    now = T0
    for number in range(1, 5):  # nobody sends orders: every question is missed, one by one
        _, before = campaigns.match(CAMPAIGN)
        missed = before.decision
        now += 2 * DEADLINE_HOURS * HOUR
        step = campaigns.adjudicate(CAMPAIGN, referee_key, now=now, after=mailroom.queue_reports)

        assert step.batch == number and step.defaults == (missed.side,)  # that question only
        if step.waiting is None:  # the dice ended the game early: nothing more is asked
            return
        assert campaigns.deadline(CAMPAIGN) == now + DEADLINE_HOURS * HOUR  # a fresh deadline
        asked = [m for m in reports(store) if m.recipient == ADDRESSES[step.waiting.side]][-1]
        assert "WHAT IS ASKED OF YOU" in asked.text and answer_hint(step.waiting)[0] in asked.text
        assert (now + DEADLINE_HOURS * HOUR).strftime("%Y-%m-%d %H:%M UTC") in asked.text
