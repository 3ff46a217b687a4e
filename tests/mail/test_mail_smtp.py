"""Sending over SMTP, against a real SMTP server (aiosmtpd) on the loopback interface."""

from __future__ import annotations

import base64
import logging
import shutil
import ssl
import subprocess
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword

from tests.smtp_loopback import HOST, RecordingHandler, free_port, smtp_server

from adjudicator.mail import (
    FailureReason,
    MessageRejected,
    RecipientsRefused,
    SendSummary,
    SmtpAuthFailed,
    SmtpConfigError,
    SmtpConnectFailed,
    SmtpSession,
    SmtpSettings,
    WireMessage,
    build_message,
    message_bytes,
    message_headers,
    parse_message,
    send_all,
    send_message,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore:Requiring AUTH while not requiring TLS:UserWarning"
)

USER = "referee"
PASSWORD = "correct horse battery staple"
WHEN = datetime(1904, 2, 9, 8, 0, tzinfo=timezone.utc)


def check_password(server, client, envelope, mechanism, auth_data) -> AuthResult:
    ok = (
        isinstance(auth_data, LoginPassword)
        and auth_data.login == USER.encode()
        and auth_data.password == PASSWORD.encode()
    )
    return AuthResult(success=ok, handled=False)


def plain(port: int, **options) -> SmtpSettings:
    return SmtpSettings(host=HOST, port=port, security="none", timeout=5, **options)


def message(to: str, number: int = 1, **options):
    return build_message(
        sender="Référé Port-Arthur <referee@example.org>",
        to=f"Joueur {number} <{to}>",
        subject=f"Rapport n° {number} — tour 3",
        text=f"Rapport {number}\nLa flotte reste à Port-Arthur.\n",
        date=WHEN,
        **options,
    )


@dataclass
class Outcome:
    sent: list = field(default_factory=list)
    failed: list = field(default_factory=list)

    def on_sent(self, key) -> None:
        self.sent.append(key)

    def on_failed(self, key, reason: str) -> None:
        self.failed.append((key, reason))


# -- sending -----------------------------------------------------------------


def test_multipart_message_arrives_intact() -> None:
    handler = RecordingHandler()
    outgoing = message(
        "japan@example.jp", html="<p>Rapport</p><p>La flotte reste à Port-Arthur.</p>"
    )
    with smtp_server(handler) as port:
        refused = send_message(plain(port), outgoing)

    assert refused == {}
    (arrived,) = handler.received
    assert arrived.mail_from == "referee@example.org"
    assert arrived.rcpt_tos == ["japan@example.jp"]
    received = BytesParser(policy=policy.default).parsebytes(arrived.content)
    assert str(received["Subject"]) == "Rapport n° 1 — tour 3"
    assert received["From"].addresses[0].display_name == "Référé Port-Arthur"
    assert received["X-Adjudicator"] == "1"
    assert received["Message-ID"] == outgoing["Message-ID"]
    assert received.get_content_type() == "multipart/alternative"
    text_part, html_part = received.iter_parts()
    assert text_part.get_content_charset() == "utf-8"
    assert "La flotte reste à Port-Arthur." in text_part.get_content()
    assert html_part.get_content_type() == "text/html"
    assert "<p>La flotte reste à Port-Arthur.</p>" in html_part.get_content()
    incoming = parse_message(arrived.content)
    assert incoming.is_own and incoming.text == "Rapport 1\nLa flotte reste à Port-Arthur."


def test_bcc_recipients_get_the_mail_but_not_the_header() -> None:
    handler = RecordingHandler()
    outgoing = message("japan@example.jp", headers={"Bcc": "archive@example.org"})
    with smtp_server(handler) as port:
        send_message(plain(port), outgoing)
    (arrived,) = handler.received
    assert sorted(arrived.rcpt_tos) == ["archive@example.org", "japan@example.jp"]
    assert b"archive@example.org" not in arrived.content


def test_send_all_uses_one_connection_and_reports_each_message() -> None:
    handler = RecordingHandler(refuse_rcpt={"nobody@example.ru": "550 5.1.1 No such mailbox"})
    outcome = Outcome()
    queue = [
        ("q1", message("japan@example.jp", 1)),
        ("q2", message("nobody@example.ru", 2)),
        ("q3", message("russia@example.ru", 3)),
    ]
    with smtp_server(handler) as port:
        summary = send_all(plain(port), iter(queue), outcome.on_sent, outcome.on_failed)

    assert summary == SendSummary(sent=2, failed=1)
    assert outcome.sent == ["q1", "q3"]
    ((key, reason),) = outcome.failed
    assert key == "q2"
    assert "nobody@example.ru" in reason and "550" in reason
    assert isinstance(reason, FailureReason) and reason.permanent and reason.code == 550
    assert [r.rcpt_tos for r in handler.received] == [["japan@example.jp"], ["russia@example.ru"]]
    assert len({r.peer for r in handler.received}) == 1


