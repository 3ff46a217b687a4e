"""The answers to the game's questions, as frozen dataclasses read from plain JSON.

Reading checks only the shape (keys, types, move elements); whether an answer is
legal in the position is the rules' business. Every error quotes what was given
and says what is expected.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.tsushima_1905.geometry import ARCS


class Kind(str, Enum):
    ACTIVATE = "activate"
    ARMOR = "armor"
    TORPEDO = "torpedo"
    TORPEDO_TARGETS = "torpedo-targets"
    COUNTER_TORPEDO = "counter-torpedo"
    REPAIR = "repair"
    ORDERS = "orders"


AHEAD = "A"
ELEMENT = re.compile(r"^(?:(A)(\d*\.\d{1,3})?|([SP])(\d{1,2}))$")
UNITS_PER_BL = 1000        # a written length has at most three decimals: thousandths of a BL


def length_text(units: int) -> str:
    """A length in 1/1000 BL as the decimal base lengths players write: 600 -> "0.6"."""
    whole, rest = divmod(units, UNITS_PER_BL)
    return f"{whole}.{f'{rest:03d}'.rstrip('0') or '0'}"


@dataclass(frozen=True, slots=True)
class Element:
    """One move element: an ahead (degrees 0) or a turn (> 0 starboard, < 0 port).

    ``length`` is a partial ahead's length in thousandths of a BL (option
    ``partial_ahead``, R-MOVE-1); 0 is the rulings' whole base length."""

    degrees: int = 0
    length: int = 0

    @property
    def is_turn(self) -> bool:
        return self.degrees != 0

    @property
    def is_partial(self) -> bool:
        return self.length != 0

    @property
    def code(self) -> str:
        if not self.degrees:
            return AHEAD + (length_text(self.length) if self.length else "")
        return f"{'S' if self.degrees > 0 else 'P'}{abs(self.degrees)}"


@dataclass(frozen=True, slots=True)
class Fire:
    """One salvo: ``dice`` at ``target``; ``arc`` names the battery (bow, starboard,
    stern, port) when the answer chooses it (option ``split_fire``, R-FIRE-2)."""

    target: str
    dice: int
    arc: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "dice": self.dice} | ({"arc": self.arc} if self.arc else {})


@dataclass(frozen=True, slots=True)
class Activation:
    """``ship`` moves by ``moves`` and then fires its salvos (``fire`` empty: holds
    fire; more than one salvo only under ``split_fire``); or
    ``passed``: the Offense ends its prime activations early (R-SEQ-2). ``notes``:
    what the orders that gave the answer could not carry out as written, and what was
    done instead (R-ACT-2; told in the turn's narrative)."""

    ship: str = ""
    moves: tuple[Element, ...] = ()
    fire: tuple[Fire, ...] = ()
    passed: bool = False
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        if self.passed:
            return {"pass": True}
        fire: Any = "none" if not self.fire else (self.fire[0].to_json() if len(self.fire) == 1
                                                   else [salvo.to_json() for salvo in self.fire])
        return ({"ship": self.ship, "move": [e.code for e in self.moves], "fire": fire}
                | ({"notes": list(self.notes)} if self.notes else {}))


@dataclass(frozen=True, slots=True)
class Count:
    """A number of dice (armour), possibly about a ship (counter-torpedo)."""

    dice: int
    ship: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"ship": self.ship, "dice": self.dice} if self.ship else {"dice": self.dice}


@dataclass(frozen=True, slots=True)
class Choice:
    use: bool

    def to_json(self) -> dict[str, Any]:
        return {"use": self.use}


@dataclass(frozen=True, slots=True)
class Targets:
    ships: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ships": list(self.ships)}


@dataclass(frozen=True, slots=True)
class Repair:
    ship: str
    dice: int
    first: str

    def to_json(self) -> dict[str, Any]:
        return {"ship": self.ship, "dice": self.dice, "first": self.first}


def parse_element(text: Any) -> Element:
    """``A`` (ahead 1 BL), ``A0.6`` (a partial ahead of 0.6 BL, option
    ``partial_ahead``), ``S<deg>`` or ``P<deg>`` (turn 1-90 to starboard or port)."""
    match = ELEMENT.match(str(text).strip().upper()) if isinstance(text, str) else None
    if not match:
        raise IllegalAnswer(f"{text!r} is not a move element: write A (ahead), A0.5 (half an ahead), "
                            f"S<degrees> or P<degrees>, e.g. S45")
    if match.group(1):
        return ahead_of(ahead_units(match.group(2)), text) if match.group(2) else Element(0)
    degrees = int(match.group(4))
    if not 1 <= degrees <= 90:
        raise IllegalAnswer(f"{text!r}: a turn is 1 to 90 degrees (Movement and Turning)")
    return Element(degrees if match.group(3) == "S" else -degrees)


def ahead_units(decimal: str) -> int:
    """Decimal base lengths with at most three decimals, as 1/1000 BL, exactly."""
    whole, _, rest = decimal.partition(".")
    if len(whole) > 3:
        raise IllegalAnswer(f"{decimal[:12]!r}: an ahead is more than 0 and at most 1 BL for its CP")
    return int(whole or "0") * UNITS_PER_BL + int((rest + "000")[:3])


def ahead_of(units: int, written: Any) -> Element:
    """An ahead of ``units`` (1/1000 BL): a whole BL is the plain ahead; a partial
    ahead is more than 0 and less than 1 BL ("one length costs one CP", R-MOVE-1)."""
    if units == UNITS_PER_BL:
        return Element(0)
    if not 0 < units < UNITS_PER_BL:
        raise IllegalAnswer(f"{written!r}: an ahead is more than 0 and at most 1 BL for its CP (e.g. "
                            f"ahead 0.5, or A0.5 in an answer); write two aheads for more")
    return Element(0, units)


