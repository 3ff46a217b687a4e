"""Port Arthur orders as data: one frozen dataclass per block.

Each block answers one kind of decision (the ``Kind`` values of
:mod:`adjudicator.games.port_arthur.answers`) and prints itself in canonical form.
Ship, zone and port names are the canonical names of the board and counter sheet.

Standing orders (policies) persist until replaced: re-roll, seize, dice, critical
hits, hits, blockade, return and mines. Sortie orders, the operations plan and the
attack on Port Arthur answer only the step they are sent for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from adjudicator.games.port_arthur.answers import Kind
from adjudicator.orders.driver import terminal_regexp

#: The canonical order of blocks (the order in which the game asks).
BLOCK_ORDER: tuple[str, ...] = (
    Kind.ATTACK,
    Kind.SORTIE,
    Kind.NAVO,
    Kind.REROLL,
    Kind.SEIZE,
    Kind.DICE,
    Kind.CRITICALS,
    Kind.HITS,
    Kind.BLOCKADE,
    Kind.RETURN,
    Kind.MINES,
    Kind.TOP,
)

GAME = "port-arthur"


@lru_cache(maxsize=1)
def _bare_name() -> re.Pattern:
    """The grammar's NAME terminal: what a name may be without quotes."""
    return terminal_regexp(GAME, "NAME")


def show(name: str) -> str:
    """``name`` as written in canonical orders: quoted when it could not be read bare."""
    return name if _bare_name().fullmatch(name) else f'"{name}"'


def show_all(names: tuple[str, ...]) -> str:
    return ", ".join(show(n) for n in names)


# -- conditions ------------------------------------------------------------------

NUMBER_TESTS = ("turn", "score")


@dataclass(frozen=True)
class Clause:
    """One test of a condition.

    Zone tests (``enemy``, ``no enemy``, ``stronger``, ``weaker``, ``faster``,
    ``slower``) look at ``zone``, or, when it is None, at the order's own zone
    ("there"): the battle's zone, or a move's destination. Number tests compare the
    turn or the score (the CP marker counted toward the player's own side).
    """

    test: str
    zone: str | None = None
    op: str | None = None
    value: int | None = None

    def text(self) -> str:
        if self.test in NUMBER_TESTS:
            return f"{self.test} {self.op} {self.value}"
        where = "there" if self.zone is None else f"in {show(self.zone)}"
        return f"{self.test} {where}"


@dataclass(frozen=True)
class Condition:
    """All ``clauses`` hold (``if``), or not all of them hold (``unless``)."""

    clauses: tuple[Clause, ...]
    negated: bool = False

    def text(self) -> str:
        return ("unless " if self.negated else "if ") + " and ".join(c.text() for c in self.clauses)


def _with_condition(text: str, condition: Condition | None) -> str:
    return text if condition is None else f"{text} {condition.text()}"


# -- the operations plan -----------------------------------------------------------


@dataclass(frozen=True)
class Battle:
    """Engage the enemy in ``zone`` (None: in any zone where the condition holds)."""

    zone: str | None

    def text(self) -> str:
        return "battle anywhere" if self.zone is None else f"battle in {show(self.zone)}"


@dataclass(frozen=True)
class Move:
    """Move the squadron at ``origin`` to ``destination``; from a port, ``ships`` only."""

    origin: str
    destination: str
    ships: tuple[str, ...] | None = None

    def text(self) -> str:
        if self.ships is None:
            return f"move squadron from {show(self.origin)} to {show(self.destination)}"
        return f"move {show_all(self.ships)} from {show(self.origin)} to {show(self.destination)}"