def test_failed_messages_stay_queued_and_are_sent_once_on_retry() -> None:
    handler = RecordingHandler(refuse_data={"russia@example.ru": "451 4.3.0 Try again later"})
    queue = {
        "q1": message("japan@example.jp", 1),
        "q2": message("russia@example.ru", 2),
    }
    with smtp_server(handler) as port:
        first = Outcome()
        send_all(plain(port), list(queue.items()), first.on_sent, first.on_failed)
        first_q1 = queue["q1"]
        for key in first.sent:
            del queue[key]
        ((key, reason),) = first.failed
        assert key == "q2" and not reason.permanent and "451" in reason

        handler.refuse_data.clear()
        second = Outcome()
        send_all(plain(port), list(queue.items()), second.on_sent, second.on_failed)

    assert second.sent == ["q2"] and second.failed == []
    arrived_ids = [
        BytesParser(policy=policy.default).parsebytes(r.content)["Message-ID"]
        for r in handler.received
    ]
    assert sorted(arrived_ids) == sorted(m["Message-ID"] for m in (first_q1, queue["q2"]))


def test_server_closing_mid_run_fails_the_rest_without_trying() -> None:
    handler = RecordingHandler(
        refuse_data={"russia@example.ru": "421 4.3.2 Service shutting down"}
    )
    outcome = Outcome()
    queue = [
        ("q1", message("japan@example.jp", 1)),
        ("q2", message("russia@example.ru", 2)),
        ("q3", message("korea@example.kr", 3)),
    ]
    with smtp_server(handler) as port:
        summary = send_all(plain(port), queue, outcome.on_sent, outcome.on_failed)
    assert summary == SendSummary(sent=1, failed=2)
    assert outcome.sent == ["q1"]
    assert [key for key, _ in outcome.failed] == ["q2", "q3"]
    assert outcome.failed[1][1].startswith("not attempted")
    assert len(handler.received) == 1


def test_a_session_sends_later_runs_on_the_connection_it_kept() -> None:
    handler = RecordingHandler()
    session = SmtpSession()
    with smtp_server(handler) as port:
        for number in (1, 2, 3):
            outcome = Outcome()
            summary = send_all(plain(port), [(f"q{number}", message("japan@example.jp", number))],
                               outcome.on_sent, outcome.on_failed, session)
            assert summary == SendSummary(sent=1, failed=0) and outcome.sent == [f"q{number}"]
        session.close()
    assert len(handler.received) == 3
    assert len({r.peer for r in handler.received}) == 1


def test_a_kept_connection_the_server_closed_is_replaced_and_the_message_sent_once() -> None:
    handler = RecordingHandler()
    session = SmtpSession()
    port = free_port()
    with smtp_server(handler, port=port):
        send_all(plain(port), [("q1", message("japan@example.jp", 1))], Outcome().on_sent, Outcome().on_failed,
                 session)
    with smtp_server(handler, port=port):  # the server went away and came back: the kept link is dead
        outcome = Outcome()
        summary = send_all(plain(port), [("q2", message("japan@example.jp", 2)),
                                         ("q3", message("russia@example.ru", 3))],
                           outcome.on_sent, outcome.on_failed, session)
        session.close()
    assert summary == SendSummary(sent=2, failed=0)
    assert outcome.sent == ["q2", "q3"] and outcome.failed == []
    arrived = [BytesParser(policy=policy.default).parsebytes(r.content)["Subject"] for r in handler.received]
    assert len(arrived) == 3 and len(set(arrived)) == 3
    assert len({r.peer for r in handler.received[1:]}) == 1 and handler.received[0].peer != handler.received[1].peer


def test_a_session_keeps_no_connection_that_was_lost() -> None:
    handler = RecordingHandler(refuse_data={"russia@example.ru": "421 4.3.2 Service shutting down"})
    session = SmtpSession()
    with smtp_server(handler) as port:
        first = Outcome()
        send_all(plain(port), [("q1", message("russia@example.ru", 1))], first.on_sent, first.on_failed, session)
        handler.refuse_data.clear()
        second = Outcome()
        send_all(plain(port), [("q2", message("japan@example.jp", 2))], second.on_sent, second.on_failed, session)
        session.close()
    assert [key for key, _ in first.failed] == ["q1"] and second.sent == ["q2"]


def test_every_message_fails_when_the_server_is_unreachable() -> None:
    outcome = Outcome()
    settings = plain(free_port())
    summary = send_all(
        settings,
        [("a", message("japan@example.jp")), ("b", message("russia@example.ru"))],
        outcome.on_sent,
        outcome.on_failed,
    )
    assert summary == SendSummary(sent=0, failed=2)
    assert outcome.sent == []
    assert [key for key, _ in outcome.failed] == ["a", "b"]
    assert (
        "cannot connect" in outcome.failed[0][1]
        and f"{HOST}:{settings.port}" in outcome.failed[0][1]
    )


