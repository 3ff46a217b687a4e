"""The orders language as the plug-in contract wants it: ``read`` gives an
:class:`~adjudicator.orders.model.OrderSet` whose blocks print themselves in canonical
form (and read back the same), ``merge_orders`` keeps the standing orders, ``CODES``.

The blocks carry the values of :class:`~.reader.RjwOrders`; :func:`to_rjw` gives them back
to the plans (:mod:`..plans`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from adjudicator.games.russo_japanese_war.data import RESHUFFLE_CARD, default_data
from adjudicator.games.russo_japanese_war.language.reader import (  # noqa: F401  (CODES, E5xx: the plug-in contract)
    CODES, ALWAYS, Attack, CardUse, Condition, EventRule, Move, NavalPlan, RjwOrders, read_rjw,
)
from adjudicator.orders.model import Credentials, Header, OrderSet, merge, order_blocks
from adjudicator.orders.problems import ProblemLog
from adjudicator.orders.text import CleanText

#: field of RjwOrders -> (heading, standing order?)
BLOCKS = {
    "extra_card": ("replenish", True),
    "moves": ("move", False),
    "attacks": ("attack", False),
    "events": ("events", True),
    "advance": ("advance", True),
    "losses": ("losses", True),
    "retreat_toward": ("retreat", True),
    "chain": ("chain", True),
    "ar": ("AR", True),
    "cards": ("cards", False),
    "forced_moves": ("forced move", False),
    "forced_attacks": ("forced attack", False),
    "reactions": ("react", True),
    "naval": ("naval", True),
}
BLOCK_ORDER = tuple(heading for heading, _ in BLOCKS.values())


@dataclass(frozen=True)
class RjwBlock:
    """One block of orders: its heading (``kind``) and the values it holds."""

    kind: str
    values: tuple
    standing: bool

    def canonical_lines(self) -> list[str]:
        entries = [entry for value in self.values for entry in _entries(self.kind, value)]
        return [f"{self.kind}:"] + [f"  {line}" for line in entries or ["none"]]


def _card(card: str) -> str:
    data = default_data()
    return str(data.cards[card]["japan"].number) if card in data.cards else card


def _condition(condition: Condition) -> str:
    parts = []
    for clause in condition.clauses:
        if clause.kind == "result":
            parts.append("result in " + ", ".join(clause.value))
        elif clause.kind == "target":
            parts.append(f"target is {clause.value}")
        elif clause.kind == "role":
            parts.append("attacking" if clause.value == "attacker" else "defending")
        elif clause.kind == "enemy_played":
            parts.append(f"enemy played {_card(clause.value)}")
        elif clause.kind == "top_discard":
            parts.append(f"top discard is {_card(clause.value)}")
        elif clause.kind == "hex":
            parts.append(f"hex {clause.value[0]} {clause.value[1]}")
        else:
            parts.append(f"{clause.kind} {clause.op} {clause.value}")
    return (" if " + " and ".join(parts)) if parts else ""


def _entries(kind: str, value: Any) -> list[str]:
    if isinstance(value, Move):
        return [("rail " if value.rail else "") + f"{value.unit} {'-'.join(value.path)}"]
    if isinstance(value, Attack):
        support = "" if value.support is None else " support" + (
            f" using {_card(value.support_card)}" if value.support_card else "") + _condition(value.support)
        return [f"{value.target} with {', '.join(value.units)}{support}"]
    if isinstance(value, EventRule):
        return [_card(value.card) + _condition(value.condition)]
    if isinstance(value, CardUse):
        using = f" using {_card(value.card)}" if value.card and value.use != "event" else ""
        text = {"done": "done",
                "event": f"event {_card(value.card or '')}" + (f" on {', '.join(value.units)}" if value.units else ""),
                "forced-march": f"forced march {value.phase}",
                "strategic": f"strategic {value.unit} {'-'.join(value.path)}",
                "transport": f"transport {value.unit} to {value.to}",
                "reorganise": f"reorganise {value.unit}"}[value.use]
        return [text + using + (_condition(value.condition) if value.condition else "")]
    if isinstance(value, NavalPlan):
        return _naval_entries(value)
    if kind == "replenish":
        return ["no extra card"] if value is None else ["extra card" + _condition(value)]
    if kind == "advance":
        mode, into = value
        return [{"always": "always", "never": "never", "key": "key locations"}[mode]] + \
            [f"{hex_} with {', '.join(units)}" for hex_, units in into]
    if kind == "losses":
        protect, first = value
        return ([f"protect {', '.join(protect)}"] if protect else []) + [f"{first} first"]
    if kind == "retreat":
        toward, by_combat, by_unit = value
        return ([f"toward {toward}"] if toward else []) + [f"from {at} toward {to}" for at, to in by_combat] + \
            [f"{unit} to {', '.join(hexes)}" for unit, hexes in by_unit]
    if kind == "chain":
        first, order = value
        return ([", ".join(first)] if first else []) + ([f"{order} first"] if order != "weakest" else [])
    if kind == "AR":
        return [value] if value else []
    return [str(value)]


def _naval_entries(plan: NavalPlan) -> list[str]:
    lines = [f"flagship {plan.flagship}"] if plan.flagship else []
    for fleet in plan.sorties:
        card = plan.sortie_card if fleet == "port-arthur" else None
        lines.append(f"sortie {fleet}" + (f" using {_card(card)}" if card else ""))
    if plan.call_off_below is not None:
        lines.append(f"call off below {plan.call_off_below}")
    lines += [f"intercept {fleet}" for fleet in plan.intercept] + list(plan.strikes)
    if plan.akiyama:
        lines.append("akiyama")
    if plan.hit_first:
        lines.append("hit " + ", ".join(plan.hit_first))
    if plan.withdraw:
        lines.append(f"withdraw {plan.withdraw}")
    if plan.line:
        lines.append("line " + ", ".join(plan.line))
    if plan.repair:
        lines.append("repair " + ", ".join(plan.repair))
    return lines


def to_blocks(orders: RjwOrders, given: set[str]) -> tuple:
    """The blocks of ``orders``, for the headings the file gave."""
    blocks = []
    for name, (heading, standing) in BLOCKS.items():
        if heading not in given:
            continue
        if name == "advance":
            values: tuple = ((orders.advance, orders.advance_into),)
        elif name == "losses":
            values = ((orders.protect, orders.losses_first),)
        elif name == "retreat_toward":
            values = ((orders.retreat_toward, orders.retreat_from, orders.retreat_units),)
        elif name == "chain":
            values = ((orders.chain_first, orders.chain_order),)
        elif name in ("moves", "attacks", "events", "cards", "forced_moves", "forced_attacks", "reactions"):
            values = tuple(getattr(orders, name) or ())
        else:
            values = (getattr(orders, name),)
        blocks.append(RjwBlock(heading, values, standing))
    return order_blocks(blocks, BLOCK_ORDER)


def to_rjw(orders: OrderSet | None) -> RjwOrders | None:
    """The orders' values again, for the answers."""
    if orders is None:
        return None
    header = orders.header
    values: dict[str, Any] = {}
    for block in orders.blocks:
        name = next(n for n, (heading, _) in BLOCKS.items() if heading == block.kind)
        if name == "advance":
            values["advance"], values["advance_into"] = block.values[0]
        elif name == "losses":
            values["protect"], values["losses_first"] = block.values[0]
        elif name == "retreat_toward":
            values["retreat_toward"], values["retreat_from"], values["retreat_units"] = block.values[0]
        elif name == "chain":
            values["chain_first"], values["chain_order"] = block.values[0]
        elif name in ("moves", "attacks", "events", "cards", "forced_moves", "forced_attacks", "reactions"):
            values[name] = tuple(block.values)
        else:
            values[name] = block.values[0]
    return RjwOrders(header={"campaign": header.campaign, "side": header.side, "turn": header.turn}, **values)


