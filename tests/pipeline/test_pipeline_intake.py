"""Orders by email, through Mailroom.receive: every kind of source, duplicates,
authentication by password (never by the From header), mail that must be ignored,
HTML and quoted replies, malformed mail, old steps, and newer orders replacing older."""

from __future__ import annotations

import mailbox
from email.utils import format_datetime

from adjudicator.fairdice import save_private_key
from adjudicator.mail import parse_message
from tests.pipeline.pipeline_helpers import (
    deliver,
    ADDRESSES,
    CAMPAIGN,
    HOUR,
    MAIL_DATE,
    PASSWORDS,
    T0,
    assert_no_traceback,
    cli,
    email,
    orders_text,
    outgoing,
)




def orders_records(store, campaign=CAMPAIGN):
    return [e for e in store.entries(campaign) if e.kind == "orders"]


def ships_of(campaigns, side, campaign=CAMPAIGN):
    _, match = campaigns.match(campaign)
    return {name: ship.at for name, ship in match.state.ships.items() if ship.side == side}


# -- sources -----------------------------------------------------------------------------


def test_orders_from_a_maildir_are_accepted_and_a_receipt_goes_to_the_sender(
        campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email(orders_text()), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert (taken.outcome, taken.campaign) == ("accepted", CAMPAIGN)
    (record,) = orders_records(store)
    assert record.body["record"]["body"]["side"] == "japan"
    (receipt,) = outgoing(store)
    assert receipt.recipient == ADDRESSES["japan"]
    assert receipt.message["In-Reply-To"] == "<orders-1@japan.test>"
    assert "Orders accepted" in receipt.subject
    assert "Mikasa to Tsushima" in receipt.text
    assert taken.detail in receipt.text.replace("\n", "")  # the receipt quotes the orders' SHA-256


def test_orders_from_an_mbox_are_accepted_in_order(campaign, store, mailroom, referee_key, tmp_path):
    box = mailbox.mbox(tmp_path / "orders.mbox", create=True)
    box.add(email(orders_text("japan"), message_id="<j1@japan.test>"))
    box.add(email(orders_text("russia", body="sortie:\n  Novik to Yellow Sea\n"),
                  sender="Makarov <makarov@russia.test>", message_id="<r1@russia.test>"))
    box.close()

    taken = mailroom.receive(tmp_path / "orders.mbox", referee_key)

    assert [t.outcome for t in taken] == ["accepted", "accepted"]
    assert [r.body["record"]["body"]["side"] for r in orders_records(store)] == ["japan", "russia"]
    assert [m.recipient for m in outgoing(store)] == [ADDRESSES["japan"], ADDRESSES["russia"]]


def test_orders_from_a_folder_of_eml_files_are_accepted(campaign, store, mailroom, referee_key, tmp_path):
    folder = tmp_path / "mail"
    folder.mkdir()
    (folder / "1-japan.eml").write_bytes(email(orders_text("japan"), message_id="<j1@japan.test>"))
    (folder / "2-russia.eml").write_bytes(email(orders_text("russia", body="sortie: none\n"),
                                               sender="makarov@russia.test", message_id="<r1@russia.test>"))

    taken = mailroom.receive(folder, referee_key)

    assert [t.outcome for t in taken] == ["accepted", "accepted"]
    assert len(orders_records(store)) == 2
    assert len(outgoing(store)) == 2


def test_orders_from_one_eml_file_are_accepted(campaign, store, mailroom, referee_key, tmp_path):
    path = tmp_path / "orders.eml"
    path.write_bytes(email(orders_text()))

    (taken,) = mailroom.receive(path, referee_key)

    assert taken.outcome == "accepted"
    assert taken.origin == str(path)
    assert [m.recipient for m in outgoing(store)] == [ADDRESSES["japan"]]


def test_orders_on_standard_input_are_accepted_by_the_receive_command(campaign, store, referee_key, tmp_path):
    save_private_key(tmp_path / "referee.key", referee_key, None)

    done = cli("receive", "-", "--store", store.path, "--key", tmp_path / "referee.key",
               input=email(orders_text()))

    assert done.returncode == 0, done.stderr
    assert_no_traceback(done)
    assert done.stdout.split()[:2] == ["accepted", CAMPAIGN]
    assert "<stdin>" in done.stdout
    assert "1 accepted, 0 refused, 0 duplicate, 0 ignored" in done.stderr
    assert len(orders_records(store)) == 1
    assert [m.recipient for m in outgoing(store)] == [ADDRESSES["japan"]]


# -- the same email twice ------------------------------------------------------------------


def test_the_same_email_delivered_twice_is_taken_once(campaign, store, mailroom, referee_key, inbox):
    raw = email(orders_text())
    deliver(inbox, raw, 1_000)
    deliver(inbox, b"Received: from relay.example by mx.example; Mon, 8 Feb 1904 13:01:00 +0000\r\n" + raw, 2_000)

    taken = mailroom.receive(inbox.path, referee_key)
    again = mailroom.receive(inbox.path, referee_key)

    assert [t.outcome for t in taken] == ["accepted", "duplicate"]
    assert [t.outcome for t in again] == ["duplicate", "duplicate"]
    assert len(orders_records(store)) == 1
    assert len(outgoing(store)) == 1  # one receipt, and no answer to the copies


def test_the_same_email_without_message_id_stored_twice_is_taken_once(
        campaign, store, mailroom, referee_key, tmp_path):
    raw = email(orders_text(), message_id=None)
    (tmp_path / "mail").mkdir()
    (tmp_path / "mail" / "a.eml").write_bytes(raw)
    (tmp_path / "mail" / "b.eml").write_bytes(raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))

    taken = mailroom.receive(tmp_path / "mail", referee_key)

    assert [t.outcome for t in taken] == ["accepted", "duplicate"]
    assert len(orders_records(store)) == 1


