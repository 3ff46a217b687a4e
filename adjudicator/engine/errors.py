"""Exceptions raised by the engine. One class per kind of failure."""

from __future__ import annotations

from adjudicator.errors import AdjudicatorError


class EngineError(AdjudicatorError):
    """Base class of the engine's errors."""


class IllegalAnswer(EngineError):
    """An answer the rules do not allow. The game is unchanged; ask again."""


class WrongRespondent(EngineError):
    """An answer from a side that was not asked, or to another question."""


class NotWaitingForAnswer(EngineError):
    """An answer was given while the game asks no question (it waits for dice, or is over)."""


class NotWaitingForDice(EngineError):
    """Dice were given while the game does not roll."""


class HistoryMismatch(EngineError):
    """A stored history does not fit the rules (an answer or die out of place)."""


class GameDataError(EngineError):
    """A game data file is missing, unreadable, or inconsistent."""