def test_nothing_to_send_opens_no_connection() -> None:
    outcome = Outcome()
    assert send_all(plain(free_port()), [], outcome.on_sent, outcome.on_failed) == SendSummary(
        0, 0
    )
    assert outcome.failed == []


def test_send_message_raises_when_every_recipient_is_refused() -> None:
    handler = RecordingHandler(refuse_rcpt={"nobody@example.ru": "550 5.1.1 No such mailbox"})
    with smtp_server(handler) as port, pytest.raises(RecipientsRefused) as caught:
        send_message(plain(port), message("nobody@example.ru"))
    assert caught.value.permanent and "nobody@example.ru" in str(caught.value)


def test_send_message_reports_partly_refused_recipients() -> None:
    handler = RecordingHandler(refuse_rcpt={"nobody@example.ru": "550 5.1.1 No such mailbox"})
    outgoing = build_message(
        sender="referee@example.org",
        to=["japan@example.jp", "nobody@example.ru"],
        subject="s",
        text="t",
    )
    with smtp_server(handler) as port:
        refused = send_message(plain(port), outgoing)
    assert list(refused) == ["nobody@example.ru"] and refused["nobody@example.ru"][0] == 550
    assert handler.received[0].rcpt_tos == ["japan@example.jp"]


# -- login -------------------------------------------------------------------


def auth_server(handler: RecordingHandler):
    return smtp_server(
        handler, authenticator=check_password, auth_require_tls=False, auth_required=True
    )


def test_login_with_the_right_password_sends() -> None:
    handler = RecordingHandler()
    with auth_server(handler) as port:
        send_message(plain(port, username=USER, password=PASSWORD), message("japan@example.jp"))
    assert len(handler.received) == 1


def test_login_with_a_wrong_password_fails_clearly_without_showing_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    handler = RecordingHandler()
    wrong = "Tr0ub4dor&3-wrong"
    caplog.set_level(logging.DEBUG)
    with auth_server(handler) as port:
        settings = plain(port, username=USER, password=wrong)
        with pytest.raises(SmtpAuthFailed) as caught:
            send_message(settings, message("japan@example.jp"))
        outcome = Outcome()
        send_all(
            settings, [("k", message("japan@example.jp"))], outcome.on_sent, outcome.on_failed
        )

    text = str(caught.value)
    assert "login" in text and "535" in text and USER in text
    assert caught.value.permanent
    ((key, reason),) = outcome.failed
    assert key == "k" and "login" in reason
    assert not reason.permanent  # the settings are wrong, not the message
    secret_forms = [
        wrong,
        base64.b64encode(wrong.encode()).decode(),
        base64.b64encode(f"\0{USER}\0{wrong}".encode()).decode(),
    ]
    own_log = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("adjudicator"))
    for secret in secret_forms:
        assert secret not in text and secret not in reason and secret not in own_log
        assert secret not in repr(settings)
    assert handler.received == []


def test_without_login_an_auth_requiring_server_refuses_clearly() -> None:
    with auth_server(RecordingHandler()) as port:
        with pytest.raises(MessageRejected, match="530") as caught:
            send_message(plain(port), message("japan@example.jp"))
    assert "sender refused" in str(caught.value)
    assert not caught.value.permanent  # the settings are wrong, not the message


def test_login_against_a_server_without_auth_fails_clearly() -> None:
    with (
        smtp_server(RecordingHandler()) as port,
        pytest.raises(SmtpAuthFailed, match="does not offer login"),
    ):
        send_message(plain(port, username=USER, password=PASSWORD), message("japan@example.jp"))


# -- TLS ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, made for these tests."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is needed to make a test certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*map(str, certificate))
    return context


def test_starttls_with_login(certificate) -> None:
    handler = RecordingHandler()
    options = dict(
        tls_context=server_context(certificate),
        require_starttls=True,
        authenticator=check_password,
        auth_required=True,
    )
    with smtp_server(handler, **options) as port:
        settings = SmtpSettings(
            host=HOST,
            port=port,
            security="starttls",
            username=USER,
            password=PASSWORD,
            ca_file=str(certificate[0]),
            timeout=5,
        )
        send_message(settings, message("japan@example.jp"))
    assert len(handler.received) == 1


def test_starttls_with_an_untrusted_certificate_fails(certificate) -> None:
    handler = RecordingHandler()
    with smtp_server(
        handler, tls_context=server_context(certificate), require_starttls=True
    ) as port:
        settings = SmtpSettings(host=HOST, port=port, security="starttls", timeout=5)
        with pytest.raises(SmtpConnectFailed, match="certificate"):
            send_message(settings, message("japan@example.jp"))
    assert handler.received == []