def test_arrival_order_not_the_date_decides_and_an_older_dated_mail_that_arrives_last_is_told_so(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    newer = orders_text(body="sortie:\n  Mikasa to Pacific Ocean\n")
    older = orders_text(body="sortie:\n  Mikasa to Tsushima\n")
    def dated(text: str, message_id: str, date: str) -> bytes:
        raw = email(text, message_id=message_id)
        return raw.replace(f"Date: {format_datetime(MAIL_DATE)}".encode(), f"Date: {date}".encode())

    deliver(inbox, dated(newer, "<newer@japan.test>", "Wed, 02 Dec 2099 10:00:00 +0000"), 1_000)
    deliver(inbox, dated(older, "<older@japan.test>", "Mon, 30 Nov 2026 08:00:00 +0000"), 2_000)

    taken = mailroom.receive(inbox.path, referee_key)

    assert [t.outcome for t in taken] == ["accepted", "accepted"]
    last = outgoing(store)[-1]
    assert "the orders received last are the ones in force" in last.words
    assert "this mail is dated 2026-11-30 08:00 UTC, before the orders it replaces arrived" in last.words
    assert "not by their Date" in last.words
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    assert ships_of(campaigns, "japan")["Mikasa"] == "Tsushima"


def test_the_same_text_sent_again_as_a_new_message_is_a_new_submission_a_b_a_leaves_a_in_force(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    a = orders_text(body="sortie:\n  Mikasa to Tsushima\n")
    b = orders_text(body="sortie:\n  Mikasa to Pacific Ocean\n")
    deliver(inbox, email(a, message_id="<a@japan.test>"), 1_000)
    deliver(inbox, email(b, message_id="<b@japan.test>"), 2_000)
    deliver(inbox, email(a, message_id="<a-again@japan.test>"), 3_000)

    taken = mailroom.receive(inbox.path, referee_key)

    assert [t.outcome for t in taken] == ["accepted", "accepted", "accepted"]
    assert len(orders_records(store)) == 3
    last = outgoing(store)[-1]
    assert "replace your orders for step 1" in last.text and taken[1].detail[:16] in last.text
    assert "Deadline for this step: 1904-02-11 12:00 UTC" in last.text
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    assert ships_of(campaigns, "japan")["Mikasa"] == "Tsushima"


# -- authentication: the password, never the From header --------------------------------------


def test_a_wrong_password_gets_an_error_reply_and_records_nothing(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    before = campaigns.export_public(CAMPAIGN)
    deliver(inbox, email(orders_text(password=PASSWORDS["russia"])), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "refused"
    assert "wrong password for japan" in taken.detail
    assert campaigns.export_public(CAMPAIGN) == before
    assert orders_records(store) == []
    (reply,) = outgoing(store)
    assert reply.recipient == ADDRESSES["japan"]
    assert "not accepted" in reply.subject
    assert "wrong password for japan" in reply.text
    assert PASSWORDS["russia"] not in reply.text and PASSWORDS["japan"] not in reply.text


def test_orders_from_an_unknown_address_with_the_right_password_are_accepted_and_the_side_is_told(
        campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email(orders_text(), sender="Togo on holiday <h.togo@elsewhere.test>"), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "accepted"
    assert len(orders_records(store)) == 1
    receipt, copy = outgoing(store)
    assert receipt.recipient == "h.togo@elsewhere.test" and "Mikasa to Tsushima" in receipt.text
    assert copy.recipient == ADDRESSES["japan"]
    assert "from h.togo@elsewhere.test" in copy.subject and "Mikasa to Tsushima" in copy.text


def test_a_refusal_of_a_sides_orders_also_goes_to_the_sides_registered_address_without_quoting_to_a_stranger(
        campaign, store, mailroom, referee_key, inbox):
    forged = orders_text(password="guess") + "Buy cheap watches at spam.example\n"
    deliver(inbox, email(forged, sender="victim@elsewhere.test"), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "refused"
    to_sender, to_side = outgoing(store)
    assert to_sender.recipient == "victim@elsewhere.test"
    assert "watches" not in to_sender.text and "wrong password" not in to_sender.text
    assert "not accepted" in to_sender.text
    assert to_side.recipient == ADDRESSES["japan"] and "victim@elsewhere.test" in to_side.subject
    assert "watches" in to_side.text  # the player of that side sees what was sent in its name


def test_orders_from_the_players_own_address_without_a_password_are_refused(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    before = campaigns.export_public(CAMPAIGN)
    deliver(inbox, email(orders_text(password="")), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "refused"
    assert "password" in taken.detail
    assert campaigns.export_public(CAMPAIGN) == before
    (reply,) = outgoing(store)
    assert reply.recipient == ADDRESSES["japan"] and "password" in reply.text


# -- mail that is never taken nor answered ------------------------------------------------------


def test_an_auto_reply_is_ignored_and_never_answered(campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email(f"I am away until March.\n\n{orders_text()}", subject="Out of office",
                         headers={"Auto-Submitted": "auto-replied"}), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "ignored"
    assert orders_records(store) == [] and outgoing(store) == []


def test_our_own_mail_is_ignored_and_never_answered(campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email(orders_text(), headers={"X-Adjudicator": "1"}), 1_000)
    (taken,) = mailroom.receive(inbox.path, referee_key)
    assert taken.outcome == "ignored"

    # a receipt we sent, coming back (a list, a forward rule): ignored too
    deliver(inbox, email(orders_text(), message_id="<orders-2@japan.test>"), 2_000)
    assert [t.outcome for t in mailroom.receive(inbox.path, referee_key)] == ["ignored", "accepted"]
    (receipt,) = outgoing(store)
    deliver(inbox, receipt.message.as_bytes(), 3_000)
    taken = mailroom.receive(inbox.path, referee_key)

    assert [t.outcome for t in taken] == ["ignored", "duplicate", "ignored"]
    assert len(orders_records(store)) == 1
    assert len(outgoing(store)) == 1


# -- what the text is ----------------------------------------------------------------------------


def test_orders_in_an_html_only_email_are_taken(campaign, campaigns, store, mailroom, referee_key, inbox):
    header = orders_text(body="").strip().replace("\n", "<br>\n")
    html = (f"<html><body><p>Admiral, my orders follow.</p><p>BEGIN ORDERS<br>{header}</p>"
            "<p>sortie:<br>&nbsp;&nbsp;Mikasa to <b>Pacific Ocean</b><br>END ORDERS</p>"
            "<p>Your servant,<br>Togo</p></body></html>")
    deliver(inbox, email(html=html), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "accepted", taken.detail
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    assert ships_of(campaigns, "japan")["Mikasa"] == "Pacific Ocean"


def test_a_quoted_reply_takes_only_the_new_orders(campaign, campaigns, store, mailroom, referee_key, inbox):
    old = orders_text(body="sortie:\n  Asahi to Tsushima\n")
    quoted = "".join(f"> {line}\n" for line in old.splitlines())
    new = orders_text(body="sortie:\n  Mikasa to Yellow Sea\n")
    text = f"{quoted}\n{new}-- \nTogo\nsortie:\n  Fuji to Tsushima\n"
    deliver(inbox, email(text, subject="Re: [c1] Port Arthur: turn 1"), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "accepted", taken.detail
    (receipt,) = outgoing(store)
    assert "Mikasa to Yellow Sea" in receipt.text
    assert "Asahi" not in receipt.text and "Fuji" not in receipt.text
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    at = ships_of(campaigns, "japan")
    assert at["Mikasa"] == "Yellow Sea"
    assert at["Asahi"] == "Japan" and at["Fuji"] == "Japan"


MALFORMED = {
    "binary-garbage": b"\xff\xfe\x00\x01 not a mail \x80\x81\r\n\r\n\x00",
    "multipart-without-boundary": (b"From: togo@japan.test\r\nMessage-ID: <m1@japan.test>\r\n"
                                   b"Content-Type: multipart/mixed\r\n\r\ncampaign: c1\r\nside: japan\r\n"),
    "bad-base64": (b"From: togo@japan.test\r\nMessage-ID: <m2@japan.test>\r\nMIME-Version: 1.0\r\n"
                   b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!*** campaign: c1\r\n"),
    "unclosed-multipart-bogus-charset": (
        b"From: togo@japan.test\r\nMessage-ID: <m3@japan.test>\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\n"
        b"Content-Type: text/plain; charset=no-such-charset\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        b"Y2FtcGFpZ246IGMx\r\n--b\r\nContent-Type: text/html\r\n\r\n<p><b><i>campaign: c1"),
    "header-soup": b"From:\r\nFrom: <<<@@@>>>\r\nSubject: =?utf-8?b?!!!?=\r\nDate: yesterday\r\n\r\ncampaign: c1\r\n",
}


def test_malformed_mail_is_refused_clearly_or_ignored(campaign, campaigns, store, mailroom, referee_key, tmp_path):
    before = campaigns.export_public(CAMPAIGN)
    folder = tmp_path / "mail"
    folder.mkdir()
    for name, raw in MALFORMED.items():
        (folder / f"{name}.eml").write_bytes(raw)

    taken = mailroom.receive(folder, referee_key, default_campaign=CAMPAIGN)

    assert len(taken) == len(MALFORMED)
    assert {t.outcome for t in taken} <= {"refused", "ignored"}
    assert all(t.detail for t in taken)
    assert campaigns.export_public(CAMPAIGN) == before
    for reply in outgoing(store):
        assert "not accepted" in reply.subject
        assert "Nothing was recorded" in reply.text or "nothing was recorded" in reply.text


def test_malformed_mail_never_makes_the_receive_command_print_a_traceback(campaign, store, referee_key, tmp_path):
    save_private_key(tmp_path / "referee.key", referee_key, None)
    folder = tmp_path / "mail"
    folder.mkdir()
    for name, raw in MALFORMED.items():
        (folder / f"{name}.eml").write_bytes(raw)

    done = cli("receive", folder, "--campaign", CAMPAIGN, "--store", store.path, "--key", tmp_path / "referee.key")
    stdin = cli("receive", "-", "--store", store.path, "--key", tmp_path / "referee.key",
                input=MALFORMED["binary-garbage"])

    for run in (done, stdin):
        assert run.returncode == 0, run.stderr
        assert_no_traceback(run)
    assert len(done.stdout.splitlines()) == len(MALFORMED)


def test_every_malformed_mail_parses_without_raising():
    for raw in MALFORMED.values():
        mail = parse_message(raw, origin="test")
        assert mail.problems  # what was wrong is said, not raised


# -- steps and replacement ---------------------------------------------------------------------


def test_orders_for_a_past_step_are_refused_naming_the_current_step(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    deliver(inbox, email(orders_text(), message_id="<j1@japan.test>"), 1_000)
    mailroom.receive(inbox.path, referee_key)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    late = orders_text("russia", step=1, body="sortie:\n  Novik to Yellow Sea\n")
    deliver(inbox, email(late, sender="makarov@russia.test", message_id="<r1@russia.test>"), 2_000)

    taken = mailroom.receive(inbox.path, referee_key)

    assert [t.outcome for t in taken] == ["duplicate", "refused"]
    assert "the current step is 2" in taken[1].detail
    reply = outgoing(store)[-1]
    assert reply.recipient == ADDRESSES["russia"]
    assert "step 1 is over; the current step is 2" in reply.text
    assert len(orders_records(store)) == 1


def test_the_same_orders_sent_again_after_their_step_are_refused_saying_they_were_used(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    deliver(inbox, email(orders_text(), message_id="<j1@japan.test>"), 1_000)
    mailroom.receive(inbox.path, referee_key)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    deliver(inbox, email(orders_text(), message_id="<j1-again@japan.test>"), 2_000)

    taken = mailroom.receive(inbox.path, referee_key)

    assert [t.outcome for t in taken] == ["duplicate", "refused"]
    reply = outgoing(store)[-1]
    assert reply.recipient == ADDRESSES["japan"]
    text = " ".join(reply.text.split())
    assert "step 1 is over; the current step is 2" in text
    assert "these very orders were accepted for step 1 and step 1 was adjudicated with them" in text
    assert all(len(line) <= 78 for line in reply.text.splitlines())
    assert len(orders_records(store)) == 1


def test_orders_for_another_turn_are_refused_in_lines_of_78_columns_at_most(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    wrong_turn = orders_text(turn=2, step=1)
    deliver(inbox, email(wrong_turn, message_id="<j-turn@japan.test>"), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "refused"
    reply = outgoing(store)[-1]
    assert "these orders are for turn 2, but the game is at turn 1" in reply.words
    assert max(len(line) for line in reply.text.splitlines()) <= 78   # the reason wrapped like any sentence


def test_a_newer_submission_replaces_the_older_in_the_adjudication(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    deliver(inbox, email(orders_text(body="sortie:\n  Mikasa to Tsushima\n"), message_id="<j1@japan.test>"), 1_000)
    deliver(inbox, email(orders_text(body="sortie:\n  Mikasa to Pacific Ocean\n"),
                         message_id="<j2@japan.test>"), 2_000)

    taken = mailroom.receive(inbox.path, referee_key)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)

    assert [t.outcome for t in taken] == ["accepted", "accepted"]
    assert ships_of(campaigns, "japan")["Mikasa"] == "Pacific Ocean"


def test_one_off_orders_answer_only_the_turn_they_were_sent_for(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    japan = orders_text("japan", body="sortie:\n  Mikasa to Tsushima\noperations:\n  pass\nreroll: no\nblockade: no\n")
    russia = orders_text("russia", body="sortie: none\noperations:\n  pass\nreroll: no\nreturn: auto\n")
    deliver(inbox, email(japan, message_id="<j1@japan.test>"), 1_000)
    deliver(inbox, email(russia, sender="makarov@russia.test", message_id="<r1@russia.test>"), 2_000)
    assert [t.outcome for t in mailroom.receive(inbox.path, referee_key)] == ["accepted", "accepted"]

    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)

    _, match = campaigns.match(CAMPAIGN)
    assert sum("Mikasa leaves Japan" in event.text for event in step.events) == 1
    assert match.state.turn == 2 and step.result is None
    assert (step.waiting.side, step.waiting.kind) == ("japan", "sortie")


def russias_report(campaigns, mailroom, store, key):
    """Russia's first report (it asks Russia to sortie, with an answer template), as text."""
    mailroom.take(parse_message(email(orders_text())), key, None)
    campaigns.adjudicate(CAMPAIGN, key, now=T0 + HOUR, after=mailroom.queue_reports)
    (report,) = [m for m in outgoing(store) if m.recipient == ADDRESSES["russia"]]
    assert "BEGIN ORDERS" in report.text
    return report.subject, report.text.replace("\r\n", "\n")


def test_a_reply_above_the_quoted_report_takes_only_the_new_orders(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    subject, original = russias_report(campaigns, mailroom, store, referee_key)
    new = orders_text("russia", step=2, body="sortie:\n  Novik to Yellow Sea\n")
    quoted = "".join(f"> {line}\n" for line in original.splitlines())
    text = f"{new}\nOn Mon, 8 Feb 1904 at 13:00, Referee <referee@adjudicator.test> wrote:\n{quoted}"
    deliver(inbox, email(text, sender="makarov@russia.test", message_id="<r2@russia.test>",
                         subject=f"Re: {subject}"), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "accepted", taken.detail
    assert "Novik to Yellow Sea" in outgoing(store)[-1].text


def test_a_reply_above_an_unquoted_original_report_takes_only_the_new_orders(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    subject, original = russias_report(campaigns, mailroom, store, referee_key)
    new = orders_text("russia", step=2, body="sortie:\n  Novik to Yellow Sea\n")
    text = (f"{new}\n-----Original Message-----\nFrom: referee@adjudicator.test\n"
            f"Sent: Monday, February 8, 1904 1:00 PM\nSubject: {subject}\n\n{original}")
    deliver(inbox, email(text, sender="makarov@russia.test", message_id="<r2@russia.test>",
                         subject=f"RE: {subject}"), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "accepted", taken.detail
    assert "Novik to Yellow Sea" in outgoing(store)[-1].text


def test_orders_below_the_quoted_report_are_read_skipping_the_quote_line_by_line(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    subject, original = russias_report(campaigns, mailroom, store, referee_key)
    new = orders_text("russia", step=2, body="sortie:\n  Novik to Yellow Sea\n")
    quoted = "".join(f"> {line}\n" for line in original.splitlines())
    text = (f"On Mon, 8 Feb 1904 at 13:00, Referee <referee@adjudicator.test> wrote:\n{quoted}\n"
            f"Here are my orders, Admiral.\n\nBEGIN ORDERS\n{new}END ORDERS\n-- \nMakarov\n")
    deliver(inbox, email(text, sender="makarov@russia.test", message_id="<r2@russia.test>",
                         subject=f"Re: {subject}"), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "accepted", taken.detail
    assert "Novik to Yellow Sea" in outgoing(store)[-1].text


def test_orders_below_a_quoted_report_without_a_start_marker_are_read(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    subject, original = russias_report(campaigns, mailroom, store, referee_key)
    new = orders_text("russia", step=2, body="sortie:\n  Novik to Yellow Sea\n")
    quoted = "".join(f"> {line}\n" for line in original.splitlines())
    text = f"On 8 Feb 1904, Referee wrote:\n{quoted}\n{new}"
    deliver(inbox, email(text, sender="makarov@russia.test", message_id="<r3@russia.test>",
                         subject=f"Re: {subject}"), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "accepted", taken.detail


def with_attachment(cover: str, name: str, orders: str) -> bytes:
    from email.message import EmailMessage

    message = EmailMessage()
    message["From"] = "Heihachiro Togo <togo@japan.test>"
    message["To"] = "referee@adjudicator.test"
    message["Subject"] = "My orders"
    message["Message-ID"] = "<attached@japan.test>"
    message.set_content(cover)
    message.add_attachment(orders.encode(), maintype="text", subtype="plain", filename=name)
    return bytes(message)


def test_orders_in_an_attachment_with_a_cover_note_are_found_and_the_receipt_says_the_note_was_ignored(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    cover = "Dear referee,\nmy orders for this turn are attached.\nRegards, Togo\n"
    deliver(inbox, with_attachment(cover, "turn1.txt", orders_text(body="sortie:\n  Mikasa to Yellow Sea\n")), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "accepted", taken.detail
    (receipt,) = outgoing(store)
    assert "the message body was ignored: the orders were read from the attachment 'turn1.txt'" in receipt.words
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    assert ships_of(campaigns, "japan")["Mikasa"] == "Yellow Sea"
