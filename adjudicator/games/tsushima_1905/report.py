"""What a Tsushima 1905 report shows (rulings §4.4): the table to scale as an SVG
picture with its panel and legend; and, for the plain-text part (78 columns), the
whole position: the situation, an ASCII plot of one character per base length with a
mark per ship and its key, the ship table, the enemies each ship has in arc and in
sight, and the decks. The turn's narrative is the rules' events (``rules/``).

The picture is laid out here in display units (pixels) and drawn by the Jinja
template ``templates/tsushima-1905/table.svg.j2`` (autoescaped: ship names are
text, never markup). Display arithmetic uses plain division; nothing here feeds back
into the rules.
"""

from __future__ import annotations

import string
import textwrap
from functools import lru_cache
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from markupsafe import Markup

from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.data import GameData, load_data
from adjudicator.games.tsushima_1905.geometry import Geometry, Pose
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.rules.gunnery import arc_dice
from adjudicator.games.tsushima_1905.state import ACTIVE, State
from adjudicator.games.tsushima_1905.rules.table import Table, geometry_of, pose_of
from adjudicator.games.tsushima_1905.words import counted
from adjudicator.i18n import N_
from adjudicator.engine.requests import value_in_words
from adjudicator.reports.render import template_environment

PX_PER_BL = 28
MARGIN_X, MARGIN_Y = 46, 30
PANEL_GAP, PANEL_LINE = 52, 22       # the panel below the table (its text grows on narrow screens)
#: the picture's key, in two columns below the panel: (what the template draws, what it means)
LEGEND = (("japan", N_("Japan")), ("russia", N_("Russia")),
          ("flag", N_("flagship")), ("bow", N_("bow")),
          ("surrendered", N_("surrendered")), ("abandoned", N_("abandoned")),
          ("sunk", N_("sunk this game (ghost)")), ("pips", N_("fires (red), floods (blue)")),
          ("track", N_("track this turn")), ("fire", N_("gunfire: dice, hits, effects")),
          ("torpedo", N_("torpedo attack (green: a hit)")), ("collision", N_("collision")),
          ("arc", N_("arc limits of the ship asked")), ("label", N_("CPs left / at the start")))
#: Every colour of the picture. Those a player tells apart by colour alone (the two sides,
#: fires and floods, a torpedo's hit and miss, the bow on either side's hull, a ship on the
#: sea) stay apart for the common colour-vision deficiencies
#: (tests/games/tsushima_1905/test_report_colours.py); a fire's or flood's dot has a white edge,
#: so that it shows on a hull of its own colour (a fire on a Japanese ship).
COLOURS = {
    "japan": "#c0262d", "russia": "#222222", "surrendered": "#ffffff", "abandoned": "#f6c28b",
    "abandoned-hatch": "#d2691e", "bow": "#ffd700", "flagship": "#e0b000", "fire": "#d22", "flood": "#24c",
    "pip-edge": "#ffffff",
    "table": "#dbe9f6", "table-edge": "#345", "grid": "#b8cde0", "track": "#567", "arc": "#7a4",
    "gunfire": "#444", "gunfire-label": "#333", "torpedo-hit": "#0a5", "torpedo-miss": "#999",
    "collision": "#e07000", "label": "#123", "ink": "#222",
}


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


@dataclass(frozen=True)
class Words:
    """The reader's language, for the words this module writes: ``gettext`` and
    ``ngettext`` (English, the messages as written, unless given)."""

    gettext: Callable[[str], str] = str
    ngettext: Callable[[str, str, int], str] = _english_plural

    def __call__(self, template: str, *values: Any) -> str:
        """``template`` translated, with ``values`` put in (each in words too)."""
        return self.gettext(template).format(*(value_in_words(v, self.gettext, self.ngettext) for v in values))

    def side(self, side: str) -> str:
        """A side's name ("Japan", "Japon")."""
        return self.gettext(side.title())


ENGLISH = Words()
#: The phases as the reports name them (:func:`phase_words`).
PHASE_TITLES = {"initiative": N_("initiative phase"), "torpedo": N_("torpedo phase"), "action": N_("action phase"),
                "repair": N_("repair phase"), "damage": N_("damage phase"), "reload": N_("reload phase"),
                "ended": N_("ended phase")}
