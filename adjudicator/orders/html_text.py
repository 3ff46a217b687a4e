"""The plain text of an orders message sent as HTML only (loaded only for one)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser


class _TextFromHtml(HTMLParser):
    """Plain text of an HTML message: block elements and <br> end lines."""

    _BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "pre", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0
        self._quote = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("script", "style", "head"):
            self._skip += 1
        if tag == "blockquote":
            self._quote += 1
        if tag in self._BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head"):
            self._skip = max(0, self._skip - 1)
        if tag == "blockquote":
            self._quote = max(0, self._quote - 1)
        if tag in self._BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._skip or self._quote:  # quoted replies are not orders
            return
        self.parts.append(data.replace("\n", " "))


def html_to_text(markup: str) -> str:
    """The text of an HTML-only message, one line per paragraph or <br>."""
    parser = _TextFromHtml()
    parser.feed(markup)
    parser.close()
    text = html.unescape("".join(parser.parts))
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")