def _int(raw: Mapping[str, Any], key: str) -> int:
    value = raw.get(key)
    if type(value) is not int or value < 0:
        raise IllegalAnswer(f"{key!r} must be a whole number of 0 or more, got {value!r}")
    return value


def _text(raw: Mapping[str, Any], key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise IllegalAnswer(f"{key!r} must name a ship, got {value!r}")
    return value.strip()


def read_activation(raw: Mapping[str, Any]) -> Activation:
    if raw.get("pass") is True:
        return Activation(passed=True)
    moves = raw.get("move", [])
    if not isinstance(moves, (list, tuple)):
        raise IllegalAnswer(f"'move' is a list of elements such as [\"A\", \"S45\"], got {moves!r}")
    fire = raw.get("fire", "none")
    if fire in ("none", None):
        salvos: tuple[Fire, ...] = ()
    elif isinstance(fire, Mapping):
        salvos = (read_salvo(fire),)
    elif isinstance(fire, (list, tuple)) and fire and all(isinstance(f, Mapping) for f in fire):
        salvos = tuple(read_salvo(f) for f in fire)
    else:
        raise IllegalAnswer(f"'fire' is \"none\", {{ target, dice }} or (option split_fire) a list of "
                            f"{{ target, dice, arc }}, got {fire!r}")
    notes = raw.get("notes", [])
    if not isinstance(notes, (list, tuple)) or not all(isinstance(n, str) for n in notes):
        raise IllegalAnswer(f"'notes' is a list of texts, got {notes!r}")
    return Activation(_text(raw, "ship"), tuple(parse_element(e) for e in moves), salvos, notes=tuple(notes))


def read_salvo(raw: Mapping[str, Any]) -> Fire:
    dice = _int(raw, "dice")
    if dice < 1:
        raise IllegalAnswer("fire needs at least 1 die; write fire = \"none\" to hold fire")
    arc = raw.get("arc", "")
    if arc not in ("",) + ARCS:
        raise IllegalAnswer(f"'arc' is one of {', '.join(ARCS)}, got {arc!r}")
    return Fire(_text(raw, "target"), dice, arc)


def read_count(raw: Mapping[str, Any]) -> Count:
    ship = raw.get("ship", "")
    return Count(_int(raw, "dice"), ship if isinstance(ship, str) else "")


def read_choice(raw: Mapping[str, Any]) -> Choice:
    if not isinstance(raw.get("use"), bool):
        raise IllegalAnswer(f"'use' is true (torpedoes) or false (a normal turn), got {raw.get('use')!r}")
    return Choice(raw["use"])


def read_targets(raw: Mapping[str, Any]) -> Targets:
    ships = raw.get("ships")
    if not isinstance(ships, (list, tuple)) or not all(isinstance(s, str) for s in ships):
        raise IllegalAnswer(f"'ships' is a list of enemy ship names, got {ships!r}")
    return Targets(tuple(s.strip() for s in ships))


def read_repair(raw: Mapping[str, Any]) -> Repair:
    first = raw.get("first", "flood")
    if first not in ("fire", "flood"):
        raise IllegalAnswer(f"'first' is \"fire\" or \"flood\" (which tokens successes remove first), got {first!r}")
    return Repair(_text(raw, "ship"), _int(raw, "dice"), first)


@dataclass(frozen=True, slots=True)
class OrdersDue:
    """A side's orders for the play after a cadence stop (rulings §4.1): ``mark``
    names the orders (a fingerprint of their text); it must differ from the mark of
    the orders that took the game to the stop, so that only orders sent after the
    stop carry play past it. ``kept``, when orders say ``carry on`` or a side is
    silent at the deadline (:func:`carried_on_in_silence`): the mark of the orders on
    file that carry play on unchanged, which then count as the orders that brought
    play to the next stop (so that they carry it past this one only)."""

    mark: str
    kept: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"orders": self.mark} | ({"kept": self.kept} if self.kept else {})


def read_orders_due(raw: Mapping[str, Any]) -> OrdersDue:
    kept = raw.get("kept", "")
    if not isinstance(kept, str):
        raise IllegalAnswer(f"'kept' names the orders kept on file (a mark), got {kept!r}")
    return OrdersDue(_text(raw, "orders"), kept)


CARRIED_ON = "carried on after "


def mark_after(mark: str | None) -> str:
    """A mark that differs from ``mark``: the answer of a player (or a default) that
    carries on without new orders."""
    return CARRIED_ON + hashlib.sha256((mark or "").encode()).hexdigest()[:16]


def carried_on_in_silence(mark: str | None) -> OrdersDue:
    """The default for silence at a cadence stop whose orders came under ``mark``
    (rulings §4.3: the orders on file are "in force until replaced"; rules-notes.md,
    R-AUTO-2a): play carries on with the orders on file for this stop only. The answer
    keeps ``mark`` as the mark of the orders that bring play to the next stop, so
    that the same orders do not answer that one: the side is asked again. Where no
    orders brought play here (no mark, or the mark silence gave at the stop before),
    there are no orders to keep."""
    names_orders = bool(mark) and not mark.startswith(CARRIED_ON)
    return OrdersDue(mark_after(mark), mark if names_orders else "")


READERS: dict[Kind, Callable[[Mapping[str, Any]], Any]] = {
    Kind.ACTIVATE: read_activation,
    Kind.ARMOR: read_count,
    Kind.TORPEDO: read_choice,
    Kind.TORPEDO_TARGETS: read_targets,
    Kind.COUNTER_TORPEDO: read_count,
    Kind.REPAIR: read_repair,
    Kind.ORDERS: read_orders_due,
}
