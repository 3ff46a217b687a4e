"""The game-agnostic core: rules that ask, and a game as a pure function of its history.

See :mod:`adjudicator.engine.requests` for what rules yield and
:mod:`adjudicator.engine.match` for the driver that answers them.
"""

from adjudicator.engine.errors import (
    EngineError,
    GameDataError,
    HistoryMismatch,
    IllegalAnswer,
    NotWaitingForAnswer,
    NotWaitingForDice,
    WrongRespondent,
)
from adjudicator.engine.match import (
    AnswerEntry,
    DiceEntry,
    DrawEntry,
    Game,
    ShuffleEntry,
    Match,
    entry_from_json,
    play_out,
)
from adjudicator.engine.requests import CHANCE, Decision, Draw, Event, Roll, Shuffle
from adjudicator.engine.driver import Source, drive

__all__ = [
    "AnswerEntry",
    "CHANCE",
    "Draw",
    "DrawEntry",
    "Source",
    "drive",
    "Decision",
    "DiceEntry",
    "EngineError",
    "Event",
    "Game",
    "GameDataError",
    "HistoryMismatch",
    "IllegalAnswer",
    "Match",
    "NotWaitingForAnswer",
    "NotWaitingForDice",
    "Roll",
    "Shuffle",
    "ShuffleEntry",
    "WrongRespondent",
    "entry_from_json",
    "play_out",
]
