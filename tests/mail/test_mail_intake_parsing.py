"""Decoding one received message: headers, body text, attachments, flags, problems."""

from __future__ import annotations

import base64
from datetime import datetime, timedelta, timezone

import pytest

from adjudicator.mail import IncomingMail, content_hash, parse_message


def mail(headers: str, body: bytes | str = b"", *, base: bool = True) -> bytes:
    """Raw message bytes: common headers (unless ``base`` is False), ``headers``, body."""
    common = (
        (
            "From: Player <player@example.com>\n"
            "To: referee@example.org\n"
            "Message-ID: <m1@example.com>\n"
            "Date: Mon, 08 Feb 1904 23:30:00 +0900\n"
        )
        if base
        else ""
    )
    if isinstance(body, str):
        body = body.encode("utf-8")
    return (common + headers).encode("utf-8") + b"\n" + body


def parse(raw: bytes, **kwargs) -> IncomingMail:
    return parse_message(raw, **kwargs)


# -- headers -----------------------------------------------------------------


def test_well_formed_plain_message() -> None:
    result = parse(
        mail(
            "Subject: =?utf-8?q?Ordres_du_tour_3_=E2=80=94_Russie?=\n"
            "In-Reply-To: <report-2@referee.example.org>\n"
            "References: <charter@referee.example.org>\n <report-2@referee.example.org>\n"
            "Content-Type: text/plain; charset=utf-8\n",
            "SORTIE: yes\r\nPLAN: attack\n",
        )
    )
    assert result.message_id == "<m1@example.com>"
    assert result.sender == "player@example.com"
    assert result.sender_name == "Player"
    assert result.subject == "Ordres du tour 3 — Russie"
    assert result.in_reply_to == "<report-2@referee.example.org>"
    assert result.references == ("<charter@referee.example.org>", "<report-2@referee.example.org>")
    assert result.date == datetime(1904, 2, 8, 23, 30, tzinfo=timezone(timedelta(hours=9)))
    assert result.text == "SORTIE: yes\nPLAN: attack"
    assert result.attachments_text == ()
    assert not result.is_auto_reply
    assert not result.is_own
    assert result.problems == ()


def test_message_id_is_normalised() -> None:
    raw = mail("Message-ID:  (made by a client)\n  <abc.123@Host.example>  \n", "x", base=False)
    assert parse(raw).message_id == "<abc.123@Host.example>"


def test_message_id_without_brackets_is_bracketed() -> None:
    assert (
        parse(mail("Message-ID: abc@example.com\n", "x", base=False)).message_id
        == "<abc@example.com>"
    )


def test_sender_domain_is_lower_cased_and_display_name_decoded() -> None:
    raw = mail("From: =?iso-8859-1?q?J=E9r=F4me?= <Jerome@PortArthur.Example>\n", "x", base=False)
    result = parse(raw)
    assert result.sender == "Jerome@portarthur.example"
    assert result.sender_name == "Jérôme"


def test_raw_utf8_header_bytes_are_decoded() -> None:
    raw = "From: Tōgō <togo@example.jp>\nSubject: Ordres déjà prêts\n\nx\n".encode("utf-8")
    result = parse(raw)
    assert result.subject == "Ordres déjà prêts"
    assert result.sender_name == "Tōgō"


def test_raw_latin1_header_bytes_are_decoded() -> None:
    result = parse(b"From: p@example.com\nSubject: Ordres d\xe9j\xe0 pr\xeats\n\nx\n")
    assert result.subject == "Ordres déjà prêts"


def test_sender_falls_back_to_sender_header() -> None:
    raw = mail("Sender: player@example.com\n", "x", base=False)
    assert parse(raw).sender == "player@example.com"


def test_missing_headers_are_problems_not_errors() -> None:
    result = parse(b"Subject: hello\n\nbody\n")
    assert result.sender is None
    assert result.message_id is None
    assert result.date is None
    assert result.text == "body"
    assert any("sender" in p for p in result.problems)
    assert "no Message-ID header" in result.problems


