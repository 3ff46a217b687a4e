"""Sending the outbox: .eml files, and SMTP to a real server on the loopback interface.
What arrives is what was queued; nothing is sent twice; nothing refused is lost."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from datetime import datetime, timezone

import pytest

from adjudicator.mail import build_message, message_bytes

from adjudicator.mail import SmtpSettings, parse_message
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    COMMAND,
    HOUR,
    T0,
    cli,
    assert_no_traceback,
    command_env,
    email,
    orders_text,
    outgoing,
    parse_eml,
    part_text,
)
from tests.smtp_loopback import HOST as SMTP_HOST
from tests.smtp_loopback import RecordingHandler, free_port, smtp_server


@pytest.fixture
def queued(campaign, campaigns, store, mailroom, referee_key):
    """A receipt to Japan and both players' reports of step 1, queued."""
    taken = mailroom.take(parse_message(email(orders_text())), referee_key, None)
    assert taken.outcome == "accepted"
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    mails = outgoing(store, status="queued")
    assert len(mails) == 3
    return mails


def smtp(port: int) -> SmtpSettings:
    return SmtpSettings(host=SMTP_HOST, port=port, security="none", timeout=5)


def msgid(message) -> str:
    return str(message["Message-ID"]).strip()


def assert_arrived_as_queued(arrived, queued_mails) -> None:
    by_id = {msgid(m.message): m for m in queued_mails}
    for item in arrived:
        message = item.message
        original = by_id[msgid(message)]
        assert item.rcpt_tos == [original.recipient]
        assert str(message["Subject"]) == original.subject
        assert str(message["In-Reply-To"] or "").strip() == str(original.message["In-Reply-To"] or "").strip()
        assert part_text(message, "plain") == original.text
        assert part_text(message, "html") == original.html


def test_send_without_smtp_writes_each_queued_mail_as_an_eml_file_and_keeps_it_queued(
        queued, store, mailroom):
    files, sent, failures = mailroom.send(CAMPAIGN, None)

    assert (sent, failures) == (0, [])
    assert sorted(p.name for p in files) == sorted(p.name for p in mailroom.outbox.glob("*.eml"))
    assert len(files) == len(queued)
    written = {msgid(parse_eml(p.read_bytes())): parse_eml(p.read_bytes()) for p in files}
    for mail in queued:
        assert part_text(written[msgid(mail.message)], "plain") == mail.text
    assert all(oct(p.stat().st_mode & 0o777) == "0o600" for p in files)
    assert len(outgoing(store, status="queued")) == len(queued)


def test_send_delivers_the_queued_mail_by_smtp_once_and_never_again(queued, store, mailroom):
    handler = RecordingHandler()
    with smtp_server(handler) as port:
        files, sent, failures = mailroom.send(CAMPAIGN, smtp(port))
        assert (len(files), sent, failures) == (3, 3, [])
        again = mailroom.send(CAMPAIGN, smtp(port))

    assert again == ([], 0, [])
    assert len(handler.received) == 3
    assert sorted(msgid(a.message) for a in handler.received) == sorted(msgid(m.message) for m in queued)
    assert_arrived_as_queued(handler.received, queued)
    assert {m.status for m in outgoing(store)} == {"sent"}


def test_a_refused_recipient_stays_queued_and_is_delivered_later(queued, store, mailroom):
    refusing = RecordingHandler(refuse_rcpt={ADDRESSES["russia"]: "550 5.1.1 mailbox unavailable"})
    with smtp_server(refusing) as port:
        _, sent, failures = mailroom.send(CAMPAIGN, smtp(port))

    assert sent == 2 and len(failures) == 1 and "550" in failures[0]
    (waiting,) = store.outbox(CAMPAIGN, "queued")
    assert waiting.recipient == ADDRESSES["russia"] and "550" in waiting.last_error
    assert all(ADDRESSES["russia"] not in a.rcpt_tos for a in refusing.received)

    working = RecordingHandler()
    with smtp_server(working) as port:
        _, sent, failures = mailroom.send(CAMPAIGN, smtp(port))

    assert (sent, failures) == (1, [])
    assert [a.rcpt_tos for a in working.received] == [[ADDRESSES["russia"]]]
    arrived = refusing.received + working.received
    assert sorted(msgid(a.message) for a in arrived) == sorted(msgid(m.message) for m in queued)
    assert_arrived_as_queued(arrived, queued)


