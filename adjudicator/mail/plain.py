"""The plain text of the adjudicator's own mail (receipts, refusals, opening mails,
notices) fitted to 78 columns.

Prose lines (those that start at the first column) longer than that are broken at
spaces; a continuation line is indented four columns, so a long word such as an
orders hash stands on a line of its own. Indented lines are quoted material (the
canonical orders of a receipt, an orders line under a caret that points into it)
and are shown as they are: breaking them would move the caret or change what a
player may copy back.
"""

from __future__ import annotations

import textwrap

#: RFC 5322's recommended line length.
WIDTH = 78


def line_wrapper(width: int = WIDTH, hang: int = 4) -> textwrap.TextWrapper:
    """The wrapper of prose lines: at spaces only (a long word is left whole, tabs and
    runs of spaces as they are), each following line indented by ``hang`` spaces."""
    return textwrap.TextWrapper(width=width, subsequent_indent=" " * hang, break_long_words=False,
                                break_on_hyphens=False, expand_tabs=False, replace_whitespace=False)


_WRAPPER = line_wrapper()


def fit_text(text: str) -> str:
    """``text`` with each prose line longer than :data:`WIDTH` broken at spaces."""
    return "\n".join(piece for line in text.split("\n") for piece in _fit_line(line))


def _fit_line(line: str) -> list[str]:
    if len(line) <= WIDTH or line.startswith((" ", "\t")):
        return [line]
    return _WRAPPER.wrap(line) or [line]
