"""Players' written orders: parsing, checking, receipts and standing orders.

The one entry point for adjudication and for the offline ``check`` command alike::

    orders = parse_orders(text_or_bytes, game)   # raises OrdersError
    receipt = Receipt.of(orders)                               # canonical text + SHA-256

Every problem in a file is reported at once (:class:`OrdersError` carries them all,
each an :class:`OrderProblem` with a stable code). Library code never prints.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from adjudicator import games
from adjudicator.collector import garbage_collection_paused
from adjudicator.errors import AdjudicatorError
from adjudicator.i18n import said
from adjudicator.orders.keywords import COMMON, spellings
from adjudicator.orders.model import Credentials, Header, OrderSet, merge
from adjudicator.orders.problems import CODES, OrderProblem, OrdersError, ProblemLog
from adjudicator.orders.receipt import Receipt
from adjudicator.orders.text import MAX_BYTES, MAX_LINES, clean



class UnknownLanguage(AdjudicatorError, ValueError):
    """Orders for a game that is not registered."""


def language(game: str):
    """The orders language of ``game`` (its plug-in's ``language``)."""
    try:
        return games.language(game)
    except games.UnknownGame as err:
        raise UnknownLanguage(f"no orders language for {game!r}; known: {', '.join(games.names())}") from err


def parse_orders(
    data: bytes | str,
    game: str,
    *,
    state: Any = None,
    world: Any = None,
    campaign: str | None = None,
) -> OrderSet:
    """Read an orders file (bytes as sent, or text); raise OrdersError listing every problem.

    ``state``: the game's current state (names then resolve against the ships in
    play); ``world``: the names to use instead (tests); ``campaign``: the campaign
    the orders must be for.
    """
    return _parse(data, game, state=state, world=world, campaign=campaign)[0]


def parse_orders_noted(
    data: bytes | str,
    game: str,
    *,
    state: Any = None,
    world: Any = None,
    campaign: str | None = None,
) -> tuple[OrderSet, tuple[str, ...]]:
    """:func:`parse_orders`, with the reader's notes of how names were read ("line 3:
    'Gd' read as Gds"), for the receipt."""
    orders, _, readings = _parse(data, game, state=state, world=world, campaign=campaign)
    return orders, readings


def check_orders(
    data: bytes | str,
    game: str,
    *,
    state: Any = None,
    world: Any = None,
    campaign: str | None = None,
) -> Receipt:
    """Parse ``data`` as :func:`parse_orders` does and return the receipt."""
    orders, cleaning, readings = _parse(data, game, state=state, world=world, campaign=campaign)
    return Receipt.of(orders, (*cleaning, *readings))


def _parse(data, game, *, state, world, campaign) -> tuple[OrderSet, tuple[str, ...], tuple[str, ...]]:
    """The orders, the notes of cleaning the text (HTML, a start marker) and the reader's
    notes of how names were read."""
    with garbage_collection_paused():  # the parse tree and the orders read from it are all kept
        return _parse_collected(data, game, state=state, world=world, campaign=campaign)


def _parse_collected(data, game, *, state, world, campaign) -> tuple[OrderSet, tuple[str, ...], tuple[str, ...]]:
    reader = language(game)
    text = clean(data)
    log = ProblemLog(list(text.lines), codes=reader.CODES)
    orders = reader.read(text, log, state=state, world=world)
    if orders is not None and campaign is not None and orders.header.campaign not in (None, campaign):
        log.add("E114", said('these orders are for campaign "%(given)s", not "%(campaign)s"', given=orders.header.campaign,
                     campaign=campaign),
                *_first_line(text.lines, _CAMPAIGN_LINE))
    if orders is not None and not log:
        _check_stored_size(orders, text, log)
    if log or orders is None:
        raise OrdersError(greeting_hint(log.problems, text), partial=orders)
    return orders, text.notes, tuple(log.notes)


#: Problems a line of prose gives (a greeting above the orders).
_PROSE = frozenset({"E101", "E102", "E104"})
GREETING_HINT = said('if this is a greeting or a note, put a line "BEGIN ORDERS" just above your '
                     "orders: everything above that line is ignored.")


def greeting_hint(problems: list[OrderProblem], text) -> list[OrderProblem]:
    """``problems``, the first saying how to mark where the orders begin when the file
    has no start marker and its first lines (only they) are not orders: a greeting."""
    if text.marked or not problems:
        return problems
    bad = {p.line for p in problems if p.code in _PROSE}
    content = [n for n, line in enumerate(text.lines, 1) if _CONTENT_LINE.match(line)]
    leading = next((i for i, n in enumerate(content) if n not in bad), len(content))
    if leading == 0 or leading == len(content):
        return problems
    first = min((p for p in problems if p.line == content[0]), key=lambda p: p.column)
    return [replace(p, hint=GREETING_HINT) if p is first else p for p in problems]


#: A campaign line, in English or in French (grammar/keywords-fr.toml).
_CAMPAIGN_LINE = re.compile(r"^\s*(?:%s)\b" % "|".join(
    re.escape(word) for word in ("campaign", *spellings("campaign", COMMON))), re.I)
_CONTENT_LINE = re.compile(r"^\s*[^\s#]")


def _first_line(lines, pattern: re.Pattern = _CONTENT_LINE) -> tuple[int, int]:
    """Line and column of the first of ``lines`` that ``pattern`` matches (else the first line)."""
    for number, line in enumerate(lines, 1):
        if pattern.match(line):
            return number, len(line) - len(line.lstrip()) + 1
    return 1, 1


def _check_stored_size(orders: OrderSet, text, log: ProblemLog) -> None:
    """The orders as stored (their canonical text) must be within the limits a file is
    held to, or the campaign could not read them back (E107)."""
    canonical = orders.canonical_text()
    size, lines = len(canonical.encode("utf-8")), canonical.count("\n")
    if size > MAX_BYTES or lines > MAX_LINES:
        log.add("E107", said("written out in full (every name spelt out, one ship a line) these orders take "
                             "%(size)s bytes in %(lines)s lines; the limit is %(most)s bytes and %(most_lines)s "
                             "lines: shorten them", size=format(size, ","), lines=format(lines, ","),
                             most=format(MAX_BYTES, ","), most_lines=format(MAX_LINES, ",")), *_first_line(text.lines), quote=False)


def merge_orders(standing: OrderSet | None, new: OrderSet, game: str) -> OrderSet:
    """The orders in force when ``new`` arrives over ``standing`` (standing orders persist)."""
    return language(game).merge_orders(standing, new)


__all__ = [
    "CODES",
    "Credentials",
    "Header",
    "UnknownLanguage",
    "MAX_BYTES",
    "MAX_LINES",
    "OrderProblem",
    "OrderSet",
    "OrdersError",
    "Receipt",
    "check_orders",
    "merge",
    "merge_orders",
    "parse_orders",
    "parse_orders_noted",
]
