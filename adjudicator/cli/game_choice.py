"""Which game a command is about, with no command-line library (``check`` runs without
one): ``--game``, else the game an orders text names, else the folder it is in, else the
only game installed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from adjudicator import games
from adjudicator.errors import AdjudicatorError


class GameNotChosen(AdjudicatorError, ValueError):
    """No game could be told (the message lists the games)."""


def choose_game(name: Optional[str], *, text: bytes | str | None = None, path: Optional[Path] = None,
                first_by_default: bool = False) -> str:
    """The game named with ``--game``; else the one an orders text names in its header
    (``game: tsushima-1905``, ``jeu: tsushima-1905``); else the one a folder on ``path`` is named after
    (``samples/<game>/``); else the only game installed; else, with
    ``first_by_default`` (the demo, a simulation), the registry's first game; else
    GameNotChosen, listing the games."""
    if name is not None:
        if name not in games.names():
            raise GameNotChosen(f"unknown game {name!r}; the games are: {', '.join(games.names())}")
        return name
    inferred = _game_named_in(text) or _game_of_folder(path) or games.only_game()
    if inferred is not None:
        return inferred
    if first_by_default:
        return games.names()[0]
    raise GameNotChosen(f"say which game with --game: one of {', '.join(games.names())}")


#: A "game:" line, or its French "jeu:" (grammar/keywords-fr.toml).
_GAME_LINE = re.compile(r"^[ \t>]*(?:game|jeu)[ \t]*:?[ \t]*([A-Za-z0-9-]+)", re.IGNORECASE | re.MULTILINE)


def _game_named_in(text: bytes | str | None) -> Optional[str]:
    if text is None:
        return None
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    for found in _GAME_LINE.finditer(text):
        if found.group(1).lower() in games.names():
            return found.group(1).lower()
    return None


def _game_of_folder(path: Optional[Path]) -> Optional[str]:
    if path is None:
        return None
    for folder in Path(path).absolute().parents:
        if folder.name in games.names():
            return folder.name
    return None