def test_mail_stays_queued_while_the_server_is_down_and_goes_when_it_is_back(queued, store, mailroom):
    port = free_port()
    files, sent, failures = mailroom.send(CAMPAIGN, smtp(port))

    assert len(files) == 3 and sent == 0 and len(failures) == 3
    assert len(store.outbox(CAMPAIGN, "queued")) == 3

    handler = RecordingHandler()
    with smtp_server(handler, port) as port:
        _, sent, failures = mailroom.send(CAMPAIGN, smtp(port))

    assert (sent, failures) == (3, [])
    assert_arrived_as_queued(handler.received, queued)
    assert len(handler.received) == 3


def test_the_send_command_delivers_by_smtp_configured_in_the_environment(queued, store, tmp_path):
    handler = RecordingHandler()
    with smtp_server(handler) as port:
        env = command_env(ADJUDICATOR_SMTP_HOST=SMTP_HOST, ADJUDICATOR_SMTP_PORT=str(port),
                          ADJUDICATOR_SMTP_SECURITY="none")
        done = cli("send", CAMPAIGN, "--store", store.path, "--outbox", tmp_path / "sent", env=env)
        again = cli("send", CAMPAIGN, "--store", store.path, "--outbox", tmp_path / "sent", env=env)

    assert done.returncode == 0, done.stderr
    assert "3 new message(s) written" in done.stdout and "3 sent by SMTP" in done.stdout
    assert again.returncode == 0 and "0 new message(s) written" in again.stdout
    assert len(list((tmp_path / "sent").glob("*.eml"))) == 3
    assert len(handler.received) == 3
    assert_arrived_as_queued(handler.received, queued)


def test_the_send_command_exits_1_and_keeps_the_mail_when_the_server_is_down(queued, store, tmp_path):
    env = command_env(ADJUDICATOR_SMTP_HOST=SMTP_HOST, ADJUDICATOR_SMTP_PORT=str(free_port()),
                      ADJUDICATOR_SMTP_SECURITY="none", ADJUDICATOR_SMTP_TIMEOUT="5")

    done = cli("send", CAMPAIGN, "--store", store.path, "--outbox", tmp_path / "sent", env=env)

    assert done.returncode == 1
    assert_no_traceback(done)
    assert done.stderr.count("not sent, still queued") == 3
    assert len(store.outbox(CAMPAIGN, "queued")) == 3


def test_two_send_commands_at_once_deliver_each_message_once(queued, store, tmp_path):
    handler = RecordingHandler()
    with smtp_server(handler) as port:
        env = command_env(ADJUDICATOR_SMTP_HOST=SMTP_HOST, ADJUDICATOR_SMTP_PORT=str(port),
                          ADJUDICATOR_SMTP_SECURITY="none")
        argv = [*COMMAND, "send", CAMPAIGN, "--store", str(store.path), "--outbox", str(tmp_path / "sent")]
        processes = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                     for _ in range(2)]
        results = [(p.wait(timeout=60), *p.communicate()) for p in processes]

    assert [code for code, _, _ in results] == [0, 0], results
    assert sorted(msgid(a.message) for a in handler.received) == sorted(msgid(m.message) for m in queued)
    assert {m.status for m in outgoing(store)} == {"sent"}


