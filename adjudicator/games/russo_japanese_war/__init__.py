"""Russo-Japanese War 1904-1905 (land, two players, twelve turns, a shared deck of 16 cards).

The game class is imported on first use (``from adjudicator.games.russo_japanese_war
import RussoJapaneseWar``), so that reading orders loads the orders language without the rules.
"""

#: for the registry (:mod:`adjudicator.games`): the orders language, and the rules class,
#: each loadable without the rest of the plug-in
LANGUAGE = "adjudicator.games.russo_japanese_war.language"
RULES = "adjudicator.games.russo_japanese_war.game:RussoJapaneseWar"

__all__ = ["RussoJapaneseWar"]


def __getattr__(name: str):
    if name == "RussoJapaneseWar":
        from adjudicator.games.russo_japanese_war.game import RussoJapaneseWar

        return RussoJapaneseWar
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
