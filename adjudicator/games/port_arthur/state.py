"""The state of a game of Port Arthur: plain data that serialises to JSON.

A ship is always in exactly one place, its ``at``: a zone ("Yellow Sea"), a harbour
(the port's name, "Japan"), a shipyard ("Japan shipyard"), the Game Turn Track
("turn 4", Baltic ships not yet arrived), or ``"sunk"``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

SUNK = "sunk"
SHIPYARD = " shipyard"
PORT_INTACT = "port"
PORT_NO_SHIPYARD = "no-shipyard"
PORT_FALLEN = "fallen"

PHASES = ("arrival", "sortie-japan", "sortie-russia", "operations", "scoring", "return")
SETUP = "setup"
ENDED = "ended"


def shipyard_of(port: str) -> str:
    return port + SHIPYARD


def turn_box(turn: int) -> str:
    return f"turn {turn}"


@dataclass(slots=True)
class Ship:
    """A ship counter in play, with its printed values and where it is."""

    name: str
    side: str
    firepower: tuple[int, int]
    speed: tuple[int, int]
    defense: int
    at: str
    damaged: bool = False
    fleet: str = ""

    @property
    def sunk(self) -> bool:
        return self.at == SUNK

    @property
    def current_firepower(self) -> int:
        return self.firepower[1] if self.damaged else self.firepower[0]

    @property
    def current_speed(self) -> int:
        return self.speed[1] if self.damaged else self.speed[0]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "side": self.side, "firepower": list(self.firepower),
                "speed": list(self.speed), "defense": self.defense, "at": self.at,
                "damaged": self.damaged, "fleet": self.fleet}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Ship":
        return cls(
            name=data["name"],
            side=data["side"],
            firepower=(int(data["firepower"][0]), int(data["firepower"][1])),
            speed=(int(data["speed"][0]), int(data["speed"][1])),
            defense=int(data["defense"]),
            at=data["at"],
            damaged=bool(data.get("damaged", False)),
            fleet=data.get("fleet", ""),
        )


@dataclass(slots=True)
class LastFire:
    """The result of the most recent fire, for reports and conformance checks."""

    side: str
    dice: tuple[int, ...]
    hits: int
    criticals: int


@dataclass(slots=True)
class State:
    """Where a game of Port Arthur stands."""

    turn: int
    phase: str
    initiative: str
    cp: int  # + toward Japan, - toward Russia
    blockade: bool
    port_arthur: str
    track: list[str]
    occupied: int
    landing: list[str]
    ships: dict[str, Ship]
    meeples: int = 6
    result: str | None = None
    last_fire: LastFire | None = None
    options: dict[str, Any] = field(default_factory=dict)
    top: dict[str, list[str]] = field(default_factory=dict)  # side -> ships to put on top, in order
    _index: dict[str, dict[str, list[Ship]]] | None = field(default=None, repr=False, compare=False)
    _rank: dict[str, int] | None = field(default=None, repr=False, compare=False)
    _afloat: dict[str, dict[str, list[Ship]]] = field(default_factory=dict, init=False, repr=False, compare=False)

    # -- where things are ------------------------------------------------------

    def _places(self) -> dict[str, dict[str, list[Ship]]]:
        """side -> place -> ships there, in counter-sheet order (built once, then
        kept up to date by :meth:`move`)."""
        index = self._index
        if index is None:
            index = {}
            for ship in self.ships.values():
                index.setdefault(ship.side, {}).setdefault(ship.at, []).append(ship)
            self._index = index
        return index

    def move(self, ship: Ship, place: str) -> None:
        """Put ``ship`` in ``place`` (the one way a ship changes place)."""
        index = self._index
        by_place = (index if index is not None else self._places())[ship.side]
        here = by_place[ship.at]
        if here[-1] is ship:
            here.pop()
        else:
            for i, there in enumerate(here):
                if there is ship:
                    del here[i]
                    break
        ship.at = place
        self._afloat.pop(ship.side, None)
        order = self._rank or self._order()
        there = by_place.get(place)
        if not there:
            by_place[place] = [ship]
            return
        rank = order[ship.name]
        i = len(there)
        while i and order[there[i - 1].name] > rank:  # stacks are short: from the top down
            i -= 1
        there.insert(i, ship)

    def _order(self) -> dict[str, int]:
        """Each ship's place on the counter sheet (the order stacks are listed in)."""
        if self._rank is None:
            self._rank = {name: i for i, name in enumerate(self.ships)}
        return self._rank

    @property
    def meeple_pool(self) -> int:
        """Army meeples available to Japan (not on the track or a landing space)."""
        return self.meeples - self.occupied - len(self.landing)

    def ships_at(self, place: str, side: str | None = None) -> list[Ship]:
        """The ships at ``place`` (of ``side``), in counter-sheet order."""
        index = self._index
        if index is None:
            index = self._places()
        if side is not None:
            by_place = index.get(side)
            return list(by_place.get(place, ())) if by_place is not None else []
        order = self._rank or self._order()
        return sorted((s for by_place in index.values() for s in by_place.get(place, ())), key=lambda s: order[s.name])

    def ships_in(self, places: Sequence[str], side: str) -> list[Ship]:
        """The ships of ``side`` in any of ``places``, in counter-sheet order."""
        index = self._index
        if index is None:
            index = self._places()
        by_place = index.get(side, {})
        found = [ship for place in dict.fromkeys(places) for ship in by_place.get(place, ())]
        if len(found) > 1:
            order = self._rank or self._order()
            found.sort(key=lambda s: order[s.name])
        return found

    def positions(self, side: str) -> Mapping[str, Sequence[Ship]]:
        """``side``'s ships afloat, grouped by where they are: a read-only view,
        valid until a ship moves (copy a group before moving its ships)."""
        found = self._afloat.get(side)
        if found is None:
            index = self._index
            if index is None:
                index = self._places()
            found = self._afloat[side] = {place: ships for place, ships in index.get(side, {}).items()
                                          if ships and place != SUNK}
        return found

    def squadron(self, side: str, zone: str) -> list[Ship]:
        """All the ships of ``side`` in ``zone`` (rulebook, Ship Movement)."""
        index = self._index
        if index is None:
            index = self._places()
        by_place = index.get(side)
        return list(by_place.get(zone, ())) if by_place is not None else []

    def occupies(self, space: str) -> bool:
        """Whether an Army meeple stands on ``space`` of the Manchuria Track."""
        return space in self.track[: self.occupied]

    def ship(self, name: str) -> Ship | None:
        found = self.ships.get(name)
        if found is not None:
            return found
        key = name.strip().casefold()
        return next((s for s in self.ships.values() if s.name.casefold() == key), None)

    # -- serialisation ---------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "initiative": self.initiative,
            "cp": self.cp,
            "blockade": self.blockade,
            "port_arthur": self.port_arthur,
            "track": list(self.track),
            "occupied": self.occupied,
            "landing": list(self.landing),
            "meeples": self.meeples,
            "result": self.result,
            "last_fire": None if self.last_fire is None else {
                "side": self.last_fire.side,
                "dice": list(self.last_fire.dice),
                "hits": self.last_fire.hits,
                "criticals": self.last_fire.criticals,
            },
            "options": dict(self.options),
            "ships": [ship.to_json() for ship in self.ships.values()],
            **({"top": {side: list(names) for side, names in self.top.items()}} if self.top else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "State":
        """The state :meth:`to_json` wrote (a snapshot the rules resume from)."""
        fire = data.get("last_fire")
        return cls(
            turn=int(data["turn"]), phase=data["phase"], initiative=data["initiative"], cp=int(data["cp"]),
            blockade=bool(data["blockade"]), port_arthur=data["port_arthur"], track=list(data["track"]),
            occupied=int(data["occupied"]), landing=list(data["landing"]),
            ships={entry["name"]: Ship.from_json(entry) for entry in data["ships"]},
            meeples=int(data["meeples"]), result=data.get("result"),
            last_fire=None if fire is None else LastFire(fire["side"], tuple(int(d) for d in fire["dice"]),
                                                         int(fire["hits"]), int(fire["criticals"])),
            options=copy.deepcopy(dict(data.get("options", {}))),
            top={side: list(names) for side, names in data.get("top", {}).items()},
        )


def squadron_speed(ships: Sequence[Ship]) -> int:
    """SS: the speed of the slowest ship (rulebook, Ship Movement A)."""
    return min([s.speed[1] if s.damaged else s.speed[0] for s in ships])


def squadron_firepower(ships: Sequence[Ship]) -> int:
    """SFP: the sum of the ships' firepower (rulebook, Naval Battle B)."""
    return sum([s.firepower[1] if s.damaged else s.firepower[0] for s in ships])
