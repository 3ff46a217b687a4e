"""``adjudicator serve`` with mail delivered by LMTP (``smtplib.LMTP``, as a mail server
delivers), replies captured by the loopback SMTP server: each orders email is answered
at once with its receipt and the step's reports, taken once, and the service stops
gracefully on SIGTERM."""

from __future__ import annotations

import smtplib

import pytest

from adjudicator.campaign import Campaigns
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import CAMPAIGN, REFEREE, email, orders_text
from tests.service.conftest import Mailbag, wait_for
from tests.smtp_loopback import HOST


def batches(referee) -> int:
    with Store.open(referee.store) as store:
        return len(Campaigns(store).log(CAMPAIGN).batches)


def test_orders_delivered_by_lmtp_are_answered_with_a_receipt_and_the_step_reports(referee, smtp_capture, start_serve):
    handler, port = smtp_capture
    serve = start_serve(smtp_port=port)
    serve.deliver(email(orders_text(), message_id="<o1@japan.test>"))
    mail = Mailbag(handler)
    wait_for(lambda: len(mail.messages()) >= 3, 20, lambda: f"replies: {len(mail.messages())}\n{serve.log()}")
    [receipt] = mail.replies_to("<o1@japan.test>")
    assert "Orders accepted" in str(receipt["Subject"])
    assert {str(m["To"]) for m in mail.reports()} == {"togo@japan.test", "makarov@russia.test"}
    assert batches(referee) == 1
    assert "accepted togo@japan.test -> c1" in serve.log()
    assert "Togo-1904" not in serve.log()  # no password in the log


def test_a_message_delivered_twice_is_taken_once_and_answered_once(referee, smtp_capture, start_serve):
    handler, port = smtp_capture
    serve = start_serve(smtp_port=port)
    raw = email(orders_text(), message_id="<twice@japan.test>")
    serve.deliver(raw)
    serve.deliver(raw)
    mail = Mailbag(handler)
    wait_for(lambda: "duplicate" in serve.log(), 20, serve.log)
    wait_for(lambda: len(mail.messages()) >= 3, 20, serve.log)
    assert len(mail.replies_to("<twice@japan.test>")) == 1
    assert batches(referee) == 1


def test_bad_orders_are_answered_with_every_error_and_record_nothing(referee, smtp_capture, start_serve):
    handler, port = smtp_capture
    serve = start_serve(smtp_port=port)
    serve.deliver(email(orders_text(password="Hunter-2-secret"), message_id="<bad@japan.test>"))
    mail = Mailbag(handler)
    wait_for(lambda: mail.replies_to("<bad@japan.test>"), 20, serve.log)
    [refusal] = mail.replies_to("<bad@japan.test>")
    assert "not accepted" in str(refusal["Subject"])
    assert "wrong password" in refusal.get_body(("plain",)).get_content()
    assert batches(referee) == 0
    assert "refused togo@japan.test -> c1" in serve.log()
    assert "Hunter-2-secret" not in serve.log()


def test_each_lmtp_recipient_gets_its_own_answer(referee, start_serve):
    serve = start_serve()
    with smtplib.LMTP(HOST, serve.lmtp_port, timeout=30) as lmtp:
        lmtp.ehlo_or_helo_if_needed()
        lmtp.mail("togo@japan.test")
        lmtp.rcpt("referee@adjudicator.test")
        lmtp.rcpt("orders@adjudicator.test")
        first = lmtp.data(email(orders_text(), message_id="<two-rcpt@japan.test>"))
        second = lmtp.getreply()
    assert first[0] == 250 and second[0] == 250
    wait_for(lambda: list(referee.outbox.glob("*.eml")), 20, serve.log)
    assert batches(referee) == 1


def test_sigterm_stops_the_service_gracefully_and_the_health_line_says_so(referee, start_serve):
    serve = start_serve()
    assert serve.health().startswith("ok ")
    assert serve.terminate() == 0
    assert serve.health().startswith("stopped ")
    assert "stopped" in serve.log().splitlines()[-1]
    with pytest.raises(OSError):
        smtplib.LMTP(HOST, serve.lmtp_port, timeout=5)


def test_a_restart_adjudicates_orders_taken_before_it_and_sends_what_is_queued(referee, smtp_capture, start_serve):
    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.mail import parse_message

    with Store.open(referee.store) as store:
        taken = Mailroom(Campaigns(store), referee.outbox).take(
            parse_message(email(orders_text(), message_id="<before@japan.test>")), referee.key, None)
    assert taken.outcome == "accepted"
    handler, port = smtp_capture
    serve = start_serve(smtp_port=port)
    mail = Mailbag(handler)
    wait_for(lambda: len(mail.messages()) >= 3, 20, serve.log)
    assert len(mail.replies_to("<before@japan.test>")) == 1
    assert len(mail.reports()) == 2
    assert batches(referee) == 1


