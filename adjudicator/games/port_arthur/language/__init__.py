"""The orders language of Port Arthur: ``grammar/port-arthur.lark`` read into blocks.

:func:`read` is what :func:`adjudicator.orders.parse_orders` calls for this game.
"""

from __future__ import annotations

from typing import Any

from adjudicator.orders.model import OrderSet, merge
from adjudicator.games.port_arthur.language.model import BLOCK_ORDER, GAME
from adjudicator.games.port_arthur.language.reader import read_tree
from adjudicator.games.port_arthur.language.world import World
from adjudicator.orders.problems import ProblemLog
from adjudicator.orders.recovery import parse_with_recovery
from adjudicator.orders.text import CleanText

#: Port Arthur's own error codes (E2xx: names of ships, zones and ports), with their
#: titles; the generic E1xx codes are in :mod:`adjudicator.orders.problems`.
CODES: dict[str, str] = {
    "E201": "unknown ship",
    "E202": "ambiguous name",
    "E203": "unknown zone",
    "E204": "unknown port",
    "E205": "ship of the other side",
    "E206": "place not allowed here",
    "E207": "ship named twice",
    "E208": "order not open to this side",
}


def read(clean: CleanText, log: ProblemLog, state: Any = None, world: World | None = None) -> OrderSet | None:
    """Parse and read ``clean``; every problem goes to ``log``.

    Names resolve against ``world`` (default: the board and counter sheet, or the
    ships of ``state`` when it is given).
    """
    tree = parse_with_recovery(GAME, clean.text, log)
    if tree is None:
        return None
    return read_tree(tree, world or World.from_board(state=state), log)


def merge_orders(standing: OrderSet | None, new: OrderSet) -> OrderSet:
    """The orders in force after ``new`` (see :func:`adjudicator.orders.model.merge`)."""
    return merge(standing, new, BLOCK_ORDER)


__all__ = ["BLOCK_ORDER", "CODES", "GAME", "World", "merge_orders", "read"]