@dataclass(frozen=True)
class Pass:
    def text(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Ask:
    """Stop and ask the player."""

    def text(self) -> str:
        return "ask"


Action = Battle | Move | Pass | Ask


@dataclass(frozen=True)
class PlanStep:
    action: Action
    condition: Condition | None = None

    def text(self) -> str:
        return _with_condition(self.action.text(), self.condition)


# -- blocks ------------------------------------------------------------------------


def _block(heading: str, entries: list[str]) -> list[str]:
    """A heading with one entry on its line, or several entries below it."""
    if len(entries) == 1:
        return [f"{heading}: {entries[0]}"]
    return [f"{heading}:"] + [f"  {entry}" for entry in entries]


@dataclass(frozen=True)
class SortieOrders:
    """Fleet Sortie Phases: ships to zones or to the shipyard; landings (Japan)."""

    kind: ClassVar[str] = Kind.SORTIE
    standing: ClassVar[bool] = False

    moves: tuple[tuple[str, str], ...] = ()
    everyone: str | None = None
    land: tuple[str, ...] = ()

    def canonical_lines(self) -> list[str]:
        entries = [f"{show(ship)} to {dest if dest == 'shipyard' else show(dest)}" for ship, dest in self.moves]
        if self.everyone is not None:
            target = self.everyone
            entries.append(f"all to {target if target == 'shipyard' else show(target)}")
        if self.land:
            entries.append(f"land in {show_all(self.land)}")
        return _block("sortie", entries or ["none"])


@dataclass(frozen=True)
class OperationsPlan:
    """Operations Phase: for each NAVO, the first step that is legal and whose condition holds."""

    kind: ClassVar[str] = Kind.NAVO
    standing: ClassVar[bool] = False

    steps: tuple[PlanStep, ...] = ()

    def canonical_lines(self) -> list[str]:
        return ["operations:"] + [f"  {i}. {step.text()}" for i, step in enumerate(self.steps, 1)]


YES, NO, KEEP, ASK = "yes", "no", "keep", "ask"


@dataclass(frozen=True)
class _FlagPolicy:
    """A yes/no question answered in advance: yes (if a condition holds), no, keep, or ask."""

    standing: ClassVar[bool] = True

    choice: str = ASK
    condition: Condition | None = None

    def canonical_lines(self) -> list[str]:
        return _block(self.kind, [_with_condition(self.choice, self.condition)])


@dataclass(frozen=True)
class RerollPolicy(_FlagPolicy):
    """Initiative: re-roll a tied roll-off (handing over the marker)?"""

    kind: ClassVar[str] = Kind.REROLL


@dataclass(frozen=True)
class SeizePolicy(_FlagPolicy):
    """Naval Battle A: as second player holding the initiative, seize first fire?"""

    kind: ClassVar[str] = Kind.SEIZE


@dataclass(frozen=True)
class BlockadePolicy(_FlagPolicy):
    """Blockade of Port Arthur: place it or keep it (``keep``: only keep one in place)?"""

    kind: ClassVar[str] = Kind.BLOCKADE


@dataclass(frozen=True)
class DicePolicy:
    """Naval Battle B: how many dice to fire: a number, auto (best odds) or ask."""

    kind: ClassVar[str] = Kind.DICE
    standing: ClassVar[bool] = True

    count: int | None = None
    ask: bool = False

    def canonical_lines(self) -> list[str]:
        value = ASK if self.ask else "auto" if self.count is None else str(self.count)
        return _block("dice", [value])


@dataclass(frozen=True)
class _TargetPolicy:
    """Ships named in order of preference, the rest chosen by the auto rule; or ask."""

    standing: ClassVar[bool] = True

    priority: tuple[str, ...] = ()
    ask: bool = False

    def canonical_lines(self) -> list[str]:
        value = ASK if self.ask else show_all(self.priority) if self.priority else "auto"
        return _block(self.kind, [value])


@dataclass(frozen=True)
class CriticalsPolicy(_TargetPolicy):
    """Critical hits: enemy ships to flip or sink, in order of preference."""

    kind: ClassVar[str] = Kind.CRITICALS


@dataclass(frozen=True)
class MinesPolicy(_TargetPolicy):
    """Detonation of the mines: own ships to take the mines, in order of preference."""

    kind: ClassVar[str] = Kind.MINES


@dataclass(frozen=True)
class TopPolicy(_TargetPolicy):
    """The fog of war: own ships to put on top of each squadron, in order of preference
    (carried out from the next Sortie Phase on; "auto": the highest firepower)."""

    kind: ClassVar[str] = Kind.TOP


@dataclass(frozen=True)
class AttackOrders(_TargetPolicy):
    """Attack on Port Arthur: Port Arthur Fleet ships to damage, in order of preference."""

    kind: ClassVar[str] = Kind.ATTACK
    standing: ClassVar[bool] = False


AUTO_PREFERENCE = "auto"
SINK_DAMAGED_FIRST = "sink damaged first"
FLIP_INTACT_FIRST = "flip intact first"


@dataclass(frozen=True)
class HitsPolicy:
    """Hits on target: ships to protect (most precious first) and what to prefer."""

    kind: ClassVar[str] = Kind.HITS
    standing: ClassVar[bool] = True

    protect: tuple[str, ...] = ()
    prefer: str = AUTO_PREFERENCE
    ask: bool = False

    def canonical_lines(self) -> list[str]:
        if self.ask:
            return ["hits: ask"]
        entries = []
        if self.protect:
            entries.append(f"protect {show_all(self.protect)}")
        if self.prefer != AUTO_PREFERENCE:
            entries.append(self.prefer)
        return _block("hits", entries or ["auto"])


@dataclass(frozen=True)
class ReturnOrders:
    """Return to Port: ports for Russian ships that may choose; the rest by the auto rule."""

    kind: ClassVar[str] = Kind.RETURN
    standing: ClassVar[bool] = True

    ports: tuple[tuple[str, str], ...] = ()
    others: str | None = None
    ask: bool = False

    def canonical_lines(self) -> list[str]:
        if self.ask:
            return ["return: ask"]
        entries = [f"{show(ship)} to {show(port)}" for ship, port in self.ports]
        if self.others is not None:
            entries.append(f"others to {show(self.others)}")
        return _block("return", entries or ["auto"])
