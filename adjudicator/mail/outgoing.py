"""Building the mail the adjudicator sends, and writing it as ``.eml`` files.

Header safety (decided): any header value the caller passes -- a display name,
an address, the subject, a message id, an extra header -- that contains a line
break (CR, LF, or any other character Python treats as a line boundary: VT, FF,
FS, GS, RS, NEL, U+2028, U+2029) or a NUL raises :class:`HeaderInjection`.
Nothing is silently stripped: such a value is a bug or an attack upstream, and
stripping would send something the caller did not write.

Every message carries ``X-Adjudicator: 1`` so that intake recognises the
adjudicator's own mail (and never takes a report as orders); bodies are
encoded 7-bit safe (quoted-printable when needed), so any SMTP server accepts
them.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import sys
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from email import policy, utils
from email.headerregistry import Address
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any, NamedTuple

from adjudicator import files
from adjudicator.files import write_atomically
from adjudicator.speed import annex_on

from .errors import HeaderInjection, InvalidAddress, InvalidHeader
from .headers import ParsedOnce

#: Header put on every message the adjudicator sends (intake knows its own mail by it).
OWN_HEADER = "X-Adjudicator"

AddressLike = str | Address

#: Headers that build_message sets itself; ``headers=`` may not set them.
RESERVED_HEADERS = frozenset(
    {
        "from",
        "to",
        "subject",
        "date",
        "message-id",
        "in-reply-to",
        "references",
        "mime-version",
        "content-type",
        "content-transfer-encoding",
        "content-disposition",
        OWN_HEADER.lower(),
    }
)
_LINE_BREAK = re.compile("[\x00\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_HEADER_NAME = re.compile(r"^[!-9;-~]+$")
_MESSAGE_ID = re.compile(r"^<[!-;=?-~]+@[!-;=?-~]+>$")
_PLAIN_ADDRESS = re.compile(r"([A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*)@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)\Z")
_SAFE_FILENAME = re.compile(r"[^A-Za-z0-9._@+=-]")
_MAX_7BIT_LINE = 78


def build_message(
    *,
    sender: AddressLike,
    to: AddressLike | Iterable[AddressLike],
    subject: str,
    text: str,
    html: str | None = None,
    message_id: str | None = None,
    in_reply_to: str | None = None,
    references: Iterable[str] = (),
    headers: Mapping[str, str] | None = None,
    date: datetime | None = None,
) -> EmailMessage:
    """Build a message: text/plain, or multipart/alternative text + HTML.

    ``sender`` and each recipient are an :class:`~email.headerregistry.Address`
    or a string (``"a@b.org"`` or ``"Name <a@b.org>"``).  Without
    ``message_id`` a fresh one is made on the sender's domain.  ``references``
    is the thread so far; ``in_reply_to`` is appended to it when missing (RFC
    5322 threading); ids there that are not valid are left out.  ``date``
    (timezone-aware) defaults to now.  ``headers`` adds extra headers, which
    may not replace the ones set here.
    """
    fields = _header_fields(sender, to, subject, message_id, in_reply_to, references, headers, date)
    message = EmailMessage(policy=policy.default)
    for name, value in fields:
        try:
            message[name] = value
        except (ValueError, TypeError) as exc:
            raise InvalidHeader(f"header {name} has an invalid value: {value!r}") from exc
    _set_body(message, text, html)
    return message


class OutgoingMail(NamedTuple):
    """A message in its wire form, as queued: its Message-ID and its bytes."""

    message_id: str
    data: bytes


def outgoing_mail(
    *,
    sender: AddressLike,
    to: AddressLike | Iterable[AddressLike],
    subject: str,
    text: str,
    html: str | None = None,
    message_id: str | None = None,
    in_reply_to: str | None = None,
    references: Iterable[str] = (),
    headers: Mapping[str, str] | None = None,
    date: datetime | None = None,
    boundary: str | None = None,
) -> OutgoingMail:
    """The message :func:`build_message` builds, straight in its wire form:
    ``message_bytes(build_message(...))`` byte for byte (given the same date,
    Message-ID and, with HTML, multipart ``boundary``; by default one is drawn
    as the email package draws it), with the same checks and errors.

    Each header is folded by the email package's own header classes (a short,
    plain one is written as it is); the bodies are encoded as its quoted-printable
    encoder does, with a faster quoting step; the message objects and the
    generator that assemble them are left out, which was most of the cost of a
    report's mail (``tests/mail/test_mail_wire.py`` holds the two to the same
    bytes). With ADJUDICATOR_LIBRARIES_ONLY=1 the email package writes it
    (:mod:`adjudicator.speed`).
    """
    if not annex_on():
        message = build_message(sender=sender, to=to, subject=subject, text=text, html=html,
                                message_id=message_id, in_reply_to=in_reply_to, references=references,
                                headers=headers, date=date)
        return OutgoingMail(str(message["Message-ID"]), message_bytes(message))
    fields = _header_fields(sender, to, subject, message_id, in_reply_to, references, headers, date)
    folded = []
    for name, value in fields:
        try:
            header = _header_object(name, value)
        except (ValueError, TypeError) as exc:
            raise InvalidHeader(f"header {name} has an invalid value: {value!r}") from exc
        if name == "Message-ID":
            message_id = str(header)
        folded.append(_folded(header))
    head = "".join(folded)
    plain = _text_part("plain", text)
    if html is None:
        data = (head + plain[0] + "MIME-Version: 1.0\r\n\r\n").encode("ascii", "surrogateescape") + plain[1]
        return OutgoingMail(str(message_id), data)
    parts = [_part_bytes(*plain), _part_bytes(*_text_part("html", html))]
    if boundary is None:
        boundary = _make_boundary(b"\r\n".join(parts))
    delimiter = b"--" + boundary.encode("ascii") + b"\r\n"
    data = b"".join([
        (head + "MIME-Version: 1.0\r\n").encode("ascii", "surrogateescape"),
        _multipart_header(boundary), b"\r\n",
        delimiter, parts[0], b"\r\n", delimiter, parts[1],
        b"\r\n--" + boundary.encode("ascii") + b"--\r\n",
    ])
    return OutgoingMail(str(message_id), data)


def _header_fields(
    sender: AddressLike,
    to: AddressLike | Iterable[AddressLike],
    subject: str,
    message_id: str | None,
    in_reply_to: str | None,
    references: Iterable[str],
    headers: Mapping[str, str] | None,
    date: datetime | None,
) -> list[tuple[str, Any]]:
    """The checked headers of a message, in order, as ``(name, value)``."""
    from_address = parse_address(sender)
    recipients = _addresses(to)
    check_header_value("Subject", subject)
    fields: list[tuple[str, Any]] = [
        ("From", from_address),
        ("To", recipients),
        ("Subject", subject),
        ("Date", _format_date(date)),
        ("Message-ID", normalise_message_id(message_id) if message_id is not None
         else new_message_id(from_address.domain.lower())),
    ]
    fields += _threading(in_reply_to, references)
    fields.append((OWN_HEADER, "1"))
    for name, value in (headers or {}).items():
        fields.append(_extra_header(name, value))
    return fields


def new_message_id(domain: str) -> str:
    """Return a fresh, unique Message-ID on ``domain``."""
    return utils.make_msgid(idstring="adjudicator", domain=domain or "localhost")


def check_header_value(name: str, value: object) -> str:
    """Return ``value`` if it is a string without line breaks; else raise."""
    if not isinstance(value, str):
        raise InvalidHeader(f"{name} must be text, not {type(value).__name__}")
    if _LINE_BREAK.search(value):
        raise HeaderInjection(f"{name} contains a line break or NUL character: {value!r}")
    return value


def parse_address(value: AddressLike) -> Address:
    """Return one checked address from an Address or ``"Name <a@b>"`` / ``"a@b"``."""
    if isinstance(value, Address):
        check_header_value("display name", value.display_name)
        check_header_value("address", value.addr_spec)
        address = value
    elif isinstance(value, str):
        address = _parse_address_text(check_header_value("address", value))
    else:
        raise InvalidAddress(f"not an address: {value!r}")
    _check_addr_spec(address)
    return address


def _parse_address_text(value: str) -> Address:
    plain = _PLAIN_ADDRESS.match(value)
    if plain:  # what the header parser makes of it, without the parser
        return Address(username=plain.group(1), domain=plain.group(2))
    try:
        header = policy.default.header_factory("to", value)
        addresses = header.addresses
    except Exception as exc:  # noqa: BLE001 - the parser's errors vary by input
        raise InvalidAddress(f"not an email address: {value!r}") from exc
    if len(addresses) != 1 or header.defects:
        raise InvalidAddress(f"not exactly one valid email address: {value!r}")
    if any(group.display_name is not None for group in header.groups):
        raise InvalidAddress(f"a group address ('name: member;'), not one mailbox: {value!r}")
    return addresses[0]


def _check_addr_spec(address: Address) -> None:
    if not address.username or not address.domain:
        raise InvalidAddress(f"address needs a local part and a domain: {address.addr_spec!r}")
    if not address.addr_spec.isascii():
        raise InvalidAddress(f"non-ASCII addresses are not supported: {address.addr_spec!r}")


def _addresses(value: AddressLike | Iterable[AddressLike]) -> list[Address]:
    items = [value] if isinstance(value, (str, Address)) else list(value)
    if not items:
        raise InvalidAddress("a message needs at least one recipient")
    return [parse_address(item) for item in items]


def normalise_message_id(value: str) -> str:
    """Return ``value`` as ``<left@right>``; raise if it is not a message id."""
    check_header_value("message id", value)
    candidate = value.strip()
    if not candidate.startswith("<"):
        candidate = f"<{candidate}>"
    if not _MESSAGE_ID.match(candidate):
        raise InvalidHeader(f"not a valid message id: {value!r}")
    return candidate


def _format_date(date: datetime | None) -> str:
    if date is None:
        date = datetime.now(timezone.utc).replace(microsecond=0)
    if date.tzinfo is None or date.utcoffset() is None:
        raise InvalidHeader("date must be timezone-aware")
    return utils.format_datetime(date)


def _threading(in_reply_to: str | None, references: Iterable[str]) -> list[tuple[str, str]]:
    """In-Reply-To and References from the ids of earlier mail.

    These ids come from other people's mail: one that is not a valid
    ``<left@right>`` id is left out (threading is a courtesy), but one holding
    a line break still raises :class:`HeaderInjection`.
    """
    thread = [ref for ref in map(_thread_id, references) if ref is not None]
    parent = _thread_id(in_reply_to) if in_reply_to is not None else None
    fields = []
    if parent is not None:
        fields.append(("In-Reply-To", parent))
        if parent not in thread:
            thread.append(parent)
    if thread:
        fields.append(("References", " ".join(_capped(list(dict.fromkeys(thread))))))
    return fields


#: The most ids a References header carries: a player's mail may carry thousands.
MAX_REFERENCES = 20


def _capped(thread: list[str]) -> list[str]:
    """The first id (the start of the thread) and the latest ones, at most
    :data:`MAX_REFERENCES` in all, as RFC 5322 section 3.6.4 lets a reply trim them."""
    if len(thread) <= MAX_REFERENCES:
        return thread
    return [thread[0], *thread[len(thread) - MAX_REFERENCES + 1:]]


def _thread_id(value: str) -> str | None:
    check_header_value("message id", value)
    try:
        return normalise_message_id(value)
    except InvalidHeader:
        return None


def _extra_header(name: str, value: str) -> tuple[str, str]:
    if not isinstance(name, str) or not _HEADER_NAME.match(name):
        raise InvalidHeader(f"not a valid header name: {name!r}")
    if name.lower() in RESERVED_HEADERS or name.lower().startswith("content-"):
        raise InvalidHeader(f"header {name} is set by build_message and cannot be given")
    check_header_value(name, value)
    return name, value


def _set_body(message: EmailMessage, text: str, html: str | None) -> None:
    text = _normalise_newlines(text)
    message.set_content(text, subtype="plain", charset="utf-8", cte=_transfer_encoding(text))
    if html is not None:
        html = _normalise_newlines(html)
        message.add_alternative(
            html, subtype="html", charset="utf-8", cte=_transfer_encoding(html)
        )
        keep_mime_version_on_top(message)


def keep_mime_version_on_top(message: EmailMessage) -> None:
    """Drop the MIME-Version header the email package puts on each part it adds: it
    belongs on the top level only."""
    for part in message.walk():
        if part is not message:
            del part["MIME-Version"]


def _normalise_newlines(body: str) -> str:
    if not isinstance(body, str):
        raise TypeError(f"a message body must be text, not {type(body).__name__}")
    return body.replace("\r\n", "\n").replace("\r", "\n")


def _transfer_encoding(body: str) -> str:
    """7bit for short-lined ASCII, else quoted-printable (readable, 7-bit safe)."""
    if body.isascii() and all(len(line) <= _MAX_7BIT_LINE for line in body.split("\n")):
        return "7bit"
    return "quoted-printable"


# -- the wire form without message objects -------------------------------------

#: How the email package writes a message's wire form (``message_bytes``).
_WIRE_POLICY = policy.default.clone(linesep="\r\n")
#: Header values written as they are, when short: printable ASCII words, one space apart,
#: with nothing the header classes would read otherwise (an encoded word).
_PLAIN_VALUE = re.compile(r"[!-~]+(?: [!-~]+)*\Z")
_PLAIN_ID = re.compile(r"<[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>\Z")
_PLAIN_UNSTRUCTURED = frozenset({"Subject", "In-Reply-To", "References", OWN_HEADER})
_BOUNDARY_WIDTH = len(repr(sys.maxsize - 1))
_STANDARD_BOUNDARY = re.compile(r"={15}[0-9]{%d}==(?:\.[0-9]+)?\Z" % _BOUNDARY_WIDTH)


def _header_object(name: str, value: Any) -> Any:
    """The header as the email package stores it, or the value itself where its
    folded form is known to be ``name: value`` (short, plain, unstructured or a
    plain Message-ID or Date)."""
    if isinstance(value, str) and len(name) + 2 + len(value) <= _WIRE_POLICY.max_line_length:
        if name == "Date" or (name == "Message-ID" and _PLAIN_ID.match(value)) or (
                name in _PLAIN_UNSTRUCTURED and "=?" not in value and _PLAIN_VALUE.match(value)):
            return _Plain(name, value)
    return policy.default.header_factory(name, value)


class _Plain(str):
    """A header whose folded form is its own text on one line."""

    def __new__(cls, name: str, value: str) -> _Plain:
        self = super().__new__(cls, value)
        self.line = f"{name}: {value}\r\n"
        return self


def _folded(header: Any) -> str:
    if isinstance(header, _Plain):
        return header.line
    return header.fold(policy=_WIRE_POLICY)


def _text_part(subtype: str, body: str) -> tuple[str, bytes]:
    """A text part's Content- headers and its encoded body (CRLF line ends), as
    ``set_content`` encodes it and the generator writes it."""
    body = _normalise_newlines(body)
    cte = _transfer_encoding(body)
    normal = b"\n".join(body.encode("utf-8").splitlines()) + b"\n"
    if cte == "7bit":
        payload = normal.decode("ascii")
    else:
        payload = _quoted_printable(normal.decode("latin-1"), policy.default.max_line_length)
    headers = f'Content-Type: text/{subtype}; charset="utf-8"\r\nContent-Transfer-Encoding: {cte}\r\n'
    return headers, payload.replace("\n", "\r\n").encode("ascii", "surrogateescape")


#: The characters ``email.quoprimime.body_encode`` writes as they are, and ``=``; any
#: other is ``=XX``, as ``=`` is (quoted first, on its own).
_QP_UNSAFE = re.compile(r"[^\t\n\r -~]+")
_QP_AS_IS = bytes(range(32, 127)) + b"\t\n\r"
_QP_QUOTED = {chr(c): f"={c:02X}" for c in range(256)}


def _quoted_printable(body: str, maxlinelen: int) -> str:
    """``email.quoprimime.body_encode(body, maxlinelen)``, the same text, with the
    characters quoted by one regular expression instead of a per-character table
    (several times faster on a long, mostly plain HTML report). The line splitting
    below is the standard library's, as it is."""
    if not body:
        return body
    body = body.replace("=", "=3D")
    if body.encode("latin-1").translate(None, _QP_AS_IS):  # something beyond printable ASCII, tab and line ends
        body = _QP_UNSAFE.sub(_qp_quote, body)
    soft_break = "=\n"
    maxlinelen1 = maxlinelen - 1
    encoded_body: list[str] = []
    append = encoded_body.append
    for line in body.splitlines():
        start = 0
        laststart = len(line) - 1 - maxlinelen
        while start <= laststart:
            stop = start + maxlinelen1
            if line[stop - 2] == "=":
                append(line[start:stop - 1])
                start = stop - 2
            elif line[stop - 1] == "=":
                append(line[start:stop])
                start = stop - 1
            else:
                append(line[start:stop] + "=")
                start = stop
        if line and line[-1] in " \t":
            room = start - laststart
            if room >= 3:
                q = _QP_QUOTED[line[-1]]
            elif room == 2:
                q = line[-1] + soft_break
            else:
                q = soft_break + _QP_QUOTED[line[-1]]
            append(line[start:-1] + q)
        else:
            append(line[start:])
    if body[-1] in "\r\n":
        append("")
    return "\n".join(encoded_body)


