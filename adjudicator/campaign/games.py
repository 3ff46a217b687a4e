"""The games a campaign can play: each game's engine object and its orders support."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any

from adjudicator.campaign.errors import UnknownGame


@dataclass(frozen=True)
class GameSupport:
    name: str
    title: str
    game_module: str
    game_class: str
    orders_module: str
    report_module: str

    def game(self) -> Any:
        return _game_instance(self.game_module, self.game_class)

    def orders(self) -> ModuleType:
        """The module with ``answer_for(decision, state, orders)`` and ``default_answer``."""
        return importlib.import_module(self.orders_module)

    def report(self) -> ModuleType:
        """The module with ``situation(view, board)``, ``answer_hint(decision)`` and
        ``battle_odds(state, side, partial_hits, fog)``."""
        return importlib.import_module(self.report_module)


@lru_cache(maxsize=None)
def _game_instance(module: str, cls: str) -> Any:
    return getattr(importlib.import_module(module), cls)()


GAMES = {
    "port-arthur": GameSupport("port-arthur", "Port Arthur", "adjudicator.games.port_arthur", "PortArthur",
                               "adjudicator.games.port_arthur.orders", "adjudicator.games.port_arthur.report"),
}


def support(name: str) -> GameSupport:
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; the games are: {', '.join(GAMES)}") from None
