"""Russo-Japanese War 1904-1905 (land, two players, twelve turns, a shared deck of 16 cards)."""

from adjudicator.games.russo_japanese_war.game import RussoJapaneseWar

__all__ = ["RussoJapaneseWar"]
