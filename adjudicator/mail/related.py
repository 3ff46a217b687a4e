"""Mail whose HTML shows images of its own, and carries files.

The shape every mail program reads::

    multipart/mixed
      multipart/alternative
        text/plain
        multipart/related
          text/html            (<img src="cid:...">)
          image/png ...        (Content-ID: <...>)
      attachment ...           (e.g. the picture's SVG)

Headers and their checks are :func:`~adjudicator.mail.outgoing.build_message`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .outgoing import OutgoingMail, build_message, keep_mime_version_on_top, message_bytes


@dataclass(frozen=True)
class InlineImage:
    """An image the HTML shows by ``src="cid:<content_id>"``."""

    content_id: str
    data: bytes
    subtype: str = "png"


@dataclass(frozen=True)
class Attachment:
    """A file that goes with the mail."""

    filename: str
    data: bytes
    maintype: str
    subtype: str


#: The longest line a mail may carry as it is (RFC 5322 2.1.1: 998 characters).
LONGEST_LINE = 998


def _transfer_encoding(data: bytes) -> str:
    """How an attachment travels: as it is (7bit) when it is ASCII text in lines a mail
    may carry, as a report's SVG drawing is, for base64 would make it a third larger (an
    80 KB map, 27 KB more); base64 otherwise."""
    if data.isascii() and b"\r" not in data and b"\x00" not in data and all(
            len(line) <= LONGEST_LINE for line in data.split(b"\n")):
        return "7bit"
    return "base64"


def outgoing_mail_with_parts(*, images: Sequence[InlineImage] = (), attachments: Sequence[Attachment] = (),
                             **fields: Any) -> OutgoingMail:
    """The text and HTML mail :func:`~adjudicator.mail.outgoing.outgoing_mail` makes
    from ``fields`` (:func:`~adjudicator.mail.outgoing.build_message`'s, ``html``
    among them), with ``images`` beside the HTML (multipart/related) and
    ``attachments`` after it."""
    message = build_message(**fields)
    html_part = message.get_body(("html",))
    if html_part is None:
        raise TypeError("outgoing_mail_with_parts needs the html the images go beside")
    for image in images:
        html_part.add_related(image.data, "image", image.subtype, cid=f"<{image.content_id}>",
                              disposition="inline", filename=f"{image.content_id.split('@')[0]}.{image.subtype}")
    for attachment in attachments:
        message.add_attachment(attachment.data, attachment.maintype, attachment.subtype,
                               filename=attachment.filename, cte=_transfer_encoding(attachment.data))
    keep_mime_version_on_top(message)
    return OutgoingMail(str(message["Message-ID"]), message_bytes(message))
