"""The toy game registers with one line, for the tests of this folder."""

import pytest

from adjudicator import games

TOY = {"toy-hand": "tests.games.toy_hand.plugin"}


@pytest.fixture(autouse=True)
def toy_game_registered(monkeypatch):
    monkeypatch.setitem(games.GAMES, "toy-hand", TOY["toy-hand"])
