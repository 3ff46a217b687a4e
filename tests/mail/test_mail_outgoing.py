"""Building outgoing messages and writing them as .eml files."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from email import policy
from email.headerregistry import Address
from email.parser import BytesParser
from pathlib import Path

import pytest

from adjudicator.mail import (
    HeaderInjection,
    InvalidAddress,
    InvalidHeader,
    build_message,
    eml_filename,
    message_bytes,
    message_from_bytes,
    parse_message,
    read_messages,
    write_eml,
)

WHEN = datetime(1904, 2, 8, 23, 30, tzinfo=timezone.utc)


def report(**overrides):
    arguments = dict(
        sender="Référé <referee@example.org>",
        to="Amiral Tōgō <togo@example.jp>",
        subject="Rapport du tour 3 — Japon",
        text="Tour 3\nLa flotte russe reste à Port-Arthur.\n",
        date=WHEN,
    )
    arguments.update(overrides)
    return build_message(**arguments)


def reparse(message):
    return BytesParser(policy=policy.default).parsebytes(message_bytes(message))


def test_plain_message_headers_and_body() -> None:
    message = reparse(report())
    assert message.get_content_type() == "text/plain"
    assert message.get_content_charset() == "utf-8"
    assert message["X-Adjudicator"] == "1"
    assert message["From"].addresses[0].display_name == "Référé"
    assert message["To"].addresses[0] == Address("Amiral Tōgō", "togo", "example.jp")
    assert str(message["Subject"]) == "Rapport du tour 3 — Japon"
    assert message["Date"].datetime == WHEN
    assert message["MIME-Version"] == "1.0"
    assert (
        message.get_content().replace("\r\n", "\n")
        == "Tour 3\nLa flotte russe reste à Port-Arthur.\n"
    )
    assert message["Message-ID"].endswith("@example.org>")


def test_wire_form_is_seven_bit_with_crlf_and_encoded_names() -> None:
    data = message_bytes(report())
    assert data.isascii()
    assert b"\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    assert b"=?utf-8?" in data
    assert "Tōgō".encode() not in data


def test_html_makes_multipart_alternative() -> None:
    message = reparse(report(html="<p>Tour 3</p><p>La flotte reste à Port-Arthur.</p>"))
    assert message.get_content_type() == "multipart/alternative"
    plain, html = message.iter_parts()
    assert plain.get_content_type() == "text/plain" and html.get_content_type() == "text/html"
    assert "à Port-Arthur" in plain.get_content()
    assert "à Port-Arthur" in html.get_content()
    assert html.get_content_charset() == "utf-8"
    assert "MIME-Version" not in plain and "MIME-Version" not in html


def test_fresh_message_ids_are_unique_and_on_the_sender_domain() -> None:
    first, second = report(), report()
    assert first["Message-ID"] != second["Message-ID"]
    assert first["Message-ID"].endswith("@example.org>")


def test_given_message_id_is_normalised() -> None:
    assert (
        report(message_id="turn3.japan@example.org")["Message-ID"] == "<turn3.japan@example.org>"
    )
    assert report(message_id=" <t@example.org> ")["Message-ID"] == "<t@example.org>"


@pytest.mark.parametrize("bad", ["", "no-at-sign", "<two words@x>", "<a@b>c>"])
def test_invalid_message_id_is_refused(bad: str) -> None:
    with pytest.raises(InvalidHeader):
        report(message_id=bad)


def test_threading_headers() -> None:
    message = report(
        in_reply_to="<orders-3@example.jp>",
        references=["<charter@example.org>", "<report-2@example.org>"],
    )
    assert message["In-Reply-To"] == "<orders-3@example.jp>"
    assert (
        message["References"]
        == "<charter@example.org> <report-2@example.org> <orders-3@example.jp>"
    )
    again = report(in_reply_to="<x@y>", references=["<x@y>"])
    assert again["References"] == "<x@y>"


def test_a_huge_references_header_of_a_players_mail_is_cut_to_its_first_and_latest_ids() -> None:
    earlier = [f"<mail-{n}@example.jp>" for n in range(40_000)]  # about 1 MB, as one mail carried
    message = report(in_reply_to="<orders-3@example.jp>", references=earlier)
    kept = str(message["References"]).split()
    assert len(kept) == 20 and len(str(message["References"])) < 1_000
    assert kept[0] == "<mail-0@example.jp>"  # the start of the thread
    assert kept[-2:] == ["<mail-39999@example.jp>", "<orders-3@example.jp>"]  # and its latest mail
    assert kept[1:-1] == earlier[-18:]


def test_unusable_ids_of_earlier_mail_are_left_out_of_the_thread() -> None:
    message = report(in_reply_to="<no-at-sign>", references=["<ok@example.org>", "<bad id@x>"])
    assert "In-Reply-To" not in message
    assert message["References"] == "<ok@example.org>"
    assert "References" not in report(references=["", "<é@example.org>"])


def test_ids_read_by_intake_can_be_replied_to() -> None:
    incoming = parse_message(
        b"From: p@example.com\nMessage-ID: <m1@example.com>\n"
        b"References: <r1@example.org> <weird>\n\nSORTIE: yes\n"
    )
    reply = report(in_reply_to=incoming.message_id, references=incoming.references)
    assert reply["In-Reply-To"] == "<m1@example.com>"
    assert reply["References"] == "<r1@example.org> <m1@example.com>"


def test_several_recipients_and_address_objects() -> None:
    message = report(to=[Address("Russia", "russia", "example.ru"), "japan@example.jp"])
    assert [a.addr_spec for a in message["To"].addresses] == [
        "russia@example.ru",
        "japan@example.jp",
    ]


def test_display_name_with_special_characters_is_quoted() -> None:
    message = reparse(report(sender=Address('Doe, "Johnny" <x>', "ref", "example.org")))
    assert message["From"].addresses[0].display_name == 'Doe, "Johnny" <x>'
    assert message["From"].addresses[0].addr_spec == "ref@example.org"


def test_extra_headers() -> None:
    message = report(headers={"Reply-To": "desk@example.org", "X-Campaign": "pa-1904"})
    assert message["Reply-To"] == "desk@example.org"
    assert message["X-Campaign"] == "pa-1904"


@pytest.mark.parametrize(
    "name", ["From", "subject", "Message-ID", "X-Adjudicator", "Content-Type", "Content-Foo"]
)
def test_extra_headers_cannot_replace_built_ones(name: str) -> None:
    with pytest.raises(InvalidHeader):
        report(headers={name: "x"})


@pytest.mark.parametrize("name", ["X Campaign", "X:Campaign", "", "Ünicode"])
def test_extra_header_names_are_checked(name: str) -> None:
    with pytest.raises(InvalidHeader):
        report(headers={name: "x"})


# -- header injection --------------------------------------------------------

LINE_BREAKS = ["\r\n", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\x00"]


@pytest.mark.parametrize("brk", LINE_BREAKS)
def test_subject_with_line_break_is_refused(brk: str) -> None:
    with pytest.raises(HeaderInjection):
        report(subject=f"Report{brk}Bcc: victim@example.com")


@pytest.mark.parametrize("brk", LINE_BREAKS)
def test_display_name_with_line_break_is_refused(brk: str) -> None:
    with pytest.raises(HeaderInjection):
        report(to=f"Evil{brk}Bcc: victim@example.com <player@example.com>")


def test_address_object_with_unicode_line_break_is_refused() -> None:
    with pytest.raises(HeaderInjection):
        report(sender=Address("Evil\u2028Bcc: victim@example.com", "ref", "example.org"))


@pytest.mark.parametrize("field", ["message_id", "in_reply_to"])
def test_message_ids_with_line_break_are_refused(field: str) -> None:
    with pytest.raises(HeaderInjection):
        report(**{field: "<a@b>\r\nBcc: victim@example.com"})


def test_references_with_line_break_are_refused() -> None:
    with pytest.raises(HeaderInjection):
        report(references=["<a@b>\nBcc: victim@example.com"])


def test_extra_header_value_with_line_break_is_refused() -> None:
    with pytest.raises(HeaderInjection):
        report(headers={"X-Campaign": "pa\r\nBcc: victim@example.com"})


# -- addresses ---------------------------------------------------------------


@pytest.mark.parametrize(
    "bad", ["not an address", "a@", "@b.org", "a@b.org, c@d.org", "", "tōgō@example.jp"]
)
def test_invalid_addresses_are_refused(bad: str) -> None:
    with pytest.raises(InvalidAddress):
        report(to=bad)


def test_no_recipient_is_refused() -> None:
    with pytest.raises(InvalidAddress):
        report(to=[])


def test_naive_date_is_refused() -> None:
    with pytest.raises(InvalidHeader):
        report(date=datetime(1904, 2, 8))


def test_default_date_is_now() -> None:
    message = build_message(sender="r@example.org", to="p@example.com", subject="s", text="t")
    sent = message["Date"].datetime
    assert abs((datetime.now(timezone.utc) - sent).total_seconds()) < 60


# -- .eml files --------------------------------------------------------------


def test_write_eml_names_the_file_after_the_message_id(tmp_path: Path) -> None:
    message = report(message_id="<turn3.japan@example.org>")
    path = write_eml(message, tmp_path / "out" / "reports")
    assert path == tmp_path / "out" / "reports" / "turn3.japan@example.org.eml"
    assert path.read_bytes() == message_bytes(message)
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_write_eml_again_replaces_the_same_file(tmp_path: Path) -> None:
    message = report()
    first = write_eml(message, tmp_path)
    second = write_eml(message, tmp_path)
    assert first == second and len(list(tmp_path.iterdir())) == 1


def test_unsafe_message_id_characters_make_a_safe_distinct_name() -> None:
    one = eml_filename(report(message_id="<../../etc/passwd@example.org>"))
    two = eml_filename(report(message_id="<.._.._etc_passwd@example.org>"))
    assert "/" not in one and not one.startswith(".")
    assert one != two


def test_failed_write_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        write_eml(report(), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_written_report_reads_back_as_own_mail(tmp_path: Path) -> None:
    message = report(html="<p>html</p>", in_reply_to="<orders@example.jp>")
    write_eml(message, tmp_path)
    (incoming,) = read_messages(tmp_path)
    assert incoming.is_own
    assert incoming.message_id == message["Message-ID"]
    assert incoming.in_reply_to == "<orders@example.jp>"
    assert incoming.subject == "Rapport du tour 3 — Japon"
    assert incoming.text == "Tour 3\nLa flotte russe reste à Port-Arthur."
    assert incoming.problems == ()


def test_bytes_round_trip_for_the_outbox() -> None:
    message = report(html="<p>x</p>")
    again = message_from_bytes(message_bytes(message))
    assert message_bytes(again) == message_bytes(message)
    assert parse_message(message_bytes(again)).subject == "Rapport du tour 3 — Japon"
