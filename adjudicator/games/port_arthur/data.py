"""Port Arthur's board and counter sheet, read from ``games/port-arthur/*.toml``.

Nothing here holds a value of its own: zones, adjacency, ports, control points, the
Manchuria Track and the counters all come from the data files, which say where each
value comes from.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from adjudicator.engine.errors import GameDataError
from adjudicator.resources import game_data_dir, read_toml

JAPAN = "japan"
RUSSIA = "russia"
SIDES = (JAPAN, RUSSIA)


def other(side: str) -> str:
    """The opposing side."""
    return RUSSIA if side == JAPAN else JAPAN


@dataclass(frozen=True)
class Zone:
    name: str
    aliases: tuple[str, ...]
    cp: dict[str, int]
    key: bool


@dataclass(frozen=True)
class Port:
    name: str
    side: str
    adjacent: tuple[str, ...]
    shipyard: bool


@dataclass(frozen=True)
class Counter:
    """One ship counter: front (intact) and back (damaged) values."""

    name: str
    aliases: tuple[str, ...]
    side: str
    fleet: str
    firepower: tuple[int, int]
    speed: tuple[int, int]
    defense: int
    entry_turn: int | None
    optional: bool
    provenance: str


@dataclass(frozen=True)
class Board:
    """Everything fixed about the game: map, tracks, numbers, counters."""

    turns: int
    first_initiative: str
    baltic_initiative_turn: int
    cp_limit: int
    army_meeples: int
    dice_per_fire: tuple[int, int]
    zones: dict[str, Zone]
    adjacency: dict[str, frozenset[str]]
    ports: dict[str, Port]
    key_zones: tuple[str, ...]
    key_zone_score: tuple[int, ...]
    landing_spaces: tuple[str, ...]
    transports_sunk_score: tuple[int, ...]
    blockade_zone: str
    blockade_cost: int
    siping_scores_on: frozenset[int]
    siping_cp: int
    port_arthur_fall_cp: int
    japan_home: str
    russian_return: dict[str, tuple[str, ...]]
    track: tuple[str, ...]
    counters: tuple[Counter, ...]
    data_hashes: dict[str, str]
    zone_index: dict[str, str]
    neighbours: dict[str, list[str]]     # zone -> adjacent zones, in board order
    ports_beside: dict[str, list[str]]   # zone -> ports adjacent to it
    side_ports: dict[str, tuple[str, ...]]  # side -> the ports it may use
    port_index: dict[str, str]           # a port's name, casefolded -> the port
    zone_spelled: dict[str, str]         # a zone's name or alias, as the data writes it -> the zone
    port_spelled: dict[str, str]         # a port's name, as the data writes it -> the port

    def zone_named(self, text: str) -> str | None:
        """The zone a player means by ``text`` (name or alias, any case). A name spelled
        as the data spells it (most answers: the rules and players copy the names they
        are offered) is found without folding its case."""
        found = self.zone_spelled.get(text)
        return found if found is not None else self.zone_index.get(text.strip().casefold())

    def port_named(self, text: str) -> str | None:
        found = self.port_spelled.get(text)
        return found if found is not None else self.port_index.get(text.strip().casefold())

    def ports_of(self, side: str) -> tuple[str, ...]:
        return self.side_ports[side]

    def counter(self, name: str) -> Counter | None:
        key = name.casefold()
        return next(
            (c for c in self.counters if c.name.casefold() == key or key in (a.casefold() for a in c.aliases)),
            None,
        )


def _zone_index(zones: dict[str, Zone]) -> dict[str, str]:
    return {label.casefold(): zone.name for zone in zones.values() for label in (zone.name, *zone.aliases)}


def _spelled(labels, index: dict[str, str]) -> dict[str, str]:
    """Each label as written -> what ``index`` finds for it (its casefolded form): the
    same answer, without folding a name that needs none."""
    return {label: index[label.strip().casefold()] for label in labels}


def _port_index(names) -> dict[str, str]:
    """Each port by its casefolded name (the first port of that name, as a search
    through the ports in order would find it)."""
    index: dict[str, str] = {}
    for name in names:
        index.setdefault(name.casefold(), name)
    return index


def _counter(entry: dict[str, Any]) -> Counter:
    return Counter(
        name=entry["name"],
        aliases=tuple(entry.get("aliases", ())),
        side=entry["side"],
        fleet=entry["fleet"],
        firepower=tuple(entry["firepower"]),
        speed=tuple(entry["speed"]),
        defense=int(entry["defense"]),
        entry_turn=entry.get("entry_turn"),
        optional=bool(entry.get("optional", False)),
        provenance=entry.get("provenance", "reconstructed"),
    )


def _check_board(board: Board) -> None:
    for a, neighbours in board.adjacency.items():
        for b in neighbours:
            if a not in board.zones or b not in board.zones:
                raise GameDataError(f"adjacency names an unknown zone: {a!r}-{b!r}")
    for port in board.ports.values():
        unknown = [z for z in port.adjacent if z not in board.zones]
        if unknown:
            raise GameDataError(f"port {port.name!r} is adjacent to unknown zones {unknown}")
    names = [c.name.casefold() for c in board.counters]
    if len(names) != len(set(names)):
        raise GameDataError("the counter sheet names a ship twice")


def load_board(directory: Path | None = None) -> Board:
    """Read the board and counters from ``directory`` (default: the installed data).

    Loads are cached by the files' contents, so an edited file is read again."""
    folder = directory or game_data_dir("port-arthur")
    contents = tuple(_read_bytes(folder / name) for name in DATA_FILES)
    return _parse_board(str(folder), contents)


