"""The games the adjudicator plays: one line per game.

Each entry names the module whose ``plugin()`` returns the game's
:class:`~adjudicator.engine.contract.GamePlugin` (the contract is documented in
:mod:`adjudicator.engine.contract`). Adding a game is one folder,
``adjudicator/games/<game>/``, and one line here. Modules are imported only when a
game is used, so the command line starts fast and a broken game breaks only itself.

A game's package may also name, in its ``__init__``, the parts a command needs without
the rest of the plug-in: ``LANGUAGE``, the module of its orders language (for reading
orders, ``check``), and ``RULES``, ``module:class`` of its game (for replaying, ``verify``).
A test holds each to its plug-in; a game that names neither is loaded through its plug-in.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TYPE_CHECKING

from adjudicator.errors import AdjudicatorError

if TYPE_CHECKING:  # pragma: no cover - types only
    from adjudicator.engine.contract import GamePlugin, RulesGame

#: game name (as in a charter, a case folder, ``--game``) -> module with ``plugin()``
GAMES: dict[str, str] = {
    "port-arthur": "adjudicator.games.port_arthur.plugin",
    "russo-japanese-war": "adjudicator.games.russo_japanese_war.plugin",
    "tsushima-1905": "adjudicator.games.tsushima_1905.plugin",
}


class UnknownGame(AdjudicatorError, LookupError):
    """A game name that is not in the registry."""


def names() -> tuple[str, ...]:
    """The registered games' names, in registry order."""
    return tuple(GAMES)


def get(name: str) -> "GamePlugin":
    """The plug-in of game ``name``; UnknownGame names the known games."""
    module = GAMES.get(name)
    if module is None:
        raise UnknownGame(f"unknown game {name!r}; the games are: {', '.join(GAMES)}")
    return _load(name, module)


def language(name: str):
    """The orders language of game ``name`` (its plug-in's ``language``), imported
    without the rest of the game when the game's package names its module."""
    module = _shortcut(name, "LANGUAGE")
    return get(name).language if module is None else importlib.import_module(module)


def rules(name: str) -> "RulesGame":
    """Game ``name``'s engine object, as its plug-in's ``game()`` gives it, made without
    loading the rest of the plug-in when the game's package names its class."""
    home = _shortcut(name, "RULES")
    return get(name).game() if home is None else _make(home)


def _shortcut(name: str, part: str) -> str | None:
    """What game ``name``'s package names as ``part`` (``LANGUAGE`` or ``RULES``), if anything."""
    if name not in GAMES:
        get(name)  # UnknownGame, naming the games
    return getattr(importlib.import_module(GAMES[name].rpartition(".")[0]), part, None)


@lru_cache(maxsize=None)
def _make(home: str) -> "RulesGame":
    module, _, name = home.partition(":")
    return getattr(importlib.import_module(module), name)()


@lru_cache(maxsize=None)
def _load(name: str, module: str) -> "GamePlugin":
    plugin = importlib.import_module(module).plugin()
    if plugin.name != name:
        raise UnknownGame(f"the registry names {module} as game {name!r}, but it is game {plugin.name!r}")
    return plugin


def only_game() -> str | None:
    """The one registered game, when there is only one (a default for commands)."""
    return next(iter(GAMES)) if len(GAMES) == 1 else None


__all__ = ["GAMES", "UnknownGame", "get", "language", "names", "only_game", "rules"]
