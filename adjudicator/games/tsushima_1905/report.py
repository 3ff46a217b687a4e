"""What a Tsushima 1905 report shows: the table to scale as an SVG picture (rulings
§4.4), and, for the plain-text part, an ASCII plot of one character per base length
and a ship table.

The picture is laid out here in display units (pixels) and drawn by the Jinja
template ``templates/tsushima-1905/table.svg.j2`` (autoescaped: ship names are
text, never markup). Display arithmetic uses plain division; nothing here feeds back
into the rules.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

import jinja2
from markupsafe import Markup

from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.data import GameData, load_data
from adjudicator.games.tsushima_1905.geometry import Geometry, Pose
from adjudicator.games.tsushima_1905.table import geometry_of
from adjudicator.resources import data_dir

PX_PER_BL = 28
MARGIN_X, MARGIN_Y = 46, 30
PANEL_WIDTH = 300
ARROWS = "^/>\\v/<\\"    # heading octants: N, NE, E, SE, S, SW, W, NW
COLOURS = {"japan": "#c0262d", "russia": "#222222"}


@lru_cache(maxsize=1)
def _svg_environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(data_dir("templates"))), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


class Picture:
    """Lays out one view of the state for the SVG template."""

    def __init__(self, data: GameData | None = None) -> None:
        self.data = data or load_data()
        self.geo: Geometry = geometry_of(self.data)
        self.width_bl = self.data.table[0] // self.data.units_per_bl
        self.length_bl = self.data.table[1] // self.data.units_per_bl

    def px(self, x: int, y: int) -> tuple[float, float]:
        """Table units (1/1000 BL, y north) to pixels (y down)."""
        scale = PX_PER_BL / self.data.units_per_bl
        return round(MARGIN_X + x * scale, 1), round(MARGIN_Y + (self.data.table[1] - y) * scale, 1)

    def points(self, corners) -> str:
        return " ".join(f"{px},{py}" for px, py in (self.px(x, y) for x, y in corners))

    def context(self, view: Mapping[str, Any], asked: str | None = None) -> dict[str, Any]:
        ships = [self._ship(s) for s in view["ships"] if s["status"] != "withdrawn"]
        flagships = {info.name for info in self.data.ships if info.flag}
        for ship in ships:
            ship["flag"] = ship["name"] in flagships
        return {
            "width": MARGIN_X * 2 + self.width_bl * PX_PER_BL + PANEL_WIDTH,
            "height": MARGIN_Y * 2 + self.length_bl * PX_PER_BL + 10,
            "table": {"x": MARGIN_X, "y": MARGIN_Y, "w": self.width_bl * PX_PER_BL, "h": self.length_bl * PX_PER_BL},
            "grid_x": [(self.px(i * 1000, 0)[0], i) for i in range(self.width_bl + 1)],
            "grid_y": [(self.px(0, j * 1000)[1], j) for j in range(self.length_bl + 1)],
            "ships": ships,
            "log": place_fire_labels([self._logged(entry) for entry in view.get("log", [])]),
            "arcs": self._arcs(view, asked),
            "panel": self._panel(view),
            "title": f"Tsushima 1905 - turn {view['turn']}, {view['phase']}",
            "colours": COLOURS,
        }

    def _ship(self, ship: Mapping[str, Any]) -> dict[str, Any]:
        pose = Pose(ship["x"], ship["y"], ship["heading"])
        bow = self.geo.advance(pose, self.geo.base_length // 2)
        cx, cy = self.px(ship["x"], ship["y"])
        cp = ship["bank"] + ship["in_play"] + ship["spent"]
        short = next((i.short for i in self.data.ships if i.name == ship["name"]), ship["name"])
        return {"name": ship["name"], "short": short, "side": ship["side"], "status": ship["status"],
                "points": self.points(self.geo.corners(pose)), "bow": self.px(bow.x, bow.y), "cx": cx, "cy": cy,
                "label": f"{short} {cp}/{ship['start_cp']}", "fires": ship["fires"], "floods": ship["floods"],
                "tooltip": (f"{ship['name']} ({ship['class'].replace('_', ' ')}): ({ship['x'] / 1000:.3f}, "
                            f"{ship['y'] / 1000:.3f}) heading {ship['heading']}; CP bank {ship['bank']}, spent "
                            f"{ship['spent']}, lost {ship['lost']}; fires {ship['fires']}, floods "
                            f"{ship['floods']}; {ship['status']}")}

    def _logged(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        kind = entry["kind"]
        if kind == "track":
            return {"kind": kind, "points": self.points(entry["points"]), "ship": entry["ship"]}
        if kind == "fire":
            (x1, y1), (x2, y2) = self.px(*entry["from"]), self.px(*entry["to"])
            label = (f"{entry['dice']}d" + (f" ({entry['arc']})" if entry.get("arc") else "")
                     + f": {entry['hits']} hit(s)" + (f", {', '.join(entry['effects'])}" if entry["effects"] else ""))
            return {"kind": kind, "x1": x1, "y1": y1, "x2": x2, "y2": y2, "label": label,
                    "mx": round((x1 + x2) / 2, 1), "my": round((y1 + y2) / 2, 1)}
        x, y = self.px(*entry["at"])
        return {"kind": kind, "x": x, "y": y, "hit": entry.get("hit", True)}

    def _arcs(self, view: Mapping[str, Any], asked: str | None) -> list[dict[str, float]]:
        """The four 45-degree arc limits of the ship asked next, 3 BL long."""
        ship = next((s for s in view["ships"] if s["name"] == asked), None)
        if ship is None:
            return []
        lines = []
        for offset in (45, 135, 225, 315):
            end = self.geo.advance(Pose(ship["x"], ship["y"], (ship["heading"] + offset) % 360), 3000)
            (x1, y1), (x2, y2) = self.px(ship["x"], ship["y"]), self.px(end.x, end.y)
            lines.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2})
        return lines

    def _panel(self, view: Mapping[str, Any]) -> list[str]:
        lines = [f"Turn {view['turn']} - {view['phase']}"]
        if view.get("offense"):
            lines.append(f"Offense: {view['offense'].title()}, prime {view['prime']}")
        for side, role in sorted(view.get("admiral", {}).items()):
            lines.append(f"Admiral: {side.title()} ({role})")
        for side, deck in view["decks"].items():
            lines.append(f"{side.title()} draw ({len(deck['draw'])}): {' '.join(deck['draw'])}")
            lines.append(f"{side.title()} discards: {' '.join(deck['discard']) or '-'}")
        if view.get("winner"):
            lines.append(f"Result: {view['winner']} ({view['victory']}), "
                         f"score {view['score'].get('japan', 0)}-{view['score'].get('russia', 0)}")
        return lines


LABEL_CHAR_PX, LABEL_HEIGHT_PX = 5.2, 11     # a gunfire label at font-size 9: its box, generously
LABEL_SPOTS = (0.5, 0.35, 0.65, 0.25, 0.75, 0.18, 0.82, 0.42, 0.58)   # where along its line a label may sit


def place_fire_labels(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Put each gunfire label where it overlaps no label placed before it: at the
    middle of its line if free, else at the first free spot along the line (nearer
    one end or the other), lifted above or dropped below the line if need be. When
    several ships fire at one target their lines meet at the target, so their labels
    part along the lines. Deterministic: the log's order decides."""
    placed: list[tuple[float, float, float, float]] = []
    for item in items:
        if item["kind"] != "fire":
            continue
        width = len(item["label"]) * LABEL_CHAR_PX
        spots = [(t, lift) for lift in (0, -LABEL_HEIGHT_PX, LABEL_HEIGHT_PX) for t in LABEL_SPOTS]
        box = None
        for t, lift in spots:
            x = item["x1"] + (item["x2"] - item["x1"]) * t
            y = item["y1"] + (item["y2"] - item["y1"]) * t + lift
            box = (x, y - 3 - LABEL_HEIGHT_PX, x + width, y - 3)
            if not any(_boxes_meet(box, other) for other in placed):
                break
        placed.append(box)
        item["mx"], item["my"] = round(box[0], 1), round(box[3] + 3, 1)
    return items


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def render_svg(view: Mapping[str, Any], asked: str | None = None, picture: Picture | None = None) -> str:
    """The table as an inline SVG document (``asked``: the ship whose arcs to draw)."""
    context = (picture or Picture()).context(view, asked)
    return _svg_environment().get_template("tsushima-1905/table.svg.j2").render(**context)


