"""The text grids of the report: every unit is written at its own hex's place (column XX
at its five columns, row YY on the row's first line for an even column, its second for an
odd one), the six neighbours of a hex sit next to it in the grid, and the hex paths given
for roads and railways are exactly the map's road and railway hexsides."""

from __future__ import annotations

import pytest

from adjudicator.games.russo_japanese_war.hexmap import OFF_MAP, grid_neighbours, parse_hex, side_key
from adjudicator.games.russo_japanese_war.textmap import LABEL, PITCH, key_grid, paths, position_grid
from tests.games.russo_japanese_war.report_helpers import GAME, played

FIRST_COLUMN = min(parse_hex(h)[0] for h in GAME.data.board.hexes)
FIRST_ROW = min(parse_hex(h)[1] for h in GAME.data.board.hexes)


def place(hex_: str) -> tuple[int, int]:
    """(line, column of text) of a hex in a grid: two header lines, then two per row."""
    column, row = parse_hex(hex_)
    return 2 + 2 * (row - FIRST_ROW) + column % 2, LABEL + PITCH * (column - FIRST_COLUMN)


@pytest.mark.parametrize("answers", [0, 80, 200])
def test_every_unit_is_written_at_its_own_hexs_place(answers):
    match = played(answers, seed=6)
    t = GAME.table(match.state)
    lines = position_grid(t, "japan")
    for hex_ in {unit["at"] for unit in match.state["units"].values() if unit["at"] not in OFF_MAP}:
        line, start = place(hex_)
        cell = lines[line][start:].split(" ")[0].rstrip("*")
        stack = t.occupants(hex_)
        assert cell in (",".join(stack), f"{t.side_of(stack[0])[0].upper()}{len(stack)}"), hex_


def test_the_neighbours_of_a_hex_sit_around_it_in_the_grid():
    lines = key_grid(GAME.data.board)
    for hex_ in GAME.data.board.hexes:
        line, start = place(hex_)
        assert lines[line][start] in ".w" and lines[line][:2] == hex_[2:]
        for neighbour in grid_neighbours(hex_):
            if neighbour in GAME.data.board.hexes:
                other_line, other_start = place(neighbour)
                same_column = other_start == start
                assert abs(other_start - start) in ((0,) if same_column else (PITCH,))
                assert abs(other_line - line) == (2 if same_column else 1)


@pytest.mark.parametrize("kind", ["roads", "railways"])
def test_the_hex_paths_are_exactly_the_maps_roads_and_railways(kind):
    sides = getattr(GAME.data.board, kind)
    found = set()
    for path in paths(sides):
        hexes = path.split("-")
        for a, b in zip(hexes, hexes[1:]):
            assert side_key(a, b) not in found
            found.add(side_key(a, b))
    assert found == set(sides)
