"""The game-agnostic core: rules that ask, and a game as a pure function of its history.

See :mod:`adjudicator.engine.requests` for what rules yield and
:mod:`adjudicator.engine.match` for the driver that answers them.
"""

from adjudicator.lazy import exports

#: each public name -> the module that defines it; imported on first use, so that a
#: module needing only the errors (an orders reader, a board) does not load the driver.
_HOMES = {
    **dict.fromkeys(("EngineError", "GameDataError", "HistoryMismatch", "IllegalAnswer", "NotWaitingForAnswer",
                     "NotWaitingForDice", "WrongRespondent"), "errors"),
    **dict.fromkeys(("AnswerEntry", "DiceEntry", "DrawEntry", "Game", "ShuffleEntry", "Match", "entry_from_json",
                     "play_out"), "match"),
    **dict.fromkeys(("CHANCE", "Decision", "Draw", "Event", "Roll", "Shuffle", "Simultaneous"), "requests"),
    **dict.fromkeys(("Source", "drive"), "driver"),
}


__getattr__ = exports(__name__, _HOMES)


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
    "Simultaneous",
    "WrongRespondent",
    "entry_from_json",
    "play_out",
]