DATA_FILES = ("board.toml", "counters.toml")


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise GameDataError(f"game data file {path} cannot be read ({err.strerror}); reinstall or restore it") from err


def _parse_toml(name: str, content: bytes) -> dict[str, Any]:
    try:
        return read_toml(content)
    except ValueError as err:  # not UTF-8, or not TOML
        raise GameDataError(f"game data file {name} is not valid TOML: {err}") from err


@lru_cache(maxsize=8)
def _parse_board(folder: str, contents: tuple[bytes, ...]) -> Board:
    files = dict(zip(DATA_FILES, contents))
    data = _parse_toml(f"{folder}/board.toml", files["board.toml"])
    sheet = _parse_toml(f"{folder}/counters.toml", files["counters.toml"])
    try:
        game = data["game"]
        adjacency: dict[str, set[str]] = {z["name"]: set() for z in data["zone"]}
        for a, b in data["adjacency"]["pairs"]:
            adjacency.setdefault(a, set()).add(b)
            adjacency.setdefault(b, set()).add(a)
        zones = {
            z["name"]: Zone(z["name"], tuple(z.get("aliases", ())), dict(z["cp"]), bool(z.get("key", False)))
            for z in data["zone"]
        }
        board = Board(
            turns=int(game["turns"]),
            first_initiative=game["first_initiative"],
            baltic_initiative_turn=int(game["baltic_initiative_turn"]),
            cp_limit=int(game["cp_limit"]),
            army_meeples=int(game["army_meeples"]),
            dice_per_fire=tuple(game["dice_per_fire"]),
            zones=zones,
            adjacency={k: frozenset(v) for k, v in adjacency.items()},
            ports={
                p["name"]: Port(p["name"], p["side"], tuple(p["adjacent"]), bool(p["shipyard"]))
                for p in data["port"]
            },
            key_zones=tuple(data["key_zones"]["zones"]),
            key_zone_score=tuple(data["key_zones"]["score"]),
            landing_spaces=tuple(data["transports"]["landing_spaces"]),
            transports_sunk_score=tuple(data["transports"]["sunk_score"]),
            blockade_zone=data["blockade"]["zone"],
            blockade_cost=int(data["blockade"]["cost"]),
            siping_scores_on=frozenset(data["siping"]["scores_on"]),
            siping_cp=int(data["siping"]["cp"]),
            port_arthur_fall_cp=int(data["port_arthur_fall"]["cp"]),
            japan_home=data["return_to_port"]["japan"],
            russian_return={k: tuple(v) for k, v in data["return_to_port"]["russia"].items()},
            track=tuple(data["track"]["spaces"]),
            counters=tuple(_counter(entry) for entry in sheet["ship"]),
            data_hashes={name: hashlib.sha256(content).hexdigest() for name, content in files.items()},
            zone_index=_zone_index(zones),
            neighbours={z: [n for n in zones if n in adjacency[z]] for z in zones},
            ports_beside={z: [p["name"] for p in data["port"] if z in p["adjacent"]] for z in zones},
            side_ports={side: tuple(p["name"] for p in data["port"] if p["side"] == side) for side in SIDES},
            port_index=_port_index(p["name"] for p in data["port"]),
            zone_spelled=_spelled((label for zone in zones.values() for label in (zone.name, *zone.aliases)),
                                  _zone_index(zones)),
            port_spelled=_spelled((p["name"] for p in data["port"]), _port_index(p["name"] for p in data["port"])),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise GameDataError(f"game data in {folder} is incomplete or malformed: {err!r}") from err
    _check_board(board)
    return board