def test_mail_left_half_sent_by_an_interrupted_send_can_be_queued_again(campaign, store, mailroom):
    message = build_message(sender="referee@adjudicator.test", to="togo@japan.test", subject="[c1] test", text="x\n")
    with store.transaction(CAMPAIGN) as tx:
        tx.queue_mail(message["Message-ID"], "togo@japan.test", message_bytes(message))
    with store.transaction(CAMPAIGN) as tx:
        claimed = tx.claim_mail()  # a 'send' that was killed after claiming its mail
    assert claimed and not outgoing(store, status="queued")
    assert mailroom.settle_interrupted(CAMPAIGN) == (0, len(claimed))
    assert len(outgoing(store, status="queued")) == len(claimed)


# -- nothing stuck, nothing stale, nothing counted twice ----------------------------------------


def test_a_second_send_without_smtp_writes_nothing_new_and_says_so(queued, store, tmp_path):
    first = cli("send", CAMPAIGN, "--store", store.path, "--outbox", tmp_path / "out")
    second = cli("send", CAMPAIGN, "--store", store.path, "--outbox", tmp_path / "out")

    assert first.returncode == 0 and "3 new message(s) written" in first.stdout, first.stdout
    assert second.returncode == 0 and "0 new message(s) written" in second.stdout, second.stdout


def test_mark_sent_records_the_written_mail_as_delivered(queued, store, tmp_path):
    done = cli("send", CAMPAIGN, "--mark-sent", "--store", store.path, "--outbox", tmp_path / "out")

    assert done.returncode == 0, done.stderr
    assert "3 new message(s) written" in done.stdout and "3 marked sent" in done.stdout
    assert {m.status for m in outgoing(store)} == {"sent"}
    again = cli("send", CAMPAIGN, "--mark-sent", "--store", store.path, "--outbox", tmp_path / "out")
    assert "0 new message(s) written" in again.stdout and "0 marked sent" in again.stdout


def test_a_backlog_older_than_the_current_step_is_sent_only_with_yes(queued, campaigns, store, mailroom,
                                                                    referee_key, tmp_path):
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 100 * HOUR, after=mailroom.queue_reports)
    assert step.batch == 2
    old = {m.id for m in queued}
    handler = RecordingHandler()
    with smtp_server(handler) as port:
        env = command_env(ADJUDICATOR_SMTP_HOST=SMTP_HOST, ADJUDICATOR_SMTP_PORT=str(port),
                          ADJUDICATOR_SMTP_SECURITY="none")
        held = cli("send", CAMPAIGN, "--store", store.path, "--outbox", tmp_path / "out", env=env)
        assert held.returncode == 0, held.stderr
        assert "held back: 3 message(s) queued before the current step" in held.stderr
        assert {m.id for m in outgoing(store, status="queued")} == old
        assert len(handler.received) == 2  # the reports of the current step
        sent = cli("send", CAMPAIGN, "--yes", "--store", store.path, "--outbox", tmp_path / "out", env=env)

    assert sent.returncode == 0 and "3 sent by SMTP" in sent.stdout, sent.stdout
    assert {m.status for m in outgoing(store)} == {"sent"}


def test_mail_a_killed_send_left_half_sent_is_sent_by_the_next_send_with_the_same_message_id(
        queued, store, mailroom):
    with store.transaction(CAMPAIGN) as tx:
        meta = tx.campaign().meta
        tx.set_meta({**meta, "senders": {"killed": {"host": os.uname().nodename, "pid": 2**22 + 9,
                                                    "beat": datetime.now(timezone.utc).isoformat()}}})
        claimed = tx.claim_mail()  # then the 'send' was killed
    assert len(claimed) == 3 and not outgoing(store, status="queued")

    handler = RecordingHandler()
    with smtp_server(handler) as port:
        _, sent, failures = mailroom.send(CAMPAIGN, smtp(port))

    assert (sent, failures) == (3, [])
    assert sorted(msgid(a.message) for a in handler.received) == sorted(m.message_id for m in claimed)
    assert {m.status for m in outgoing(store)} == {"sent"}


