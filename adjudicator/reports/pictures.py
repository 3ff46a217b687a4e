"""A report's pictures as every mail program shows them.

A game draws its picture as SVG inside the report's HTML. Many mail programs
(webmail above all) show no SVG in a mail, so each inline ``<svg>`` is drawn
again as a PNG image by resvg (the ``resvg-py`` wheel: no system library), and
the HTML shows that PNG through a ``cid:`` reference to an image part of the
mail; the SVG itself goes with the mail as an attachment for those who want the
sharp drawing. The ``<img>`` carries ``alt`` text naming what the picture shows
and where the same position is written out in words. A decorative SVG (its tag says
``aria-hidden="true"``: a legend's swatch beside the words that name it) becomes a PNG
with an empty ``alt``, keeps its own inline style, and is not attached as a file.
"""

from __future__ import annotations

import hashlib
import html as html_text
import io
import re
from dataclasses import dataclass
from functools import lru_cache

from adjudicator.errors import AdjudicatorError

#: An inline SVG element in a report's HTML (the games draw no nested ``<svg>``).
_INLINE_SVG = re.compile(r"<svg\b.*?</svg>", re.S | re.I)
_LABEL = re.compile(r"""\baria-label\s*=\s*("[^"]*"|'[^']*')""", re.I)
#: The picture's own title: the first child of the ``<svg>`` (later ones name its parts).
_TITLE = re.compile(r"\s*<title>(.*?)</title>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
_HIDDEN = re.compile(r"""\baria-hidden\s*=\s*["']true["']""", re.I)
_STYLE = re.compile(r'\bstyle\s*=\s*"([^"]*)"', re.I)
_WIDTH = re.compile(r"""\bwidth\s*=\s*["']([0-9.]+)(?:px)?["']""", re.I)

#: Font families tried, in order, for the picture's text when the SVG names fonts
#: that are not installed (resvg reads the system's fonts, and has no fallback of
#: its own): the first one installed draws the text.
FONT_CANDIDATES = ("DejaVu Sans", "Liberation Sans", "Noto Sans", "Arial", "Helvetica", "FreeSans",
                   "Verdana", "Nimbus Sans")


#: A picture narrower than this is drawn larger (up to :data:`MAX_ZOOM` times), so that its
#: small labels stay legible in the PNG; the HTML still shows it at its own width (sharper
#: on a high-density screen).
MIN_PNG_WIDTH, MAX_ZOOM = 960, 2.0
#: The most colours of a picture's PNG (a palette image: see :func:`_in_a_palette`).
PALETTE_COLOURS = 256


class PictureError(AdjudicatorError):
    """A report's SVG picture could not be drawn as PNG."""


@dataclass(frozen=True)
class Picture:
    """One picture of a report: its PNG, the SVG it was drawn from, the content id the
    HTML's ``<img>`` names it by, the file name of the SVG attachment and its alt text."""

    content_id: str
    png: bytes
    svg: str
    filename: str
    alt: str
    decorative: bool = False  # a swatch beside its words: no alt text, not attached


def pictures_as_images(html: str, description: str) -> tuple[str, tuple[Picture, ...]]:
    """The report's ``html`` with each inline SVG replaced by an ``<img>`` of its PNG
    (``src="cid:..."``), and those pictures. ``description`` says whose report of what
    it is (e.g. the subject line); it goes into the alt text."""
    pictures: list[Picture] = []

    def replace(found: re.Match[str]) -> str:
        svg = found.group()
        width = svg_width(svg)
        picture = _picture(svg, width, description, len(pictures) + 1)
        pictures.append(picture)
        size = f' width="{round(width)}"' if width is not None else ""
        style = "max-width: 100%; height: auto; display: block;"
        if picture.decorative:  # laid out as the swatch was, in its line of words
            own = _STYLE.search(_opening_tag(svg))
            style = f"{own.group(1) if own else 'display: inline; vertical-align: middle;'} height: auto;"
        return (f'<img src="cid:{picture.content_id}" alt="{html_text.escape(picture.alt)}"{size}'
                f' style="{style}">')

    return _INLINE_SVG.sub(replace, html), tuple(pictures)


def _picture(svg: str, width: float | None, description: str, number: int) -> Picture:
    digest = hashlib.sha256(svg.encode("utf-8")).hexdigest()[:16]
    decorative = _HIDDEN.search(_opening_tag(svg)) is not None
    return Picture(content_id=f"picture-{number}-{digest}@adjudicator", png=svg_to_png(svg, width), svg=svg,
                   filename=f"picture-{number}.svg", alt="" if decorative else alt_text(svg, description),
                   decorative=decorative)


def _opening_tag(svg: str) -> str:
    return svg[:svg.find(">") + 1]


def alt_text(svg: str, description: str) -> str:
    """What the picture shows: its own title or label, whose report it belongs to, and
    where to read the same in words."""
    opening = svg.find(">") + 1
    title = _TITLE.match(svg, opening)
    label = _LABEL.search(svg[:opening])
    name = " ".join(_TAG.sub("", title.group(1)).split()) if title else (
        html_text.unescape(label.group(1)[1:-1]).strip() if label else "")
    shown = name if name and name.lower() not in ("map", "board", "picture") else "The position"
    what = f"{shown}, as drawn for {description}." if description else f"{shown}."
    return f"Picture: {what} The text part of this mail lists the same position in words."


def svg_width(svg: str) -> float | None:
    """The width the SVG's opening tag gives it (None when it gives none)."""
    found = _WIDTH.search(svg[:svg.find(">")])
    return float(found.group(1)) if found else None


@lru_cache(maxsize=32)
def svg_to_png(svg: str, width: float | None = None) -> bytes:
    """The SVG drawn as a PNG at its own size (``width``, as :func:`svg_width` reads
    it, when the caller has read it already), or larger when it is narrow
    (:data:`MIN_PNG_WIDTH`); the same drawing gives the same bytes, drawn once while
    it is among the last few drawn."""
    import resvg_py  # loaded only when a report with a picture is mailed

    family = _installed_family()
    options = {} if family is None else {"font_family": family, "sans_serif_family": family,
                                         "serif_family": family}
    if width is None:
        width = svg_width(svg)
    zoom = min(MAX_ZOOM, max(1.0, MIN_PNG_WIDTH / width)) if width else 1.0
    try:
        drawn = bytes(resvg_py.svg_to_bytes(svg_string=_with_fallback_font(svg, family), zoom=zoom, **options))
    except ValueError as exc:
        raise PictureError(f"the report's picture could not be drawn as PNG: {exc}") from exc
    return _in_a_palette(drawn)


def _in_a_palette(png: bytes) -> bytes:
    """The PNG with its colours in a palette of at most :data:`PALETTE_COLOURS` (Pillow's
    fast octree, no dithering, transparency kept), when that is smaller, as it is for
    a map: a Russo-Japanese War map of 960 by 1237 pixels takes about 120 KB instead of
    450 KB, so that its mail stays small. A game's flat colours come out as drawn; the
    edges that resvg smooths may shift by a few levels."""
    from PIL import Image  # loaded only when a report with a picture is mailed

    with Image.open(io.BytesIO(png)) as drawn:
        fewer = drawn.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE,
                               dither=Image.Dither.NONE)
    out = io.BytesIO()
    fewer.save(out, format="PNG", optimize=True)
    return out.getvalue() if out.tell() < len(png) else png


def _with_fallback_font(svg: str, family: str | None) -> str:
    """Each ``font-family`` list of the SVG with the installed family at its end, so that
    text whose named fonts are missing is still drawn."""
    if family is None:
        return svg
    return re.sub(r"""font-family\s*=\s*"([^"]*)\"""", lambda m: f'font-family="{m.group(1)}, {family}"', svg)


@lru_cache(maxsize=1)
def _installed_family() -> str | None:
    """The first of :data:`FONT_CANDIDATES` that draws text on this machine (None: none does)."""
    import resvg_py

    blank = bytes(resvg_py.svg_to_bytes(svg_string=_SAMPLE.replace("Hi", "")))
    for family in FONT_CANDIDATES:
        if bytes(resvg_py.svg_to_bytes(svg_string=_SAMPLE.replace("{family}", family))) != blank:
            return family
    return None


_SAMPLE = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
           '<text x="2" y="15" font-family="{family}">Hi</text></svg>')
