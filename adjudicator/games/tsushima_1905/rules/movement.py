"""Rulebook, "Movement and Turning".

"Ships move forward and/or turn. Movement ahead is measured in base lengths; one
length costs one CP. A ship may turn up to 90 degrees; each turn costs one CP.
Battleships can turn once per move, cruisers twice. To turn, a ship moves forward 1/2
length, and then pivots about the right or left center edge of the base. If ships
collide, both lose 1 CP, begin flooding, and are done for the turn. Ships can only
move forward, and may make any combination of aheads and turns within their
individual limits." -- "Japanese ships may move forward 1 length or turn at no CP
cost, then take up to the standard 2 moves for battleships or 3 moves for cruisers
(turn restrictions still apply)."

Rulings: R-MOVE-1..6 (whole lengths -- or, with the campaign option ``partial_ahead``,
"any length up to 1 BL per CP" --, turns per activation, the pivot, whole degrees,
the free move first, done for the turn), R-GEO-5 and R-COLL-1/2 (contacts), R-CP-3b
(the movement maximum is per turn), R-EDGE-1 and X-EDGE (the table edge).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.tsushima_1905.answers import Element
from adjudicator.games.tsushima_1905.geometry import Pose
from adjudicator.games.tsushima_1905.rules.combat_points import check_fate, pay_combat, settle, stake
from adjudicator.games.tsushima_1905.state import ACTIVE, JAPAN, WITHDRAWN, Ship
from adjudicator.games.tsushima_1905.rules.table import Table, pose_of
from adjudicator.games.tsushima_1905.words import counted, listed, phrase, some
from adjudicator.i18n import N_


@dataclass(frozen=True, slots=True)
class MovePlan:
    """What a move does, worked out before anything changes."""

    poses: tuple[Pose, ...]       # the pose after each element carried out
    struck: tuple[str, ...]       # ships the last element ran into (R-COLL-1)
    withdrawn: bool               # the last element took the centre off the table
    free: int                     # 1 when the first element is the Japanese free move

    @property
    def end(self) -> Pose | None:
        return self.poses[-1] if self.poses else None

    @property
    def stops_the_ship(self) -> bool:
        """A collision or a withdrawal ends the activation: no fire (R-MOVE-6, R-EDGE-1)."""
        return bool(self.struck) or self.withdrawn


def free_moves(table: Table, ship: Ship) -> int:
    """The Japanese free move (R-MOVE-5)."""
    return int(table.data.rules["movement"]["japanese_free_move"]) if ship.side == JAPAN else 0


def paid_moves_left(table: Table, ship: Ship) -> int:
    """Paid elements still allowed: the per-turn maximum and the Bank (R-CP-1, R-CP-3b)."""
    return max(0, min(table.cls(ship).max_movement - ship.used_move, ship.bank))


def can_move(table: Table, ship: Ship) -> bool:
    """"all ships capable of movement must move": a free move or a CP to pay for one."""
    return ship.status == ACTIVE and not ship.done and (free_moves(table, ship) > 0 or paid_moves_left(table, ship) > 0)


def no_move_stays_on_table(table: Table, ship: Ship) -> bool:
    """R-SEQ-5: under ``table_edge = "forbid"``, whether none of the ship's single move
    elements (A, S1-S90, P1-P90, as its class allows) keeps its centre on the table.
    Such a ship cannot move. Only a ship within reach of an edge is looked at."""
    if table.options.table_edge != "forbid" or table.cls(ship).max_movement <= 0:
        return False
    geo, pose = table.geo, pose_of(ship)
    width, height = geo.table
    reach = geo.base_length + geo.base_width
    if reach < min(pose.x, pose.y, width - pose.x, height - pose.y):
        return False
    if geo.on_table(geo.advance(pose, geo.base_length)):
        return False
    turns = range(1, 91) if table.cls(ship).turns_per_activation > 0 else ()
    return not any(geo.on_table(geo.turn(pose, sign * degrees)) for degrees in turns for sign in (1, -1))


def check_limits(table: Table, ship: Ship, elements: Sequence[Element]) -> None:
    """The limits of one activation's move, or IllegalAnswer saying which is broken."""
    cls = table.cls(ship)
    partial = next((e for e in elements if e.is_partial), None)
    if partial is not None and not table.options.partial_ahead:
        raise IllegalAnswer(f"{ship.name}'s {partial.code}: aheads are whole base lengths (R-MOVE-1, \"one length "
                            f"costs one CP\"); the campaign option partial_ahead allows shorter ones")
    turns = sum(1 for e in elements if e.is_turn)
    if turns > cls.turns_per_activation:
        raise IllegalAnswer(f"{ship.name} may turn {cls.turns_per_activation} time(s) per activation "
                            f"(the free move included), not {turns}")
    paid = max(0, len(elements) - free_moves(table, ship))
    if paid > cls.max_movement - ship.used_move:
        raise IllegalAnswer(f"{ship.name} has {cls.max_movement - ship.used_move} movement point(s) left this "
                            f"turn; the move {' '.join(e.code for e in elements)} needs {paid}")
    if paid > ship.bank:
        raise IllegalAnswer(f"{ship.name} has {ship.bank} CP in its Bank; the move needs {paid}")
    if not elements and table.options.must_move and can_move(table, ship):
        raise IllegalAnswer(f"{ship.name} can move and must make at least one move "
                            f"(all ships capable of movement must move)")