def test_the_service_applies_defaults_when_a_deadline_passes_on_its_own_clock(referee, smtp_capture, start_serve):
    referee.open_campaign("c2", deadline_hours=2 / 3600)  # two seconds
    handler, port = smtp_capture
    serve = start_serve("--tick", "0.2", "--remind-hours", "0", smtp_port=port)
    mail = Mailbag(handler)
    wait_for(lambda: len(mail.reports()) >= 2, 30, serve.log)
    assert "defaults for japan" in serve.log()
    with Store.open(referee.store) as store:
        assert Campaigns(store).log("c2").batches[0].body["defaults"] == ["japan"]
        assert Campaigns(store).log(CAMPAIGN).batches == []  # its deadline is days away


def test_the_service_reminds_the_waited_for_side_once_before_the_deadline(referee, smtp_capture, start_serve):
    handler, port = smtp_capture
    serve = start_serve("--tick", "0.2", "--remind-hours", "100", smtp_port=port)
    mail = Mailbag(handler)
    wait_for(lambda: mail.messages(), 20, serve.log)
    [reminder] = mail.messages()
    assert "Reminder" in str(reminder["Subject"]) and str(reminder["To"]) == "togo@japan.test"
    serve.terminate()
    assert len(mail.messages()) == 1


def test_lmtp_on_a_unix_socket_as_postfix_delivers(referee, start_serve, tmp_path):
    socket_path = tmp_path / "lmtp.sock"
    serve = start_serve("--lmtp", f"unix:{socket_path}", lmtp=False)
    with smtplib.LMTP(str(socket_path), timeout=30) as lmtp:
        assert lmtp.sendmail("togo@japan.test", [REFEREE], email(orders_text())) == {}
    wait_for(lambda: len(list(referee.outbox.glob("*.eml"))) >= 3, 20, serve.log)
    assert serve.terminate() == 0
    assert not socket_path.exists()


def test_the_health_command_tells_a_supervisor_whether_the_service_is_well(referee, start_serve):
    import subprocess
    import sys

    def health() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "adjudicator", "health", str(serve.health_file),
                               "--max-age", "30"], capture_output=True, text=True)

    serve = start_serve()
    running = health()
    assert running.returncode == 0 and running.stdout.startswith("ok ")
    assert "lmtp=listening" in running.stdout
    serve.terminate()
    stopped = health()
    assert stopped.returncode == 1 and stopped.stderr.startswith("stopped ")


def test_mail_that_could_not_be_sent_at_start_is_tried_again_a_tick_later_not_at_once(referee, start_serve):
    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.mail import parse_message
    from tests.smtp_loopback import free_port

    with Store.open(referee.store) as store:
        Mailroom(Campaigns(store), referee.outbox).take(
            parse_message(email(orders_text(), message_id="<queued@japan.test>")), referee.key, None)
    serve = start_serve("--tick", "3", smtp_port=free_port())  # no SMTP server listens there

    def tries() -> int:
        return serve.log().count("not sent, still queued: mail 1:")

    assert tries() == 1, serve.log()  # the start's send, and no second try by the clock's first round
    wait_for(lambda: tries() >= 2, 20, serve.log)  # the clock's retry, a tick later
    assert serve.terminate() == 0


def test_a_restart_after_a_killed_send_sends_only_what_the_server_had_not_taken_and_says_so(
        referee, smtp_capture, start_serve):
    import os
    from datetime import datetime, timezone

    from adjudicator.mail import build_message, message_bytes

    messages = [build_message(sender=REFEREE, to="togo@japan.test", subject=f"[{CAMPAIGN}] test {n}", text="x\n")
                for n in range(2)]
    with Store.open(referee.store) as store:
        with store.transaction(CAMPAIGN) as tx:
            for message in messages:
                tx.queue_mail(message["Message-ID"], "togo@japan.test", message_bytes(message))
        with store.transaction(CAMPAIGN) as tx:  # a 'send' that was killed after the server took the first
            claimed = tx.claim_mail()
            tx.set_meta({**tx.campaign().meta, "accepted": [claimed[0].id],
                         "senders": {"killed": {"host": os.uname().nodename, "pid": 2**22 + 9,
                                                "beat": datetime.now(timezone.utc).isoformat()}}})
    handler, port = smtp_capture
    serve = start_serve(smtp_port=port)
    mail = Mailbag(handler)
    wait_for(lambda: len(mail.messages()) >= 1, 20, serve.log)
    serve.terminate()

    assert [str(m["Message-ID"]).strip() for m in mail.messages()] == [str(messages[1]["Message-ID"]).strip()]
    assert "--requeue" not in serve.log()
    assert "1 the mail server had taken are recorded as sent, 1 sent again" in serve.log(), serve.log()
    with Store.open(referee.store) as store:
        assert {m.status.value for m in store.outbox(CAMPAIGN)} == {"sent"}
