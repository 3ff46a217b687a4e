"""The hex map (rulebook 2.2, 6.0, 8.1, 8.3; rulings A1, A13, A14, A52).

Hexes are four-digit strings XXYY, column then row (2.2). Adjacency follows ruling A1:
odd columns sit half a hex toward higher rows, so the neighbours of (c, r) are (c, r±1)
and (c±1, r), (c±1, r+1) for odd c, (c±1, r−1), (c±1, r) for even c. Hexsides are
unordered pairs of adjacent hexes carrying the river, all-sea, road and railway
attributes. The two connected boxes (Korean Peninsula, Siberia) are nodes joined to one
hex by road / railway (8.3).

A map is built either from the game's data (``games/russo-japanese-war/map.toml``) or
from a conformance case's fixture board (``[position.map]``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Mapping

from adjudicator.engine.errors import GameDataError

KOREA = "korea"
SIBERIA = "siberia"
HOME = "home"
EUROPE = "europe"
ELIMINATED = "eliminated"
BOXES = (KOREA, HOME, SIBERIA, EUROPE, ELIMINATED)
OFF_MAP = frozenset(BOXES)
"""The boxes as a set: ``where in OFF_MAP`` is the quick test for "not on the map"."""
ENTRY_BOXES = {KOREA: "japan", SIBERIA: "russia"}
"""The boxes from which a unit enters the map, with the side that may use each (8.3)."""


def parse_hex(text: str) -> tuple[int, int]:
    """(column, row) of a four-digit hex number; GameDataError if it is not one."""
    if not (isinstance(text, str) and len(text) == 4 and text.isdigit()):
        raise GameDataError(f"{text!r} is not a hex number: hexes are four digits, column then row (e.g. 1015)")
    return int(text[:2]), int(text[2:])


def hex_name(column: int, row: int) -> str:
    return f"{column:02d}{row:02d}"


def grid_neighbours(text: str) -> tuple[str, ...]:
    """The six hexes around ``text`` on an unbounded grid (ruling A1)."""
    column, row = parse_hex(text)
    if column % 2:
        cells = ((column, row - 1), (column, row + 1), (column - 1, row), (column - 1, row + 1),
                 (column + 1, row), (column + 1, row + 1))
    else:
        cells = ((column, row - 1), (column, row + 1), (column - 1, row - 1), (column - 1, row),
                 (column + 1, row - 1), (column + 1, row))
    return tuple(hex_name(c, r) for c, r in cells if c >= 0 and r >= 0)


@lru_cache(maxsize=65536)
def distance(a: str, b: str) -> int:
    """Hex distance through cube coordinates (rulings, section 3.1)."""
    (ca, ra), (cb, rb) = parse_hex(a), parse_hex(b)
    za, zb = ra - (ca - (ca % 2)) // 2, rb - (cb - (cb % 2)) // 2
    xa, xb = ca, cb
    ya, yb = -xa - za, -xb - zb
    return max(abs(xa - xb), abs(ya - yb), abs(za - zb))


def side_key(a: str, b: str) -> tuple[str, str]:
    """A hexside: the ordered pair of its two hexes (smaller first)."""
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class HexMap:
    """Terrain, hexsides, places and boxes of one board."""

    hexes: frozenset[str]
    wasteland: frozenset[str]
    towns: frozenset[str]
    rivers: frozenset[tuple[str, str]]
    sea: frozenset[tuple[str, str]]
    roads: frozenset[tuple[str, str]]
    railways: frozenset[tuple[str, str]]
    road_hexes: frozenset[str]
    railway_hexes: frozenset[str]
    harbours: Mapping[str, bool]                 # hex -> southern (red anchor, 10.2.5)
    key_locations: Mapping[str, str]             # hex -> name (3.3, 4.3.1)
    supply: Mapping[str, str]                    # side -> supply source hex (4.4)
    entries: Mapping[str, str]                   # "korea"/"siberia" -> the hex the box joins (8.3)
    names: Mapping[str, str] = field(default_factory=dict)   # hex -> place name
    land_neighbours: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    railway_neighbours: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    road_or_railway_neighbours: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    halting_neighbours: Mapping[str, frozenset[str]] = field(default_factory=dict, compare=False)
    """hex -> the neighbours where an ordinary move must end (8.1: wasteland, or across a
    river, unless along a road or railway)."""
    road_or_railway_hexes: frozenset[str] = field(default=frozenset(), compare=False)
    """The hexes on a road or railway, and the hexes the boxes join (10.2.4)."""

    def __post_init__(self) -> None:
        neighbours = {}
        for h in self.hexes:
            neighbours[h] = tuple(n for n in grid_neighbours(h) if n in self.hexes and side_key(h, n) not in self.sea)
        object.__setattr__(self, "land_neighbours", neighbours)
        object.__setattr__(self, "railway_neighbours", {
            h: tuple(n for n in around if self.railway_step(h, n)) for h, around in neighbours.items()})
        object.__setattr__(self, "road_or_railway_neighbours", {
            h: tuple(n for n in around if self.road_or_railway_step(h, n)) for h, around in neighbours.items()})
        object.__setattr__(self, "halting_neighbours", {
            h: frozenset(n for n in around if (n in self.wasteland or self.river_between(h, n))
                         and not self.along_road_or_railway(h, n))
            for h, around in neighbours.items()})
        object.__setattr__(self, "road_or_railway_hexes",
                           frozenset(self.road_hexes | self.railway_hexes | set(self.entries.values())))
        self.validate()

    # -- questions the rules ask of the map -------------------------------------------

    def on_map(self, hex_: str) -> bool:
        return hex_ in self.hexes

    def adjacent(self, a: str, b: str) -> bool:
        """Adjacent across a hexside that is not all sea (6.0, 8.1, A52)."""
        return b in self.land_neighbours.get(a, ())

    def river_between(self, a: str, b: str) -> bool:
        return side_key(a, b) in self.rivers

    def along_road_or_railway(self, a: str, b: str) -> bool:
        """A13: the step a-b follows a road or railway hexside; a box step follows its
        connection (A14: Korea by road, Siberia by railway)."""
        if a in self.entries or b in self.entries:
            return True
        key = side_key(a, b)
        return key in self.roads or key in self.railways

    def railway_step(self, a: str, b: str) -> bool:
        if a == SIBERIA or b == SIBERIA:
            return self.entries.get(SIBERIA) in (a, b)
        return side_key(a, b) in self.railways

    def road_or_railway_step(self, a: str, b: str) -> bool:
        if a in self.entries:
            return self.entries[a] == b
        if b in self.entries:
            return self.entries[b] == a
        key = side_key(a, b)
        return key in self.roads or key in self.railways

    def on_road_or_railway(self, hex_: str) -> bool:
        return hex_ in self.road_or_railway_hexes

    def port_arthur(self) -> str | None:
        """The key location named Port Arthur (10.4.1, Kondratenko's condition)."""
        for hex_, name in self.key_locations.items():
            if name == "Port Arthur":
                return hex_
        return None

    def label(self, hex_: str) -> str:
        name = self.names.get(hex_) or self.key_locations.get(hex_)
        return f"{hex_} ({name})" if name else hex_

    # -- validation -----------------------------------------------------------------------

    def validate(self) -> None:
        """Every feature lies on the map and every hexside joins two adjacent hexes."""
        for what, sides in (("river", self.rivers), ("all-sea hexside", self.sea),
                            ("road", self.roads), ("railway", self.railways)):
            for a, b in sides:
                for h in (a, b):
                    if h not in self.hexes:
                        raise GameDataError(f"the {what} {a}|{b} touches {h}, which is not on the map")
                if b not in grid_neighbours(a):
                    raise GameDataError(f"the {what} {a}|{b} joins two hexes that are not adjacent")
        for what, hexes in (("wasteland", self.wasteland), ("town", self.towns), ("harbour", self.harbours),
                            ("key location", self.key_locations), ("supply source", self.supply.values()),
                            ("box entry", self.entries.values())):
            for h in hexes:
                if h not in self.hexes:
                    raise GameDataError(f"the {what} {h} is not on the map")


def hexes_from_spec(spec: Any) -> set[str]:
    """Hexes from ``"0101-0606"`` (a rectangle of columns and rows), a single hex, or a
    list of either (the fixture format of the conformance cases)."""
    if isinstance(spec, str):
        spec = [spec]
    found: set[str] = set()
    for item in spec or []:
        if "-" in item:
            first, last = item.split("-", 1)
            (c1, r1), (c2, r2) = parse_hex(first), parse_hex(last)
            for c in range(min(c1, c2), max(c1, c2) + 1):
                for r in range(min(r1, r2), max(r1, r2) + 1):
                    found.add(hex_name(c, r))
        else:
            parse_hex(item)
            found.add(item)
    return found


def path_sides(paths: Iterable[Iterable[str]]) -> tuple[set[tuple[str, str]], set[str]]:
    """The hexsides and hexes of hex paths (roads, railways)."""
    sides, hexes = set(), set()
    for path in paths:
        path = list(path)
        hexes.update(path)
        for a, b in zip(path, path[1:]):
            sides.add(side_key(a, b))
    return sides, hexes


def fixture_map(spec: Mapping[str, Any]) -> HexMap:
    """A conformance case's own board (``[position.map]``)."""
    hexes = hexes_from_spec(spec.get("hexes", []))
    wasteland, towns = set(), set()
    for hex_, kinds in dict(spec.get("terrain", {})).items():
        kinds = [kinds] if isinstance(kinds, str) else list(kinds)
        for kind in kinds:
            if kind == "wasteland":
                wasteland.add(hex_)
            elif kind == "town":
                towns.add(hex_)
            elif kind != "clear":
                raise GameDataError(f"unknown terrain {kind!r} for {hex_}: clear, wasteland or town")
    roads, road_hexes = path_sides(spec.get("roads", []))
    railways, railway_hexes = path_sides(spec.get("railways", []))
    entries = {box: spec[box] for box in (KOREA, SIBERIA) if spec.get(box)}
    return HexMap(
        hexes=frozenset(hexes), wasteland=frozenset(wasteland), towns=frozenset(towns),
        rivers=frozenset(side_key(a, b) for a, b in spec.get("rivers", [])),
        sea=frozenset(side_key(a, b) for a, b in spec.get("sea_hexsides", [])),
        roads=frozenset(roads), railways=frozenset(railways),
        road_hexes=frozenset(road_hexes), railway_hexes=frozenset(railway_hexes),
        harbours={h: bool(v.get("southern", False)) for h, v in dict(spec.get("harbours", {})).items()},
        key_locations=dict(spec.get("key_locations", {})),
        supply=dict(spec.get("supply", {})),
        entries=entries,
    )
