"""Relative moves resolved by an exact, deterministic search (rulings §4.2)."""

import pytest
from hypothesis import given, settings, strategies as st

from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.planner import (
    ALPHABET, CANDIDATES, PARTIAL_AHEADS, POSITION, NoMove, Relative, _best, _Moves, _objective, resolve,
)
from adjudicator.games.tsushima_1905.geometry import Pose
from adjudicator.games.tsushima_1905.rules.movement import ahead_length, free_moves, paid_moves_left, plan_move
from adjudicator.games.tsushima_1905.rules.table import Table, pose_of

GAME = Tsushima1905()


def table_with(ships):
    position = {"turn": 1, "phase": "action", "offense": "japan", "prime": 1, "next": "japan", "ship": ships}
    state = GAME.new_state({"position": position}, {})
    return Table(state, GAME.data, GAME.geo, Options(), lambda event: None)


def ship(name, side, cls, x, y, heading):
    return {"name": name, "side": side, "class": cls, "at": [x, y], "heading": heading}


def test_follow_takes_station_astern_of_the_leader():
    table = table_with([ship("Mikasa", "japan", "battleship", 6.0, 18.0, 180),
                        ship("Shikishima", "japan", "battleship", 6.0, 20.5, 180)])
    assert [e.code for e in resolve(table, table.ship("Shikishima"), Relative("follow", "Mikasa"))] == ["A"]


def test_steer_turns_toward_the_heading_in_one_element():
    table = table_with([ship("Admiral Nakhimov", "russia", "armoured_cruiser", 14.0, 5.5, 0)])
    assert [e.code for e in resolve(table, table.ship("Admiral Nakhimov"), Relative("steer", heading=45))] == ["S45"]


def test_ram_ends_in_contact_with_the_target():
    table = table_with([ship("Idzumo", "japan", "armoured_cruiser", 10.0, 13.0, 180),
                        ship("Osliabia", "russia", "battleship", 10.0, 10.5, 90)])
    elements = resolve(table, table.ship("Idzumo"), Relative("ram", "Osliabia"))
    assert "Osliabia" in plan_move(table, table.ship("Idzumo"), elements).struck


def test_a_ship_boxed_in_astern_of_its_leader_has_no_clear_move():
    table = table_with([ship("Mikasa", "japan", "battleship", 6.0, 19.0, 180),
                        ship("Shikishima", "japan", "battleship", 6.0, 20.5, 180)])
    with pytest.raises(NoMove, match="follow Mikasa"):
        resolve(table, table.ship("Shikishima"), Relative("follow", "Mikasa"))


def exhaustive(table, mover, order):
    """The best legal move, ranked by (score, CPs, length, list order), without pruning."""
    return list(exhaustive_ranking(table, mover, order, ALPHABET)[0][-1])


def assert_pruned_search_is_exhaustive_best(mover, target, order):
    """The pruned search's move is the exhaustive search's best, where that best can be
    carried out (a move that collides or leaves the table is never the answer)."""
    table = table_with([mover, target])
    ship_ = table.ship(mover["name"])
    best = exhaustive(table, ship_, order)
    plan = plan_move(table, ship_, best)
    if plan.withdrawn or (plan.struck and order.kind != "ram"):
        return
    assert resolve(table, ship_, order) == best


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 16), st.integers(6, 22), st.integers(0, 359), st.integers(4, 16), st.integers(6, 22),
       st.integers(0, 359), st.sampled_from(["follow", "close", "open", "broadside", "station"]))
def test_the_pruned_search_finds_the_exhaustive_best(x, y, heading, tx, ty, theading, kind):
    if abs(x - tx) < 4 and abs(y - ty) < 4:
        return
    assert_pruned_search_is_exhaustive_best(ship("Mikasa", "japan", "battleship", x, y, heading),
                                            ship("Borodino", "russia", "battleship", tx, ty, theading),
                                            Relative(kind, "Borodino", bearing=90, distance=3000))


@settings(max_examples=12, deadline=None)
@given(st.integers(3, 17), st.integers(5, 23), st.integers(0, 359), st.integers(3, 17), st.integers(5, 23),
       st.integers(0, 359), st.sampled_from(["follow", "close", "ram", "station", "open"]))
def test_the_pruned_search_finds_the_exhaustive_best_for_a_japanese_cruiser_with_two_turns(
        x, y, heading, tx, ty, theading, kind):
    if abs(x - tx) < 3 and abs(y - ty) < 3:
        return
    assert_pruned_search_is_exhaustive_best(ship("Idzumo", "japan", "armoured_cruiser", x, y, heading),
                                            ship("Osliabia", "russia", "battleship", tx, ty, theading),
                                            Relative(kind, "Osliabia", bearing=135, distance=2000))


def exhaustive_ranking(table, mover, order, alphabet):
    """Every legal move of ``alphabet`` (at least one element), ranked by (score, CPs,
    length, list order) without pruning: the search's ranking must be its head."""
    geo, free = table.geo, free_moves(table, mover)
    most, turns = free + paid_moves_left(table, mover), table.cls(mover).turns_per_activation
    objective = _objective(table, mover, order)
    found = []

    def grow(prefix, pose, turns_left):
        if prefix:
            found.append((objective.score(pose), max(0, len(prefix) - free), len(prefix),
                          tuple(POSITION[e] for e in prefix), prefix))
        if len(prefix) == most:
            return
        for element in alphabet:
            if element.is_turn and turns_left:
                grow(prefix + (element,), geo.pivot(geo.advance(pose, 500), element.degrees), turns_left - 1)
            elif not element.is_turn:
                grow(prefix + (element,), geo.advance(pose, ahead_length(geo, element)), turns_left)

    grow((), pose_of(mover), turns)
    return sorted(found)