def plan_move(table: Table, ship: Ship, elements: Sequence[Element]) -> MovePlan:
    """Carry out the elements on paper: each ahead and each turn's advance swept, each
    pivot degree by degree; stop at a contact or when the centre leaves the table.
    Where the mover stops at a contact is the option ``collision_place`` (R-GEO-5):
    ``contact`` (the ruling) at its last pose before touching, ``step-start`` back at
    the pose where the colliding element began."""
    geo = table.geo
    pose, poses, struck, withdrawn = pose_of(ship), [], [], False
    reach = geo.move_reach((ahead_length(geo, e) for e in elements if not e.is_turn),
                           sum(1 for e in elements if e.is_turn))
    others = table.obstacles_near(ship, reach)
    for element in elements:
        start = pose
        if element.is_turn:
            pose, struck = geo.sweep(pose, 0, geo.base_length // 2, others)
            if not struck:
                pose, struck = geo.sweep(pose, element.degrees, 0, others)
        else:
            pose, struck = geo.sweep(pose, 0, ahead_length(geo, element), others)
        if struck and table.options.collision_place == "step-start":
            pose = start
        poses.append(pose)
        if not geo.on_table(pose):
            if table.options.table_edge == "forbid":
                raise IllegalAnswer(f"{ship.name}'s move {' '.join(e.code for e in elements)} takes it off the "
                                    f"table (option table_edge = forbid)")
            withdrawn = True
        if struck or withdrawn:
            break
    return MovePlan(tuple(poses), tuple(struck), withdrawn, min(free_moves(table, ship), len(elements)))


def ahead_length(geo, element: Element) -> int:
    """An ahead's length in table units: a whole base length, or a partial ahead's
    thousandths of one (option ``partial_ahead``)."""
    return element.length * geo.base_length // 1000 if element.is_partial else geo.base_length


def carry_out(table: Table, ship: Ship, elements: Sequence[Element], plan: MovePlan) -> None:
    """Move the ship as planned, paying each paid element Bank -> In Play -> Spent."""
    track = [[ship.x, ship.y]]
    for index, pose in enumerate(plan.poses):
        if index >= plan.free:
            stake(ship, 1)
            ship.used_move += 1
        ship.x, ship.y, ship.heading = pose.x, pose.y, pose.heading
        track.append([pose.x, pose.y])
        if index < len(plan.poses) - 1 or not plan.struck:
            settle(ship)
    codes = " ".join(e.code for e in elements[:len(plan.poses)]) or "no move"
    table.say("move", "{} moves {}: now at ({:.3f}, {:.3f}) heading {}.", ship.name, codes, ship.x / 1000,
              ship.y / 1000, ship.heading, ship=ship.name, track=track, heading=ship.heading)
    table.state.log.append({"kind": "track", "ship": ship.name, "points": track})
    if plan.struck:
        collide(table, ship, plan.struck)
    if plan.withdrawn:
        ship.status = WITHDRAWN
        table.say("withdrawn", "{}'s centre has left the table: it has left the battle (X-EDGE).", ship.name,
                  ship=ship.name)


def collide(table: Table, mover: Ship, struck: Sequence[str]) -> None:
    """"If ships collide, both lose 1 CP, begin flooding, and are done for the turn."
    A hulk struck loses nothing; the mover suffers once (R-MOVE-6, R-COLL-1, R-COLL-2)."""
    rules = table.data.rules["collision"]
    table.say("collision", *collision_told(table, mover, struck), ship=mover.name,
              struck=list(struck), at=[mover.x, mover.y])
    table.state.log.append({"kind": "collision", "ship": mover.name, "struck": list(struck), "at": [mover.x, mover.y]})
    victims = [mover] + [table.ship(name) for name in struck if table.ship(name).status == ACTIVE]
    for ship in victims:
        pay_combat(table, ship, int(rules["cp"]))
        ship.floods += int(rules["floods"])
        ship.done = True
        ship.activated = True
    settle(mover)
    for ship in victims:
        check_fate(table, ship)


def collision_told(table: Table, mover: Ship, struck: Sequence[str]) -> tuple:
    """A collision in words, with what it costs each ship (a hulk struck loses
    nothing): the narrative's template and its values."""
    rules = table.data.rules["collision"]
    hit = [mover.name] + [name for name in struck if table.ship(name).status == ACTIVE]
    hulks = [phrase("{} ({})", name, table.ship(name).status) for name in struck
             if table.ship(name).status != ACTIVE]
    named = listed([name for name in struck if table.ship(name).status == ACTIVE] + hulks)
    cp, floods = counted(int(rules["cp"]), "CP"), some(int(rules["floods"]), "flood")
    if len(hit) == 1:
        return (N_("{} collides with {}: {} loses {}, takes {} and is done for the turn."),
                mover.name, named, mover.name, cp, floods)
    if len(hit) == 2:
        return (N_("{} collides with {}: both lose {}, take {} and are done for the turn."),
                mover.name, named, cp, floods)
    return (N_("{} collides with {}: {} lose {}, take {} and are done for the turn."),
            mover.name, named, listed(hit), cp, floods)
