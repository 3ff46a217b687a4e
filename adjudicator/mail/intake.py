"""Reading received mail: from a Maildir, an mbox, ``.eml`` files or standard input.

:func:`read_messages` detects the kind of source and yields one
:class:`IncomingMail` per message, in arrival order; :func:`parse_message` turns
the bytes of one message into an :class:`IncomingMail`.  Reading never changes
the source (nothing is moved, flagged or deleted): the campaign store decides
what was already taken in, by Message-ID and content hash.

Malformed mail never raises: whatever could not be read is described in
``IncomingMail.problems`` and the rest is read as well as it can be.

Sources, detected in this order:

* ``"-"``: one message read from standard input (as bytes);
* a directory with ``new/`` and ``cur/`` subdirectories: a Maildir; the
  messages of ``new/`` and ``cur/`` (never ``tmp/``, never dot files), oldest
  file first (by modification time, which delivery sets and moving keeps);
* any other directory: a folder of ``*.eml`` files, in file name order (other
  files are skipped; a non-empty folder without any ``.eml`` file is refused as
  probably the wrong folder; an empty one holds no mail);
* a file named ``*.eml``: one message;
* a file that starts with ``From `` (or is empty): an mbox, messages in order;
* a file that starts with a header line (``Name: value``): one message;
* anything else raises :class:`~.errors.MailSourceError`.
"""

from __future__ import annotations

import hashlib
import mailbox
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from email import policy
from email.message import Message
from email.parser import BytesParser
from pathlib import Path
from typing import BinaryIO

from . import headers as hdr
from .autoreply import is_auto_reply
from .body import content_type, extract_body
from .errors import MailSourceError
from .outgoing import OWN_HEADER
STDIN = "-"
_HEADER_LINE = re.compile(rb"^[!-9;-~]+[ \t]*:")


@dataclass(frozen=True)
class IncomingMail:
    """One received message, decoded as far as it could be.

    * ``message_id``, ``in_reply_to``, ``references``: normalised ids
      ``<left@right>`` (None / empty when absent or unreadable);
    * ``content_hash``: :func:`content_hash` of ``raw``; with ``message_id``, how
      the store recognises mail delivered twice;
    * ``sender``: the From address (else Sender) as ``local@domain``, domain
      lower-cased, or None; ``sender_name``: its decoded display name.  The
      From header proves nothing: authenticate by what the text says;
    * ``subject``: decoded, one line; ``date``: the Date header, timezone-aware;
    * ``text``: the body text (see :mod:`.body`), ``\n`` line ends;
      ``attachments_text``: ``(file name, text)`` of ``*.txt``/``*.orders``
      attachments;
    * ``is_auto_reply``: written by a machine (rules in :mod:`.autoreply`):
      never take as orders, never answer; ``is_own``: sent by the adjudicator;
    * ``raw``: the bytes as read; ``problems``: in plain words, everything
      that was malformed or had to be guessed (empty for well-formed mail);
      ``origin``: where it was read from (a file name, ``mbox-file#3``,
      ``<stdin>``);
    * ``reply_address``: where a reply may go: the From header's address when it
      is one plain ``local@domain`` (see :func:`~.headers.plain_address`), else
      None (group syntax, several addresses, a crafted or overlong From): such
      mail is never answered.
    """

    message_id: str | None
    content_hash: str
    sender: str | None
    sender_name: str
    subject: str
    in_reply_to: str | None
    references: tuple[str, ...]
    date: datetime | None
    text: str
    attachments_text: tuple[tuple[str, str], ...]
    is_auto_reply: bool
    is_own: bool
    raw: bytes = field(repr=False)
    problems: tuple[str, ...]
    origin: str = ""
    reply_address: str | None = None


def content_hash(raw: bytes) -> str:
    """Return the SHA-256 (hex) of a message with line endings normalised.

    CRLF and lone CR become LF and trailing line ends are dropped, so the same
    message stored by different programs (mbox, Maildir, a saved .eml) hashes
    the same.
    """
    normalised = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n").rstrip(b"\n")
    return hashlib.sha256(normalised).hexdigest()


def parse_message(raw: bytes, *, own_address: str | None = None, origin: str = "") -> IncomingMail:
    """Turn the bytes of one message into an :class:`IncomingMail`; never raises.

    ``own_address`` is the adjudicator's own address: mail from it counts as
    our own (``is_own``), as does mail carrying the ``X-Adjudicator`` header.
    """
    raw = bytes(raw)
    try:
        return _parse(raw, own_address, origin)
    except Exception as exc:  # noqa: BLE001 - last resort: a message must never stop intake
        return _unreadable(raw, origin, f"message could not be parsed ({type(exc).__name__})")


