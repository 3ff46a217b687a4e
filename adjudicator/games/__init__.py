"""The games the adjudicator plays: one line per game.

Each entry names the module whose ``plugin()`` returns the game's
:class:`~adjudicator.engine.contract.GamePlugin` (the contract is documented in
:mod:`adjudicator.engine.contract`). Adding a game is one folder,
``adjudicator/games/<game>/``, and one line here. Modules are imported only when a
game is used, so the command line starts fast and a broken game breaks only itself.
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

#: game name -> module of its orders language, for reading orders without loading the
#: rules (``check``); it is the plug-in's ``language`` (a test holds them equal). A game
#: left out here is read through its plug-in.
LANGUAGES: dict[str, str] = {
    "port-arthur": "adjudicator.games.port_arthur.language",
    "russo-japanese-war": "adjudicator.games.russo_japanese_war.language",
    "tsushima-1905": "adjudicator.games.tsushima_1905.orders",
}

#: game name -> its rules, ``module:class`` (the plug-in's ``make_game``), for replaying a
#: game without loading its orders language, reports or players (``verify``); a test holds
#: each the class of its plug-in's game. A game left out here is made through its plug-in.
RULES: dict[str, str] = {
    "port-arthur": "adjudicator.games.port_arthur.game:PortArthur",
    "russo-japanese-war": "adjudicator.games.russo_japanese_war.game:RussoJapaneseWar",
    "tsushima-1905": "adjudicator.games.tsushima_1905.game:Tsushima1905",
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
    without the rest of the game when the registry names its module."""
    if name not in GAMES:
        get(name)  # UnknownGame, naming the games
    module = LANGUAGES.get(name)
    if module is None or module.rpartition(".")[0] != GAMES[name].rpartition(".")[0]:
        return get(name).language  # a game registered otherwise (a test's own): through its plug-in
    return importlib.import_module(module)


def rules(name: str) -> "RulesGame":
    """Game ``name``'s engine object, as its plug-in's ``game()`` gives it, made without
    loading the rest of the plug-in when the registry names its class."""
    if name not in GAMES:
        get(name)  # UnknownGame, naming the games
    home = RULES.get(name)
    if home is None or home.partition(":")[0].rpartition(".")[0] != GAMES[name].rpartition(".")[0]:
        return get(name).game()  # a game registered otherwise (a test's own): through its plug-in
    return _make(home)


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


__all__ = ["GAMES", "LANGUAGES", "RULES", "UnknownGame", "get", "language", "names", "only_game", "rules"]