def _qp_quote(found: re.Match[str]) -> str:
    return "".join(map(_QP_QUOTED.__getitem__, found.group()))


def _part_bytes(headers: str, body: bytes) -> bytes:
    return headers.encode("ascii") + b"\r\n" + body


def _make_boundary(text: bytes) -> str:
    """A boundary found nowhere in ``text``, drawn as the email package draws it."""
    boundary = "=" * 15 + f"{random.randrange(sys.maxsize):0{_BOUNDARY_WIDTH}d}" + "=="
    candidate, counter = boundary, 0
    while b"--" + candidate.encode("ascii") in text and re.search(
            b"^--" + re.escape(candidate.encode("ascii")) + b"(--)?$", text, re.MULTILINE):
        candidate = f"{boundary}.{counter}"
        counter += 1
    return candidate


def _multipart_header(boundary: str) -> bytes:
    value = f'multipart/alternative; boundary="{boundary}"'
    if _STANDARD_BOUNDARY.match(boundary) and len(boundary) + 12 <= _WIRE_POLICY.max_line_length:
        return f'Content-Type: multipart/alternative;\r\n boundary="{boundary}"\r\n'.encode("ascii")
    return policy.default.header_factory("Content-Type", value).fold(policy=_WIRE_POLICY).encode("ascii")