def _parse(raw: bytes, own_address: str | None, origin: str) -> IncomingMail:
    problems: list[str] = []
    if not raw.strip():
        problems.append("message is empty")
    message = BytesParser(_class=hdr.ParsedOnce, policy=policy.default).parsebytes(raw)

    def header(name: str) -> str | None:
        return hdr.raw_value(message, name)

    sender, sender_name, sender_problems = _sender(message)
    from_values = hdr.raw_values(message, "From")
    reply_address = hdr.plain_address(from_values[0]) if len(from_values) == 1 else None
    if sender is not None and reply_address is None:
        sender_problems.append("the From header is not one plain address: no reply can be sent to it")
    subject, subject_problems = hdr.decode_text("Subject", header("Subject"))
    message_id = hdr.message_id(header("Message-ID"))
    date = hdr.parse_date(header("Date"))
    problems += sender_problems + subject_problems + _header_problems(message, message_id, date)
    body = extract_body(message)
    problems += body.problems
    if not body.text.strip() and not body.attachments and raw.strip():
        problems.append("message has no text")
    return IncomingMail(
        message_id=message_id,
        content_hash=content_hash(raw),
        sender=sender,
        sender_name=sender_name,
        subject=subject,
        in_reply_to=hdr.message_id(header("In-Reply-To")),
        references=hdr.message_ids(" ".join(hdr.raw_values(message, "References"))),
        date=date,
        text=body.text,
        attachments_text=tuple(body.attachments),
        is_auto_reply=is_auto_reply(
            header, subject=subject, sender=sender, content_type=content_type(message)
        ),
        is_own=header(OWN_HEADER) is not None or _same_address(sender, own_address),
        raw=raw,
        problems=tuple(_unique(problems)),
        origin=origin,
        reply_address=reply_address,
    )


def _sender(message: Message) -> tuple[str | None, str, list[str]]:
    """Return the author: the From address, else the Sender address."""
    for name in ("From", "Sender"):
        value = hdr.raw_value(message, name)
        if value is not None:
            address, display, problems = hdr.parse_address(name, value)
            if address is not None:
                return address, display, problems
    return None, "", ["no sender address (From header missing or unreadable)"]


def _header_problems(message: Message, message_id: str | None, date: datetime | None) -> list[str]:
    problems = []
    if message_id is None:
        problems.append("no Message-ID header")
    if hdr.raw_value(message, "Date") is not None and date is None:
        problems.append("Date header could not be read")
    if len(hdr.raw_values(message, "From")) > 1:
        problems.append("more than one From header; the first is used")
    return problems


def _same_address(sender: str | None, own: str | None) -> bool:
    return bool(sender and own and sender.strip().lower() == own.strip().lower())


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _unreadable(raw: bytes, origin: str, problem: str) -> IncomingMail:
    """The IncomingMail of a message nothing could be read from."""
    return IncomingMail(
        message_id=None,
        content_hash=content_hash(raw),
        sender=None,
        sender_name="",
        subject="",
        in_reply_to=None,
        references=(),
        date=None,
        text="",
        attachments_text=(),
        is_auto_reply=False,
        is_own=False,
        raw=raw,
        problems=(problem,),
        origin=origin,
    )


# -- sources ----------------------------------------------------------------


def read_messages(
    source: str | os.PathLike[str],
    *,
    own_address: str | None = None,
    stdin: BinaryIO | None = None,
) -> Iterator[IncomingMail]:
    """Yield every message of ``source`` in arrival order (see the module doc).

    ``stdin`` replaces ``sys.stdin.buffer`` when the source is ``"-"``.  Raises
    :class:`MailSourceError` at once (before yielding anything) when the source
    is missing or of no known kind, or later if it cannot be read.
    """
    raws = _raw_messages(source, stdin)
    return (parse_message(raw, own_address=own_address, origin=origin) for origin, raw in raws)


def _raw_messages(
    source: str | os.PathLike[str], stdin: BinaryIO | None
) -> Iterator[tuple[str, bytes]]:
    """Detect the kind of ``source`` now; return an iterator over (origin, bytes)."""
    if isinstance(source, str) and source == STDIN:
        return iter([("<stdin>", _read_stdin(stdin))])
    path = Path(source)
    if not path.exists():
        raise MailSourceError(f"{path}: no such file or folder")
    if path.is_dir():
        if (path / "new").is_dir() and (path / "cur").is_dir():
            return _maildir(path)
        return _eml_folder(path)
    if not path.is_file():
        raise MailSourceError(f"{path}: not a regular file or folder")
    if path.suffix.lower() == ".eml":
        return iter([(str(path), _read_file(path))])
    head = _head(path)
    if head.startswith(b"From ") or not head:
        return _mbox(path)
    if _HEADER_LINE.match(head):
        return iter([(str(path), _read_file(path))])
    raise MailSourceError(
        f"{path}: not a mail source (expected a Maildir, an mbox file, "
        "a .eml file, a folder of .eml files, or '-' for standard input)"
    )


