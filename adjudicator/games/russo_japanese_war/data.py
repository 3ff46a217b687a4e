"""The game's data, read from ``games/russo-japanese-war/*.toml`` and validated.

Map, Combat Results Table, counters, cards and the fixed numbers of the rules all come
from the data files, each table saying where its values come from (``provenance``:
rulebook, derived, published replay, reconstructed) and why. A referee who owns the
printed game replaces a file (``load_data(folder)`` or ``load_data(crt=path)``); the
rules repeat none of these numbers.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from adjudicator.engine.errors import GameDataError
from adjudicator.games.russo_japanese_war.hexmap import (
    KOREA, SIBERIA, HexMap, hex_name, path_sides, side_key,
)
from adjudicator.i18n import N_
from adjudicator.resources import game_data_dir, read_toml

GAME = "russo-japanese-war"
JAPAN, RUSSIA = "japan", "russia"
SIDES = (JAPAN, RUSSIA)
#: The sides as adjectives (marked for the catalogue: a report translates them where it
#: shows them, as the adjective of a feminine noun in French: "moitié japonaise").
SIDE_ADJECTIVE = {JAPAN: N_("Japanese"), RUSSIA: N_("Russian")}
RESULTS = ("DE", "EX", "DR", "NE", "AR", "AE")
"""The combat results, best to worst for the attacker (9.5; the ladder of card effects)."""
RESHUFFLE_CARD = "Seiro-gan"
FILES = ("game", "map", "crt", "counters", "cards", "scenario")


def other(side: str) -> str:
    return RUSSIA if side == JAPAN else JAPAN


@dataclass(frozen=True)
class Crt:
    """The Combat Results Table (9.5): one column per differential, six results (die 1-6)."""

    columns: Mapping[int, tuple[str, ...]]
    min_column: int
    max_column: int
    provenance: str

    def read(self, column: int, die: int) -> str:
        if column not in self.columns:
            raise GameDataError(f"the Combat Results Table has no column {column:+d}")
        return self.columns[column][die - 1]

    def with_columns(self, overrides: Mapping[str, list[str]]) -> "Crt":
        """A table with some columns replaced (a conformance case's ``[position.crt]``)."""
        columns = dict(self.columns)
        for key, results in overrides.items():
            columns[int(key)] = _results(results, f"column {key}")
        return replace(self, columns=columns)


@dataclass(frozen=True)
class UnitType:
    """One counter of the sheet (2.3)."""

    id: str
    side: str
    name: str
    strength: int
    ma: int
    setup: str
    back: int | None
    provenance: str


@dataclass(frozen=True)
class Ship:
    """One naval unit of the optional advanced naval rules (11.1): two steps, one
    combat strength on both sides (A44)."""

    id: str
    side: str
    fleet: str            # first, second (Japan); port_arthur, vladivostok (Russia)
    strength: int
    provenance: str


FLEETS = {"first": JAPAN, "second": JAPAN, "port_arthur": RUSSIA, "vladivostok": RUSSIA}


@dataclass(frozen=True)
class CardHalf:
    """One player's half of a dual-event card (2.4, 10.2.1)."""

    card: str
    number: int
    side: str
    name: str
    timing: tuple[str, ...]
    effect: Mapping[str, Any]
    condition: str
    forbidden_when: str
    reacts_to: tuple[str, ...]
    text: str
    provenance: str


@dataclass(frozen=True)
class Numbers:
    """The fixed numbers of the rules (game.toml)."""

    turns: int
    morale_start: int
    morale_max: int
    morale_min: int
    check_thresholds: tuple[int, int, int]      # 1 loss, 2 losses, 3 or more (4.3.2)
    stacking: Mapping[str, int]
    hand_refill_to: int
    extra_card_to: int
    japan_starting_hand: int
    min_differential: int
    max_column: int
    support_value: int


@dataclass(frozen=True)
class GameData:
    """Everything fixed about the game."""

    board: HexMap
    crt: Crt
    units: tuple[UnitType, ...]
    cards: Mapping[str, Mapping[str, CardHalf]]   # card id -> side -> half
    deck: tuple[str, ...]                           # the 16 card ids, in number order
    numbers: Numbers
    month: tuple[str, ...] = field(default=())
    ships: tuple[Ship, ...] = field(default=())
    """The 15 naval units, used only with the advanced naval rules (11.0)."""
    hashes: Mapping[str, str] = field(default_factory=dict)
    """Each data file read, with its SHA-256 (they go into a campaign's charter)."""

    def half(self, card: str, side: str) -> CardHalf | None:
        """``side``'s half of ``card`` (None for a blank fixture card)."""
        halves = self.cards.get(card)
        return None if halves is None else halves.get(side)

    def card_label(self, card: str, side: str | None = None) -> str:
        """'#09 Kodama Gentaro'; a card without a number by the name of ``side``'s half (of
        both halves, for no side), its id added when that name is not the id: 'Southward
        Policy (Seiro-gan)'."""
        halves = self.cards.get(card)
        if not halves:
            return card
        shown = [halves[side].name] if side else [halves[JAPAN].name, halves[RUSSIA].name]
        name = " / ".join(shown)
        if card.startswith("#"):
            return f"{card} {name}"
        return name if card in shown else f"{name} ({card})"


def card_id(number: int, reshuffle_number: int) -> str:
    return RESHUFFLE_CARD if number == reshuffle_number else f"#{number:02d}"


def _results(results: Any, where: str) -> tuple[str, ...]:
    if not isinstance(results, list) or len(results) != 6 or any(r not in RESULTS for r in results):
        raise GameDataError(f"{where}: a column needs six results among {', '.join(RESULTS)}, got {results!r}")
    return tuple(results)


def _need(table: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in table:
        raise GameDataError(f"{where}: the key {key!r} is missing")
    return table[key]


def _need_provenance(table: Mapping[str, Any], where: str) -> str:
    provenance = table.get("provenance")
    if not isinstance(provenance, str) or not provenance:
        raise GameDataError(f"{where}: every table says where its values come from (a 'provenance' key)")
    return provenance


def _read(path: Path) -> dict[str, Any]:
    try:
        return read_toml(path.read_bytes())
    except FileNotFoundError as err:
        raise GameDataError(f"{path}: the data file is missing") from err
    except (OSError, ValueError) as err:  # ValueError: not UTF-8, or not TOML
        raise GameDataError(f"{path}: cannot read the data file: {err}") from err


# -- the Combat Results Table ----------------------------------------------------------------

def read_crt(data: Mapping[str, Any], where: str = "crt.toml") -> Crt:
    table = _need(data, "crt", where)
    provenance = _need_provenance(table, f"{where} [crt]")
    columns = [int(c) for c in _need(table, "columns", f"{where} [crt]")]
    rows = _need(table, "rows", f"{where} [crt]")
    if sorted(rows) != [str(d) for d in range(1, 7)]:
        raise GameDataError(f"{where}: [crt.rows] needs one row per die face 1-6")
    by_column: dict[int, list[str]] = {c: [] for c in columns}
    for die in range(1, 7):
        row = rows[str(die)]
        if len(row) != len(columns):
            raise GameDataError(f"{where}: the row for die {die} has {len(row)} results for {len(columns)} columns")
        for column, result in zip(columns, row):
            if result not in RESULTS:
                raise GameDataError(f"{where}: unknown result {result!r} (die {die}, column {column:+d})")
            by_column[column].append(result)
    crt = Crt({c: tuple(r) for c, r in by_column.items()}, int(table.get("min_column", min(columns))),
              int(table.get("max_column", max(columns))), provenance)
    for cell in table.get("printed_cell", []):
        if crt.read(int(cell["column"]), int(cell["die"])) != cell["result"]:
            raise GameDataError(f"{where}: the table contradicts the printed cell {cell['column']:+d}/{cell['die']} = "
                                f"{cell['result']} ({cell.get('source', 'rulebook')})")
    return crt


# -- the map ------------------------------------------------------------------------------------

def read_map(data: Mapping[str, Any], where: str = "map.toml") -> HexMap:
    _need_provenance(_need(data, "map", where), f"{where} [map]")
    columns = _need(_need(data, "terrain", where), "columns", f"{where} [terrain]")
    _need_provenance(columns, f"{where} [terrain.columns]")
    legend = {".": "clear", "w": "wasteland", "-": None}
    hexes, wasteland = set(), set()
    for column, cells in columns.items():
        if column in ("provenance", "reason"):
            continue
        for row, cell in enumerate(cells, start=1):
            if cell not in legend:
                raise GameDataError(f"{where}: column {column}, row {row}: unknown terrain {cell!r}")
            if legend[cell] is None:
                continue
            h = hex_name(int(column), row)
            hexes.add(h)
            if legend[cell] == "wasteland":
                wasteland.add(h)
    towns = data["terrain"].get("towns", {})
    _need_provenance(towns, f"{where} [terrain.towns]")
    for table in ("key_locations", "supply_sources", "harbours"):
        _need_provenance(_need(data, table, where), f"{where} [{table}]")
    for kind in ("sea_hexside", "river", "road", "railway"):
        for item in data.get(kind, []):
            if not (item.get("source") or item.get("provenance")):
                raise GameDataError(f"{where}: a [[{kind}]] entry gives no source: {item}")
    rivers = {side_key(a, b) for river in data.get("river", []) for a, b in river["hexsides"]}
    roads, road_hexes = path_sides(r["hexes"] for r in data.get("road", []))
    railways, railway_hexes = path_sides(r["hexes"] for r in data.get("railway", []))
    entries = {}
    for box in data.get("box", []):
        if "connects_to" in box:
            entries[KOREA if box.get("by") == "road" else SIBERIA] = box["connects_to"]
    harbours = {h: True for h in data["harbours"].get("southern", [])}
    harbours.update({h: False for h in data["harbours"].get("other", [])})
    return HexMap(
        hexes=frozenset(hexes), wasteland=frozenset(wasteland), towns=frozenset(towns.get("hexes", [])),
        rivers=frozenset(rivers), sea=frozenset(side_key(*s["hexes"]) for s in data.get("sea_hexside", [])),
        roads=frozenset(roads), railways=frozenset(railways),
        road_hexes=frozenset(road_hexes), railway_hexes=frozenset(railway_hexes),
        harbours=harbours,
        key_locations={h: name for name, h in data["key_locations"].items() if name not in ("provenance", "reason")},
        supply={s: data["supply_sources"][s] for s in SIDES},
        entries=entries,
        names={p["hex"]: p["name"] for p in data.get("place", [])},
    )


# -- counters and cards -------------------------------------------------------------------------

def read_units(data: Mapping[str, Any], where: str = "counters.toml") -> tuple[UnitType, ...]:
    units = []
    for entry in _need(data, "unit", where):
        label = f"{where} unit {entry.get('id')!r}"
        _need_provenance(entry, label)
        if entry.get("side") not in SIDES:
            raise GameDataError(f"{label}: side must be japan or russia")
        units.append(UnitType(str(entry["id"]), entry["side"], entry.get("name", entry["id"]),
                              int(entry["strength"]), int(entry["ma"]), str(entry["setup"]),
                              int(entry["strength_back"]) if "strength_back" in entry else None,
                              entry["provenance"]))
    if len({u.id for u in units}) != len(units):
        raise GameDataError(f"{where}: two units share an id")
    return tuple(units)


def read_ships(data: Mapping[str, Any], where: str = "counters.toml") -> tuple[Ship, ...]:
    """The naval units (2.3.7, 11.1): each with its side, fleet and combat strength."""
    ships = []
    for entry in data.get("ship", ()):
        label = f"{where} ship {entry.get('id')!r}"
        _need_provenance(entry, label)
        fleet = entry.get("fleet")
        if FLEETS.get(fleet) != entry.get("side"):
            raise GameDataError(f"{label}: fleet must be one of {', '.join(FLEETS)}, of the ship's side")
        ships.append(Ship(str(entry["id"]), entry["side"], fleet, int(entry["strength"]), entry["provenance"]))
    if len({s.id for s in ships}) != len(ships):
        raise GameDataError(f"{where}: two ships share an id")
    return tuple(ships)


def read_cards(data: Mapping[str, Any], reshuffle_number: int, where: str = "cards.toml"):
    cards: dict[str, dict[str, CardHalf]] = {}
    for entry in _need(data, "card", where):
        number = int(entry["number"])
        cid = card_id(number, reshuffle_number)
        halves = {}
        for side in SIDES:
            half = _need(entry, side, f"{where} card {number}")
            label = f"{where} card {number} ({side})"
            _need_provenance(half, label)
            timing = half.get("timing", "own_card_play")
            timing = (timing,) if isinstance(timing, str) else tuple(timing)
            halves[side] = CardHalf(cid, number, side, half["name"], timing, dict(_need(half, "effect", label)),
                                    half.get("condition", ""), half.get("forbidden_when", ""),
                                    tuple(half.get("reacts_to", ())), half.get("text", ""), half["provenance"])
        cards[cid] = halves
    return cards


def read_numbers(data: Mapping[str, Any], where: str = "game.toml") -> Numbers:
    for table in ("game", "morale", "morale_check", "stacking", "movement", "combat", "cards"):
        _need_provenance(_need(data, table, where), f"{where} [{table}]")
    thresholds = data["morale_check"]["thresholds"]
    return Numbers(
        turns=int(data["game"]["turns"]),
        morale_start=int(data["morale"]["start"]), morale_max=int(data["morale"]["max"]),
        morale_min=int(data["morale"]["min"]),
        check_thresholds=(int(thresholds["1"]), int(thresholds["2"]), int(thresholds["3+"])),
        stacking={s: int(data["stacking"][s]) for s in SIDES},
        hand_refill_to=int(data["cards"]["hand_refill_to"]), extra_card_to=int(data["cards"]["extra_card_to"]),
        japan_starting_hand=int(data["cards"]["japan_starting_hand"]),
        min_differential=int(data["combat"]["min_differential"]), max_column=int(data["combat"]["max_column"]),
        support_value=int(data["combat"]["support_value"]),
    )


def load_data(folder: Path | None = None, **replacements: Path) -> GameData:
    """Read and validate the game's data. ``replacements`` name other files for some of
    them (``crt=Path("my-crt.toml")``): a referee's printed table replaces the
    reconstruction."""
    folder = folder or game_data_dir(GAME)
    unknown = set(replacements) - set(FILES)
    if unknown:
        raise GameDataError(f"unknown data file(s) {sorted(unknown)}: the files are {', '.join(FILES)}")
    paths = {name: replacements.get(name, folder / f"{name}.toml") for name in FILES}
    raw = {name: _read(path) for name, path in paths.items()}
    numbers = read_numbers(raw["game"], str(paths["game"]))
    reshuffle_number = int(raw["game"]["cards"]["reshuffle_card"])
    cards = read_cards(raw["cards"], reshuffle_number, str(paths["cards"]))
    if len(cards) != int(raw["game"]["cards"]["deck_size"]):
        raise GameDataError(f"{paths['cards']}: {len(cards)} cards, the deck holds {raw['game']['cards']['deck_size']}")
    board = read_map(raw["map"], str(paths["map"]))
    units = read_units(raw["counters"], str(paths["counters"]))
    for unit in units:
        if unit.setup not in ("korea", "home", "siberia", "europe") and unit.setup not in board.hexes:
            raise GameDataError(f"{paths['counters']}: unit {unit.id} sets up at {unit.setup}, not a hex or box")
    crt = read_crt(raw["crt"], str(paths["crt"]))
    expected = list(range(numbers.min_differential, numbers.max_column + 1))
    if sorted(crt.columns) != expected:
        raise GameDataError(f"{paths['crt']}: the table needs the columns {expected}, has {sorted(crt.columns)}")
    deck = tuple(sorted(cards, key=lambda c: next(iter(cards[c].values())).number))
    hashes = {f"{name}.toml": hashlib.sha256(path.read_bytes()).hexdigest() for name, path in paths.items()}
    ships = read_ships(raw["counters"], str(paths["counters"]))
    return GameData(board, crt, units, cards, deck, numbers, tuple(raw["game"]["game"].get("months", ())),
                    ships=ships, hashes=hashes)


@lru_cache(maxsize=1)
def default_data() -> GameData:
    """The project's data files (read once)."""
    return load_data()