HEADINGS = {"replenish_block": "replenish", "move_block": "move", "attack_block": "attack",
            "events_block": "events", "advance_block": "advance", "losses_block": "losses",
            "retreat_block": "retreat", "chain_block": "chain", "ar_block": "AR", "cards_block": "cards", "naval_block": "naval",
            "forced_move_block": "forced move", "forced_attack_block": "forced attack", "react_block": "react"}


def read(clean: CleanText, log: ProblemLog, state: Any = None, world: Any = None) -> OrderSet | None:
    """Parse and check ``clean``; every problem goes to ``log``."""
    given: set[str] = set()
    orders = read_rjw(clean.text, log, state, None, given)
    if orders is None:
        return None
    h = orders.header
    header = Header(campaign=h.get("campaign"), side=h.get("side"), turn=h.get("turn"), step=h.get("step"),
                    game=h.get("game"), entropy=h.get("entropy"), reveal=h.get("reveal"))
    return OrderSet(header, to_blocks(orders, given),
                    Credentials(password=h.get("password"), signature=h.get("signature")))


def merge_orders(standing: OrderSet | None, new: OrderSet) -> OrderSet:
    return merge(standing, new, BLOCK_ORDER)


__all__ = ["CODES", "read", "merge_orders", "to_rjw", "RESHUFFLE_CARD", "ALWAYS", "fields"]