def _read_stdin(stdin: BinaryIO | None) -> bytes:
    stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise MailSourceError("standard input is not available")
    try:
        data = stream.read()
    except (OSError, ValueError) as exc:
        raise MailSourceError(f"standard input could not be read: {exc}") from exc
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogateescape")
    return data


def _read_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise MailSourceError(f"{path}: cannot be read: {exc.strerror or exc}") from exc


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(1024)
    except OSError as exc:
        raise MailSourceError(f"{path}: cannot be read: {exc.strerror or exc}") from exc


def _maildir(path: Path) -> Iterator[tuple[str, bytes]]:
    """Messages of a Maildir's new/ and cur/, oldest first.

    A mail program may move a message from new/ to cur/ (renaming it) while we
    read: such a message is looked up again by its unique name; a message
    deleted meanwhile is skipped.
    """
    entries = _maildir_entries(path / "new") + _maildir_entries(path / "cur")
    entries.sort()
    return _maildir_messages(path, [file for _, _, file in entries])


def _maildir_entries(folder: Path) -> list[tuple[int, str, Path]]:
    """(modification time, name, path) of the message files in one Maildir folder."""
    found = []
    try:
        with os.scandir(folder) as scan:
            for entry in scan:
                if entry.name.startswith("."):
                    continue
                try:
                    if entry.is_file():
                        found.append((entry.stat().st_mtime_ns, entry.name, Path(entry.path)))
                except FileNotFoundError:
                    continue  # moved or deleted while listing
    except OSError as exc:
        raise MailSourceError(f"{folder}: cannot be listed: {exc.strerror or exc}") from exc
    return found


def _maildir_messages(path: Path, files: list[Path]) -> Iterator[tuple[str, bytes]]:
    for file in files:
        data = _read_if_present(file)
        if data is None:
            file = _maildir_moved(path, file)
            data = _read_if_present(file) if file is not None else None
        if data is not None:
            yield str(file), data


def _maildir_moved(path: Path, file: Path) -> Path | None:
    """Find a Maildir message again after a move; its unique name is kept."""
    unique = file.name.split(":", 1)[0]
    for sub in ("new", "cur"):
        for entry in _maildir_entries(path / sub):
            if entry[1].split(":", 1)[0] == unique:
                return entry[2]
    return None


def _eml_folder(path: Path) -> Iterator[tuple[str, bytes]]:
    """The .eml files of a folder, by name (a file deleted meanwhile is skipped)."""
    try:
        names = sorted(os.listdir(path))
    except OSError as exc:
        raise MailSourceError(f"{path}: cannot be listed: {exc.strerror or exc}") from exc
    files = [path / n for n in names if n.lower().endswith(".eml") and (path / n).is_file()]
    visible = [n for n in names if not n.startswith(".")]
    if not files and visible:
        raise MailSourceError(
            f"{path}: neither a Maildir (no new/ and cur/ folders) nor a folder of .eml files"
        )
    return ((str(file), data) for file in files if (data := _read_if_present(file)) is not None)


def _read_if_present(path: Path) -> bytes | None:
    """The bytes of a file, or None if it no longer exists."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise MailSourceError(f"{path}: cannot be read: {exc.strerror or exc}") from exc


def _mbox(path: Path) -> Iterator[tuple[str, bytes]]:
    """The messages of an mbox file, in order."""
    try:
        box = mailbox.mbox(path, create=False)
        keys = box.keys()
    except (OSError, mailbox.Error) as exc:
        raise MailSourceError(f"{path}: cannot be read as an mbox: {exc}") from exc
    return _mbox_messages(path, box, keys)


def _mbox_messages(path: Path, box: mailbox.mbox, keys: list) -> Iterator[tuple[str, bytes]]:
    try:
        for number, key in enumerate(keys, 1):
            try:
                data = box.get_bytes(key, from_=False)
            except (OSError, KeyError) as exc:
                raise MailSourceError(f"{path}: message {number} cannot be read: {exc}") from exc
            yield f"{path}#{number}", data
    finally:
        box.close()
