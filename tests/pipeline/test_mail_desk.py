"""The referee's desk by mail: help, status, report, history, map, orders and record
answered to a mail that names the campaign, the side and its password; never a view
the sender's side may not see; stray replies answered helpfully."""

from __future__ import annotations

import re

from adjudicator.campaign import Player
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    DEADLINE_HOURS,
    HOUR,
    PASSWORDS,
    PLAYERS,
    PNG_SIGNATURE,
    REFEREE,
    T0,
    deliver,
    email,
    orders_text,
    outgoing,
)


def command(word: str, side: str = "japan", password: str | None = None, campaign: str = CAMPAIGN) -> str:
    lines = [f"campaign: {campaign}"]
    if side:
        lines.append(f"side: {side}")
    lines.append(f"password: {PASSWORDS[side] if password is None else password}")
    return "\n".join(lines + [word, ""])


def ask(mailroom, referee_key, inbox, text: str, n: int, sender: str = "Heihachiro Togo <togo@japan.test>",
        subject: str = "Command"):
    deliver(inbox, email(text, sender=sender, subject=subject, message_id=f"<ask-{n}@japan.test>"), n)
    return mailroom.receive(inbox.path, referee_key)[-1]


def answers(store, campaign: str = CAMPAIGN):
    return [m for m in outgoing(store, campaign) if "report for" not in m.subject or "Report again" in m.subject]


def test_help_needs_no_password_and_lists_every_command(campaign, store, mailroom, referee_key, inbox):
    taken = ask(mailroom, referee_key, inbox, f"campaign: {CAMPAIGN}\nhelp\n", 1)
    assert taken.outcome == "answered"
    (reply,) = answers(store)
    assert reply.recipient == ADDRESSES["japan"] and "commands by mail" in reply.subject
    for word in ("help", "status", "report", "history", "map", "orders", "record", "BEGIN ORDERS"):
        assert word in reply.text
    assert all(len(line) <= 78 for line in reply.text.splitlines())
    assert reply.message["In-Reply-To"] == "<ask-1@japan.test>"


def test_status_tells_turn_phase_the_question_the_deadline_and_whose_orders_are_on_file(
        campaign, store, mailroom, referee_key, inbox):
    assert ask(mailroom, referee_key, inbox, orders_text(), 1).outcome == "accepted"
    taken = ask(mailroom, referee_key, inbox, command("status", "russia"), 2,
                sender="makarov@russia.test")
    assert taken.outcome == "answered", taken.detail
    reply = answers(store)[-1]
    assert reply.recipient == ADDRESSES["russia"]
    words = reply.words
    assert "turn 1" in words and "next step 1" in words and "Asked of Japan" in words
    assert (T0 + DEADLINE_HOURS * HOUR).strftime("%Y-%m-%d %H:%M UTC") in words
    assert "Orders of japan for step 1: on file" in words and "Orders of russia for step 1: none yet" in words
    assert "Mikasa" not in reply.text  # whose orders, never what they say


def test_a_command_with_a_wrong_password_is_refused_and_says_why(campaign, store, mailroom, referee_key, inbox):
    taken = ask(mailroom, referee_key, inbox, command("orders", password="guess"), 1)
    assert taken.outcome == "refused"
    (reply,) = answers(store)
    assert "wrong password for japan" in reply.words and "not answered" in reply.subject


def test_orders_shows_the_senders_own_orders_in_force_only(campaign, store, mailroom, referee_key, inbox):
    ask(mailroom, referee_key, inbox, orders_text(), 1)
    ask(mailroom, referee_key, inbox, command("orders"), 2)
    assert "Mikasa to Tsushima" in answers(store)[-1].text
    ask(mailroom, referee_key, inbox, command("orders", "russia"), 3, sender="makarov@russia.test")
    reply = answers(store)[-1]
    assert "No orders of russia are in force" in reply.words and "Mikasa" not in reply.text


