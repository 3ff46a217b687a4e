"""A report as the mail a player receives: text, HTML, and each picture twice, as a
PNG the HTML shows (``cid:``) and as the SVG file it was drawn from (a decorative
swatch of a legend only once, as its PNG)."""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.mail import outgoing_mail
from adjudicator.mail.outgoing import AddressLike, OutgoingMail
from adjudicator.mail.related import Attachment, InlineImage, outgoing_mail_with_parts

from .pictures import PictureError, pictures_as_images


def report_mail(*, sender: AddressLike, to: AddressLike, subject: str, text: str, html: str,
                in_reply_to: str | None = None, references: Iterable[str] = ()) -> OutgoingMail:
    """The mail of one report (or opening mail). Its subject, less the campaign's tag,
    says in the pictures' alt text whose report of what they belong to. A picture that
    cannot be drawn as PNG leaves the report as it was (its pictures inline SVG)."""
    description = subject.split("] ", 1)[-1]
    try:
        shown, pictures = pictures_as_images(html, description)
    except PictureError:  # a picture resvg cannot draw never holds a report back: it goes as SVG
        shown, pictures = html, ()
    if not pictures:
        return outgoing_mail(sender=sender, to=to, subject=subject, text=text, html=html,
                             in_reply_to=in_reply_to, references=references)
    return outgoing_mail_with_parts(
        sender=sender, to=to, subject=subject, text=text, html=shown,
        images=[InlineImage(p.content_id, p.png) for p in pictures],
        attachments=[Attachment(p.filename, p.svg.encode("utf-8"), "image", "svg+xml") for p in pictures
                     if not p.decorative],
        in_reply_to=in_reply_to, references=references)
