"""From what a player sent to the text the grammar reads.

Players send orders by email, so the text is cleaned first, keeping every line where
it was (line numbers in messages are those of the file as sent):

- bytes must be UTF-8 (a byte-order mark is dropped), at most ``MAX_BYTES`` long and
  of at most ``MAX_LINES`` lines;
- CRLF and CR line ends become LF, tabs and other odd spaces become spaces;
- an HTML-only message is turned into plain text;
- when a start marker is present (``BEGIN ORDERS``, ``START ORDERS``, a line
  ``orders:``; in French ``DÉBUT DES ORDRES``, ``ordres:``), everything above it is
  ignored; an end marker (``END ORDERS``, ``FIN DES ORDRES``) ends the orders;
- quoted reply lines (starting with ``>``) are ignored line by line, with the
  ``On ... wrote:`` (``Le ... a écrit :``) line that introduces them: orders written
  below a quoted report are read; everything from a signature separator (a line
  ``-- ``) or an original message that is not quoted (``-----Original Message-----``,
  ``-----Message d'origine-----``, or ``On ... wrote:`` followed by unquoted text) down
  is ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.i18n import said
from adjudicator.orders.problems import OrderProblem, OrdersError

#: The largest orders file accepted, in bytes (256 KiB), and in lines. The limits
#: hold for what is sent and for the orders as stored (their canonical text).
MAX_BYTES = 256 * 1024
MAX_LINES = 5000

#: In English or in French: BEGIN ORDERS, DÉBUT DES ORDRES, a line "orders:" or "ordres:".
_START = re.compile(r"^\s*(?:-{2,}\s*)?(?:(?:begin|start)\s+orders?|d[ée]but\s+(?:des\s+)?ordres?)"
                    r"\s*(?:-{2,}\s*)?:?\s*$|^\s*(?:orders|ordres)\s*:?\s*$", re.I)
#: END ORDERS, FIN DES ORDRES.
_END = re.compile(r"^\s*(?:-{2,}\s*)?(?:end\s+(?:of\s+)?orders?|fin\s+(?:des\s+)?ordres?)\s*(?:-{2,}\s*)?\.?\s*$",
                  re.I)
_QUOTED = re.compile(r"^\s*>")
_SIGNATURE = re.compile(r"^--\s*$")
#: An original message (Outlook's, Thunderbird's, in English or in French), or the
#: line of a reply that introduces it ("On ... wrote:", "Le ... a écrit :").
_ORIGINAL = re.compile(r"^\s*-{3,}\s*(?:original message|message d'origine|message original)\s*-{3,}\s*$"
                       r"|^\s*on\s.{0,200}\swrote:\s*$|^\s*le\s.{0,200}\sa\s+[ée]crit\s*:\s*$", re.I)
_ODD_SPACES = re.compile(r"[\t\f\v\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]")
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
#: Matches where any of the start, end, quotation, signature and original-message marks
#: above matches (a line it does not match is orders, or nothing, and kept as it is).
_ANY_MARK = re.compile("|".join(f"(?{'i' if p.flags & re.I else ''}:{p.pattern})"
                                for p in (_START, _END, _QUOTED, _SIGNATURE, _ORIGINAL)))
_LOOKS_HTML = re.compile(r"^\s*(?:<!doctype html|<html|<body|<div|<p[\s>]|<br)", re.I)


@dataclass(frozen=True)
class CleanText:
    """The text to parse (one line for each line sent, ending with a newline)."""

    text: str
    lines: tuple[str, ...]
    notes: tuple[str, ...] = ()
    marked: bool = False  # whether a start marker (BEGIN ORDERS) was found


def decode(data: bytes | str) -> str:
    """UTF-8 text of ``data``; raise OrdersError (E100, E105) when it cannot be orders."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        line, column = _place_of_byte(raw, MAX_BYTES)
        raise OrdersError([OrderProblem(
            "E100",
            said("the file is %(size)s bytes; orders may be at most %(most)s bytes (%(kib)s KiB): cut it short "
                 "of here", size=format(len(raw), ","), most=format(MAX_BYTES, ","), kib=MAX_BYTES // 1024),
            line, column,
        )])
    if isinstance(data, str):
        return data
    if b"\x00" in data:
        line, column = _place_of_byte(data, data.index(b"\x00"))
        raise OrdersError([OrderProblem("E105", said("the file holds NUL bytes: it is not a text file"), line, column)])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line, column = _place_of_byte(data, err.start)
        raise OrdersError([OrderProblem(
            "E105",
            said("the file is not UTF-8 text (byte %(byte)s cannot be read); save it as UTF-8", byte=err.start + 1),
            line, column,
        )]) from None


def _place_of_byte(raw: bytes, offset: int) -> tuple[int, int]:
    """The line and column (in characters) of byte ``offset`` of ``raw``."""
    before = raw[:offset]
    line_start = before.rfind(b"\n") + 1
    return before.count(b"\n") + 1, len(before[line_start:].decode("utf-8", "replace")) + 1


def check_line_count(lines: list[str]) -> None:
    """Raise OrdersError (E100) when there are more than ``MAX_LINES`` lines."""
    if len(lines) > MAX_LINES + 1 or (len(lines) == MAX_LINES + 1 and lines[-1].strip()):
        raise OrdersError([OrderProblem(
            "E100",
            said("the file has %(count)s lines; orders may have at most %(most)s lines: cut it short of here",
                 count=format(len(lines) - (not lines[-1].strip()), ","),
                 most=format(MAX_LINES, ",")),
            MAX_LINES + 1, 1,
        )])


def clean(data: bytes | str) -> CleanText:
    """Decode and clean ``data`` as described in this module's docstring."""
    text = decode(data).lstrip("\ufeff")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    notes: list[str] = []
    if _LOOKS_HTML.match(text):
        text = html_to_text(text)
        notes.append(said("the message was HTML; it was read as plain text"))
    check_line_count(text.split("\n"))
    lines = _CONTROLS.sub(" ", _ODD_SPACES.sub(" ", text)).split("\n")  # neither touches a line end
    kept = _keep_orders_lines(lines, notes)
    marked = any(_START.match(line) for line, now in zip(lines, kept) if line and not now)
    return CleanText("\n".join(kept).rstrip(" ") + "\n", tuple(kept), tuple(notes), marked)


def _keep_orders_lines(lines: list[str], notes: list[str]) -> list[str]:
    """Blank every line that is not orders; the number of lines stays the same."""
    kept = list(lines)
    marks = [i for i, line in enumerate(lines) if _ANY_MARK.match(line)]  # the only lines to look at
    original = next((i for i in marks if _ends_orders(lines, i)), len(lines))
    start = next((i for i in marks if i < original and _START.match(lines[i])), None)
    if start is not None:
        for i in range(start + 1):
            kept[i] = ""
        if start:
            notes.append(said("text above the start marker (line %(line)s) was ignored", line=start + 1))
    first = 0 if start is None else start + 1
    for i in marks:
        if i < first:
            continue
        line = lines[i]
        if _END.match(line) or _ends_orders(lines, i):
            for j in range(i, len(lines)):
                kept[j] = ""
            break
        if _QUOTED.match(line) or _ORIGINAL.match(line):
            kept[i] = ""
    return kept


def _ends_orders(lines: list[str], index: int) -> bool:
    """Whether line ``index`` starts what is no longer the sender's text: a signature
    separator, or an original message that is not quoted. An ``On ... wrote:`` line
    followed by quoted lines only introduces a quotation, which is skipped line by
    line (orders may follow it)."""
    line = lines[index]
    if _SIGNATURE.match(line):
        return True
    if not _ORIGINAL.match(line):
        return False
    following = next((text for text in lines[index + 1:] if text.strip()), "")
    return not _QUOTED.match(following)


def html_to_text(markup: str) -> str:
    """The text of an HTML-only message, one line per paragraph or <br>, as mail intake
    reads it (:mod:`adjudicator.mail.htmltext`, loaded only for such a message; quoted
    replies come out as ``>`` lines, which are not orders)."""
    from adjudicator.mail.htmltext import html_to_text as text_of

    return text_of(markup)
