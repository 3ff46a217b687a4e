"""Automatic players for Tsushima 1905: a random legal player and a reasonable one.

Both answer every question of the rules (``choose(decision, state)``), so that whole
games and campaigns can be played without a human: for tests, benchmarks and the
demo. They read the position through the rules' own functions (the same move
planner, arcs and line of fire) and never change the state, so that every answer they build is legal
by construction (the engine checks it again).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Decision, Draw
from adjudicator.games.tsushima_1905.answers import Element, carried_on_in_silence, mark_after
from adjudicator.games.tsushima_1905.data import GameData, load_data
from adjudicator.games.tsushima_1905.geometry import ARCS, Geometry, Pose
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.rules.gunnery import (
    arc_limit, bases_on_table, dice_in_arc, gun_dice_left, line_clear,
)
from adjudicator.games.tsushima_1905.rules.movement import MovePlan, free_moves, paid_moves_left, plan_move
from adjudicator.games.tsushima_1905.state import ACTIVE, Ship, State
from adjudicator.games.tsushima_1905.rules.table import Table, geometry_of, pose_of

Chooser = Callable[[Decision, State], Mapping[str, Any]]


def random_dice(rng: random.Random) -> Callable[[Any], list[int]]:
    """Simulation chance: dice for a Roll, a card for a Draw (indexes into its pile)."""
    def chance(request: Any) -> list[int]:
        if isinstance(request, Draw):
            return rng.sample(range(len(request.cards)), request.count)
        return [rng.randint(1, request.sides) for _ in range(request.count)]
    return chance


def _table(state: State, data: GameData, geo: Geometry) -> Table:
    return Table(state, data, geo, Options.from_json(state.options), lambda event: None)


def move_limits(table: Table, ship: Ship) -> tuple[int, int]:
    """(fewest, most) elements this activation may have."""
    most = free_moves(table, ship) + paid_moves_left(table, ship)
    fewest = 1 if table.options.must_move and most > 0 else 0
    return fewest, most


def targets_from(table: Table, ship: Ship, pose: Pose) -> list[tuple[Ship, int]]:
    """Enemy ships in action the ship could fire at from ``pose``, with the most dice."""
    bases = bases_on_table(table)
    found = []
    for enemy in table.state.ships.values():
        if enemy.side != ship.side and enemy.status == ACTIVE:
            most = arc_limit(table, ship, pose, enemy)
            if most and line_clear(table, ship, pose, enemy, bases):
                found.append((enemy, most))
    return found


Salvos = list[tuple[Ship, int, str]]     # (target, dice, arc)


def fallback_move(table: Table, ship: Ship, fewest: int) -> list[Element]:
    """A move for a ship none of whose planned moves will do: nothing where it need
    not move; else the first single element (A, S1-S90, P1-P90) that neither
    collides nor leaves a table whose edge is forbidden; else the first that only
    collides; else one ahead (R-SEQ-3, R-SEQ-5)."""
    if not fewest:
        return []
    singles = [Element(0)] + [Element(sign * d) for d in range(1, 91) for sign in (1, -1)]
    if table.cls(ship).turns_per_activation <= 0:
        singles = singles[:1]
    colliding = None
    for element in singles:
        try:
            plan = plan_move(table, ship, [element])
        except IllegalAnswer:
            continue
        if not plan.struck:
            return [element]
        colliding = colliding or [element]
    return colliding or [Element(0)]


def fire_json(salvos: Salvos, split: bool) -> Any:
    """The ``fire`` of an activation answer: "none", one salvo, or (option
    ``split_fire``) the salvos with the arc of each."""
    if not salvos:
        return "none"
    if not split:
        return {"target": salvos[0][0].name, "dice": salvos[0][1]}
    return [{"target": enemy.name, "dice": dice, "arc": arc} for enemy, dice, arc in salvos]


def _activation(ship: Ship, elements: list[Element], fire: Salvos, split: bool = False) -> dict:
    return {"ship": ship.name, "move": [e.code for e in elements], "fire": fire_json(fire, split)}


class RandomPlayer:
    """Any legal answer, uniformly where that is easy."""

    def __init__(self, seed: int = 0, data: GameData | None = None) -> None:
        self.random = random.Random(seed)
        self.data = data or load_data()
        self.geo = geometry_of(self.data)

    def __call__(self, decision: Decision, state: State) -> Mapping[str, Any]:
        options, rnd = decision.options, self.random
        if decision.kind == "activate":
            return self.activation(decision, state)
        if decision.kind in ("armor", "counter-torpedo"):
            return {"ship": options["ship"], "dice": rnd.randint(0, options["max"])}
        if decision.kind == "torpedo":
            return {"use": rnd.random() < 0.5}
        if decision.kind == "torpedo-targets":
            count = rnd.randint(0, min(options["attacks"], len(options["ships"])))
            return {"ships": rnd.sample(options["ships"], count)}
        if decision.kind == "repair":
            return {"ship": options["ship"], "dice": rnd.randint(0, options["max"]),
                    "first": rnd.choice(("fire", "flood"))}
        if decision.kind == "orders":
            return {"orders": mark_after(options["mark"])}
        raise IllegalAnswer(f"the automatic player does not know the question {decision.kind!r}")

    def activation(self, decision: Decision, state: State) -> Mapping[str, Any]:
        table, rnd = _table(state, self.data, self.geo), self.random
        ship = table.ship(rnd.choice(decision.options["ships"]))
        fewest, most = move_limits(table, ship)
        turns_left = table.cls(ship).turns_per_activation
        elements = []
        for _ in range(rnd.randint(fewest, most)):
            if turns_left and rnd.random() < 0.4:
                turns_left -= 1
                elements.append(Element(rnd.choice((-1, 1)) * rnd.randint(1, 90)))
            else:
                elements.append(Element(0))
        if table.options.partial_ahead:
            elements = self.partial(elements)
        try:
            plan = plan_move(table, ship, elements)
        except IllegalAnswer:
            return _activation(ship, fallback_move(table, ship, fewest), [])
        fire: Salvos = []
        if not plan.stops_the_ship:
            bank = ship.bank - max(0, len(plan.poses) - plan.free)
            left = gun_dice_left(table, ship, bank)
            pose = plan.end or pose_of(ship)
            choices = targets_from(table, ship, pose) if left else []
            if table.options.split_fire:
                fire = self.salvos(table, ship, pose, choices, left)
            elif choices and rnd.random() < 0.8:
                enemy, dice = rnd.choice(choices)
                fire = [(enemy, rnd.randint(1, min(dice, left)), "")]
        return _activation(ship, elements, fire, table.options.split_fire)

    def partial(self, elements: list[Element]) -> list[Element]:
        """Under ``partial_ahead``, some aheads shortened to a random length."""
        return [Element(0, self.random.randint(1, 999)) if not e.is_turn and self.random.random() < 0.3 else e
                for e in elements]

    def salvos(self, table: Table, ship: Ship, pose: Pose, choices: list[tuple[Ship, int]], left: int) -> Salvos:
        """Under ``split_fire``: random targets, each in a free arc of its own."""
        rnd, free, fire = self.random, list(ARCS), []
        pool = [enemy for enemy, _ in choices]
        while pool and left > 0 and rnd.random() < 0.8:
            enemy = pool.pop(rnd.randrange(len(pool)))
            arcs = [a for a in table.geo.arcs_of(pose, (enemy.x, enemy.y)) if a in free]
            if arcs:
                arc = rnd.choice(arcs)
                dice = rnd.randint(1, min(dice_in_arc(table, ship, arc), left))
                fire.append((enemy, dice, arc))
                free.remove(arc)
                left -= dice
        return fire


CANDIDATE_MOVES = ((0,), (0, 0), (-45,), (45,), (-90,), (90,), (0, -45), (0, 45), (-45, 0), (45, 0), (0, 0, 0))
HALF_AHEAD = 500           # thousandths of a BL: the reasonable player's partial ahead (option partial_ahead)


class ReasonablePlayer:
    """Keeps its ships in hand and fires where it hurts most.

    Each activation takes the first ship still waiting in line order (squadron
    leaders first, then their lines astern), tries a few
    moves (ahead, turns of 45 and 90 degrees, combinations within the limits), drops
    those that collide or leave the table, and keeps the one that brings the most
    dice to bear on the most damaged enemy, then the fewest CPs, then the list order.
    It keeps a CP in the Bank for repairs when the ship burns or floods, rolls every
    armour and counter-torpedo die it may, launches torpedoes when two or more
    attacks are offered, at the enemies with the fewest CPs left (by name on a tie),
    and repairs with every Bank CP, flooding first (rulings §4.3). These are the
    defaults for silence (:mod:`..plans`)."""

    def __init__(self, data: GameData | None = None) -> None:
        self.data = data or load_data()
        self.geo = geometry_of(self.data)
        in_squadrons = [name for squadron in self.data.squadrons for name in squadron.ships]
        self.line_order = tuple(dict.fromkeys(in_squadrons + [s.name for s in self.data.ships]))

    def __call__(self, decision: Decision, state: State) -> Mapping[str, Any]:
        options = decision.options
        if decision.kind == "activate":
            return self.activation(decision, state)
        if decision.kind in ("armor", "counter-torpedo"):
            return {"ship": options["ship"], "dice": options["max"]}
        if decision.kind == "torpedo":
            return {"use": options["attacks"] >= 2}
        if decision.kind == "torpedo-targets":
            ships = sorted(options["ships"], key=lambda name: (state.ships[name].cp, name))
            return {"ships": ships[: options["attacks"]]}
        if decision.kind == "repair":
            return {"ship": options["ship"], "dice": options["max"], "first": "flood"}
        if decision.kind == "orders":
            return carried_on_in_silence(options["mark"]).to_json()
        raise IllegalAnswer(f"the automatic player does not know the question {decision.kind!r}")

    def activation(self, decision: Decision, state: State) -> Mapping[str, Any]:
        table = _table(state, self.data, self.geo)
        waiting = set(decision.options["ships"])
        ship = table.ship(next(name for name in self.line_order if name in waiting))
        elements, fire = self.best_move_and_fire(table, ship)
        return _activation(ship, elements, fire, table.options.split_fire)

    def best_move_and_fire(self, table: Table, ship: Ship) -> tuple[list[Element], Salvos]:
        """The move and the salvos of ``ship``'s activation (see the class docstring):
        what the default for silence does, and what ``auto`` in the orders means."""
        fewest, most = move_limits(table, ship)
        turns = table.cls(ship).turns_per_activation
        reserve = self.reserve(ship)
        bases = bases_on_table(table)
        best: tuple | None = None
        candidates = [[Element(d) for d in degrees] for degrees in CANDIDATE_MOVES]
        if table.options.partial_ahead:     # a half ahead: to keep station, or to ease past a ship ahead
            candidates += [[Element(0, HALF_AHEAD)], [Element(0), Element(0, HALF_AHEAD)]]
        for order, elements in enumerate(candidates):
            if not fewest <= len(elements) <= most or sum(1 for e in elements if e.is_turn) > turns:
                continue
            try:
                plan = plan_move(table, ship, elements)
            except IllegalAnswer:
                continue
            if plan.stops_the_ship:
                continue
            fire, value = self._best_fire(table, ship, plan, reserve, bases)
            key = (-value, len(plan.poses) - plan.free, order)
            if best is None or key < best[0]:
                best = (key, elements, fire)
        if best is None:        # boxed in: a single element that stays clear if one does, or nothing
            return fallback_move(table, ship, fewest), []
        return best[1], best[2]

    @staticmethod
    def reserve(ship: Ship) -> int:
        """The CP kept in the Bank for repairs: one when the ship burns or floods."""
        return 1 if (ship.fires or ship.floods) else 0

    def _best_fire(self, table: Table, ship: Ship, plan: MovePlan, reserve: int, bases: list) -> tuple[Salvos, int]:
        """The salvo of highest score (dice, then damage already done to the target);
        under ``split_fire``, then the best salvo of each arc still free, in turn."""
        bank = ship.bank - max(0, len(plan.poses) - plan.free) - reserve
        left = gun_dice_left(table, ship, bank)
        if left <= 0:
            return [], 0
        pose = plan.end or pose_of(ship)
        free, salvos, value = list(ARCS), [], 0
        while left > 0:
            salvo = self._best_salvo(table, ship, pose, bases, free, left, {s[0].name for s in salvos})
            if salvo is None:
                break
            score, enemy, dice, arc = salvo
            salvos.append((enemy, dice, arc))
            value, left = value + score, left - dice
            free.remove(arc)
            if not table.options.split_fire:
                break
        return salvos, value

    def _best_salvo(self, table: Table, ship: Ship, pose: Pose, bases: list, free: list[str], left: int,
                    taken: set[str]) -> tuple[int, Ship, int, str] | None:
        ranked = []
        for enemy in table.state.ships.values():
            if enemy.side != ship.side and enemy.status == ACTIVE and enemy.name not in taken:
                arcs = [a for a in table.geo.arcs_of(pose, (enemy.x, enemy.y)) if a in free]
                if not arcs:
                    continue
                arc = max(arcs, key=lambda a: dice_in_arc(table, ship, a))
                dice = min(dice_in_arc(table, ship, arc), left)
                score = dice * 100 + (enemy.start_cp - enemy.cp) * 10 - min(enemy.cp, 9)
                ranked.append((-score, enemy.name, enemy, dice, arc))
        for negative, _, enemy, dice, arc in sorted(ranked, key=lambda r: r[:2]):
            if line_clear(table, ship, pose, enemy, bases):
                return -negative, enemy, dice, arc
        return None