def test_history_and_record_tell_the_public_record_and_how_to_check_it(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    ask(mailroom, referee_key, inbox, command("history"), 1)
    history = answers(store)[-1]
    assert "charter" in history.text and "port-arthur" in history.text
    ask(mailroom, referee_key, inbox, command("record"), 2)
    record = answers(store)[-1]
    (attached,) = list(record.message.iter_attachments())
    assert attached.get_filename() == f"{CAMPAIGN}-public-record.jsonl"
    content = attached.get_content()
    lines = (content.decode() if isinstance(content, bytes) else content).splitlines()
    assert len(lines) == len(campaigns.log(CAMPAIGN).records) and '"charter"' in lines[0]
    assert campaigns.log(CAMPAIGN).records[-1].hash in record.text and "adjudicator verify" in record.text
    assert PASSWORDS["japan"] not in record.message.as_string()


def test_report_sends_the_senders_latest_report_again_with_its_picture(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    ask(mailroom, referee_key, inbox, orders_text(), 1)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    ask(mailroom, referee_key, inbox, command("report"), 2)
    reply = answers(store)[-1]
    assert "Report again" in reply.subject and "report for Japan" in reply.subject
    pngs = [p for p in reply.message.walk() if p.get_content_type() == "image/png"]
    assert pngs and pngs[0].get_content()[:8] == PNG_SIGNATURE
    ask(mailroom, referee_key, inbox, command("report 9"), 3)
    assert "no report of step 9" in answers(store)[-1].words


def test_map_shows_the_position_with_its_picture(campaign, store, mailroom, referee_key, inbox):
    assert ask(mailroom, referee_key, inbox, command("map"), 1).outcome == "answered"
    reply = answers(store)[-1]
    html = reply.message.get_body(("html",)).get_content()
    (cid,) = re.findall(r'src="cid:([^"]+)"', html)
    parts = {str(p["Content-ID"]).strip("<>"): p for p in reply.message.walk() if p["Content-ID"]}
    assert parts[cid].get_content()[:8] == PNG_SIGNATURE


def test_under_fog_of_war_map_is_the_senders_sides_own_view_as_its_reports_draw_it(
        campaigns, store, mailroom, referee_key, inbox):
    from adjudicator.campaign.campaign import step_deadline
    from adjudicator.campaign.games import support
    from adjudicator.reports.render import render
    from adjudicator.reports.context import report_context

    campaigns.create("fog", "port-arthur", PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0, options={"fog_of_war": True})
    ask(mailroom, referee_key, inbox, command("map", "russia", campaign="fog"), 1, sender="makarov@russia.test")
    russia = answers(store, "fog")[-1]
    ask(mailroom, referee_key, inbox, command("map", "japan", campaign="fog"), 2)
    japan = answers(store, "fog")[-1]
    log, match = campaigns.match("fog")
    deadline = step_deadline(store.entries("fog"), campaigns.meta("fog"))
    for side, reply in (("russia", russia), ("japan", japan)):
        own = render(report_context(log=log, match=match, events=(), side=side, player=ADDRESSES[side],
                                    deadline=deadline, game_support=support("port-arthur")))
        assert reply.text.replace("\r\n", "\n") == own.text
    assert "report for Russia" in russia.words and "report for Japan" not in russia.words
    assert russia.text != japan.text


def test_a_reply_naming_the_campaign_only_in_its_subject_is_answered_helpfully(
        campaign, store, mailroom, referee_key, inbox):
    taken = ask(mailroom, referee_key, inbox, "Thanks, got it.\n", 1, subject=f"Re: [{CAMPAIGN}] Port Arthur")
    assert taken.outcome == "refused"
    (reply,) = answers(store)
    assert "holds no orders and no command" in reply.words and "status" in reply.text


def test_a_player_of_another_campaign_is_told_which_one_they_play_in(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    campaigns.create("other", "port-arthur", [Player("japan", "kamimura@japan.test", "Kami-1904"),
                                              Player("russia", "jessen@russia.test", "Jess-1904")],
                     referee_key, referee_address=REFEREE, deadline_hours=DEADLINE_HOURS, now=T0)
    taken = ask(mailroom, referee_key, inbox, command("status", password="Kami-1904", campaign=CAMPAIGN), 1,
                sender="kamimura@japan.test")
    assert taken.outcome == "refused"
    reply = answers(store)[-1]
    assert "You are not a player of c1; you play in other" in reply.words


def test_a_receive_with_a_default_campaign_still_answers_a_tagged_reply_with_help(
        campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email("Thanks, got it.\n", subject=f"Re: [{CAMPAIGN}] Port Arthur", message_id="<t@japan.test>"), 1)
    (taken,) = mailroom.receive(inbox.path, referee_key, default_campaign=CAMPAIGN)
    assert taken.outcome == "refused" and "subject" in taken.detail
    (reply,) = answers(store)
    assert "holds no orders and no command" in reply.words


def test_a_mail_with_two_commands_carries_out_the_first_and_says_the_other_was_not(
        campaign, store, mailroom, referee_key, inbox):
    taken = ask(mailroom, referee_key, inbox, command("status") + "orders\n", 1)
    assert taken.outcome == "answered", taken.detail
    (reply,) = answers(store)
    assert reply.subject.endswith("Status") and "Deadline:" in reply.words
    assert "Not carried out: the other command line of your mail ('orders')" in reply.words
    assert "send each other command in a mail of its own" in reply.words
    assert "orders in force" not in reply.words


def test_a_report_asked_with_another_command_comes_as_sent_with_a_note_of_the_other(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    ask(mailroom, referee_key, inbox, orders_text(), 1)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    taken = ask(mailroom, referee_key, inbox, command("report") + "history\nmap\n", 2)
    assert taken.outcome == "answered", taken.detail
    replies = answers(store)
    assert [r for r in replies if "Report again" in r.subject]
    (note,) = [r for r in replies if "Commands not carried out" in r.subject]
    assert "('history', 'map')" in note.words and note.message["In-Reply-To"] == "<ask-2@japan.test>"


def test_a_refused_command_names_the_other_command_lines_too(campaign, store, mailroom, referee_key, inbox):
    taken = ask(mailroom, referee_key, inbox, command("status", password="wrong") + "history\n", 1)
    assert taken.outcome == "refused"
    (reply,) = answers(store)
    assert "was not answered" in reply.words and "('history')" in reply.words


def test_a_command_in_a_quoted_earlier_mail_is_not_named_as_not_carried_out(
        campaign, store, mailroom, referee_key, inbox):
    taken = ask(mailroom, referee_key, inbox, command("status") + "\n> campaign: c1\n> orders\n", 1)
    assert taken.outcome == "answered", taken.detail
    (reply,) = answers(store)
    assert "Not carried out" not in reply.words


def test_a_player_who_sends_help_alone_is_told_to_write_the_campaign_line_above_it(
        campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email("help\n"), 1)
    (taken,) = mailroom.receive(inbox.path, referee_key)
    assert taken.outcome == "refused"
    (reply,) = [m for m in outgoing(store) if m.recipient == ADDRESSES["japan"]]
    assert f"or a command such as 'help', with a line 'campaign: {CAMPAIGN}'" in " ".join(reply.words.split())
