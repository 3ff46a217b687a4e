"""Finding the text of a received message, and its text attachments.

The body text is gathered from the MIME tree:

* in ``multipart/alternative`` the ``text/plain`` version is preferred; the
  ``text/html`` one is converted (:mod:`.htmltext`) only when there is no
  non-blank plain version;
* in any other multipart (``mixed``, ``related``, ``signed``, ...) the text of
  every inline part is joined in order;
* a part with a file name, or with ``Content-Disposition: attachment``, is an
  attachment, not body text.  Attachments are ignored, except text files named
  ``*.txt`` or ``*.orders`` (typed ``text/plain``, or ``application/octet-stream``
  as mail programs label files with an unknown extension), which are returned
  with their (path-free) file names;
* attached or forwarded messages (``message/rfc822``) are ignored;
* transfer encodings and charsets are decoded; whatever is malformed is
  reported as a problem and read as well as it can be.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from email.message import Message

from .charsets import decode_bytes, repair_surrogates
from .headers import raw_value
from .htmltext import html_to_text

#: Attachments taken as text when their file name ends with one of these.
TEXT_ATTACHMENT_SUFFIXES = (".txt", ".orders")
_TEXT_ATTACHMENT_TYPES = frozenset({"text/plain", "application/octet-stream"})
_KNOWN_ENCODINGS = frozenset(
    {
        "7bit",
        "8bit",
        "binary",
        "base64",
        "quoted-printable",
        "uuencode",
        "x-uuencode",
        "uue",
        "x-uue",
    }
)
_MAX_DEPTH = 40


@dataclass
class ExtractedBody:
    """What :func:`extract_body` found."""

    text: str = ""
    attachments: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def extract_body(message: Message) -> ExtractedBody:
    """Return the body text, the text attachments and the problems of ``message``."""
    found = ExtractedBody()
    texts: list[str] = []
    _collect(message, "", 0, texts, found)
    found.text = "\n".join(t for t in texts if t.strip()).strip("\n")
    return found


def _collect(part: Message, path: str, depth: int, texts: list[str], found: ExtractedBody) -> None:
    """Add the body text of ``part`` (recursively) to ``texts``."""
    where = _where(path, part)
    if depth > _MAX_DEPTH:
        found.problems.append(f"{where}: nested too deeply; ignored")
        return
    ctype = content_type(part)
    filename = _filename(part, where, found)
    if filename is not None or _disposition(part) == "attachment":
        _take_attachment(part, ctype, filename, where, found)
    else:
        _collect_content(part, ctype, path, depth, texts, found)
    _note_defects(part, where, found)


def _collect_content(
    part: Message, ctype: str, path: str, depth: int, texts: list[str], found: ExtractedBody
) -> None:
    """Add the text of an inline part or of the subparts of a multipart."""
    subparts = _subparts(part)
    if subparts is not None:
        if ctype.startswith("message/"):
            return
        if ctype == "multipart/alternative":
            _collect_alternative(subparts, path, depth, texts, found)
        else:
            for index, sub in enumerate(subparts, 1):
                _collect(sub, _child(path, index), depth + 1, texts, found)
        return
    where = _where(path, part)
    if ctype.startswith("multipart/"):
        found.problems.append(
            f"{where}: its parts could not be found; the raw content is read as text"
        )
        texts.append(_decoded_text(part, where, found))
    elif ctype == "text/plain":
        texts.append(_decoded_text(part, where, found))
    elif ctype == "text/html":
        texts.append(html_to_text(_decoded_text(part, where, found)))


def _collect_alternative(
    subparts: list[Message], path: str, depth: int, texts: list[str], found: ExtractedBody
) -> None:
    """Take the plain-text version of an alternative if it has text, else the HTML one."""
    ranked = sorted(enumerate(subparts, 1), key=lambda item: _rank(item[1]))
    for index, sub in ranked:
        attempt: list[str] = []
        _collect(sub, _child(path, index), depth + 1, attempt, found)
        if any(t.strip() for t in attempt):
            texts.extend(attempt)
            return


def _rank(part: Message) -> int:
    """Order alternatives: plain text first, then HTML, then anything else."""
    if _contains_type(part, "text/plain"):
        return 0
    if _contains_type(part, "text/html"):
        return 1
    return 2


def _contains_type(part: Message, wanted: str, depth: int = 0) -> bool:
    if depth > _MAX_DEPTH:
        return False
    subparts = _subparts(part)
    if subparts is None:
        return content_type(part) == wanted
    return any(_contains_type(sub, wanted, depth + 1) for sub in subparts)


def _take_attachment(
    part: Message, ctype: str, filename: str | None, where: str, found: ExtractedBody
) -> None:
    """Keep a text attachment named *.txt or *.orders; ignore any other."""
    if not filename or not filename.lower().endswith(TEXT_ATTACHMENT_SUFFIXES):
        return
    if ctype not in _TEXT_ATTACHMENT_TYPES or _subparts(part) is not None:
        return
    found.attachments.append((filename, _decoded_text(part, where, found)))


def _decoded_text(part: Message, where: str, found: ExtractedBody) -> str:
    """Decode a leaf part's transfer encoding and charset into text (\\n line ends)."""
    encoding = (raw_value(part, "Content-Transfer-Encoding") or "7bit").strip().lower()
    if encoding not in _KNOWN_ENCODINGS:
        found.problems.append(f"{where}: unknown transfer encoding {encoding!r}; read as is")
    try:
        data = part.get_payload(decode=True)
    except Exception as exc:  # noqa: BLE001
        found.problems.append(f"{where}: content could not be decoded ({type(exc).__name__})")
        data = None
    if not isinstance(data, bytes):
        data = _raw_payload_bytes(part)
    text, problem = decode_bytes(data, _charset(part))
    if problem:
        found.problems.append(f"{where}: {problem}")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _raw_payload_bytes(part: Message) -> bytes:
    try:
        payload = part.get_payload()
    except Exception:  # noqa: BLE001
        return b""
    if isinstance(payload, str):
        return payload.encode("utf-8", errors="surrogateescape")
    return b""