def ascii_plot(view: Mapping[str, Any], data: GameData | None = None) -> str:
    """One character per base length, north at the top: a ship's initial (upper case
    Japan, lower case Russia) at its centre, and an arrow for its heading beside it."""
    data = data or load_data()
    width, length = data.table[0] // data.units_per_bl, data.table[1] // data.units_per_bl
    grid = [["." for _ in range(width)] for _ in range(length)]
    for ship in view["ships"]:
        if ship["status"] in ("sunk", "withdrawn"):
            continue
        col = min(width - 1, ship["x"] // data.units_per_bl)
        row = length - 1 - min(length - 1, ship["y"] // data.units_per_bl)
        letter = ship["name"][0]
        grid[row][col] = letter.upper() if ship["side"] == "japan" else letter.lower()
        if col + 1 < width and grid[row][col + 1] == ".":
            grid[row][col + 1] = ARROWS[((ship["heading"] + 22) % 360) // 45]
    lines = [f"{length - 1 - r:>3} {''.join(row)}" for r, row in enumerate(grid)]
    lines.append("    " + "".join(str(c % 10) for c in range(width)))
    return "\n".join(lines)


def ship_table(view: Mapping[str, Any]) -> str:
    """Name, position, heading, CP piles, tokens, status and activation of every ship."""
    rows = [f"{'ship':<30} {'x':>7} {'y':>7} {'hdg':>4} {'bank':>4} {'spent':>5} {'lost':>4} "
            f"{'fire':>4} {'flood':>5} {'status':<12} act"]
    for ship in view["ships"]:
        rows.append(f"{ship['name']:<30} {ship['x'] / 1000:>7.3f} {ship['y'] / 1000:>7.3f} {ship['heading']:>4} "
                    f"{ship['bank']:>4} {ship['spent']:>5} {ship['lost']:>4} {ship['fires']:>4} "
                    f"{ship['floods']:>5} {ship['status']:<12} {'yes' if ship['activated'] else 'no'}")
    return "\n".join(rows)


def context(state: Any, view: Mapping[str, Any], side: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Tsushima's part of a player's report: the picture, the plot and the ship table."""
    offense = view.get("offense")
    return {
        "header": (f"Turn {view['turn']}, {view['phase']} phase"
                   + (f"; Offense: {offense.title()}, prime {view['prime']}" if offense else "")),
        "svg": Markup(render_svg(view)),
        "plot": ascii_plot(view),
        "ships": ship_table(view),
        "decks": [f"{s.title()}: draw pile {len(d['draw'])} card(s) ({' '.join(d['draw'])}); "
                  f"discards {' '.join(d['discard']) or '-'}" for s, d in view["decks"].items()],
    }


def answer_hint(decision: Decision) -> list[str]:
    """How to answer ``decision``: the skeleton of the orders that answer it
    (:func:`adjudicator.games.tsushima_1905.orders.template.answer_template`)."""
    from adjudicator.games.tsushima_1905.orders.template import answer_template

    return answer_template(decision)
