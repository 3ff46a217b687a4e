"""Malformed mail for the intake tests: a seeded generator of broken messages, each built
from a well-formed orders email by one or more of the faults real mail shows (bad
charsets, UTF-7 lone surrogates, huge or doubled headers, broken MIME, cut bytes)."""

from __future__ import annotations

import random

from tests.pipeline.pipeline_helpers import orders_text

GOOD_HEADERS = [b"From: Heihachiro Togo <togo@japan.test>", b"To: referee@adjudicator.test",
                b"Subject: Orders", b"Date: Mon, 08 Feb 1904 13:00:00 +0000"]

#: Named examples of the faults the issue reproduced.
UTF7_LONE_SURROGATE = (b"From: togo@japan.test\r\nMessage-ID: <utf7@japan.test>\r\n"
                       b"Content-Type: text/plain; charset=utf-7\r\n\r\n"
                       + orders_text().replace("password: Togo-1904", "password: Togo+2D0-").encode()
                       + b"# +2D0-\r\nhits: +2D0-\r\n")
LONG_FROM = (b"From: " + b"a" * 1000 + b"@japan.test\r\nMessage-ID: <long-from@japan.test>\r\n\r\n"
             + orders_text().encode())
BROKEN_MIME = (b"From: togo@japan.test\r\nMessage-ID: <broken-mime@japan.test>\r\nMIME-Version: 1.0\r\n"
               b"Content-Type: multipart/mixed; boundary=\"=\r\n\r\n--=\r\nContent-Type: text/plain;"
               b" charset=\"\r\n\r\n" + orders_text().encode() + b"\r\n--=\r\nContent-Type: message/rfc822\r\n\r\n"
               b"From: \xff\xfe\r\n\r\n--=--")


def _body_faults(rng: random.Random, text: bytes) -> tuple[list[bytes], bytes]:
    """Content headers and a body showing one fault of the body or its MIME structure."""
    choice = rng.randrange(12)
    if choice == 0:
        return [b"Content-Type: text/plain; charset=utf-7"], text + b"\r\n+2D0-" + bytes(rng.choice(b"+-ABC") for _ in range(8))
    if choice == 1:
        return [b"Content-Type: text/plain; charset=" + rng.choice([b"utf-16", b"utf-32", b"x-bogus", b"\"", b"cp037"])], text
    if choice == 2:
        return [b"Content-Transfer-Encoding: base64"], bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
    if choice == 3:
        return [b"Content-Transfer-Encoding: quoted-printable"], text.replace(b"\n", b"=\n=ZZ=") + b"=\xff="
    if choice == 4:
        boundary = rng.choice([b"", b"\"", b"b", b"x" * 1000])
        return [b"MIME-Version: 1.0", b"Content-Type: multipart/mixed; boundary=" + boundary], (
            b"--" + boundary + b"\r\nContent-Type: text/plain\r\n\r\n" + text)
    if choice == 5:
        nested = b"--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" * rng.randrange(1, 20)
        return [b"Content-Type: multipart/mixed; boundary=b"], nested + text
    if choice == 6:
        return [b"Content-Type: multipart/alternative; boundary=q",], (
            b"--q\r\nContent-Type: text/html; charset=utf-7\r\n\r\n<p>+2D0-" + text + b"\r\n--q\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n\xff\xfe\r\n--q--")
    if choice == 7:
        return [b"Content-Type: multipart/mixed; boundary=z"], (
            b"--z\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n--z\r\nContent-Type: application/octet-stream\r\n"
            b"Content-Disposition: attachment; filename*=utf-8''%FF%FE.orders\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + bytes(rng.randrange(256) for _ in range(rng.randrange(200))) + b"\r\n--z--")
    if choice == 8:
        return [b"Content-Type: text/html"], b"<html><body>" + b"<div>" * rng.randrange(100) + text.replace(b"\n", b"<br>")
    if choice == 9:
        cut = rng.randrange(len(text) + 1)
        return [], text[:cut] + bytes(rng.randrange(256) for _ in range(rng.randrange(50)))
    if choice == 10:
        return [b"Content-Type: text/plain; charset=utf-8"], text + b"\r\n" + b"\x00\xc3\x28\xed\xa0\x80" * rng.randrange(1, 20)
    return [b"Content-Type: message/rfc822"], text


def _header_faults(rng: random.Random) -> list[bytes]:
    """The message's own headers, one or more of them broken."""
    headers = list(GOOD_HEADERS)
    for _ in range(rng.randrange(1, 4)):
        choice = rng.randrange(10)
        if choice == 0:
            headers[0] = b"From: " + b"t" * rng.randrange(990, 3000) + b"@japan.test"
        elif choice == 1:
            headers[0] = rng.choice([b"From: undisclosed-recipients:;", b"From: group: a@b.test, c@d.test;",
                                     b"From: \"victim@x.test\" <>", b"From: <<<@@@>>>", b"From:",
                                     b"From: =?utf-7?q?+2D0-?= <togo@japan.test>",
                                     b"From: togo@japan.test\r\n\tbcc: x@y.test", b"From: \xff\xfe@\x80.test"])
        elif choice == 2:
            headers.append(b"Message-ID: " + rng.choice([b"<" + b"m" * 2000 + b"@x>", b"<>", b"<\xff@\xfe>",
                                                         b"no-brackets", b"<a@b> <c@d>"]))
        elif choice == 3:
            headers.append(b"Subject: =?utf-7?b?" + bytes(rng.choice(b"+/=AZaz09") for _ in range(40)) + b"?=")
        elif choice == 4:
            headers.append(b"Date: " + rng.choice([b"yesterday", b"Mon, 99 Feb 99999 99:99:99 +9999", b"\xff"]))
        elif choice == 5:
            headers.append(b"X-Long: " + b"y" * rng.randrange(1000, 4000))
        elif choice == 6:
            headers.append(b"In-Reply-To: " + b"<a@b>" * rng.randrange(1, 100))
        elif choice == 7:
            headers.append(rng.choice([b"no colon at all", b": empty name", b"\xff\xfe: bytes"]))
        elif choice == 8:
            headers.append(b"References: " + bytes(rng.randrange(32, 256) for _ in range(rng.randrange(300))))
        else:
            headers.append(b"Auto-Submitted: no")
    return headers


def malformed_mails(count: int, seed: int = 9) -> list[bytes]:
    """``count`` malformed messages, the same for the same seed."""
    rng = random.Random(seed)
    mails = [UTF7_LONE_SURROGATE, LONG_FROM, BROKEN_MIME]
    while len(mails) < count:
        text = orders_text(body=rng.choice(["sortie:\n  Mikasa to Tsushima\n", "sortie: none\n", "hits: auto\n"]),
                           password=rng.choice([None, "wrong", ""])).replace("\n", "\r\n").encode()
        content, body = _body_faults(rng, text)
        headers = _header_faults(rng) + content
        if rng.random() < 0.5:
            headers.insert(0, b"Message-ID: <fuzz-" + str(len(mails)).encode() + b"@fuzz.test>")
        rng.shuffle(headers)
        raw = b"\r\n".join(headers) + b"\r\n\r\n" + body
        if rng.random() < 0.1:
            raw = raw.replace(b"\r\n", rng.choice([b"\n", b"\r", b"\r\r\n"]))
        mails.append(raw)
    return mails[:count]
