"""The game data of Tsushima 1905, read from ``games/tsushima-1905/`` and checked.

Nothing in the rules repeats a number of the rulebook: the classes (Combat Points),
the decks (Card Deck Preparation), the ships (Fleet Order of Battle), the table and
its unit (Map; reconstruction X-UNITS), the historical set-up (X-SETUP) and the
committed sine table (X-GEOM) all come from here. :func:`load_data` refuses a file
that is missing, malformed or inconsistent, naming the file and the value.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from adjudicator.engine.errors import GameDataError
from adjudicator.resources import game_data_dir, read_toml

GAME_ID = "tsushima-1905"
FILES = ("game.toml", "cards.toml", "ships.toml", "scenario.toml", "trig.toml")
CLASS_KEYS = ("cp", "max_gunnery", "max_armor", "max_movement", "turns_per_activation",
              "dice_end_arc", "dice_broadside")
RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "K": 0}
SUITS = {"H", "D", "S", "C"}


@dataclass(frozen=True, slots=True)
class ShipClass:
    """A class of ship (rulebook, Combat Points)."""

    name: str
    cp: int
    max_gunnery: int
    max_armor: int
    max_movement: int
    turns_per_activation: int
    dice_end_arc: int
    dice_broadside: int


@dataclass(frozen=True, slots=True)
class ShipInfo:
    """A ship of the Fleet Order of Battle: its side, class, names and flag."""

    name: str
    side: str
    ship_class: str
    short: str
    aliases: tuple[str, ...]
    flag: str


@dataclass(frozen=True, slots=True)
class Squadron:
    side: str
    name: str
    leader: str
    ships: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Placement:
    """A ship's starting pose: centre in 1/1000 BL, heading in compass degrees."""

    ship: str
    x: int
    y: int
    heading: int


@dataclass(frozen=True, slots=True)
class GameData:
    """Everything the rules read from the game's data files."""

    sides: tuple[str, str]
    table: tuple[int, int]            # in 1/1000 BL
    units_per_bl: int
    base_width: int                   # in 1/1000 BL
    sin_table: tuple[int, ...]        # sin(d) * scale, d = 0..90
    trig_scale: int
    classes: Mapping[str, ShipClass]
    ships: tuple[ShipInfo, ...]       # roster order (X-ORDER)
    decks: Mapping[str, tuple[str, ...]]
    named_suit_decks: Mapping[str, tuple[str, ...]]
    squadrons: tuple[Squadron, ...]
    placements: tuple[Placement, ...]
    rules: Mapping[str, Any]          # the other tables of game.toml, as read
    options: Mapping[str, Any]        # [options]: the rulings' defaults
    digest: str                       # SHA-256 over the data files (for the charter)
    hashes: Mapping[str, str]         # each data file's SHA-256

    def ship(self, name: str) -> ShipInfo:
        for info in self.ships:
            if info.name == name:
                return info
        raise GameDataError(f"no ship named {name!r} in ships.toml")

    def ship_class(self, name: str) -> ShipClass:
        return self.classes[self.ship(name).ship_class]


def card_value(card: str) -> int:
    """A card's value: an ace is 1, a King (Admiral) 0, the others their face."""
    return RANKS[card[0]]


def bl_to_units(value: Any, units_per_bl: int = 1000) -> int:
    """A distance written in base lengths (at most three decimals) as integer units.

    Written values are read as decimal text, never through a float's arithmetic:
    ``round(x * 1000)`` of the case format, computed exactly."""
    from decimal import Decimal, ROUND_HALF_UP

    exact = Decimal(str(value)) * units_per_bl
    return int(exact.to_integral_value(rounding=ROUND_HALF_UP))


def _read(folder: Path, name: str) -> dict:
    path = folder / name
    try:
        content = path.read_bytes()
    except OSError as err:
        raise GameDataError(f"{path}: cannot read the game data: {err}") from err
    try:
        return read_toml(content)
    except ValueError as err:  # not UTF-8, or not TOML
        raise GameDataError(f"{path}: not valid TOML: {err}") from err