class StallingHandler(RecordingHandler):
    """Takes ``count`` messages, then stalls: the sender is killed while it waits."""

    def __init__(self, count: int = 1) -> None:
        super().__init__()
        self.count = count

    async def handle_DATA(self, server, client, envelope):
        if len(self.received) >= self.count:
            await asyncio.sleep(30)
        return await super().handle_DATA(server, client, envelope)


def smtp_env(port: int) -> dict:
    return command_env(ADJUDICATOR_SMTP_HOST=SMTP_HOST, ADJUDICATOR_SMTP_PORT=str(port),
                       ADJUDICATOR_SMTP_SECURITY="none")


def send_killed_after(count: int, store, outbox) -> StallingHandler:
    """Run 'send' until the server has taken ``count`` messages, then kill it; what arrived."""
    stalling = StallingHandler(count)
    with smtp_server(stalling) as port:
        argv = [*COMMAND, "send", CAMPAIGN, "--store", str(store.path), "--outbox", str(outbox)]
        process = subprocess.Popen(argv, env=smtp_env(port), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while len(stalling.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    assert len(stalling.received) == count
    return stalling


def send_again(store, outbox) -> tuple[subprocess.CompletedProcess, RecordingHandler]:
    handler = RecordingHandler()
    with smtp_server(handler) as port:
        done = cli("send", CAMPAIGN, "--store", store.path, "--outbox", outbox, env=smtp_env(port))
    assert done.returncode == 0, done.stderr
    return done, handler


def test_a_send_killed_while_sending_leaves_nothing_stuck(queued, store, tmp_path):
    stalling = send_killed_after(1, store, tmp_path / "out")
    assert outgoing(store, status="sending")

    _, handler = send_again(store, tmp_path / "out")

    arrived = [msgid(a.message) for a in stalling.received + handler.received]
    assert set(arrived) == {msgid(m.message) for m in queued}  # every message at least once
    assert {m.status for m in outgoing(store)} == {"sent"}


def test_a_killed_send_is_followed_by_one_that_sends_only_what_the_server_had_not_taken(
        queued, store, tmp_path):
    stalling = send_killed_after(2, store, tmp_path / "out")

    _, handler = send_again(store, tmp_path / "out")

    first = {msgid(a.message) for a in stalling.received}
    again = [msgid(a.message) for a in handler.received]
    assert len(again) == 1 and not first & set(again)  # no message twice
    assert first | set(again) == {msgid(m.message) for m in queued}
    assert {m.status for m in outgoing(store)} == {"sent"}
    assert len(list((tmp_path / "out").glob("*.eml"))) == 3  # the referee's copy of each, once


def test_send_with_format_json_says_what_it_wrote_and_sent_as_one_json_document(queued, store, tmp_path):
    import json

    from typer.testing import CliRunner

    from adjudicator.cli import mail_cmds  # noqa: F401  (registers the command)
    from adjudicator.cli.app import app

    handler = RecordingHandler()
    with smtp_server(handler) as port:
        env = command_env(ADJUDICATOR_SMTP_HOST=SMTP_HOST, ADJUDICATOR_SMTP_PORT=str(port),
                          ADJUDICATOR_SMTP_SECURITY="none")
        done = cli("send", CAMPAIGN, "--store", store.path, "--outbox", tmp_path / "sent", "--format", "json",
                   env=env)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["sent"] == 3 and said["not_sent"] == [] and said["held_back"] == 0
    assert said["smtp"].startswith(SMTP_HOST) and said["marked_sent"] is False
    assert sorted(said["written"]) == sorted(str(p) for p in (tmp_path / "sent").glob("*.eml"))
    assert len(said["written"]) == 3 and len(handler.received) == 3

    again = CliRunner().invoke(app, ["send", CAMPAIGN, "--store", str(store.path), "--outbox",
                                     str(tmp_path / "sent"), "--mark-sent", "--format", "json"],
                               env={"ADJUDICATOR_SMTP_HOST": ""})
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == {"written": [], "outbox": str(tmp_path / "sent"), "sent": 0, "smtp": None,
                                        "marked_sent": True, "held_back": 0, "not_sent": []}
