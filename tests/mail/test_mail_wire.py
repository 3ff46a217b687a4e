"""The wire form written directly (``outgoing_mail``) is the email package's, byte for
byte: ``message_bytes(build_message(...))`` with the same date, Message-ID and boundary."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from email import policy
from email.headerregistry import Address
from email.parser import BytesParser

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from adjudicator.mail import build_message, message_bytes, outgoing_mail

WIRE = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WHEN = datetime(1904, 2, 8, 23, 30, tzinfo=timezone.utc)
BOUNDARY = re.compile(rb'boundary="([^"]+)"')

REPORT_HTML = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Report</title></head><body>\n"
               + "<table>" + "".join(f"<tr><td class=\"zone\">Zone {i}</td><td>Mikasa 6/5, Asahi 6/5, "
                                     f"Fuji 5/4 &amp; Yashima</td></tr>" for i in range(40)) + "</table>\n"
               "<p>Tōgō’s fleet stays at Port Arthur — 3 hits.</p>  \n<pre>\ttab\tend\t</pre>\n</body></html>\n")


def both(**arguments):
    """(the email package's bytes, the direct bytes and Message-ID), or the same error from both."""
    try:
        message = build_message(**arguments)
        expected = message_bytes(message)
    except Exception as err:  # noqa: BLE001 - MailError, or the email package's own for odd ids
        with pytest.raises(type(err)):
            outgoing_mail(**arguments)
        return None
    if "message_id" not in arguments:  # a fresh id: the direct form is given the one drawn
        arguments["message_id"] = str(message["Message-ID"])
    boundary = BOUNDARY.search(expected)
    wire = outgoing_mail(**arguments, boundary=boundary.group(1).decode() if boundary else None)
    assert wire.message_id == message["Message-ID"]
    return expected, wire.data


def assert_same(**arguments) -> None:
    pair = both(**arguments)
    if pair is not None:
        expected, data = pair
        assert data == expected


def test_a_report_with_html_is_written_as_the_email_package_writes_it() -> None:
    assert_same(sender="referee@localhost", to="b@x.org",
                subject="[bench-0] Port Arthur, step 3: turn 1, Operations Phase - report for Russia",
                text="Port Arthur - report\n\nWHAT HAPPENED\n     Pobeda leaves Port Arthur.\n" * 30,
                html=REPORT_HTML, date=WHEN,
                in_reply_to="<179611182538.18241.1884638252466035031@x.org>",
                references=["<179611182532.18241.2789483258509063728.adjudicator@localhost>"])


def test_a_receipt_is_written_as_the_email_package_writes_it() -> None:
    assert_same(sender="Référé <referee@example.org>", to=["Amiral Tōgō <togo@example.jp>", "b@x.org"],
                subject="[pa-1904] Orders accepted", text="Orders accepted.\nsha256: " + "ab" * 32 + "\n",
                in_reply_to="<m1@example.com>", references=["<r1@example.org>"],
                headers={"Reply-To": "Desk <desk@example.org>", "X-Campaign": "pa-1904"}, date=WHEN)


def test_a_fresh_message_id_and_boundary_are_drawn_as_the_email_package_draws_them() -> None:
    wire = outgoing_mail(sender="referee@example.org", to="b@x.org", subject="s", text="t", html="<p>t</p>")
    message = BytesParser(policy=policy.default).parsebytes(wire.data)
    assert message["Message-ID"] == wire.message_id and wire.message_id.endswith("@example.org>")
    assert re.fullmatch(r"={15}[0-9]{19}==", message.get_boundary())
    assert [part.get_content().replace("\r\n", "\n") for part in message.iter_parts()] == ["t\n", "<p>t</p>\n"]


def test_a_boundary_found_in_a_body_is_not_used() -> None:
    wire = outgoing_mail(sender="referee@example.org", to="b@x.org", subject="s", text="t", html="<p>t</p>",
                         boundary=None)
    boundary = BytesParser(policy=policy.default).parsebytes(wire.data).get_boundary()
    text = f"--{boundary}\n--{boundary}.0\n"
    assert_same(sender="referee@example.org", to="b@x.org", subject="s", text=text, html="<p>x</p>", date=WHEN)


printable = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=120)
anything = st.text(max_size=120)
words = st.lists(st.text(alphabet="abcXYZ019.,-[]:=?\"()<>@ ", min_size=1, max_size=12), max_size=14).map(" ".join)
names = st.one_of(st.just(""), printable, anything, st.text(alphabet="ab ,.\"\\", max_size=20))
locals_ = st.one_of(st.just("player"), st.text(alphabet="ab.+-_", min_size=1, max_size=10),
                    st.text(alphabet="a b\"(", min_size=1, max_size=8))
