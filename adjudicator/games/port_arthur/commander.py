"""An automatic Port Arthur player that writes orders files, as a person would: the
demo's players, and the test suite's for complete campaigns by email.

Its first orders carry standing orders for every policy (dice, hits, criticals,
re-rolls, first fire, blockade, return ports, mines); after that it writes one
message when asked to sortie and one operations plan per turn, so a whole turn needs
few messages. Its choices are random among sensible ones (``rng`` makes a game
reproducible).
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from adjudicator.engine import Decision
from adjudicator.games.port_arthur.data import JAPAN

STANDING = {
    "japan": ["reroll: yes if turn < 4", "seize: yes", "dice: auto", "criticals: auto", "hits: auto",
              "blockade: yes if score >= 1", "mines: auto", "attack: auto"],
    "russia": ["reroll: yes if turn >= 4", "seize: yes", "dice: auto", "criticals: auto", "hits: auto",
               "return: auto", "mines: auto"],
}


def quoted(name: str) -> str:
    return f'"{name}"'


class AutoCommander:
    """Writes ``side``'s orders when the adjudicator asks for them."""

    def __init__(self, side: str, rng: random.Random) -> None:
        self.side = side
        self.rng = rng
        self.sent_standing = False

    def orders(self, decision: Decision, state: Any, header: Mapping[str, Any]) -> str:
        """A whole orders file answering ``decision`` (and, the first time, carrying
        the standing orders)."""
        lines = ["BEGIN ORDERS"] + [f"{key}: {value}" for key, value in header.items() if value is not None]
        if not self.sent_standing:
            lines += STANDING[self.side]
            self.sent_standing = True
        lines += self.block(decision, state)
        lines.append("END ORDERS")
        return "\n".join(lines) + "\n"

    def block(self, decision: Decision, state: Any) -> list[str]:
        kind, options = decision.kind, decision.options
        if kind == "sortie":
            return self.sortie(options)
        if kind == "navo":
            return self.operations(options)
        if kind in ("reroll", "seize", "blockade"):
            return [f"{kind}: {self.rng.choice(['yes', 'no'])}"]
        if kind == "return":
            return ["return:"] + [f"  {quoted(ship)} to {quoted(self.rng.choice(ports))}"
                                  for ship, ports in options["ships"].items()]
        return [f"{kind}: auto"]

    def sortie(self, options: Mapping[str, Any]) -> list[str]:
        lines = ["sortie:"]
        for ship, places in options["ships"].items():
            if "shipyard" in places:
                lines.append(f"  {quoted(ship)} to shipyard")
            elif places and self.rng.random() < 0.7:
                lines.append(f"  {quoted(ship)} to {quoted(self.rng.choice(places))}")
        if self.side == JAPAN and options.get("land") and options.get("meeples", 0) > 0:
            spaces = self.rng.sample(options["land"], min(len(options["land"]), options["meeples"]))
            lines.append(f"  land in {', '.join(spaces)}")
        if len(lines) == 1:
            lines.append("  none")
        return lines

    def operations(self, options: Mapping[str, Any]) -> list[str]:
        """Fight where stronger; move one or two squadrons somewhere quiet; else pass."""
        lines = ["operations:", "  1. battle anywhere if stronger there"]
        moves = [m for m in options["move"] if not m["port"]]
        self.rng.shuffle(moves)
        number = 2
        for move in moves[:2]:
            lines.append(f"  {number}. move squadron from {quoted(move['from'])} to "
                         f"{quoted(self.rng.choice(move['to']))} if no enemy there")
            number += 1
        lines.append(f"  {number}. pass")
        return lines
