"""Automatic players for Port Arthur.

:class:`RandomPlayer` answers every question with a legal answer chosen at random:
the opponent of the simulation tests, the benchmark and the demo. It builds
composite answers (hit allocations, critical-hit targets) one legal step at a time,
with the same step rules the game checks answers against.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

from adjudicator.engine.requests import Decision
from adjudicator.games.port_arthur.answers import Kind
from adjudicator.games.port_arthur.rules.battle import (
    DAMAGED,
    INTACT,
    critical_steps,
    hit_steps,
    strike,
)
from adjudicator.games.port_arthur.state import State


class RandomPlayer:
    """Chooses uniformly among legal answers (``rng`` makes it reproducible)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.below = below(rng)
        self._by_kind: dict[str, Callable[[Any, State], dict]] = {
            Kind.SORTIE: self.sortie,
            Kind.NAVO: self.navo,
            Kind.REROLL: self.yes_or_no,
            Kind.SEIZE: self.yes_or_no,
            Kind.BLOCKADE: self.yes_or_no,
            Kind.DICE: self.dice,
            Kind.CRITICALS: self.criticals,
            Kind.HITS: self.hits,
            Kind.RETURN: self.return_ports,
            Kind.MINES: self.pick_ships,
            Kind.ATTACK: self.pick_ships,
        }

    def __call__(self, decision: Decision, state: State) -> Mapping[str, Any]:
        return self._by_kind[decision.kind](decision.options, state)

    def sortie(self, options: dict, state: State) -> dict:
        chance, pick = self.rng.random, self.below
        moves = {name: places[pick(len(places))] for name, places in options["ships"].items()
                 if places and chance() < 0.6}
        spaces = [s for s in options["land"] if chance() < 0.7][: options["meeples"]]
        return {"moves": moves, "land": spaces}

    def navo(self, options: dict, state: State) -> dict:
        """A battle (weighted twice), a move, or a pass, uniformly."""
        battles, moves = options["battle"], options["move"]
        pick = self.below(2 * len(battles) + len(moves) + 1)  # rng.randrange(n)
        if pick < 2 * len(battles):
            return {"battle": battles[pick // 2]}
        if pick == 2 * len(battles) + len(moves):
            return {"pass": True}
        move = moves[pick - 2 * len(battles)]
        answer = {"move": move["from"], "to": self.choice(move["to"])}
        if move["port"]:
            chance = self.rng.random
            answer["ships"] = [n for n in move["ships"] if chance() < 0.7] or move["ships"][:1]
        return answer

    def yes_or_no(self, options: dict, state: State) -> dict:
        return {"use": self.choice(options["use"])}

    def dice(self, options: dict, state: State) -> dict:
        return {"count": self.choice(options["count"])}

    def criticals(self, options: dict, state: State) -> dict:
        names = options["targets"]
        statuses = _statuses(state, names)
        chosen = []
        for _ in range(options["count"]):
            steps = critical_steps(statuses)
            if not steps:
                break
            i = self.choice(steps)
            statuses = strike(statuses, i)
            chosen.append(names[i])
        return {"ships": chosen}

    def hits(self, options: dict, state: State) -> dict:
        names = options["ships"]
        statuses = _statuses(state, names)
        defenses = tuple(state.ships[n].defense for n in names)
        left, actions = options["hits"], []
        while steps := hit_steps(statuses, defenses, left):
            action, i, used = self.choice(steps)
            statuses, left = strike(statuses, i), left - used
            actions.append(f"{action} {names[i]}")
        return {"apply": actions}

    def return_ports(self, options: dict, state: State) -> dict:
        return {"ports": {name: self.choice(ports) for name, ports in options["ships"].items()}}

    def choice(self, items: Sequence[Any]) -> Any:
        """``rng.choice(items)``, drawn as it draws (:func:`below`)."""
        if not items:
            raise IndexError("Cannot choose from an empty sequence")
        return items[self.below(len(items))]

    def pick_ships(self, options: dict, state: State) -> dict:
        return {"ships": self.rng.sample(options["ships"], options["count"])}


def _statuses(state: State, names: list[str]) -> tuple[int, ...]:
    return tuple(DAMAGED if state.ships[n].damaged else INTACT for n in names)


def below(rng: random.Random) -> Callable[[int], int]:
    """``rng.randrange(n)`` for n >= 1, drawn the way it draws (a few random bits, drawn
    again while they reach ``n``) without its layers of calls: the same numbers from the
    same generator, so that seeded games stay the games they were."""
    bits = rng.getrandbits

    def draw(n: int) -> int:
        if n <= 0:
            raise ValueError(f"empty range for a draw below {n}")
        width = n.bit_length()
        value = bits(width)
        while value >= n:
            value = bits(width)
        return value

    return draw


def random_dice(rng: random.Random) -> Callable[[Any], list[int]]:
    """Dice for simulations (not for campaigns, whose dice are verifiable): the dice
    ``rng.randint(1, sides)`` gives, drawn the way it draws them (a die is a few random
    bits, drawn again while they exceed the faces) without its layers of calls."""
    bits = rng.getrandbits

    def dice(roll: Any) -> list[int]:
        sides = roll.sides
        if sides < 1:
            return [rng.randint(1, sides) for _ in range(roll.count)]
        width = sides.bit_length()
        if roll.count == 1:  # most rolls: one die
            value = bits(width)
            while value >= sides:
                value = bits(width)
            return [value + 1]
        rolled = []
        for _ in range(roll.count):
            value = bits(width)
            while value >= sides:
                value = bits(width)
            rolled.append(value + 1)
        return rolled

    return dice
