"""Each report's picture as every mail program shows it: a PNG image part the HTML
names by ``cid:`` (multipart/related), drawn from the same SVG, which goes with the
mail as a file; the ``<img>`` says in its ``alt`` text what it shows."""

from __future__ import annotations

import re
import struct
import zlib
from datetime import timedelta

import pytest

from adjudicator.reports.pictures import alt_text, pictures_as_images, svg_to_png
from tests.pipeline.pipeline_helpers import PNG_SIGNATURE, T0, reports

SMALL = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" role="img">'
         '<title>Two ships</title><rect width="120" height="40" fill="#fff"/>'
         '<g><title>Mikasa</title><text x="4" y="25" font-family="Helvetica, Arial, sans-serif">Mikasa</text></g></svg>')


def png_size(png: bytes) -> tuple[int, int]:
    """The width and height of a PNG, read from its IHDR chunk (whose CRC must hold)."""
    assert png[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", png[8:16])
    assert kind == b"IHDR" and length == 13
    (crc,) = struct.unpack(">I", png[29:33])
    assert zlib.crc32(png[12:29]) == crc
    return struct.unpack(">II", png[16:24])


def pixels_that_differ_from_white(png: bytes) -> int:
    """How many bytes of the image's first filtered rows are not white (enough to tell
    drawn text from an empty picture: the decompressed IDAT data)."""
    data, at = b"", 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        if kind == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(data)
    return sum(1 for byte in raw if byte not in (0, 1, 2, 3, 4, 255))


def test_an_inline_svg_becomes_an_img_of_its_png_with_alt_text():
    html, pictures = pictures_as_images(f"<p>before</p>{SMALL}<p>after</p>", "Port Arthur, step 3")
    (picture,) = pictures
    assert "<svg" not in html and f'src="cid:{picture.content_id}"' in html
    assert 'alt="Picture: Two ships, as drawn for Port Arthur, step 3.' in html
    assert png_size(picture.png) == (240, 80)  # a narrow picture is drawn at twice its size, for its labels
    assert 'width="120"' in html  # and shown at its own width
    assert picture.svg == SMALL and picture.filename.endswith(".svg")


def test_the_pictures_text_is_drawn_although_its_named_fonts_are_missing():
    with_text = svg_to_png(SMALL)
    without_text = svg_to_png(re.sub(r"<g>.*</g>", "", SMALL))
    assert pixels_that_differ_from_white(with_text) > pixels_that_differ_from_white(without_text)


def test_alt_text_names_the_pictures_own_title_not_a_part_of_it():
    assert alt_text(SMALL, "x").startswith("Picture: Two ships, as drawn for x.")
    labelled = '<svg xmlns="http://www.w3.org/2000/svg" aria-label="map"><g><title>Mikasa</title></g></svg>'
    assert alt_text(labelled, "RJW").startswith("Picture: The position, as drawn for RJW.")


def test_html_without_a_picture_is_left_as_it_is():
    assert pictures_as_images("<p>no picture</p>", "x") == ("<p>no picture</p>", ())


def test_reports_carry_their_picture_as_a_cid_png_and_the_svg_as_a_file(store, campaign, campaigns, mailroom,
                                                                          referee_key):
    campaigns.adjudicate(campaign, referee_key, T0 + timedelta(days=3), after=mailroom.queue_reports)
    mails = reports(store)
    assert len(mails) == 2
    for mail in mails:
        message = mail.message
        assert message.get_content_type() == "multipart/mixed"
        related = next(p for p in message.walk() if p.get_content_type() == "multipart/related")
        html = related.get_body(("html",)).get_content()
        images = {str(p["Content-ID"]).strip("<>"): p for p in related.iter_parts()
                  if p.get_content_type() == "image/png"}
        cids = re.findall(r'src="cid:([^"]+)"', html)
        assert cids and set(cids) == set(images)
        for cid in cids:
            width, height = png_size(images[cid].get_content())
            assert (width, height) == (960, 620)
        alts = re.findall(r'<img [^>]*alt="([^"]+)"', html)
        assert alts and all("Port Arthur" in alt and "position" in alt for alt in alts)
        svg = [p for p in message.iter_attachments() if p.get_content_type() == "image/svg+xml"]
        assert len(svg) == 1 and svg[0].get_filename() == "picture-1.svg"
        assert b'<svg xmlns="http://www.w3.org/2000/svg"' in svg[0].get_content()
        assert len(message.as_bytes()) < 300_000
        assert "<svg" not in html


def test_a_picture_that_cannot_be_drawn_leaves_the_report_as_it_was():
    from adjudicator.reports.mailed import report_mail
    from adjudicator.reports.pictures import PictureError

    broken = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="1" </svg>'
    with pytest.raises(PictureError):
        pictures_as_images(broken, "x")
    mail = report_mail(sender="referee@adjudicator.test", to="togo@japan.test", subject="[c1] report",
                       text="text", html=f"<html><body>{broken}</body></html>")
    assert b"multipart/alternative" in mail.data and b"image/png" not in mail.data and b"<svg" in mail.data


SWATCH = ('<svg xmlns="http://www.w3.org/2000/svg" width="28" height="16" viewBox="0 0 28 16" '
          'style="display: inline; vertical-align: middle;" aria-hidden="true"><rect width="28" height="16" '
          'fill="#cde"/></svg>')


def test_a_legends_swatch_is_a_png_in_its_line_without_alt_text_and_is_not_attached():
    from email import message_from_bytes, policy

    from adjudicator.reports.mailed import report_mail

    html = f"<html><body>{SMALL}<ul><li>{SWATCH} clear terrain</li></ul></body></html>"
    shown, pictures = pictures_as_images(html, "report")
    swatch = pictures[1]
    assert swatch.decorative and not pictures[0].decorative
    assert f'src="cid:{swatch.content_id}" alt="" width="28" style="display: inline; vertical-align: middle; ' \
           f'height: auto;"' in shown
    assert 'alt="Picture: Two ships' in shown
    mail = message_from_bytes(report_mail(sender="referee@adjudicator.test", to="togo@japan.test",
                                          subject="[c1] report", text="text", html=html).data, policy=policy.default)
    assert [p.get_filename() for p in mail.iter_attachments()] == ["picture-1.svg"]
    (drawing,) = mail.iter_attachments()  # ASCII text in short lines: as it is, not a third larger in base64
    assert drawing["Content-Transfer-Encoding"] == "7bit" and drawing.get_content().replace(b"\r\n", b"\n") == \
        SMALL.encode("ascii")
    assert sum(1 for p in mail.walk() if p.get_content_type() == "image/png") == 2


#: A busy picture (120 circles of many colours, edges smoothed): its colours, drawn as
#: RGBA, fit a palette in fewer bytes.
BUSY = ('<svg xmlns="http://www.w3.org/2000/svg" width="960" height="600">' + "".join(
    f'<circle cx="{40 + i * 37 % 900}" cy="{30 + i * 53 % 540}" r="{9 + i % 23}" '
    f'fill="#{(i * 2654435761) % 0xffffff:06x}" stroke="#000"/>' for i in range(120)) + "</svg>")


def test_a_busy_picture_is_mailed_as_a_palette_png_of_the_same_size_in_fewer_bytes():
    import resvg_py

    from adjudicator.reports.pictures import _in_a_palette

    drawn = bytes(resvg_py.svg_to_bytes(svg_string=BUSY))
    mailed = svg_to_png(BUSY)
    assert drawn[25] == 6 and mailed[25] == 3  # IHDR colour type: RGBA as drawn, a palette as mailed
    assert len(mailed) < len(drawn) / 2 and png_size(mailed) == png_size(drawn)
    assert len(_in_a_palette(drawn)) < len(drawn)
