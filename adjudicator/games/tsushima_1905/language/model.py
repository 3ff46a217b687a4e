"""Tsushima 1905 orders as data (rulings §4.2): frozen dataclasses, one per block,
each with its canonical text for receipts. Every block here is a standing order: it
stays in force from turn to turn until a new block of the same kind replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from adjudicator.orders.keywords import with_french_words

GAME = "tsushima-1905"
BLOCK_ORDER = ("order", "move", "fire", "armour", "counter-torpedo", "torpedo", "torpedo targets",
               "repairs", "prime", "collision", "concede", "carry on")
ALL = "all"
#: The words that end a name (grammar/tsushima-1905.lark), in English and in French.
FOLLOW_WORDS = with_french_words(GAME, ("and", "if", "unless", "cp", "fires", "floods", "flooding", "within", "else",
                                        "otherwise", "bearing", "in", "first", "for"))


def spell(name: str) -> str:
    """A name as the grammar reads it back: quoted when a later word would end it."""
    return f'"{name}"' if any(w.casefold() in FOLLOW_WORDS for w in name.split()[1:]) else name


@dataclass(frozen=True)
class Clause:
    """One test of a condition: ``cp``, ``fires``, ``floods`` of a ship ("" = the ship
    the order is about) compared with ``value``; ``attacks``, ``turn``; ``offense``,
    ``defense``; ``admiral`` / ``enemy-admiral`` (that side has its Admiral this turn);
    ``within`` (``ship`` within ``value`` 1/1000 BL of the ship the order is about);
    ``cards`` / ``enemy-cards`` (the cards left in that side's draw pile)."""

    kind: str
    ship: str = ""
    cmp: str = ""
    value: int = 0

    def text(self) -> str:
        if self.kind in ("offense", "defense", "admiral"):
            return self.kind
        if self.kind == "enemy-admiral":
            return "enemy admiral"
        if self.kind == "within":
            return f"{spell(self.ship)} within {self.value / 1000:g}"
        subject = {"enemy-cards": "enemy cards"}.get(self.kind, self.kind)
        if self.kind in ("cp", "fires", "floods") and self.ship:
            subject = f"{spell(self.ship)} {self.kind}"
        return f"{subject} {self.cmp} {self.value}"


@dataclass(frozen=True)
class Condition:
    clauses: tuple[Clause, ...]
    negate: bool = False

    def text(self) -> str:
        return f"{'unless' if self.negate else 'if'} {' and '.join(c.text() for c in self.clauses)}"


def _with(condition: Condition | None) -> str:
    return f" {condition.text()}" if condition else ""


@dataclass(frozen=True)
class RelativeMove:
    kind: str                 # follow | close | open | steer | station | broadside | ram
    ship: str = ""
    heading: int = 0
    bearing: int = 0
    distance: int = 0         # 1/1000 BL

    def text(self) -> str:
        if self.kind == "steer":
            return f"steer {self.heading}"
        if self.kind == "station":
            return f"station on {spell(self.ship)} bearing {self.bearing} distance {self.distance / 1000:g}"
        return f"{self.kind} {spell(self.ship)}"


@dataclass(frozen=True)
class MoveOption:
    """Explicit elements (``A``, ``S45``, ``P30``, ``MAX`` = aheads as far as allowed),
    or a relative move followed by elements, or ``auto`` (the move the default for
    silence makes: the planner's best, see :mod:`..plans`); with an optional
    condition."""

    elements: tuple[str, ...] = ()
    relative: RelativeMove | None = None
    condition: Condition | None = None
    auto: bool = False

    def text(self) -> str:
        if self.auto:
            return "auto" + _with(self.condition)
        words = [self.relative.text()] if self.relative else []
        words += ["ahead max" if e == "MAX" else e for e in self.elements]
        return ", ".join(words) + _with(self.condition)


@dataclass(frozen=True)
class MoveOrder:
    who: str                  # a ship, a squadron, or "all"
    options: tuple[MoveOption, ...]

    def text(self) -> str:
        return f"{spell(self.who)}: " + ", else ".join(o.text() for o in self.options)


@dataclass(frozen=True)
class TargetRule:
    kind: str                 # ship | nearest | flagship | most-damaged
    ship: str = ""
    ship_class: str = ""      # for nearest: battleship | cruiser | ""
    broadside: bool = False
    condition: Condition | None = None
    arc: str = ""             # "in bow" | "in starboard" | "in stern" | "in port": only a target in that arc

    def text(self) -> str:
        word = {"ship": spell(self.ship), "nearest": f"nearest {self.ship_class}".strip(), "flagship": "flagship",
                "most-damaged": "most damaged"}[self.kind]
        where = " in broadside" if self.broadside else (f" in {self.arc}" if self.arc else "")
        return word + where + _with(self.condition)


@dataclass(frozen=True)
class FireOrder:
    """``targets``: the ``at`` chain of the salvo; ``salvos``: the chains of further
    salvos, each at a target of its own in an arc of its own (option ``split_fire``,
    R-FIRE-2). ``dice`` caps each salvo; ``keep`` is kept from them all. ``auto``
    (no ``at`` chain then): the salvo the default for silence fires after the move
    made (see :mod:`..plans`)."""

    who: str
    targets: tuple[TargetRule, ...] = ()
    dice: str = "max"         # max | auto | a number
    keep: int = 0
    hold: Condition | None = None
    hold_always: bool = False
    salvos: tuple[tuple[TargetRule, ...], ...] = ()
    auto: bool = False

    @property
    def chains(self) -> tuple[tuple[TargetRule, ...], ...]:
        return ((self.targets,) if self.targets else ()) + self.salvos

    def lines(self) -> list[str]:
        parts = ["auto"] if self.auto else []
        for chain in self.chains:
            parts.append("at " + ", else ".join(t.text() for t in chain))
        if self.dice != "max":
            parts.append(f"dice {self.dice}")
        if self.keep:
            parts.append(f"keep {self.keep} for repairs")
        if self.hold_always or self.hold:
            parts.append("hold fire" + _with(self.hold))
        return [f"{spell(self.who)}: " + "; ".join(parts or ["dice max"])]


class _Block:
    kind: ClassVar[str]
    standing: ClassVar[bool] = True

    def entries(self) -> list[str]:
        raise NotImplementedError

    def canonical_lines(self) -> list[str]:
        return [f"{self.kind}:"] + [f"  {entry}" for entry in self.entries()]


@dataclass(frozen=True)
class ActivationOrder(_Block):
    kind: ClassVar[str] = "order"
    ships: tuple[str, ...]
    others: bool = True

    def entries(self) -> list[str]:
        return [", ".join(tuple(map(spell, self.ships)) + (("others",) if self.others else ()))]


@dataclass(frozen=True)
class MovePlans(_Block):
    kind: ClassVar[str] = "move"
    orders: tuple[MoveOrder, ...]

    def entries(self) -> list[str]:
        return [order.text() for order in self.orders]


@dataclass(frozen=True)
class FirePlans(_Block):
    kind: ClassVar[str] = "fire"
    orders: tuple[FireOrder, ...]

    def entries(self) -> list[str]:
        return [line for order in self.orders for line in order.lines()]


@dataclass(frozen=True)
class DicePolicy(_Block):
    """``armour`` and ``counter-torpedo``: real dice by the attack dice, or a rule;
    ``per_ship``: the choices of particular ships, squadrons or ``all`` (a ship's own
    wins over its squadron's, which wins over ``all``'s and the block's general one)."""

    kind: ClassVar[str] = "armour"
    by_attack: tuple[tuple[int, int], ...] = ()   # (attack dice, real dice)
    rule: str = "auto"                             # max | none | auto | a number
    keep: int = 0
    per_ship: tuple[tuple[str, "DicePolicy"], ...] = ()

    def own_entries(self) -> list[str]:
        out = [f"{'none' if n == 0 else n} against {a} {'die' if a == 1 else 'dice'}" for a, n in self.by_attack]
        out += [self.rule] if self.rule != "auto" or not out else []
        return out + ([f"keep {self.keep} for repairs"] if self.keep else [])

    def entries(self) -> list[str]:
        return self.own_entries() + [f"{spell(who)}: " + "; ".join(choice.own_entries())
                                     for who, choice in self.per_ship]


@dataclass(frozen=True)
class CounterPolicy(DicePolicy):
    kind: ClassVar[str] = "counter-torpedo"


@dataclass(frozen=True)
class TorpedoPolicy(_Block):
    kind: ClassVar[str] = "torpedo"
    use: str = "auto"                              # yes | no | auto
    condition: Condition | None = None

    def entries(self) -> list[str]:
        return [self.use + _with(self.condition)]


@dataclass(frozen=True)
class TargetPriorities(_Block):
    kind: ClassVar[str] = "torpedo targets"
    priorities: tuple[str, ...]                    # ship names, or one of RANKINGS

    RANKINGS: ClassVar[tuple[str, ...]] = ("battleships first", "most damaged first", "fewest cp first")

    def entries(self) -> list[str]:
        if not self.priorities:
            return []
        return [", ".join(spell(p) if p not in self.RANKINGS else p for p in self.priorities)]


@dataclass(frozen=True)
class RepairPolicy(_Block):
    kind: ClassVar[str] = "repairs"
    dice: str = "all"                              # all | a number
    first: str = "flood"
    keep: int = 0
    per_ship: tuple[tuple[str, "RepairPolicy"], ...] = ()   # as DicePolicy's

    def own_entry(self) -> str:
        return (f"{self.dice} dice, {'flooding' if self.first == 'flood' else 'fire'} first"
                + (f", keep {self.keep} for repairs" if self.keep else ""))

    def entries(self) -> list[str]:
        return [self.own_entry()] + [f"{spell(who)}: {choice.own_entry()}" for who, choice in self.per_ship]


@dataclass(frozen=True)
class PrimePolicy(_Block):
    kind: ClassVar[str] = "prime"
    stop_after: int | None = None

    def entries(self) -> list[str]:
        return ["all" if self.stop_after is None else f"stop after {self.stop_after}"]


@dataclass(frozen=True)
class CollisionPolicy(_Block):
    kind: ClassVar[str] = "collision"
    allow: bool = False

    def entries(self) -> list[str]:
        return ["allow" if self.allow else "avoid"]


@dataclass(frozen=True)
class Concession(_Block):
    """``concede: yes``: the side concedes at the next stop its orders answer, and the
    game ends at once with the other side the winner (R-END-2); ``concede: no``
    withdraws it."""

    kind: ClassVar[str] = "concede"
    concede: bool = True

    def entries(self) -> list[str]:
        return ["yes" if self.concede else "no"]


@dataclass(frozen=True)
class CarryOn(_Block):
    """``carry on: yes``: at a stop of the cadence (the ``orders`` question, rulings
    §4.1), the orders on file carry play on from here, unchanged -- what silence does
    at the deadline, said at once. Not a standing order: it answers the stop it is sent
    for (and the orders it keeps are then the ones that brought play to the next)."""

    kind: ClassVar[str] = "carry on"
    standing: ClassVar[bool] = False

    def entries(self) -> list[str]:
        return ["yes"]
