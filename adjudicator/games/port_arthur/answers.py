"""The decisions Port Arthur asks, and the typed answers to them.

Each answer reads from and writes to the plain JSON form used by histories, the
conformance cases and the orders language (``to_json``/``from_json``). Reading checks
only the form; whether an answer is *legal* is for the rules to say.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from collections.abc import Mapping
from typing import Any

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import quick_init


class Kind(StrEnum):
    """What is asked (the ``ask`` of a conformance case)."""

    SORTIE = "sortie"
    NAVO = "navo"
    REROLL = "reroll"
    SEIZE = "seize"
    DICE = "dice"
    CRITICALS = "criticals"
    HITS = "hits"
    BLOCKADE = "blockade"
    RETURN = "return"
    MINES = "mines"
    ATTACK = "attack"
    TOP = "top"  # never asked: a standing order carried with each sortie answer


def _text(raw: Mapping[str, Any], key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise IllegalAnswer(f"{key!r} must name something, got {value!r}")
    return value.strip()


def _names(raw: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = raw.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise IllegalAnswer(f"{key!r} must be a list of names, got {value!r}")
    names = []
    for v in value:
        if not isinstance(v, str):
            raise IllegalAnswer(f"{key!r} must be a list of names, got {value!r}")
        names.append(v.strip())
    return tuple(names)


def _mapping(raw: Mapping[str, Any], key: str) -> tuple[tuple[str, str], ...]:
    value = raw.get(key, {})
    if not isinstance(value, Mapping):
        raise IllegalAnswer(f"{key!r} must map ship names to places, got {value!r}")
    pairs = []
    for k, v in value.items():
        if not isinstance(v, str):
            raise IllegalAnswer(f"{key!r} must map ship names to places, got {value!r}")
        pairs.append((str(k).strip(), v.strip()))
    return tuple(pairs)


def _flag(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key)
    if not isinstance(value, bool):
        raise IllegalAnswer(f"{key!r} must be true or false, got {value!r}")
    return value


@quick_init
@dataclass(frozen=True, slots=True)
class Sortie:
    """Fleet Sortie Phases: ship -> zone (or "shipyard"), and landings (Japan only);
    ``top``: the side's ships to put on top of its squadrons, in order of preference
    (the fog of war; the standing order ``top:``)."""

    moves: tuple[tuple[str, str], ...] = ()
    land: tuple[str, ...] = ()
    top: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Sortie":
        return cls(_mapping(raw, "moves"), _names(raw, "land"), _names(raw, "top"))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"moves": dict(self.moves)}
        if self.land:
            data["land"] = list(self.land)
        if self.top:
            data["top"] = list(self.top)
        return data


@quick_init
@dataclass(frozen=True, slots=True)
class Battle:
    """A NAVO: engage the enemy ships in ``zone``."""

    zone: str
    plan_step: int | None = None  # which step of the player's operations plan chose it

    def to_json(self) -> dict[str, Any]:
        return _with_plan_step({"battle": self.zone}, self.plan_step)


@quick_init
@dataclass(frozen=True, slots=True)
class Move:
    """A NAVO: move the squadron at ``origin`` (a zone or a port) to ``destination``.

    ``ships`` chooses which ships leave a port (None: all that may)."""

    origin: str
    destination: str
    ships: tuple[str, ...] | None = None
    plan_step: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"move": self.origin, "to": self.destination}
        if self.ships is not None:
            data["ships"] = list(self.ships)
        return _with_plan_step(data, self.plan_step)


@quick_init
@dataclass(frozen=True, slots=True)
class Pass:
    """A NAVO: pass."""

    plan_step: int | None = None

    def to_json(self) -> dict[str, Any]:
        return _with_plan_step({"pass": True}, self.plan_step)


def _with_plan_step(data: dict[str, Any], plan_step: int | None) -> dict[str, Any]:
    return data if plan_step is None else {**data, "plan_step": plan_step}


def _plan_step(raw: Mapping[str, Any]) -> int | None:
    value = raw.get("plan_step")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise IllegalAnswer(f"'plan_step' must be a step number of the plan, got {value!r}")
    return value


Navo = Battle | Move | Pass


def navo_from_json(raw: Mapping[str, Any]) -> Navo:
    forms = ("battle" in raw) + ("move" in raw) + ("pass" in raw)
    if forms != 1:
        raise IllegalAnswer("a NAVO is exactly one of: battle = ZONE; move = FROM, to = TO; pass = true")
    step = _plan_step(raw) if "plan_step" in raw else None
    if "battle" in raw:
        return Battle(_text(raw, "battle"), step)
    if "pass" in raw:
        if raw.get("pass") is not True:
            raise IllegalAnswer("'pass' must be true")
        return Pass(step)
    ships = _names(raw, "ships") if "ships" in raw else None
    return Move(_text(raw, "move"), _text(raw, "to"), ships, step)


@quick_init
@dataclass(frozen=True, slots=True)
class UseMarker:
    """A yes/no decision: re-roll a tie, seize first fire, place or keep the blockade."""

    use: bool

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "UseMarker":
        return cls(_flag(raw, "use"))

    def to_json(self) -> dict[str, Any]:
        return {"use": self.use}


@quick_init
@dataclass(frozen=True, slots=True)
class DiceCount:
    """Naval Battle B: how many dice to fire."""

    count: int

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "DiceCount":
        value = raw.get("count")
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalAnswer(f"'count' must be a whole number of dice, got {value!r}")
        return cls(value)

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count}


@quick_init
@dataclass(frozen=True, slots=True)
class ShipList:
    """Ships named in order: critical-hit targets, ships struck by mines, ships attacked."""

    ships: tuple[str, ...]

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "ShipList":
        return cls(_names(raw, "ships"))

    def to_json(self) -> dict[str, Any]:
        return {"ships": list(self.ships)}


FLIP = "flip"
SINK = "sink"


@quick_init
@dataclass(frozen=True, slots=True)
class HitAllocation:
    """Hits on target applied by the target, in order: ("flip"|"sink", ship)."""

    actions: tuple[tuple[str, str], ...]

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "HitAllocation":
        actions = []
        for item in _names(raw, "apply"):
            verb, _, ship = item.partition(" ")
            verb = verb.casefold()
            if verb not in (FLIP, SINK) or not ship.strip():
                raise IllegalAnswer(f"each hit is 'flip SHIP' or 'sink SHIP', got {item!r}")
            actions.append((verb, ship.strip()))
        return cls(tuple(actions))

    def to_json(self) -> dict[str, Any]:
        return {"apply": [f"{verb} {ship}" for verb, ship in self.actions]}


@quick_init
@dataclass(frozen=True, slots=True)
class ReturnPorts:
    """Return to Port: ship -> port, for Russian ships that may choose."""

    ports: tuple[tuple[str, str], ...]

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "ReturnPorts":
        return cls(_mapping(raw, "ports"))

    def to_json(self) -> dict[str, Any]:
        return {"ports": dict(self.ports)}


READERS = {
    Kind.SORTIE: Sortie.from_json,
    Kind.NAVO: navo_from_json,
    Kind.REROLL: UseMarker.from_json,
    Kind.SEIZE: UseMarker.from_json,
    Kind.BLOCKADE: UseMarker.from_json,
    Kind.DICE: DiceCount.from_json,
    Kind.CRITICALS: ShipList.from_json,
    Kind.MINES: ShipList.from_json,
    Kind.ATTACK: ShipList.from_json,
    Kind.HITS: HitAllocation.from_json,
    Kind.RETURN: ReturnPorts.from_json,
    Kind.TOP: ShipList.from_json,
}
