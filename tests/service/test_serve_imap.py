"""``adjudicator serve`` waiting with IDLE on a mailbox of a real IMAP server (Dovecot on
loopback): mail appended to the mailbox is answered at once, flagged ``$Adjudicated``
once durable and left unread for the referee's own mail program; mail already there
when the service starts is taken too, and a restart answers nothing twice."""

from __future__ import annotations

import pytest
from imapclient import IMAPClient

from tests.pipeline.pipeline_helpers import email, orders_text
from tests.service.conftest import Mailbag, wait_for
from tests.service.dovecot import dovecot


@pytest.fixture
def imap_server():
    with dovecot() as server:
        yield server


def mailbox(server) -> IMAPClient:
    client = IMAPClient(server.host, port=server.port, ssl=False, timeout=10)
    client.login(server.user, server.password)
    client.select_folder("INBOX")
    return client


def imap_args(server) -> list[str]:
    return ["--imap", f"{server.host}:{server.port}", "--imap-user", server.user, "--imap-security", "none"]


def flags(server) -> list[set[bytes]]:
    client = mailbox(server)
    try:
        return [set(item[b"FLAGS"]) for item in client.fetch(client.search("ALL"), ["FLAGS"]).values()]
    finally:
        client.logout()


def all_flagged(server) -> bool:
    found = flags(server)
    return bool(found) and all(b"$Adjudicated" in f for f in found)


def test_orders_arriving_in_an_imap_mailbox_are_answered_at_once(referee, imap_server, smtp_capture, start_serve):
    handler, port = smtp_capture
    serve = start_serve(*imap_args(imap_server), smtp_port=port, lmtp=False,
                        env={"ADJUDICATOR_IMAP_PASSWORD": imap_server.password})
    wait_for(lambda: "imap=idle" in serve.health(), 20, serve.log)
    client = mailbox(imap_server)
    client.append("INBOX", email(orders_text(), message_id="<imap-1@japan.test>"))
    client.logout()
    mail = Mailbag(handler)
    wait_for(lambda: len(mail.messages()) >= 3, 20, serve.log)
    assert len(mail.replies_to("<imap-1@japan.test>")) == 1
    wait_for(lambda: all_flagged(imap_server), 10, serve.log)
    assert all(b"\\Seen" not in f for f in flags(imap_server))  # still new for the referee's mail program
    assert imap_server.password not in serve.log()
    assert serve.terminate() == 0


def test_mail_waiting_in_the_mailbox_is_taken_at_start_and_a_restart_answers_nothing_twice(
        referee, imap_server, smtp_capture, start_serve):
    client = mailbox(imap_server)
    client.append("INBOX", email(orders_text(), message_id="<waiting@japan.test>"))
    client.append("INBOX", email("Dear referee, how long is a turn?", message_id="<chat@japan.test>"))
    client.logout()
    handler, port = smtp_capture
    env = {"ADJUDICATOR_IMAP_PASSWORD": imap_server.password}
    serve = start_serve(*imap_args(imap_server), smtp_port=port, lmtp=False, env=env)
    mail = Mailbag(handler)
    wait_for(lambda: len(mail.messages()) >= 3 and all_flagged(imap_server),
             20, serve.log)
    serve.terminate()
    client = mailbox(imap_server)
    client.remove_flags(client.search("ALL"), [b"$Adjudicated"])  # as if the service had been killed before flagging
    client.logout()
    serve = start_serve(*imap_args(imap_server), smtp_port=port, lmtp=False, env=env)
    wait_for(lambda: all_flagged(imap_server), 20, serve.log)
    assert "duplicate" in serve.log()
    assert len(mail.replies_to("<waiting@japan.test>")) == 1
    assert len(mail.messages()) == 3


def test_a_wrong_imap_password_is_logged_and_retried_without_showing_it(referee, imap_server, start_serve):
    serve = start_serve(*imap_args(imap_server), lmtp=False, env={"ADJUDICATOR_IMAP_PASSWORD": "not-the-one"})
    wait_for(lambda: "trying again" in serve.log(), 20, serve.log)
    assert "not-the-one" not in serve.log()
    assert "imap=reconnecting" in serve.health() or "imap=starting" in serve.health()
    assert serve.terminate() == 0