bodies = st.one_of(anything, st.text(max_size=400),
                   st.lists(st.one_of(printable, st.text(alphabet="x =\t", max_size=100)), max_size=8).map("\n".join),
                   st.text(alphabet="a é\t \r\n=.\x0b\x85", max_size=300))
ids = st.one_of(st.just("<a.b@c.d>"), st.text(alphabet="<>@.abc-\"(", max_size=20),
                st.builds(lambda a, b: f"<{a}@{b}>", st.text(alphabet="a1.-_+", min_size=1, max_size=60),
                          st.text(alphabet="a1.-", min_size=1, max_size=30)))
dates = st.builds(lambda minutes, offset: (WHEN + timedelta(minutes=minutes)).astimezone(
    timezone(timedelta(minutes=offset))), st.integers(-10**6, 10**6), st.integers(-14 * 60, 14 * 60))


plain_addresses = st.builds("{}@{}".format, st.text(alphabet="ab1.+-_", min_size=1, max_size=12),
                            st.text(alphabet="ab1.-", min_size=1, max_size=12))


@WIRE
@given(plain=st.lists(plain_addresses, min_size=1, max_size=3), subject=st.one_of(words, printable, anything), name=names, local=locals_, text=bodies,
       html=st.one_of(st.none(), bodies, st.just(REPORT_HTML)), reply=st.one_of(st.none(), ids),
       references=st.lists(ids, max_size=4), date=dates, message_id=st.one_of(st.none(), ids),
       extra=st.dictionaries(st.sampled_from(["Reply-To", "X-Campaign", "Auto-Submitted", "Cc"]),
                             st.one_of(printable, words), max_size=2))
@example(plain=["referee@localhost"], subject="x" * 80, name="", local="player", text="", html="", reply=None, references=[], date=WHEN,
         message_id=None, extra={})
@example(plain=["a.b@c", "d@e.f"], subject=" ".join(["word"] * 40), name="N", local="p", text="a" * 200, html="é" * 90, reply="<a@b>",
         references=["<" + "r" * 70 + "@x.org>", "<s@y>"], date=WHEN, message_id="<q@x>", extra={})
def test_any_message_is_written_as_the_email_package_writes_it(plain, subject, name, local, text, html, reply,
                                                                references, date, message_id, extra) -> None:
    try:
        recipient = Address(name, local, "example.com")
    except (ValueError, IndexError):  # the standard library refuses such a name or local part itself
        return
    arguments = dict(sender=plain[0], to=[recipient, *plain],
                     subject=subject, text=text, html=html, in_reply_to=reply, references=references,
                     date=date, headers=extra)
    if message_id is not None:
        arguments["message_id"] = message_id
    assert_same(**arguments)


@WIRE
@given(address=st.one_of(plain_addresses, st.text(alphabet="ab1.+-_@", max_size=16)))
def test_a_plain_address_is_read_as_the_header_parser_reads_it(address) -> None:
    """Plain addresses skip the header parser: what they become must not change."""
    from adjudicator.mail import InvalidAddress
    from adjudicator.mail.outgoing import _PLAIN_ADDRESS, parse_address

    if not _PLAIN_ADDRESS.match(address):
        return
    header = policy.default.header_factory("to", address)
    assert len(header.addresses) == 1 and not header.defects
    expected = header.addresses[0]
    try:
        ours = parse_address(address)
    except InvalidAddress:  # refused only where the parser's address is refused too
        assert not expected.username or not expected.domain
        return
    assert ours == expected and str(ours) == str(expected) and ours.addr_spec == expected.addr_spec