#: The phases' names (the picture's title).
PHASE_NAMES = {"initiative": N_("initiative"), "torpedo": N_("torpedo"), "action": N_("action"),
               "repair": N_("repair"), "damage": N_("damage"), "reload": N_("reload"), "ended": N_("ended")}
#: The ships' classes in words (a ship's tooltip).
CLASS_WORDS = {"battleship": N_("battleship"), "armoured_cruiser": N_("armoured cruiser")}
#: Whether an active ship still acts this turn (:func:`ship_state`).
ACTING_WORDS = {"to act": N_("to act"), "acted": N_("acted"), "done": N_("done")}
#: A gunfire label's first part, by the arc that fired (under split_fire).
FIRE_LABELS = {"": N_("{}d6: {}"), "bow": N_("{}d6 (bow): {}"), "stern": N_("{}d6 (stern): {}"),
               "port": N_("{}d6 (port): {}"), "starboard": N_("{}d6 (starboard): {}")}
EFFECT_WORDS = {"fire": N_("fire"), "flood": N_("flood")}


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

    def context(self, view: Mapping[str, Any], asked: str | None = None, words: Words = ENGLISH) -> dict[str, Any]:
        ships = [self._ship(s, words) for s in view["ships"] if s["status"] != "withdrawn"]
        flagships = {info.name for info in self.data.ships if info.flag}
        for ship in ships:
            ship["flag"] = ship["name"] in flagships
        place_ship_labels(ships, MARGIN_X * 2 + self.width_bl * PX_PER_BL)
        panel = self._panel(view, words)
        table_h = self.length_bl * PX_PER_BL
        panel_y = MARGIN_Y + table_h + PANEL_GAP
        legend_y = panel_y + PANEL_LINE * len(panel) + PANEL_LINE // 2
        return {
            "width": MARGIN_X * 2 + self.width_bl * PX_PER_BL,
            "height": legend_y + PANEL_LINE * (len(LEGEND) + 1) // 2 + MARGIN_Y,
            "table": {"x": MARGIN_X, "y": MARGIN_Y, "w": self.width_bl * PX_PER_BL, "h": table_h},
            "grid_x": [(self.px(i * 1000, 0)[0], i) for i in range(self.width_bl + 1)],
            "grid_y": [(self.px(0, j * 1000)[1], j) for j in range(self.length_bl + 1)],
            "ships": ships,
            "log": place_fire_labels([self._logged(entry, words) for entry in view.get("log", [])],
                                     [ship["label_box"] for ship in ships]),
            "arcs": self._arcs(view, asked),
            "panel": panel,
            "panel_y": panel_y,
            "panel_line": PANEL_LINE,
            "legend": [{"key": key, "text": words.gettext(text),
                        "x": MARGIN_X + (i % 2) * (self.width_bl * PX_PER_BL // 2),
                        "y": legend_y + PANEL_LINE * (i // 2)} for i, (key, text) in enumerate(LEGEND)],
            "title": words(N_("Tsushima 1905 - turn {}, {}"), view["turn"],
                           PHASE_NAMES.get(view["phase"], view["phase"])),
            "colours": COLOURS,
        }

    def _ship(self, ship: Mapping[str, Any], words: Words = ENGLISH) -> dict[str, Any]:
        pose = Pose(ship["x"], ship["y"], ship["heading"])
        bow = self.geo.advance(pose, self.geo.base_length // 2)
        cx, cy = self.px(ship["x"], ship["y"])
        cp = ship["bank"] + ship["in_play"] + ship["spent"]
        short = next((i.short for i in self.data.ships if i.name == ship["name"]), ship["name"])
        return {"name": ship["name"], "short": short, "side": ship["side"], "status": ship["status"],
                "points": self.points(self.geo.corners(pose)),
                "hull": _bounds([self.px(x, y) for x, y in self.geo.corners(pose)]),
                "bow": self.px(bow.x, bow.y), "cx": cx, "cy": cy,
                "label": f"{short} {cp}/{ship['start_cp']}", "fires": ship["fires"], "floods": ship["floods"],
                "tooltip": words(N_("{} ({}): ({:.3f}, {:.3f}) heading {}; CP bank {}, spent {}, lost {}; "
                                    "fires {}, floods {}; {}"), ship["name"],
                                 CLASS_WORDS.get(ship["class"], ship["class"].replace("_", " ")), ship["x"] / 1000,
                                 ship["y"] / 1000, ship["heading"], ship["bank"], ship["spent"], ship["lost"],
                                 ship["fires"], ship["floods"], ship["status"])}

    def _logged(self, entry: Mapping[str, Any], words: Words = ENGLISH) -> dict[str, Any]:
        kind = entry["kind"]
        if kind == "track":
            return {"kind": kind, "points": self.points(entry["points"]), "ship": entry["ship"]}
        if kind == "fire":
            (x1, y1), (x2, y2) = self.px(*entry["from"]), self.px(*entry["to"])
            label = (words(FIRE_LABELS[entry.get("arc") or ""], entry["dice"], counted(entry["hits"], "hit"))
                     + "".join(f", {words.gettext(EFFECT_WORDS[effect])}" for effect in entry["effects"]))
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

    def _panel(self, view: Mapping[str, Any], words: Words = ENGLISH) -> list[str]:
        """Turn, phase, Offense, Admirals, both decks (card counting is part of the
        game) and the result: short lines, legible on a narrow screen."""
        lines = [words(N_("Turn {}, {}"), view["turn"], phase_words(view["phase"]))]
        if view.get("offense"):
            prime = counted(view["prime"], "prime activation")
            if view.get("torpedo_attacks"):
                lines.append(words(N_("Offense: {}, {} left, {}"), words.side(view["offense"]), prime,
                                   counted(view["torpedo_attacks"], "torpedo attack")))
            else:
                lines.append(words(N_("Offense: {}, {} left"), words.side(view["offense"]), prime))
        for side, role in sorted(view.get("admiral", {}).items()):
            lines.append(words(N_("Admiral: {}, +1 to its gun and torpedo dice") if role == "offense"
                               else N_("Admiral: {}, +1 to its armour dice"), words.side(side)))
        for side, deck in view["decks"].items():
            lines.append(words(N_("{} draw pile ({}): {}"), words.side(side), len(deck["draw"]),
                               " ".join(deck["draw"]) or "-"))
            discards = " ".join(deck["discard"]) or "-"
            lines.append(words(N_("{} discards: {}; set aside: {}"), words.side(side), discards, deck["aside"])
                         if deck.get("aside") else words(N_("{} discards: {}"), words.side(side), discards))
        if view.get("winner"):
            lines.append(words(N_("Result: {} ({}), score {}-{}"), view["winner"], view["victory"],
                               view["score"].get("japan", 0), view["score"].get("russia", 0)))
        return lines


SHIP_LABEL_CHAR_PX, SHIP_LABEL_HEIGHT_PX = 5.8, 10    # a ship label at font-size 10: its box
#: where a ship's label may sit, by its centre: (dx, dy of the text's anchor point, anchor)
SHIP_LABEL_SPOTS = ((8, -4, "start"), (-8, -4, "end"), (8, 12, "start"), (-8, 12, "end"),
                    (8, -14, "start"), (-8, -14, "end"))


def _bounds(points: Sequence[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def place_ship_labels(ships: list[dict[str, Any]], picture_width: float) -> None:
    """Put each ship's label beside it, within ``picture_width``, where it
    covers no other ship's hull and no label placed before it: above and to the right
    if free, else to the left, below, or higher. Deterministic: the order of battle
    decides. A ship whose spots are all taken keeps the first that fits the width."""
    hulls = [ship["hull"] for ship in ships if ship["status"] != "sunk"]
    placed: list[tuple[float, float, float, float]] = []
    for ship in ships:
        width = len(ship["label"]) * SHIP_LABEL_CHAR_PX
        boxes = []
        for dx, dy, anchor in SHIP_LABEL_SPOTS:
            x, y = ship["cx"] + dx, ship["cy"] + dy
            left = x if anchor == "start" else x - width
            boxes.append(((left, y - SHIP_LABEL_HEIGHT_PX, left + width, y + 2), x, y, anchor))
        own = ship["hull"]
        boxes = [b for b in boxes if b[0][0] >= 2 and b[0][2] <= picture_width - 2] or boxes[:1]
        free = next((b for b in boxes if not any(_boxes_meet(b[0], other) for other in placed)
                     and not any(_boxes_meet(b[0], hull) for hull in hulls if hull is not own)), boxes[0])
        placed.append(free[0])
        ship["lx"], ship["ly"], ship["anchor"] = round(free[1], 1), round(free[2], 1), free[3]
        ship["label_box"] = free[0]


LABEL_CHAR_PX, LABEL_HEIGHT_PX = 5.2, 11     # a gunfire label at font-size 9: its box, generously
LABEL_SPOTS = (0.5, 0.35, 0.65, 0.25, 0.75, 0.18, 0.82, 0.42, 0.58)   # where along its line a label may sit


def place_fire_labels(items: list[dict[str, Any]],
                      taken: Sequence[tuple[float, float, float, float]] = ()) -> list[dict[str, Any]]:
    """Put each gunfire label where it overlaps no label placed before it: at the
    middle of its line if free, else at the first free spot along the line (nearer
    one end or the other), lifted above or dropped below the line if need be. When
    several ships fire at one target their lines meet at the target, so their labels
    part along the lines. ``taken``: boxes already used (the ships' labels).
    Deterministic: the log's order decides."""
    placed: list[tuple[float, float, float, float]] = list(taken)
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


def render_svg(view: Mapping[str, Any], asked: str | None = None, picture: Picture | None = None,
               words: Words = ENGLISH) -> str:
    """The table as an inline SVG document (``asked``: the ship whose arcs to draw), in
    the language of ``words``."""
    context = (picture or Picture()).context(view, asked, words)
    svg = template_environment(True).get_template("tsushima-1905/table.svg.j2").render(
        **context, gettext=words.gettext, ngettext=words.ngettext)
    return svg.removesuffix("\n")  # inline in the report's HTML, where the line ends


#: the bow stroke drawn beside a ship's mark, by heading octant: (character, column, row) from the mark
BOWS = (("^", 0, -1), ("/", 1, -1), (">", 1, 0), ("\\", 1, 1), ("v", 0, 1), ("/", -1, 1), ("<", -1, 0),
        ("\\", -1, -1))
CROWDED = "#"
NOT_MARKS = {CROWDED, "v"}    # "v" is the bow of a ship heading south
CLASS_CODES = {"battleship": "BB", "armoured_cruiser": "AC"}


def ship_marks(ships: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """One character per ship, unique on the table and the same all game (given in
    order of battle): the first letter of its short name that its side has not used,
    else of its full name, else of the alphabet; upper case for Japan, lower case for
    Russia (never "v", a bow on the plot)."""
    shorts = _short_names()
    marks: dict[str, str] = {}
    used: set[str] = set()
    for ship in ships:
        name = ship["name"]
        letters = [c for c in shorts.get(name, name) + name + string.ascii_uppercase if c.isascii() and c.isalpha()]
        case = str.upper if ship["side"] == "japan" else str.lower
        mark = next((case(c) for c in letters if case(c) not in used and case(c) not in NOT_MARKS), "?")
        used.add(mark)
        marks[name] = mark
    return marks


@lru_cache(maxsize=1)
def _short_names() -> dict[str, str]:
    return {info.name: info.short for info in load_data().ships}


def ascii_plot(view: Mapping[str, Any], data: GameData | None = None) -> str:
    """One character per base length, north (the Japanese edge) at the top: each ship
    on the table as its mark (:func:`ship_marks`) in the square of its centre, and its
    bow as a stroke in the next square toward its heading (^ north, > east, / north-east
    above and to the right or south-west below and to the left, ...), where that square is
    free. ``#`` marks a square holding two ships or more (the ship table has every exact
    position)."""
    data = data or load_data()
    width, length = data.table[0] // data.units_per_bl, data.table[1] // data.units_per_bl
    grid = [["." for _ in range(width)] for _ in range(length)]
    marks = ship_marks(view["ships"])
    placed: list[tuple[int, int, int]] = []
    for ship in view["ships"]:
        if ship["status"] in ("sunk", "withdrawn"):
            continue
        col = max(0, min(width - 1, ship["x"] // data.units_per_bl))
        row = length - 1 - max(0, min(length - 1, ship["y"] // data.units_per_bl))
        grid[row][col] = marks[ship["name"]] if grid[row][col] == "." else CROWDED
        placed.append((col, row, ship["heading"]))
    taken = {(col, row) for col, row, _ in placed}
    for col, row, heading in placed:
        stroke, dx, dy = BOWS[((heading + 22) % 360) // 45]
        c, r = col + dx, row + dy
        if 0 <= c < width and 0 <= r < length and (c, r) not in taken and grid[r][c] == ".":
            grid[r][c] = stroke
    lines = [f"{length - 1 - r:>3} {''.join(row)}" for r, row in enumerate(grid)]
    lines.append("    " + "".join(str(c % 10) for c in range(width)))
    return "\n".join(lines)


def plot_legend(view: Mapping[str, Any], words: Words = ENGLISH) -> list[str]:
    """The plot's key: each side's ships by mark and short name (orders accept it),
    in order of battle, with the status of those out of action (a sunk or withdrawn
    ship is not on the plot)."""
    marks = ship_marks(view["ships"])
    columns = []
    for side in ("japan", "russia"):
        entries = [words(N_("{} (upper case)") if side == "japan" else N_("{} (lower case)"), words.side(side))]
        for ship in view["ships"]:
            if ship["side"] == side:
                gone = "" if ship["status"] == "active" else f" ({words.gettext(ship['status'])})"
                entries.append(f"{marks[ship['name']]} {_short_names().get(ship['name'], ship['name'])}{gone}")
        columns.append(entries)
    rows = max(len(c) for c in columns)
    return [f"{(columns[0][i] if i < len(columns[0]) else ''):<27}{columns[1][i] if i < len(columns[1]) else ''}"
            .rstrip() for i in range(rows)]


#: How to read the plot, beside it under its key (lines of at most 40 columns).
PLOT_KEY = N_("#: two or more ships in one square\n^ > v < / \\: the bow of\nthe ship beside it\n"
              "North is the Japanese edge;\n1 square = 1 base length")


def plot_with_legend(view: Mapping[str, Any], data: GameData | None = None, words: Words = ENGLISH) -> str:
    """The plot, and beside it its key (:func:`plot_legend`) and how to read it."""
    plot = ascii_plot(view, data).split("\n")
    key = plot_legend(view, words) + ["", *words.gettext(PLOT_KEY).split("\n")]
    lines = [f"{line}   {key[i] if i < len(key) else ''}".rstrip() for i, line in enumerate(plot)]
    return "\n".join(lines)


def _table_name(name: str) -> str:
    """A ship's name in the tables: its full name, or its short name (which orders
    accept too) where the full name is too long."""
    return name if len(name) <= 17 else _short_names().get(name, name[:17])


def ship_state(ship: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """Active ships: whether they still act this turn ("to act", "acted", or "done"
    after a collision); the others: their status."""
    if ship["status"] != "active":
        return words.gettext(ship["status"])
    return words.gettext(ACTING_WORDS["done" if ship["done"] else ("acted" if ship["activated"] else "to act")])


#: The ship table's heading row and its key (the columns as :func:`ship_table` lays them out).
SHIP_TABLE_HEADING = N_("  ship                cl      x      y hdg bk sp ls fi fl  used status")
SHIP_TABLE_KEY = N_("cl: BB battleship (8 CP; at most 2 move, 3 gun, 2 armour points a turn),\n"
                    "    AC armoured cruiser (6 CP; 3 move, 2 gun, 1 armour). x, y: the centre\n"
                    "    in base lengths from the south-west corner; hdg: compass heading.\n"
                    "bk sp ls: CPs in the Bank, Spent, Lost. fi fl: fire and flood tokens.\n"
                    "used: move/gun/armour points used this turn (Japan's free move aside).")


def ship_table(view: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """Every ship: mark, name, class, position, heading, CP piles, tokens, the points
    used this turn and its status, in 76 columns, with a key."""
    marks = ship_marks(view["ships"])
    rows = [words.gettext(SHIP_TABLE_HEADING)]
    for ship in view["ships"]:
        used = ship["used"]
        rows.append(f"{marks[ship['name']]:>1} {_table_name(ship['name']):<19} "
                    f"{CLASS_CODES.get(ship['class'], ship['class'][:2])} "
                    f"{ship['x'] / 1000:>6.3f} {ship['y'] / 1000:>6.3f} {ship['heading']:>3} "
                    f"{ship['bank'] + ship['in_play']:>2} {ship['spent']:>2} {ship['lost']:>2} "
                    f"{ship['fires']:>2} {ship['floods']:>2} {used['move']}/{used['gun']}/{used['armor']} "
                    f"{ship_state(ship, words)}")
    rows += ["", *words.gettext(SHIP_TABLE_KEY).split("\n")]
    return "\n".join(rows)


def ship_rows(view: Mapping[str, Any], words: Words = ENGLISH) -> list[dict[str, str]]:
    """The ship table's rows for the HTML part, as cells (piles, tokens and points
    used each in one cell, so that the table fits a phone's width)."""
    marks = ship_marks(view["ships"])
    return [{"mark": marks[ship["name"]], "name": ship["name"], "side": ship["side"],
             "class": CLASS_CODES.get(ship["class"], ship["class"][:2]),
             "x": f"{ship['x'] / 1000:.3f}", "y": f"{ship['y'] / 1000:.3f}", "heading": str(ship["heading"]),
             "cp": f"{ship['bank'] + ship['in_play']}/{ship['spent']}/{ship['lost']}",
             "tokens": f"{ship['fires']}/{ship['floods']}",
             "used": f"{ship['used']['move']}/{ship['used']['gun']}/{ship['used']['armor']}",
             "status": ship_state(ship, words)} for ship in view["ships"]]


def situation_lines(view: Mapping[str, Any], words: Words = ENGLISH) -> list[str]:
    """Turn, phase, Offense, prime activations, Admirals and the decks, in words."""
    offense = view.get("offense")
    phase = phase_words(view["phase"])
    torpedoes = counted(view["torpedo_attacks"], "torpedo attack") if view.get("torpedo_attacks") else None
    if offense:
        prime = counted(view["prime"], "prime activation")
        first = (words(N_("Turn {}, {}; Offense: {}, {} left, {}"), view["turn"], phase, words.side(offense), prime,
                       torpedoes) if torpedoes else
                 words(N_("Turn {}, {}; Offense: {}, {} left"), view["turn"], phase, words.side(offense), prime))
    else:
        first = words(N_("Turn {}, {}"), view["turn"], phase) + (words(", {}", torpedoes) if torpedoes else "")
    lines = [first]
    if view["phase"] == "action" and view.get("next"):
        lines.append(words(N_("Next to act: {}"), words.side(view["next"])))
    for side, role in sorted(view.get("admiral", {}).items()):
        lines.append(words(N_("{}'s Admiral is out this turn: +1 to its gun and torpedo dice") if role == "offense"
                           else N_("{}'s Admiral is out this turn: +1 to its armour and counter-torpedo dice"),
                           words.side(side)))
    if view.get("winner"):
        score = view["score"]
        if view["winner"] == "draw":
            lines.append(words(N_("Result: a draw; enemy CPs destroyed: Japan {}, Russia {} (X-VICTORY)"),
                               score.get("japan", 0), score.get("russia", 0)))
        else:
            lines.append(words(N_("Result: {} wins a {} victory; enemy CPs destroyed: Japan {}, Russia {} "
                                  "(X-VICTORY)"), words.side(view["winner"]), view["victory"],
                               score.get("japan", 0), score.get("russia", 0)))
    return lines


#: A side's draw pile in the text part (the discards are written under its words).
DRAW_PILE = N_("{}: draw pile {}: {}")


def deck_lines(view: Mapping[str, Any], words: Words = ENGLISH) -> list[str]:
    lines = []
    for side, deck in view["decks"].items():
        name = words.side(side)
        lines.append(words(DRAW_PILE, name, counted(len(deck["draw"]), "card"), " ".join(deck["draw"]) or "-"))
        after_name = words.gettext(DRAW_PILE).split("{}", 2)[1]       # ": draw pile ", the discards go under it
        discards = " ".join(deck["discard"]) or "-"
        lines.append(" " * (len(name) + len(after_name) - len(after_name.lstrip(" :"))) + (words(N_("discards: {}; set aside: {}"), discards, deck["aside"])
                                               if deck.get("aside") else words(N_("discards: {}"), discards)))
    return lines


def targets_in_sight(state: State, data: GameData | None = None, words: Words = ENGLISH) -> list[str]:
    """For each ship in action, every enemy in action that one of its arcs holds with
    a clear line of fire from where it stands now, with the most dice that arc allows
    (R-FIRE-1, R-GEO-3, R-GEO-4; the Bank and gunnery points left aside): what a
    player reading the text alone would otherwise measure on the table. Lines of at
    most 76 columns."""
    data = data or load_data()
    table = Table(state, data, geometry_of(data), Options.from_json(state.options), lambda event: None)
    ships = [ship for ship in state.ships.values() if ship.status == ACTIVE]
    marks = ship_marks([{"name": ship.name, "side": ship.side} for ship in state.ships.values()])
    shorts = _short_names()
    lines = []
    for ship in ships:
        pose = pose_of(ship)
        by_dice: dict[int, list[str]] = {}
        for enemy in ships:
            if enemy.side != ship.side:
                dice = arc_dice(table, ship, pose, enemy)
                if dice:
                    by_dice.setdefault(dice, []).append(shorts.get(enemy.name, enemy.name))
        seen = "; ".join(words(N_("{0} at {1}"), counted(dice, "die"), ", ".join(names))
                         for dice, names in sorted(by_dice.items(), reverse=True))
        lines += textwrap.wrap(f"{marks[ship.name]} {shorts.get(ship.name, ship.name)}: "
                               f"{seen or words.gettext(N_('none'))}",
                               76, subsequent_indent="      ", break_on_hyphens=False)
    return lines


def phase_words(phase: str) -> str:
    """The phase as the reports name it ("action phase"), in English: a report
    translates it."""
    return PHASE_TITLES.get(phase, f"{phase} phase")


def context(state: Any, view: Mapping[str, Any], side: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Tsushima's part of a player's report: the phase's title, and ``written``, which
    the templates call with the reader's ``gettext`` and ``ngettext``: the picture,
    and for the plain text the situation, the plot with its key, the ship table and
    the decks -- the whole position, so that a player can play from the text alone --
    in the reader's language."""
    situation = situation_lines(view)
    return {
        "phase_title": phase_words(view["phase"]),
        "header": situation[0],
        "written": lambda gettext, ngettext: written(state, view, Words(gettext, ngettext)),
    }


def written(state: Any, view: Mapping[str, Any], words: Words = ENGLISH) -> dict[str, Any]:
    """What :func:`context`'s ``written`` gives, in the language of ``words``."""
    return {
        "situation": situation_lines(view, words),
        "svg": Markup(render_svg(view, words=words)),
        "plot": plot_with_legend(view, words=words),
        "ships": ship_table(view, words),
        "rows": ship_rows(view, words),
        "decks": deck_lines(view, words),
        "sight": targets_in_sight(state, words=words) if view["phase"] != "ended" else [],
    }


def answer_hint(decision: Decision) -> list[str]:
    """How to answer ``decision``: the skeleton of the orders that answer it
    (:func:`adjudicator.games.tsushima_1905.template.answer_template`)."""
    return answer_hint_in(decision, None)


def answer_hint_in(decision: Decision, translations: Any) -> list[str]:
    """:func:`answer_hint` with its comments in the language of ``translations`` (the
    reader's gettext translations; English when None), the orders lines alike."""
    from adjudicator.games.tsushima_1905.template import answer_template

    return answer_template(decision, translations=translations)
