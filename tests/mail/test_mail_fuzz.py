"""Property tests: intake never raises, outgoing headers can never be injected."""

from __future__ import annotations

import io
import re
import tempfile
from datetime import datetime, timezone
from email import policy
from email.headerregistry import Address
from email.parser import BytesParser
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from adjudicator.mail import (
    HeaderInjection,
    IncomingMail,
    build_message,
    content_hash,
    html_to_text,
    message_bytes,
    parse_message,
    read_messages,
)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Pieces of mail syntax that lead the parser into its less travelled paths.
FRAGMENTS = [
    b"From: ",
    b"Subject: ",
    b"Message-ID: ",
    b"Date: ",
    b"References: ",
    b"Sender: ",
    b"Content-Type: multipart/mixed; boundary=b\n",
    b'Content-Type: multipart/alternative; boundary="b"\n',
    b"Content-Type: multipart/report; boundary=c\n",
    b"Content-Type: message/rfc822\n",
    b"Content-Type: text/html; charset=utf-8\n",
    b"Content-Type: text/plain; charset=x-bogus\n",
    b"Content-Type: text/plain; charset*=utf-8''%E2%82%AC\n",
    b"Content-Type: text/plain; charset=base64\n",
    b"Content-Transfer-Encoding: base64\n",
    b"Content-Transfer-Encoding: quoted-printable\n",
    b"Content-Transfer-Encoding: x-uuencode\n",
    b"begin 644 a.txt\n",
    b"end\n",
    b'Content-Disposition: attachment; filename="../o.orders"\n',
    b"Content-Disposition: attachment; filename*=utf-8''%FF.txt\n",
    b"--b\n",
    b"--b--\n",
    b"--c\n",
    b"\n",
    b"\r\n",
    b" folded\n",
    b"\t",
    b":",
    b"<",
    b">",
    b"@",
    b";",
    b'"',
    b"=?utf-8?b?w6k=?=",
    b"=?utf-8?q?=E9?=",
    b"=?bogus?x?abc?=",
    b"=?utf-8?b?!!!?=",
    b"<a@b>",
    b"<p>x<br>",
    b"<blockquote>",
    b"<script>",
    b"&#x110000;",
    b"=C3=A9=\n",
    b"=ZZ",
    b"aGVsbG8=",
    b"\xff\xfe",
    b"\xc3(",
    b"\x00",
    b"From nobody\n",
    b"Auto-Submitted: auto-replied\n",
    b"Return-Path: <>\n",
    b"X-Adjudicator: 1\n",
]

mail_like = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.binary(max_size=30)), max_size=60
).map(b"".join)


def check_mail(result: IncomingMail, raw: bytes) -> None:
    """The invariants of every parse result."""
    assert isinstance(result, IncomingMail)
    assert result.raw == raw
    assert result.content_hash == content_hash(raw)
    for text in (
        result.subject,
        result.text,
        result.sender_name,
        result.sender or "",
        result.message_id or "",
    ):
        assert isinstance(text, str)
        text.encode("utf-8")  # no lone surrogates: storable anywhere
    for name, text in result.attachments_text:
        name.encode("utf-8")
        text.encode("utf-8")
        assert "/" not in name
    assert "\n" not in result.subject and "\r" not in result.subject
    for message_id in (result.message_id, result.in_reply_to, *result.references):
        if message_id is not None:  # what the store accepts as a Message-ID
            assert 2 < len(message_id) <= 998
            assert not any(c in message_id for c in "\r\n\0 ")
    assert all(isinstance(p, str) for p in result.problems)
    assert isinstance(result.is_auto_reply, bool) and isinstance(result.is_own, bool)


@FUZZ
@given(st.binary(max_size=4000))
def test_arbitrary_bytes_never_raise(raw: bytes) -> None:
    check_mail(parse_message(raw), raw)


@FUZZ
@given(mail_like)
@example(b"Content-Type: text/plain; charset=base64\n\n\x8d\x05N\xe8")
@example(b"Message-ID: <" + b"x" * 1200 + b"@example.org>\n\nbody")
def test_mail_shaped_bytes_never_raise(raw: bytes) -> None:
    result = parse_message(raw, own_address="referee@example.org")
    check_mail(result, raw)
    reply = build_message(  # whatever intake read can be replied to
        sender="referee@example.org",
        to="player@example.com",
        subject="receipt",
        text="ok",
        in_reply_to=result.message_id,
        references=result.references,
    )
    message_bytes(reply)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([b"From x\n", b"\n", b"\r\n"]) | mail_like, max_size=8))
def test_any_mbox_or_stdin_content_is_read_without_raising(pieces: list[bytes]) -> None:
    raw = b"".join(pieces)
    (from_stdin,) = read_messages("-", stdin=io.BytesIO(raw))
    check_mail(from_stdin, raw)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "inbox"
        path.write_bytes(b"From " + raw)
        for mail in read_messages(path):
            check_mail(mail, mail.raw)


@FUZZ
@given(st.text(max_size=500))
def test_html_conversion_never_raises(html: str) -> None:
    assert isinstance(html_to_text(html), str)


LINE_BREAK = re.compile("[\x00\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
EXPECTED_HEADERS = {
    "from",
    "to",
    "subject",
    "date",
    "message-id",
    "x-adjudicator",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
}


@FUZZ
@given(subject=st.text(max_size=200), name=st.text(max_size=60))
def test_subjects_and_names_can_never_inject_headers(subject: str, name: str) -> None:
    try:
        recipient = Address(name, "player", "example.com")
    except ValueError:  # the standard library itself refuses CR and LF here
        assert "\r" in name or "\n" in name
        return
    try:
        message = build_message(
            sender="referee@example.org",
            to=recipient,
            subject=subject,
            text="body",
            date=datetime(1904, 2, 8, tzinfo=timezone.utc),
        )
    except HeaderInjection:
        assert LINE_BREAK.search(subject) or LINE_BREAK.search(name)
        return
    assert not LINE_BREAK.search(subject)
    received = BytesParser(policy=policy.default).parsebytes(message_bytes(message))
    assert {key.lower() for key in received.keys()} == EXPECTED_HEADERS
    assert [a.addr_spec for a in received["To"].addresses] == ["player@example.com"]
    assert received["Message-ID"] == message["Message-ID"]
