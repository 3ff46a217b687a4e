"""The orders language of Tsushima 1905: ``grammar/tsushima-1905.lark`` read into
standing-order blocks (the plans that answer the rules' questions from them are
:mod:`..plans`).

:func:`read` has the signature :func:`adjudicator.orders.parse_orders` expects of a
game's language module.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.tsushima_1905.data import GameData, load_data
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.state import State
from adjudicator.games.tsushima_1905.language.model import BLOCK_ORDER, GAME
from adjudicator.games.tsushima_1905.language.reader import Reader
from adjudicator.orders.model import OrderSet, merge
from adjudicator.orders.problems import ProblemLog
from adjudicator.orders.recovery import parse_with_recovery
from adjudicator.orders.text import CleanText


#: This game's error codes (E4xx; E1xx, E3xx and E900 are generic).
CODES: dict[str, str] = {
    "E401": "unknown ship",
    "E402": "ambiguous name",
    "E405": "ship of the other side",
    "E407": "ship named twice",
    "E408": "a partial ahead without the option partial_ahead",
    "E409": "a second target without the option split_fire",
    "E410": "move beyond the ship's limits",
}


def read(clean: CleanText, log: ProblemLog, state: Any = None, world: GameData | None = None) -> OrderSet | None:
    """Parse and read ``clean``; every problem goes to ``log``."""
    tree = parse_with_recovery(GAME, clean.text, log)
    if tree is None:
        return None
    options = Options.from_json(state.options) if isinstance(state, State) else None
    return Reader(world or load_data(), log, options, state if isinstance(state, State) else None).read(tree)


def merge_orders(standing: OrderSet | None, new: OrderSet) -> OrderSet:
    """The orders in force after ``new``: each block replaces the standing one of its kind."""
    return merge(standing, new, BLOCK_ORDER)


__all__ = ["BLOCK_ORDER", "CODES", "GAME", "merge_orders", "read"]