MOVERS = {"russian battleship": ("Kniaz Suvorov", "russia", "battleship", "Mikasa", "japan"),
          "japanese battleship": ("Mikasa", "japan", "battleship", "Borodino", "russia"),
          "japanese cruiser": ("Idzumo", "japan", "armoured_cruiser", "Osliabia", "russia")}


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 17), st.integers(5, 23), st.integers(0, 359), st.integers(-2500, 2500),
       st.integers(-2500, 2500), st.integers(0, 359), st.sampled_from(sorted(MOVERS)), st.booleans(),
       st.sampled_from(["follow", "close", "open", "ram", "station", "broadside", "steer"]))
def test_the_twelve_best_moves_searched_are_the_exhaustive_twelve_best(x, y, heading, dx, dy, theading, mover,
                                                                        partial, kind):
    """The search keeps the twelve best moves exactly (the candidates checked against
    collisions, in rank order), partial aheads included: its bound cuts nothing that
    ranks among them, whatever the ship, the order and the distance to the mark. (A
    cruiser's moves with partial aheads are too many to list here.)"""
    name, side, cls, mark_name, mark_side = MOVERS[mover]
    partial = partial and cls == "battleship"
    table = table_with([ship(name, side, cls, x, y, heading),
                        ship(mark_name, mark_side, "battleship", x + dx / 1000, y + dy / 1000, theading)])
    table.options = Options(partial_ahead=partial)
    mover_ = table.ship(name)
    order = Relative(kind, mark_name, heading=theading, bearing=135, distance=2000)
    alphabet = ALPHABET + PARTIAL_AHEADS if partial else ALPHABET
    free = free_moves(table, mover_)
    most = free + paid_moves_left(table, mover_)
    searched = _best(table.geo, pose_of(mover_), _objective(table, mover_, order), most, 1,
                     table.cls(mover_).turns_per_activation, free, CANDIDATES, alphabet)
    assert searched == exhaustive_ranking(table, mover_, order, alphabet)[:CANDIDATES]


@pytest.mark.parametrize("partial", [False, True])
def test_the_search_moves_a_ship_by_the_same_integers_as_the_geometry(partial):
    """The search adds per-heading offsets to a pose; from every heading, each ahead and
    each turn lands exactly where Geometry.advance and Geometry.turn put the ship."""
    geo = GAME.geo
    moves = _Moves(geo, ALPHABET + PARTIAL_AHEADS if partial else ALPHABET)
    x, y = 7345, 12021
    for heading in range(360):
        for element, _, dx, dy in moves.aheads_from(heading):
            assert Pose(x + dx, y + dy, heading) == geo.advance(Pose(x, y, heading), ahead_length(geo, element))
        mx, my, rows = moves.turns_from(heading)
        assert Pose(x + mx, y + my, heading) == geo.advance(Pose(x, y, heading), geo.base_length // 2)
        for element, _, dx, dy, new_heading, sx, sy in rows:
            assert Pose(x + dx, y + dy, new_heading) == geo.turn(Pose(x, y, heading), element.degrees)
            assert (sx, sy) == geo.step(new_heading)


def test_follow_aims_along_the_leaders_wake_not_astern_of_its_heading():
    """Rulings §4.2: follow X ends nearest the point 1.5 BL astern of X along X's wake.
    Orel turns 90 to starboard and goes one ahead: the point is back along its track,
    1 BL along the ahead and 0.5 BL along the turn's leg, not 1.5 BL west of it."""
    from adjudicator.engine import Match
    from adjudicator.games.tsushima_1905.game import Tsushima1905
    from adjudicator.games.tsushima_1905.options import Options
    from adjudicator.games.tsushima_1905.planner import wake_point
    from adjudicator.games.tsushima_1905.rules.table import Table

    game = Tsushima1905()
    position = {"turn": 1, "phase": "action", "offense": "russia", "prime": 2, "next": "russia", "ship": [
        {"name": "Orel", "side": "russia", "class": "battleship", "at": [10.0, 10.0], "heading": 0},
        {"name": "Borodino", "side": "russia", "class": "battleship", "at": [10.0, 8.5], "heading": 0},
        {"name": "Mikasa", "side": "japan", "class": "battleship", "at": [4.0, 20.0], "heading": 180}]}
    match = Match(game, {"position": position, "continuous": True}, {})
    table = Table(match.state, game.data, game.geo, Options(), lambda event: None)
    assert wake_point(table, match.state.ships["Orel"], 1500) == (10000, 8500)   # not moved: astern
    match.answer("russia", {"ship": "Orel", "move": ["S90", "A"], "fire": "none"})
    table = Table(match.state, game.data, game.geo, Options(), lambda event: None)
    assert (match.state.ships["Orel"].x, match.state.ships["Orel"].y) == (11125, 10625)
    assert wake_point(table, match.state.ships["Orel"], 1500) == (10027, 10134)
    assert wake_point(table, match.state.ships["Orel"], 3000) == (9733, 8663)     # on along its first leg
