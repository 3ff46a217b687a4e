"""Players' written orders: parsing, checking, receipts and standing orders.

The one entry point for adjudication and for the offline ``check`` command alike::

    orders = parse_orders(text_or_bytes, game)   # raises OrdersError
    receipt = Receipt.of(orders)                               # canonical text + SHA-256

Every problem in a file is reported at once (:class:`OrdersError` carries them all,
each an :class:`OrderProblem` with a stable code). Library code never prints.
"""

from __future__ import annotations

from typing import Any

from adjudicator import games
from adjudicator.orders.model import Credentials, Header, OrderSet, merge
from adjudicator.orders.problems import CODES, OrderProblem, OrdersError, ProblemLog
from adjudicator.orders.receipt import Receipt
from adjudicator.orders.text import MAX_BYTES, clean



class UnknownLanguage(ValueError):
    """Orders for a game that is not registered."""


def language(game: str):
    """The orders language of ``game`` (its plug-in's ``language``)."""
    try:
        return games.get(game).language
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


def check_orders(
    data: bytes | str,
    game: str,
    *,
    state: Any = None,
    world: Any = None,
    campaign: str | None = None,
) -> Receipt:
    """Parse ``data`` as :func:`parse_orders` does and return the receipt."""
    orders, notes = _parse(data, game, state=state, world=world, campaign=campaign)
    return Receipt.of(orders, notes)


def _parse(data, game, *, state, world, campaign) -> tuple[OrderSet, tuple[str, ...]]:
    reader = language(game)
    text = clean(data)
    log = ProblemLog(list(text.lines), codes=reader.CODES)
    orders = reader.read(text, log, state=state, world=world)
    if orders is not None and campaign is not None and orders.header.campaign not in (None, campaign):
        log.add("E114", f'these orders are for campaign "{orders.header.campaign}", not "{campaign}"')
    if log or orders is None:
        raise OrdersError(log.problems)
    return orders, text.notes


def merge_orders(standing: OrderSet | None, new: OrderSet, game: str) -> OrderSet:
    """The orders in force when ``new`` arrives over ``standing`` (standing orders persist)."""
    return language(game).merge_orders(standing, new)


__all__ = [
    "CODES",
    "Credentials",
    "Header",
    "UnknownLanguage",
    "MAX_BYTES",
    "OrderProblem",
    "OrderSet",
    "OrdersError",
    "Receipt",
    "check_orders",
    "merge",
    "merge_orders",
    "parse_orders",
]