def test_implicit_tls(certificate) -> None:
    handler = RecordingHandler()
    with smtp_server(handler, ssl_context=server_context(certificate)) as port:
        settings = SmtpSettings(
            host=HOST, port=port, security="ssl", ca_file=str(certificate[0]), timeout=5
        )
        send_message(settings, message("japan@example.jp"))
    assert len(handler.received) == 1


def test_starttls_is_required_when_asked_for() -> None:
    handler = RecordingHandler()
    with smtp_server(handler) as port:
        settings = SmtpSettings(host=HOST, port=port, security="starttls", timeout=5)
        with pytest.raises(SmtpConnectFailed, match="does not offer STARTTLS"):
            send_message(settings, message("japan@example.jp"))
    assert handler.received == []


# -- settings ----------------------------------------------------------------


def test_settings_from_environment() -> None:
    settings = SmtpSettings.from_env(
        {
            "ADJUDICATOR_SMTP_HOST": "smtp.example.org",
            "ADJUDICATOR_SMTP_PORT": "2525",
            "ADJUDICATOR_SMTP_SECURITY": "SSL",
            "ADJUDICATOR_SMTP_USER": "referee",
            "ADJUDICATOR_SMTP_PASSWORD": "hunter2",
        }
    )
    assert settings == SmtpSettings("smtp.example.org", 2525, "ssl", "referee", "hunter2")
    assert "hunter2" not in repr(settings) and "hunter2" not in settings.describe()


def test_settings_defaults() -> None:
    settings = SmtpSettings.from_env({"ADJUDICATOR_SMTP_HOST": "smtp.example.org"})
    assert (settings.security, settings.effective_port, settings.username) == (
        "starttls",
        587,
        None,
    )
    assert SmtpSettings("h", security="ssl").effective_port == 465
    assert SmtpSettings("h", security="none").effective_port == 25


@pytest.mark.parametrize(
    "environ",
    [
        {},
        {"ADJUDICATOR_SMTP_HOST": "h", "ADJUDICATOR_SMTP_PORT": "smtp"},
        {"ADJUDICATOR_SMTP_HOST": "h", "ADJUDICATOR_SMTP_PORT": "70000"},
        {"ADJUDICATOR_SMTP_HOST": "h", "ADJUDICATOR_SMTP_SECURITY": "tls-please"},
        {"ADJUDICATOR_SMTP_HOST": "h", "ADJUDICATOR_SMTP_TIMEOUT": "0"},
        {"ADJUDICATOR_SMTP_HOST": "h", "ADJUDICATOR_SMTP_TIMEOUT": "nan"},
        {"ADJUDICATOR_SMTP_HOST": "h", "ADJUDICATOR_SMTP_USER": "referee"},
        {"ADJUDICATOR_SMTP_HOST": "h", "ADJUDICATOR_SMTP_PASSWORD": "hunter2"},
    ],
)
def test_bad_settings_are_refused(environ: dict[str, str]) -> None:
    with pytest.raises(SmtpConfigError) as caught:
        SmtpSettings.from_env(environ)
    assert "hunter2" not in str(caught.value)


# -- queued mail sent in its wire form -----------------------------------------


def test_a_queued_message_is_sent_byte_for_byte_as_it_was_queued() -> None:
    handler = RecordingHandler()
    outgoing = message("japan@example.jp", html="<p>Rapport</p>", headers={"Cc": "russia@example.ru"})
    queued = message_bytes(outgoing)
    outcome = Outcome()
    with smtp_server(handler) as port:
        send_all(plain(port), [("q1", WireMessage(message_headers(queued), queued))], outcome.on_sent,
                 outcome.on_failed)
    assert outcome.sent == ["q1"] and outcome.failed == []
    (arrived,) = handler.received
    assert arrived.mail_from == "referee@example.org"
    assert sorted(arrived.rcpt_tos) == ["japan@example.jp", "russia@example.ru"]
    assert arrived.content.replace(b"\r\n", b"\n").rstrip(b"\n") == queued.replace(b"\r\n", b"\n").rstrip(b"\n")


def test_a_queued_message_with_bcc_loses_the_header_as_smtplib_does() -> None:
    handler = RecordingHandler()
    queued = message_bytes(message("japan@example.jp", headers={"Bcc": "archive@example.org"}))
    outcome = Outcome()
    with smtp_server(handler) as port:
        send_all(plain(port), [("q1", WireMessage(message_headers(queued), queued))], outcome.on_sent,
                 outcome.on_failed)
    (arrived,) = handler.received
    assert sorted(arrived.rcpt_tos) == ["archive@example.org", "japan@example.jp"]
    assert b"archive@example.org" not in arrived.content
