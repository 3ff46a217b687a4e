"""The picture of the map in a Russo-Japanese War HTML report: where each hex, hexside,
symbol and counter goes (``templates/russo-japanese-war/board.svg.j2`` draws them as
inline SVG, in user units; ``legend.html.j2`` explains them under the map).

The hexes are laid out as the rulebook numbers them (2.2, ruling A1): column XX from left
to right, row YY from top to bottom, odd columns half a hex lower; so a player finds hex
1811 at column 18, row 11, as on a printed map. North lies to the right (columns run
north-north-west, rows east-north-east: rulings 3.2); the legend has a compass needle.

Everything drawn comes from the map data (``games/russo-japanese-war/map.toml``, or a
case's own board) and the state: terrain, towns, key locations and their control, supply
sources, harbours, roads, railways, rivers, all-sea hexsides, every unit as a counter
labelled with its id and strength in its side's colour (its movement allowance in its
tooltip and in the report's list of units), the road and railway to the two boxes joined
to the map (8.3) and, in a side's report, the hexes in the enemy's zone of control (6.0).
"""

from __future__ import annotations

import math
from typing import Any

from adjudicator.games.russo_japanese_war.data import SIDE_ADJECTIVE, other
from adjudicator.games.russo_japanese_war.hexmap import SIBERIA, parse_hex
from adjudicator.i18n import N_

SIZE = 30                      # hex radius (centre to corner), user units
HEIGHT = SIZE * math.sqrt(3)   # a hex from its top side to its bottom side
MARGIN = 8
SCALE = 1.2                  # drawn 1.2 times the user units (the page shrinks it to fit a narrow screen)
SIDE_MARGIN = 14             # room for the arrows to the boxes joined to the map (8.3)


#: The map's colours, chosen from Okabe and Ito's palette for colour-vision deficiencies: the
#: two sides are orange and blue (apart in lightness as well as in hue), rivers sky blue and
#: all-sea hexsides dark navy with a white dash, wasteland hatched as well as tinted.
COLOURS = {
    "japan": "#E69F00", "japan-edge": "#7a4f00", "japan-ink": "#000000",
    "russia": "#0072B2", "russia-edge": "#00304d", "russia-ink": "#FFFFFF",
    "clear": "#f6f1dc", "wasteland": "#d2b77f", "wasteland-hatch": "#a8874a", "hex-edge": "#8a8a7a",
    "sea": "#e4eef5", "road": "#8B4513", "railway": "#111111", "river": "#56B4E9", "sea-hexside": "#1b2f5c",
    "zoc": "#CC79A7", "southern-harbour": "#D55E00", "harbour": "#333333",
}


def centre(column: int, row: int, first_column: int, first_row: int) -> tuple[float, float]:
    """The centre of hex (column, row): columns left to right, rows downward, odd columns
    half a hex lower (A1)."""
    x = SIDE_MARGIN + SIZE + 1.5 * SIZE * (column - first_column)
    y = MARGIN + HEIGHT / 2 + HEIGHT * (row - first_row) + (HEIGHT / 2 if column % 2 else 0)
    return round(x, 1), round(y, 1)


def corners(x: float, y: float) -> str:
    return " ".join(f"{x + SIZE * math.cos(math.radians(a)):.1f},{y + SIZE * math.sin(math.radians(a)):.1f}"
                    for a in range(0, 360, 60))


def shared_edge(a: tuple[float, float], b: tuple[float, float]) -> list[float]:
    """The hexside between two adjacent hexes' centres: through their midpoint,
    perpendicular to the line joining them, one side long."""
    (ax, ay), (bx, by) = a, b
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    px, py = -dy / length * SIZE / 2, dx / length * SIZE / 2
    return [round(mx - px, 1), round(my - py, 1), round(mx + px, 1), round(my + py, 1)]


def counter(t, uid: str) -> dict[str, Any]:
    unit = t.units[uid]
    return {"id": uid, "side": unit["side"], "text": f"{uid} {t.strength(uid)}",
            "title": f"{uid}: {unit['side'].capitalize()}, strength {t.strength(uid)}, movement {unit['ma']}"}


