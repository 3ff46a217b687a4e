"""The option ``collision_place`` (R-GEO-5): by the ruling a ship that runs into
another stops where it touches; with ``step-start`` it stays where the colliding
element began. Either way both ships lose 1 CP, flood and are done for the turn."""

import pytest

from adjudicator.engine import Match
from adjudicator.games.tsushima_1905.game import Tsushima1905

GAME = Tsushima1905()
POSITION = {"turn": 1, "phase": "action", "offense": "japan", "prime": 1, "next": "japan",
            "ship": [{"name": "Mikasa", "side": "japan", "class": "battleship", "at": [5, 5], "heading": 0},
                     {"name": "Kniaz Suvorov", "side": "russia", "class": "battleship", "at": [5, 6.8],
                      "heading": 90}]}


def rammed(options):
    match = Match(GAME, {"position": POSITION, "continuous": True}, options)
    match.answer("japan", {"ship": "Mikasa", "move": ["A", "A"], "fire": "none"})
    return match


@pytest.mark.parametrize("place, north_of_start", [("contact", True), ("step-start", False)])
def test_where_the_mover_stops_after_a_collision(place, north_of_start):
    match = rammed({"collision_place": place})
    mikasa, suvorov = match.state.ships["Mikasa"], match.state.ships["Kniaz Suvorov"]
    assert any(e.kind == "collision" for e in match.events)
    assert (mikasa.y > 6000) is north_of_start and mikasa.y >= 6000 and mikasa.x == 5000
    assert mikasa.floods == suvorov.floods == 1


def test_the_ruling_is_the_default():
    assert rammed({}).state.ships["Mikasa"].y == rammed({"collision_place": "contact"}).state.ships["Mikasa"].y
