"""The game a campaign plays, from the registry (:mod:`adjudicator.games`)."""

from __future__ import annotations

from adjudicator import games
from adjudicator.campaign.errors import UnknownGame
from adjudicator.engine.contract import GamePlugin


def support(name: str) -> GamePlugin:
    """The plug-in of game ``name`` (a campaign error when it is not registered)."""
    try:
        return games.get(name)
    except games.UnknownGame as err:
        raise UnknownGame(str(err)) from None