def test_bad_date_is_a_problem() -> None:
    raw = mail("From: p@example.com\nDate: the day after tomorrow\n", "x", base=False)
    result = parse(raw)
    assert result.date is None
    assert "Date header could not be read" in result.problems


def test_date_without_zone_is_taken_as_utc() -> None:
    raw = mail("From: p@example.com\nDate: Mon, 08 Feb 1904 23:30:00 -0000\n", "x", base=False)
    assert parse(raw).date == datetime(1904, 2, 8, 23, 30, tzinfo=timezone.utc)


def test_content_hash_ignores_line_ending_style_and_raw_is_kept() -> None:
    lf = mail("Subject: s\n", "line one\nline two\n")
    crlf = lf.replace(b"\n", b"\r\n")
    assert parse(lf).content_hash == parse(crlf).content_hash == content_hash(lf + b"\n\n")
    assert parse(crlf).raw == crlf
    assert parse(lf).content_hash != parse(lf.replace(b"two", b"2")).content_hash


# -- body text ---------------------------------------------------------------


def test_html_only_mail_is_converted_to_text() -> None:
    html = (
        "<html><head><style>p {color: red}</style><title>t</title></head><body>"
        "<div>SIDE: Japan</div><div>TURN: 3<br>SORTIE: yes</div>"
        "<p>PLAN:&nbsp;<b>bombard</b> Port&nbsp;Arthur</p>"
        "<ul><li>ship Mikasa</li><li>ship Asahi</li></ul>"
        "<script>alert('x')</script></body></html>"
    )
    result = parse(mail("Subject: s\nContent-Type: text/html; charset=utf-8\n", html))
    assert result.text.splitlines() == [
        "SIDE: Japan",
        "TURN: 3",
        "SORTIE: yes",
        "PLAN:\xa0bombard Port\xa0Arthur",
        "- ship Mikasa",
        "- ship Asahi",
    ]
    assert "alert" not in result.text and "color" not in result.text
    assert result.problems == ()


def test_alternative_prefers_plain_text() -> None:
    body = (
        "--b\nContent-Type: text/plain; charset=utf-8\n\nplain version\n"
        "--b\nContent-Type: text/html; charset=utf-8\n\n<p>html version</p>\n"
        "--b--\n"
    )
    result = parse(mail('Content-Type: multipart/alternative; boundary="b"\n', body))
    assert result.text == "plain version"


def test_alternative_with_blank_plain_part_uses_html() -> None:
    body = (
        "--b\nContent-Type: text/plain\n\n \n"
        "--b\nContent-Type: text/html\n\n<p>html version</p>\n"
        "--b--\n"
    )
    assert (
        parse(mail("Content-Type: multipart/alternative; boundary=b\n", body)).text
        == "html version"
    )


def test_mixed_message_joins_inline_text_parts_and_skips_other_parts() -> None:
    body = (
        "--m\nContent-Type: multipart/alternative; boundary=a\n\n"
        "--a\nContent-Type: text/plain\n\nfirst\n"
        "--a\nContent-Type: text/html\n\n<b>first</b>\n--a--\n"
        "--m\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n"
        "--m\nContent-Type: text/plain\n\nsecond\n"
        "--m\nContent-Type: message/rfc822\n\nSubject: forwarded\n\nnot mine\n"
        "--m--\n"
    )
    result = parse(mail("Content-Type: multipart/mixed; boundary=m\n", body))
    assert result.text == "first\nsecond"


def test_quoted_printable_body() -> None:
    body = "Ordres : d=C3=A9placer la flotte =C3=A0 Port-Arthur, une tr=\n=C3=A8s longue ligne\n"
    result = parse(
        mail(
            "Content-Type: text/plain; charset=utf-8\n"
            "Content-Transfer-Encoding: quoted-printable\n",
            body,
        )
    )
    assert result.text == "Ordres : déplacer la flotte à Port-Arthur, une très longue ligne"
    assert result.problems == ()


