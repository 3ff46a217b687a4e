"""An automatic commander that writes orders files as a player would (the demo):
standing orders sent once, in the orders language, then only the header."""

from __future__ import annotations

import random
from typing import Any, Mapping

from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.data import load_data
from adjudicator.games.tsushima_1905.language.model import spell

ENEMY_FLAGSHIP = {"japan": "Kniaz Suvorov", "russia": "Mikasa"}


def standing_orders(side: str) -> list[str]:
    """Each squadron follows its leader, the leaders close the enemy flagship; fire at
    the nearest battleship in broadside; every defensive die; torpedoes at 2 attacks."""
    data = load_data()
    moves = ["move:"]
    for squadron in data.squadrons:
        if squadron.side == side:
            moves.append(f"  {spell(squadron.leader)}: close {ENEMY_FLAGSHIP[side]}, else ahead")
            moves.append(f"  {spell(squadron.name)}: follow {spell(squadron.leader)}, else ahead")
    return moves + [
        "fire:",
        "  all: at nearest battleship in broadside, else nearest; keep 1 for repairs",
        "armour: max; keep 1 for repairs",
        "counter-torpedo: max",
        "torpedo: yes if attacks >= 2",
        "torpedo targets: battleships first, most damaged first",
        "repairs: all dice, flooding first",
        "prime: all",
        "collision: avoid",
    ]


class Commander:
    """Writes ``side``'s orders when the adjudicator asks for them."""

    def __init__(self, side: str, rng: random.Random) -> None:
        self.side = side
        self.rng = rng
        self.sent_standing = False

    def orders(self, decision: Decision, state: Any, header: Mapping[str, Any]) -> str:
        lines = ["BEGIN ORDERS"] + [f"{key}: {value}" for key, value in header.items() if value is not None]
        if not self.sent_standing:
            lines += standing_orders(self.side)
            self.sent_standing = True
        lines.append("END ORDERS")
        return "\n".join(lines) + "\n"
