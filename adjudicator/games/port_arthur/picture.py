"""The picture of the board in a Port Arthur HTML report: where each box, counter and
track space goes (``templates/port-arthur/board.svg.j2`` draws them as inline SVG).

Only what the side may see is drawn: the picture is made from the side's view, so
under the fog of war an enemy squadron shows its top ship and how many ships it holds.
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.games.port_arthur.data import JAPAN, Board

CELL_W, CELL_H, GAP = 240, 160, 6
COUNTER_W, COUNTER_H, COLUMNS = 72, 14, 3
HEADING = 24
TRACKS_TOP = 3 * CELL_H + 10
WIDTH, HEIGHT = 4 * CELL_W, TRACKS_TOP + 3 * 40 + 10
SHORT_NAME = 8

#: Where each zone and port sits, as (column, row) of a 4 x 3 grid drawn roughly as the
#: sea lies: Port Arthur west of the Yellow Sea, Vladivostok east of the Sea of Japan,
#: Diego Suarez (the Baltic Fleet's far port) south of the East China Sea.
LAYOUT = {
    "Port Arthur": (0, 0), "Yellow Sea": (1, 0), "Sea of Japan": (2, 0), "Vladivostok": (3, 0),
    "East China Sea": (0, 1), "Tsushima": (1, 1), "Pacific Ocean": (3, 1),
    "Diego Suarez": (0, 2), "Philippine Sea": (1, 2), "Japan": (3, 2),
}


def board_picture(view: Mapping[str, Any], board: Board) -> dict[str, Any]:
    """Boxes (zones and ports with their counters), the lines between adjacent
    places, and the turn, CP and Manchuria tracks, in SVG user units."""
    boxes = [_box(place, view, board) for place in LAYOUT]
    centre = {box["name"]: (box["x"] + box["w"] / 2, box["y"] + box["h"] / 2) for box in boxes}
    lines = []
    for zone, neighbours in board.adjacency.items():
        for other in neighbours:
            if zone < other and zone in centre and other in centre:
                lines.append({"from": centre[zone], "to": centre[other], "port": False})
    for port in board.ports:
        if port != "Japan":
            for zone in board.ports[port].adjacent:
                lines.append({"from": centre[port], "to": centre[zone], "port": True})
    return {"width": WIDTH, "height": HEIGHT, "boxes": boxes, "lines": lines, "tracks": _tracks(view, board),
            "blockade": bool(view["blockade"])}


def _box(place: str, view: Mapping[str, Any], board: Board) -> dict[str, Any]:
    column, row = LAYOUT[place]
    x, y = column * CELL_W + GAP, row * CELL_H + GAP
    w, h = CELL_W - 2 * GAP, CELL_H - 2 * GAP
    is_zone = place in board.zones
    here = [s for s in view["ships"] if s["at"] in (place, f"{place} shipyard")]
    here.sort(key=lambda s: (s["side"] != JAPAN, s["at"] != place))
    capacity = COLUMNS * ((h - HEADING) // COUNTER_H)
    counters = [_counter(s, place) for s in here]
    if len(counters) > capacity:
        rest = len(counters) - capacity + 1
        counters = counters[: capacity - 1] + [{"text": f"+{rest} more", "title": f"{rest} more ships",
                                                "side": "more", "damaged": False}]
    for i, counter in enumerate(counters):
        counter["x"] = x + 4 + (i % COLUMNS) * (COUNTER_W + 2)
        counter["y"] = y + HEADING + (i // COLUMNS) * COUNTER_H
    title = place + ("*" if is_zone and board.zones[place].key else "") + ("" if is_zone else " (port)")
    return {"name": place, "title": title, "x": x, "y": y, "w": w, "h": h, "zone": is_zone,
            "counters": counters, "blockade": place == board.blockade_zone}


def _counter(ship: Mapping[str, Any], place: str) -> dict[str, Any]:
    fp, sp = ship["firepower"], ship["speed"]
    values = f"{fp[1]}/{sp[1]}/{ship['defense']}" if ship["damaged"] else f"{fp[0]}/{sp[0]}"
    hidden = ship.get("stack", 1) - 1
    room = SHORT_NAME - (3 if hidden else 0)
    name = ship["name"] if len(ship["name"]) <= room else ship["name"][: room - 1] + "."
    where = " (shipyard)" if ship["at"] != place else ""
    title = f"{ship['name']}{' (damaged)' if ship['damaged'] else ''} {values}{where}"
    if hidden:
        title += f", on top of {hidden} hidden ship(s)"
    return {"text": f"{name} {values}" + (f" +{hidden}" if hidden else ""), "title": title,
            "side": ship["side"], "damaged": ship["damaged"], "shipyard": bool(where)}


def _tracks(view: Mapping[str, Any], board: Board) -> list[dict[str, Any]]:
    """Three rows: the turn track, the CP track (Russia 5 ... Japan 5), the Manchuria Track."""
    turn = [{"text": str(t), "on": t == view["turn"], "title": f"turn {t}"} for t in range(1, board.turns + 1)]
    limit = board.cp_limit
    cp = [{"text": "0" if v == 0 else f"{'J' if v > 0 else 'R'}{abs(v)}", "on": v == view["cp"],
           "title": "centre" if v == 0 else f"{'Japan' if v > 0 else 'Russia'} {abs(v)}"}
          for v in range(-limit, limit + 1)]
    track = [{"text": space, "on": i < view["occupied"], "title": space + (" (taken)" if i < view["occupied"] else "")}
             for i, space in enumerate(view["track"])]
    rows = []
    for index, (label, spaces, width) in enumerate((("Turn", turn, 60), ("CP", cp, 60), ("Manchuria", track, 110))):
        y = TRACKS_TOP + index * 40
        for i, space in enumerate(spaces):
            space.update({"x": 100 + i * (width + 4), "y": y, "w": width, "h": 30})
        rows.append({"label": label, "y": y, "spaces": spaces})
    return rows