def test_base64_body() -> None:
    text = "Приказы: флот остаётся в Порт-Артуре\n"
    encoded = base64.encodebytes(text.encode("utf-8")).decode("ascii")
    result = parse(
        mail(
            "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n", encoded
        )
    )
    assert result.text == text.strip()


def test_latin1_body_labelled_utf8_is_read_and_reported() -> None:
    body = "Ordres : déplacer la flotte à Port-Arthur\n".encode("latin-1")
    result = parse(
        mail("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n", body)
    )
    assert result.text == "Ordres : déplacer la flotte à Port-Arthur"
    assert any("not valid utf-8" in p for p in result.problems)


def test_unknown_charset_is_read_as_utf8_and_reported() -> None:
    body = "flotte à l'ancre\n".encode("utf-8")
    result = parse(mail("Content-Type: text/plain; charset=x-klingon\n", body))
    assert result.text == "flotte à l'ancre"
    assert any("unknown charset 'x-klingon'" in p for p in result.problems)


def test_codec_names_that_are_not_charsets_are_unknown() -> None:
    result = parse(mail("Content-Type: text/plain; charset=base64\n", "plain words\n"))
    assert result.text == "plain words"
    assert any("unknown charset 'base64'" in p for p in result.problems)


def test_undecodable_bytes_are_replaced() -> None:
    body = b"shift_jis bytes \x81\x8d\x8f\x90\x9d end\n"
    result = parse(mail("Content-Type: text/plain; charset=ascii\n", body))
    assert result.text.startswith("shift_jis bytes ") and result.text.endswith(" end")
    assert "\ufffd" in result.text
    assert result.problems


def test_unknown_transfer_encoding_is_read_as_is() -> None:
    result = parse(mail("Content-Transfer-Encoding: x-magic\n", "plain words\n"))
    assert result.text == "plain words"
    assert any("x-magic" in p for p in result.problems)


# -- attachments -------------------------------------------------------------


def test_text_attachments_named_txt_or_orders_are_kept() -> None:
    orders = base64.b64encode("SIDE: Russia\nSORTIE: no\n".encode()).decode()
    body = (
        "--m\nContent-Type: text/plain\n\nsee attached\n"
        "--m\nContent-Type: text/plain; charset=utf-8\n"
        'Content-Disposition: attachment; filename="turn3.txt"\n\n'
        "SIDE: Japan\n"
        "--m\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n"
        'Content-Disposition: attachment; filename="../../etc/russia.ORDERS"\n\n'
        f"{orders}\n"
        "--m\nContent-Type: application/pdf\n"
        'Content-Disposition: attachment; filename="rules.pdf"\n\n%PDF\n'
        '--m\nContent-Type: image/png; name="map.txt"\n'
        "Content-Transfer-Encoding: base64\n\niVBORw0KGgo=\n"
        "--m\nContent-Type: text/plain\n"
        'Content-Disposition: attachment; filename="notes.doc"\n\nno\n'
        "--m--\n"
    )
    result = parse(mail("Content-Type: multipart/mixed; boundary=m\n", body))
    assert result.text == "see attached"
    assert result.attachments_text == (
        ("turn3.txt", "SIDE: Japan"),
        ("russia.ORDERS", "SIDE: Russia\nSORTIE: no\n"),
    )


def test_mail_with_only_an_attachment_has_no_problem_about_text() -> None:
    body = (
        "--m\nContent-Type: text/plain\n"
        "Content-Disposition: attachment; filename=o.txt\n\nX\n--m--\n"
    )
    result = parse(mail("Content-Type: multipart/mixed; boundary=m\n", body))
    assert result.text == ""
    assert result.attachments_text == (("o.txt", "X"),)
    assert result.problems == ()