def board_picture(t, side: str | None) -> dict[str, Any]:
    """Plain numbers and words for the template: hexes, hexsides, roads and railways and
    the counters on the map (``side``: whose report, None for the referee)."""
    board = t.board
    cells = [parse_hex(h) for h in board.hexes]
    first_column, last_column = min(c for c, _ in cells), max(c for c, _ in cells)
    first_row, last_row = min(r for _, r in cells), max(r for _, r in cells)
    at = {h: centre(*parse_hex(h), first_column, first_row) for h in board.hexes}
    enemy_zoc = t.zoc(other(side)) if side else frozenset()
    sources = {hex_: owner for owner, hex_ in board.supply.items()}
    hexes = []
    for h in sorted(board.hexes):
        x, y = at[h]
        stack = t.occupants(h)
        hexes.append({
            "hex": h, "x": x, "y": y, "points": corners(x, y),
            "terrain": "wasteland" if h in board.wasteland else "clear",
            "town": h in board.towns, "key": board.key_locations.get(h, ""),
            "supply": sources.get(h, ""), "harbour": ("southern" if board.harbours[h] else "other")
            if h in board.harbours else "",
            "control": t.controller(h), "zoc": h in enemy_zoc,
            "title": hex_words(t, h),
            "counters": [counter(t, u) for u in stack],
        })
    width = round(SIDE_MARGIN * 2 + SIZE * 2 + 1.5 * SIZE * (last_column - first_column), 1)
    height = round(MARGIN * 2 + HEIGHT * (last_row - first_row + 1.5), 1)
    return {
        "width": width, "height": height, "scale": SCALE, "colours": COLOURS,
        "hexes": hexes,
        "rivers": [shared_edge(at[a], at[b]) for a, b in sorted(board.rivers)],
        "sea": [shared_edge(at[a], at[b]) for a, b in sorted(board.sea)],
        "roads": [[*at[a], *at[b]] for a, b in sorted(board.roads)],
        "railways": [[*at[a], *at[b]] for a, b in sorted(board.railways)],
        "entries": [{"box": box, "hex": hex_, "x": at[hex_][0], "y": at[hex_][1],
                     "kind": "railway" if box == SIBERIA else "road"} for box, hex_ in sorted(board.entries.items())],
    }


#: The words that describe a hex (:func:`hex_parts`), marked for the catalogue.
HEX_WORDS = (N_("wasteland"), N_("clear"), N_("town"), N_("key location"), N_("Japanese supply source"),
             N_("Russian supply source"), N_("southern harbour"), N_("harbour"), N_("Japanese-controlled"),
             N_("Russian-controlled"))
SUPPLY_SOURCE = {"Japanese": HEX_WORDS[4], "Russian": HEX_WORDS[5]}
CONTROLLED = {"Japanese": HEX_WORDS[8], "Russian": HEX_WORDS[9]}


def hex_parts(t, h: str) -> dict[str, Any]:
    """A hex as a player plans with it: its number, its place's name (or ""), and the
    words for its terrain, town, key location, supply source, harbour and who controls
    it (English, each one of :data:`HEX_WORDS`, which a report translates)."""
    board = t.board
    place = board.names.get(h) or board.key_locations.get(h)
    words = ["wasteland" if h in board.wasteland else "clear"]
    if h in board.towns:
        words.append("town")
    if h in board.key_locations:
        words.append("key location")
    for owner, source in board.supply.items():
        if source == h:
            words.append(SUPPLY_SOURCE[SIDE_ADJECTIVE[owner]])
    if h in board.harbours:
        words.append("southern harbour" if board.harbours[h] else "harbour")
    words.append(CONTROLLED[SIDE_ADJECTIVE[t.controller(h)]])
    return {"hex": h, "place": place or "", "words": words}


def hex_words(t, h: str) -> str:
    """A hex as a player plans with it (the map's tooltip, the report's list of stacks):
    number, place, terrain, town, key location, supply source, harbour and who controls it."""
    parts = hex_parts(t, h)
    return f"{h}{' ' + parts['place'] if parts['place'] else ''} ({', '.join(parts['words'])})"


#: The legend's entries (kind, words); the report translates the words where it shows them.
LEGEND = (
    ("clear", N_("Clear")),
    ("wasteland", N_("Wasteland: a move into it ends there (off road and railway); +1 defence")),
    ("town", N_("Town: +1 defence")), ("key", N_("Key location, in its controller's colour")),
    ("supply", N_("Supply source, in its side's colour")), ("harbour-southern", N_("Southern harbour (10.2.5)")),
    ("harbour", N_("Other harbour")), ("road", N_("Road")),
    ("railway", N_("Railway")), ("entry", N_("Road to the Korean Peninsula box, railway to the Siberia box")),
    ("river", N_("River hexside: +1 defence if every attacker is across it")),
    ("sea", N_("All-sea hexside: no move, ZOC or attack across")),
    ("japan", N_("Japanese unit: id strength (movement 3)")),
    ("russia", N_("Russian unit: id strength (movement 2; garrisons 0)")),
    ("zoc", N_("In the enemy's zone of control")), ("north", N_("North")),
)


def legend(side: str | None) -> list[dict[str, str]]:
    """What each colour and symbol of the map means (the enemy's zone of control is drawn
    only in a side's report)."""
    return [{"kind": kind, "text": text} for kind, text in LEGEND if kind != "zoc" or side]