def content_type(part: Message) -> str:
    """Return the lower-case ``maintype/subtype`` of a part; ``text/plain`` if unreadable."""
    try:
        value = part.get_content_type()
    except Exception:  # noqa: BLE001
        return "text/plain"
    value = repair_surrogates(str(value)).lower()
    return value if value.count("/") == 1 else "text/plain"


def _subparts(part: Message) -> list[Message] | None:
    """Return the subparts of a multipart (or attached message), else None."""
    try:
        payload = part.get_payload()
    except Exception:  # noqa: BLE001
        return None
    if isinstance(payload, list):
        return [p for p in payload if isinstance(p, Message)]
    return None


def _charset(part: Message) -> str | None:
    try:
        value = part.get_param("charset")
    except Exception:  # noqa: BLE001
        return None
    if isinstance(value, tuple):  # RFC 2231 form: (charset, language, value)
        value = value[2]
    return repair_surrogates(str(value)) if value else None


def _disposition(part: Message) -> str | None:
    value = raw_value(part, "Content-Disposition")
    if value is None:
        return None
    return value.split(";", 1)[0].strip().lower()


def _filename(part: Message, where: str, found: ExtractedBody) -> str | None:
    """Return the file name of a part without any directory, or None."""
    try:
        name = part.get_filename()
    except Exception:  # noqa: BLE001
        found.problems.append(f"{where}: file name could not be read")
        return "unnamed"
    if name is None:
        return None
    name = repair_surrogates(str(name)).replace("\\", "/")
    name = "".join(ch for ch in posixpath.basename(name) if ch >= " " and ch != "\x7f").strip()
    return name or "unnamed"


def _note_defects(part: Message, where: str, found: ExtractedBody) -> None:
    """Report the parser's defects for ``part`` as readable problems."""
    for defect in getattr(part, "defects", ()):
        found.problems.append(f"{where}: {describe_defect(defect)}")


def describe_defect(defect: object) -> str:
    """Return a one-line description of an ``email.errors`` defect."""
    detail = str(defect).strip()
    if detail:
        return detail
    doc = (type(defect).__doc__ or type(defect).__name__).strip().splitlines()[0]
    return doc.rstrip(".")


def _where(path: str, part: Message) -> str:
    return f"part {path} ({content_type(part)})" if path else "message"


def _child(path: str, index: int) -> str:
    return f"{path}.{index}" if path else str(index)
