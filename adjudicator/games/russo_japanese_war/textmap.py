"""The map in the plain-text report: enough to play by text alone.

The grid is laid out as the picture is (and as the rulebook numbers the hexes, 2.2 and
ruling A1): columns left to right, rows downward, odd columns half a hex lower. Each row
takes two lines: the even columns' hexes on the first, the odd columns' on the second (half
a hex lower), so the six neighbours of a hex are the hexes above and below it in its own
column and the nearest ones of the two lines around it in the columns on each side. Every
line is at most 78 columns.

Two grids: the position (each hex's units, or its terrain when empty, and the enemy's zone
of control) and the map key (terrain, towns, key locations, supply sources, roads,
railways, harbours), with the roads, railways, rivers and all-sea hexsides written out as
hex paths and hexside lists.
"""

from __future__ import annotations

from typing import Iterable

from adjudicator.games.russo_japanese_war.data import other
from adjudicator.games.russo_japanese_war.hexmap import hex_name, parse_hex, side_key

PITCH = 5          # columns of text per map column
LABEL = 3          # the row label: "01 "
WIDTH = 78


def _frame(board) -> tuple[list[int], list[int]]:
    cells = [parse_hex(h) for h in board.hexes]
    columns = list(range(min(c for c, _ in cells), max(c for c, _ in cells) + 1))
    rows = list(range(min(r for _, r in cells), max(r for _, r in cells) + 1))
    return columns, rows


def _room(column: int, columns: list[int]) -> int:
    """How many characters a cell may take: up to the next cell on its own line (two map
    columns further), within the line's width."""
    start = LABEL + PITCH * (column - columns[0])
    return min(2 * PITCH - 1, WIDTH - start)


def grid(board, cell) -> list[str]:
    """The header and two lines per row; ``cell(hex, room)`` gives a hex's text."""
    columns, rows = _frame(board)
    lines = []
    for parity in (0, 1):
        header = [" "] * (LABEL + PITCH * len(columns))
        for c in columns:
            if c % 2 == parity:
                start = LABEL + PITCH * (c - columns[0])
                header[start:start + 2] = f"{c:02d}"
        lines.append("".join(header).rstrip())
    for r in rows:
        for parity in (0, 1):
            line = [" "] * WIDTH
            line[0:2] = f"{r:02d}"
            for c in columns:
                h = hex_name(c, r)
                if c % 2 != parity or h not in board.hexes:
                    continue
                start = LABEL + PITCH * (c - columns[0])
                text = cell(h, _room(c, columns))
                line[start:start + len(text)] = text
            text = "".join(line).rstrip()
            if len(text) > 2:
                lines.append(text)
    return lines


def terrain_code(board, h: str) -> str:
    """. clear or w wasteland; K key location, T town, S supply source; = railway, + road,
    # both; H southern harbour, h other harbour."""
    code = "w" if h in board.wasteland else "."
    if h in board.key_locations:
        code += "K"
    elif h in board.towns:
        code += "T"
    elif h in board.supply.values():
        code += "S"
    rail, road = h in board.railway_hexes, h in board.road_hexes
    code += "#" if rail and road else "=" if rail else "+" if road else ""
    if h in board.harbours:
        code += "H" if board.harbours[h] else "h"
    return code


def position_grid(t, side: str | None) -> list[str]:
    """Each hex's units (ids, comma-separated; a stack too long for its cell shows its
    side's initial and size), or its terrain (. or w) when empty; * in the enemy's zone of
    control (a side's report only)."""
    enemy_zoc = t.zoc(other(side)) if side else frozenset()
    board = t.board

    def cell(h: str, room: int) -> str:
        mark = "*" if h in enemy_zoc else ""
        stack = t.occupants(h)
        if not stack:
            return ("w" if h in board.wasteland else ".") + mark
        text = ",".join(stack)
        if len(text) + len(mark) > room:
            text = f"{t.side_of(stack[0])[0].upper()}{len(stack)}"
        return text + mark

    return grid(board, cell)


def key_grid(board) -> list[str]:
    return grid(board, lambda h, room: terrain_code(board, h)[:room])


def paths(sides: Iterable[tuple[str, str]]) -> list[str]:
    """Hexsides joined into paths (roads, railways): each path runs between two hexes that
    are ends or junctions, e.g. "1015-1114-1214"."""
    around: dict[str, list[str]] = {}
    for a, b in sides:
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    for neighbours in around.values():
        neighbours.sort()
    used: set[tuple[str, str]] = set()
    found = []
    starts = sorted(h for h, n in around.items() if len(n) != 2) or sorted(around)[:1]
    for start in starts + sorted(around):
        for step in around[start]:
            if side_key(start, step) in used:
                continue
            path = [start, step]
            used.add(side_key(start, step))
            while len(around[path[-1]]) == 2:
                onward = [n for n in around[path[-1]] if side_key(path[-1], n) not in used]
                if not onward:
                    break
                used.add(side_key(path[-1], onward[0]))
                path.append(onward[0])
            found.append("-".join(path))
    return found


def hexsides(sides: Iterable[tuple[str, str]]) -> str:
    return ", ".join(f"{a}|{b}" for a, b in sorted(sides))
