"""A small HTML-to-text converter for HTML-only mail.

It keeps what matters for reading orders and drops the rest:

* ``<br>`` ends a line; block elements (``<p>``, ``<div>``, ``<li>``, ``<tr>``,
  headings, tables, lists, ``<pre>``, ``<hr>``) start and end on a line of their
  own (no blank line is added, so a message written one ``<p>`` per line keeps
  its lines together);
* ``<li>`` items start with ``- ``; table cells in a row are separated by a space;
* text inside ``<blockquote>`` is prefixed with ``> `` per level, so quoted
  replies look as they do in plain-text mail;
* ``<script>``, ``<style>``, ``<head>`` (so ``<title>``) and comments are dropped;
* white space is collapsed as a browser would, except inside ``<pre>``;
* character references (``&amp;``, ``&#233;``) are decoded.

It never raises on malformed HTML.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCK_TAGS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "center",
        "dd",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tbody",
        "tfoot",
        "thead",
        "tr",
        "ul",
    }
)
_DROPPED_TAGS = frozenset({"script", "style", "head", "title", "template", "noscript"})
_VOID_TAGS = frozenset({"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "wbr"})
_SPACE_RUN = re.compile(r"[ \t\n\r\f\v]+")


def html_to_text(html: str) -> str:
    """Return the readable text of an HTML document, one line per visual line."""
    converter = _TextConverter()
    try:
        converter.feed(html)
        converter.close()
    except Exception:  # noqa: BLE001 - html.parser is lenient; this is a last resort
        pass
    return converter.text()


class _TextConverter(HTMLParser):
    """Collects the text of an HTML document line by line."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._lines: list[str] = []
        self._current: list[str] = []
        self._prefix = ""
        self._dropped = 0
        self._pre = 0
        self._quote = 0
        self._row_has_cell = False

    # -- parser callbacks ---------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED_TAGS:
            self._dropped += 1
            return
        if tag == "br":
            self._end_line(force=True)
        elif tag in _BLOCK_TAGS:
            self._end_line()
            self._enter_block(tag)
        elif tag in ("td", "th"):
            if self._row_has_cell:
                self._write(" ")
            self._row_has_cell = True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID_TAGS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED_TAGS:
            self._dropped = max(0, self._dropped - 1)
            return
        if tag in _BLOCK_TAGS:
            self._end_line()
            self._leave_block(tag)

    def handle_data(self, data: str) -> None:
        if self._dropped:
            return
        if self._pre:
            self._write_pre(data)
        else:
            self._write(_SPACE_RUN.sub(" ", data))

    # -- building lines -----------------------------------------------------

    def _enter_block(self, tag: str) -> None:
        if tag == "blockquote":
            self._quote += 1
        elif tag == "pre":
            self._pre += 1
        elif tag == "li":
            self._write("- ")
        elif tag == "tr":
            self._row_has_cell = False

    def _leave_block(self, tag: str) -> None:
        if tag == "blockquote":
            self._quote = max(0, self._quote - 1)
        elif tag == "pre":
            self._pre = max(0, self._pre - 1)

    def _write(self, text: str) -> None:
        if not text:
            return
        if not self._current:
            text = text.lstrip(" ")
            if not text:
                return
            self._prefix = "> " * self._quote
        self._current.append(text)

    def _write_pre(self, text: str) -> None:
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for index, line in enumerate(lines):
            if index:
                self._end_line(force=True)
            if line:
                if not self._current:
                    self._prefix = "> " * self._quote
                self._current.append(line)

    def _end_line(self, force: bool = False) -> None:
        """Finish the current line; with ``force`` an empty line is kept too."""
        if self._current or force:
            line = "".join(self._current).rstrip()
            prefix = self._prefix if self._current else "> " * self._quote
            self._lines.append((prefix + line).rstrip() if line else prefix.rstrip())
        self._current = []

    def text(self) -> str:
        """Return the collected text, without leading or trailing blank lines."""
        self._end_line()
        return _squeeze_blank_lines(self._lines)


def _squeeze_blank_lines(lines: list[str]) -> str:
    """Join lines, keeping at most one blank line in a row."""
    out: list[str] = []
    for line in lines:
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)