def _need(table: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in table:
        raise GameDataError(f"{where}: missing {key!r}")
    return table[key]


def _check_provenance(table: Mapping[str, Any], where: str) -> None:
    if table.get("provenance") not in ("rulebook", "reconstructed", "derived", "published replay"):
        raise GameDataError(f"{where}: every table needs a provenance (rulebook, reconstructed, "
                            f"derived or published replay), found {table.get('provenance')!r}")


def _sin_table(trig: Mapping[str, Any]) -> tuple[tuple[int, ...], int]:
    table = _need(trig, "trig", "trig.toml")
    _check_provenance(table, "trig.toml [trig]")
    values = tuple(_need(table, "sin_e6", "trig.toml [trig]"))
    scale = int(_need(table, "scale", "trig.toml [trig]"))
    if len(values) != 91 or not all(type(v) is int for v in values):
        raise GameDataError(f"trig.toml: sin_e6 needs 91 integers (0..90 degrees), found {len(values)}")
    if values[0] != 0 or values[90] != scale:
        raise GameDataError("trig.toml: sin 0 must be 0 and sin 90 the scale")
    if any(b <= a for a, b in zip(values, values[1:])):
        raise GameDataError("trig.toml: the sines must increase from 0 to 90 degrees")
    return values, scale


def _classes(game: Mapping[str, Any]) -> dict[str, ShipClass]:
    classes = {}
    for name, table in _need(game, "classes", "game.toml").items():
        where = f"game.toml [classes.{name}]"
        _check_provenance(table, where)
        values = {key: _need(table, key, where) for key in CLASS_KEYS}
        if not all(type(v) is int and v >= 0 for v in values.values()):
            raise GameDataError(f"{where}: {', '.join(CLASS_KEYS)} must be whole numbers")
        classes[name] = ShipClass(name, **values)
    return classes


def _decks(cards: Mapping[str, Any], sides: tuple[str, ...]) -> tuple[dict, dict]:
    decks, named = {}, {}
    for deck in _need(cards, "deck", "cards.toml"):
        side = _need(deck, "side", "cards.toml [[deck]]")
        for key, into in (("cards", decks), ("named_suit_only", named)):
            listed = tuple(_need(deck, key, f"cards.toml [[deck]] {side}"))
            for card in listed:
                if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
                    raise GameDataError(f"cards.toml: {card!r} is not a card (rank A,2-6,K and suit H,D,S,C)")
            if len(set(listed)) != len(listed):
                raise GameDataError(f"cards.toml: the {side} deck lists a card twice")
            into[side] = listed
    if set(decks) != set(sides):
        raise GameDataError(f"cards.toml: one deck per side is needed ({', '.join(sides)})")
    return decks, named


def _ships(ships: Mapping[str, Any], sides: tuple[str, ...], classes: Mapping[str, ShipClass]) -> tuple[ShipInfo, ...]:
    roster, seen = [], {}
    for entry in _need(ships, "ship", "ships.toml"):
        name = _need(entry, "name", "ships.toml [[ship]]")
        where = f"ships.toml ship {name!r}"
        _check_provenance(entry, where)
        info = ShipInfo(name, _need(entry, "side", where), _need(entry, "class", where),
                        entry.get("short", name), tuple(entry.get("aliases", ())), entry.get("flag", ""))
        if info.side not in sides:
            raise GameDataError(f"{where}: unknown side {info.side!r}")
        if info.ship_class not in classes:
            raise GameDataError(f"{where}: unknown class {info.ship_class!r} (classes: {', '.join(classes)})")
        for label in (name, *info.aliases):
            key = label.casefold()
            if key in seen and seen[key] != name:
                raise GameDataError(f"{where}: the name {label!r} is also used by {seen[key]!r}")
            seen[key] = name
        roster.append(info)
    return tuple(roster)


def _scenario(scenario: Mapping[str, Any], names: set[str], units: int) -> tuple[tuple, tuple]:
    _check_provenance(_need(scenario, "scenario", "scenario.toml"), "scenario.toml [scenario]")
    squadrons = []
    for entry in scenario.get("squadron", []):
        squadron = Squadron(entry["side"], entry["name"], entry["leader"], tuple(entry["ships"]))
        unknown = set(squadron.ships) - names
        if unknown or squadron.leader not in squadron.ships:
            raise GameDataError(f"scenario.toml squadron {squadron.name!r}: unknown ships {sorted(unknown)} "
                                f"or a leader not in the squadron")
        squadrons.append(squadron)
    placements = []
    for entry in _need(scenario, "position", "scenario.toml"):
        ship = _need(entry, "ship", "scenario.toml [[position]]")
        if ship not in names:
            raise GameDataError(f"scenario.toml: position for an unknown ship {ship!r}")
        heading = int(_need(entry, "heading", f"scenario.toml {ship}"))
        if not 0 <= heading < 360:
            raise GameDataError(f"scenario.toml {ship}: heading {heading} is not 0-359")
        x, y = (bl_to_units(v, units) for v in _need(entry, "at", f"scenario.toml {ship}"))
        placements.append(Placement(ship, x, y, heading))
    placed = [p.ship for p in placements]
    if len(set(placed)) != len(placed):
        raise GameDataError("scenario.toml: a ship is placed twice")
    return tuple(squadrons), tuple(placements)


def read_data(folder: Path) -> GameData:
    """Read and check the data files in ``folder``."""
    raw = {name: _read(folder, name) for name in FILES}
    game = raw["game.toml"]
    sides = tuple(_need(_need(game, "game", "game.toml"), "sides", "game.toml [game]"))
    if len(sides) != 2:
        raise GameDataError("game.toml [game]: the game has two sides")
    units_table = _need(game, "units", "game.toml")
    _check_provenance(units_table, "game.toml [units]")
    units = int(_need(units_table, "units_per_bl", "game.toml [units]"))
    width_bl, length_bl = _need(units_table, "table_bl", "game.toml [units]")
    sin_table, scale = _sin_table(raw["trig.toml"])
    classes = _classes(game)
    ships = _ships(raw["ships.toml"], sides, classes)
    decks, named = _decks(raw["cards.toml"], sides)
    squadrons, placements = _scenario(raw["scenario.toml"], {s.name for s in ships}, units)
    for table_name, table in game.items():
        if isinstance(table, dict) and table_name not in ("options", "classes"):
            _check_provenance(table, f"game.toml [{table_name}]")
    digest = hashlib.sha256()
    hashes = {}
    for name in FILES:
        content = (folder / name).read_bytes()
        digest.update(name.encode() + b"\0" + content)
        hashes[f"games/{GAME_ID}/{name}"] = hashlib.sha256(content).hexdigest()
    return GameData(
        sides=sides, table=(bl_to_units(width_bl, units), bl_to_units(length_bl, units)),
        units_per_bl=units, base_width=bl_to_units(units_table["base_width_bl"], units),
        sin_table=sin_table, trig_scale=scale, classes=classes, ships=ships, decks=decks,
        named_suit_decks=named, squadrons=squadrons, placements=placements,
        rules={k: v for k, v in game.items() if k != "options"},
        options=dict(game.get("options", {})), digest=digest.hexdigest(), hashes=hashes,
    )


@lru_cache(maxsize=1)
def load_data() -> GameData:
    """The installed game data (read once per process; the data is immutable)."""
    return read_data(game_data_dir(GAME_ID))