# -- bytes and files ----------------------------------------------------------


def message_bytes(message: EmailMessage) -> bytes:
    """Return the wire form of a message (CRLF line ends), as written to .eml files."""
    return message.as_bytes(policy=message.policy.clone(linesep="\r\n"))


def message_from_bytes(data: bytes) -> EmailMessage:
    """Parse bytes written by :func:`message_bytes` back into a message to send."""
    return BytesParser(policy=policy.default).parsebytes(data)


def message_headers(data: bytes) -> EmailMessage:
    """Only the headers of bytes written by :func:`message_bytes` (the body is not
    read: the parse stops at the blank line that ends the headers): enough to read a
    queued message's Subject, Message-ID or In-Reply-To. Each header is parsed on
    first use and kept, as a queued message's headers are read several times."""
    end = data.find(b"\r\n\r\n")
    head = data if end < 0 else data[:end + 4]
    return BytesParser(_class=ParsedOnce, policy=policy.default).parsebytes(head, headersonly=True)


def eml_filename(message: EmailMessage) -> str:
    """Return the .eml file name for a message, derived from its Message-ID.

    Characters unsafe in file names become ``_``; if anything had to be changed
    (or the id is long) a short hash of the exact id is appended, so distinct
    ids never share a file name.
    """
    raw_id = message.get("Message-ID")
    if raw_id is None:
        return f"no-id-{hashlib.sha256(message_bytes(message)).hexdigest()[:32]}.eml"
    exact = str(raw_id).strip()
    inner = exact.strip("<>")
    safe = _SAFE_FILENAME.sub("_", inner)[:120].lstrip(".") or "message"
    if safe != inner:
        safe += "-" + hashlib.sha256(exact.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{safe}.eml"


def write_eml(message: EmailMessage, folder: str | os.PathLike[str]) -> Path:
    """Write ``message`` into ``folder`` (created if needed) atomically; return the path.

    The bytes go to a temporary file in the same folder, are flushed to disk,
    then renamed over the final name, so a reader never sees half a file.
    Writing the same message again replaces the file with identical content.
    The file is readable by its owner only (mode 0600), as reports may hold
    what one player must not see.
    """
    return write_eml_bytes(message_bytes(message), eml_filename(message), folder)


def write_eml_bytes(data: bytes, name: str, folder: str | os.PathLike[str], *, sync_folder: bool = True) -> Path:
    """Write the wire form ``data`` of a message (as :func:`message_bytes` made it, e.g.
    a queued message) as ``folder/name``, atomically, as :func:`write_eml` does.
    Without ``sync_folder`` the caller flushes the folder's entries itself, once for
    several files (:func:`adjudicator.files.sync_folder`)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    target = write_atomically(folder / name, data, durable=True)
    if sync_folder:
        files.sync_folder(folder)
    return target

