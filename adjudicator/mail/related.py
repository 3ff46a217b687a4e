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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from .outgoing import AddressLike, OutgoingMail, build_message, message_bytes


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


def outgoing_mail_with_parts(
    *,
    sender: AddressLike,
    to: AddressLike | Iterable[AddressLike],
    subject: str,
    text: str,
    html: str,
    images: Sequence[InlineImage] = (),
    attachments: Sequence[Attachment] = (),
    message_id: str | None = None,
    in_reply_to: str | None = None,
    references: Iterable[str] = (),
    headers: Mapping[str, str] | None = None,
    date: datetime | None = None,
) -> OutgoingMail:
    """The text and HTML mail :func:`~adjudicator.mail.outgoing.outgoing_mail` makes,
    with ``images`` beside the HTML (multipart/related) and ``attachments`` after it."""
    message = build_message(sender=sender, to=to, subject=subject, text=text, html=html,
                            message_id=message_id, in_reply_to=in_reply_to, references=references,
                            headers=headers, date=date)
    html_part = message.get_body(("html",))
    assert html_part is not None  # build_message made one
    for image in images:
        html_part.add_related(image.data, "image", image.subtype, cid=f"<{image.content_id}>",
                              disposition="inline", filename=f"{image.content_id.split('@')[0]}.{image.subtype}")
    for attachment in attachments:
        message.add_attachment(attachment.data, attachment.maintype, attachment.subtype,
                               filename=attachment.filename)
    for part in message.walk():
        if part is not message:
            del part["MIME-Version"]  # belongs on the top level only
    return OutgoingMail(str(message["Message-ID"]), message_bytes(message))