# -- auto replies and own mail -----------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        "Auto-Submitted: auto-replied\n",
        "Auto-Submitted: auto-generated; reason=vacation\n",
        "Precedence: bulk\n",
        "Precedence: JUNK\n",
        "Precedence: list\n",
        "Precedence: auto_reply\n",
        "X-Autoreply: yes\n",
        "X-Autorespond: on\n",
        "Return-Path: <>\n",
        "Subject: Out of Office: away until March\n",
        "Subject: Automatic reply: Orders turn 3\n",
        "Subject: RE: AW: Automatic Reply\n",
        "Subject: Undeliverable: Report turn 2\n",
        "Subject: Delivery Status Notification (Failure)\n",
        "Subject: Mail delivery failed: returning message to sender\n",
        "Subject: Réponse automatique : absent\n",
        "Content-Type: multipart/report; report-type=delivery-status; boundary=x\n",
    ],
)
def test_auto_replies_are_recognised(headers: str) -> None:
    assert parse(mail(headers, "I am away.")).is_auto_reply


def test_bounce_from_mailer_daemon_is_recognised() -> None:
    raw = mail("From: MAILER-DAEMON@mx.example.org\nSubject: failure\n", "x", base=False)
    assert parse(raw).is_auto_reply


@pytest.mark.parametrize(
    "headers",
    [
        "Subject: Orders for turn 3\n",
        "Auto-Submitted: no\n",
        "Precedence: first-class\n",
        "Return-Path: <player@example.com>\n",
        "Subject: Orders (I will be out of office next week)\n",
    ],
)
def test_ordinary_mail_is_not_an_auto_reply(headers: str) -> None:
    assert not parse(mail(headers, "SORTIE: yes")).is_auto_reply


def test_own_mail_is_recognised_by_header_or_address() -> None:
    assert parse(mail("X-Adjudicator: 1\n", "report")).is_own
    assert parse(mail("", "x"), own_address="Player@Example.COM").is_own
    assert not parse(mail("", "x"), own_address="referee@example.org").is_own


# -- malformed mail ----------------------------------------------------------


def test_truncated_multipart_gives_problems_and_the_text_found() -> None:
    cut_short = "U09SVElFOiBubw=="[:9]
    body = (
        "--m\nContent-Type: text/plain\n\nSORTIE: yes\n"
        f"--m\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n{cut_short}"
    )
    result = parse(mail("Content-Type: multipart/mixed; boundary=m\n", body))
    assert result.text.startswith("SORTIE: yes")
    assert any("close boundary" in p for p in result.problems)


def test_boundary_never_found_reads_the_raw_content() -> None:
    body = "--other\nContent-Type: text/plain\n\nSORTIE: yes\n--other--\n"
    result = parse(mail("Content-Type: multipart/mixed; boundary=missing\n", body))
    assert "SORTIE: yes" in result.text
    assert any("start boundary was never found" in p for p in result.problems)
    assert any("raw content is read as text" in p for p in result.problems)


def test_multipart_without_boundary_parameter() -> None:
    result = parse(mail("Content-Type: multipart/mixed\n", "SORTIE: yes\n"))
    assert "SORTIE: yes" in result.text
    assert any("no boundary parameter" in p for p in result.problems)


def test_bad_base64_is_a_problem() -> None:
    result = parse(mail("Content-Transfer-Encoding: base64\n", "U09SVElF!!!OiB5ZXM*\n"))
    assert result.problems
    assert isinstance(result.text, str)


def test_message_of_headers_only() -> None:
    result = parse(b"From: p@example.com\nSubject: nothing here\nMessage-ID: <x@y>")
    assert result.subject == "nothing here"
    assert result.text == ""
    assert "message has no text" in result.problems


def test_garbage_bytes() -> None:
    result = parse(b"\x00\xff\xfe\x80garbage\x1b[31m\n\n\xc3(")
    assert result.sender is None
    assert result.problems
    result.text.encode("utf-8")


def test_empty_message() -> None:
    result = parse(b"")
    assert result.text == "" and "message is empty" in result.problems
    assert result.content_hash == content_hash(b"")


def test_header_continuation_before_any_header() -> None:
    result = parse(b" continued\nFrom: p@example.com\n\nbody\n")
    assert result.problems
    assert isinstance(result.text, str)


def test_control_characters_in_subject_are_removed() -> None:
    result = parse(b"From: p@example.com\nSubject: a\x07b\x00c\n\nx\n")
    assert "\x07" not in result.subject and "\x00" not in result.subject
