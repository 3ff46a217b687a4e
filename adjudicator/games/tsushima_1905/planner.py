"""Relative moves (rulings §4.2): ``follow X``, ``close X``, ``open X``, ``steer H``,
``station on X bearing B distance D``, ``broadside X`` and ``ram X``, resolved at the
activation by an exact, deterministic search.

The search enumerates every legal move on a 5-degree grid (aheads, and turns of 5 to
90 degrees either way, within the ship's turn and movement limits, the Japanese free
move included), computes each end pose with the integer kinematics (prefixes shared),
and ranks them by an integer score, then by fewer CPs, then by list order (shorter
before longer, then ``A`` before ``S5`` before ``P5`` before ``S10`` ... before the
partial aheads ``A0.25``, ``A0.5``, ``A0.75`` searched under the option
``partial_ahead``). A branch
and bound cuts the moves that cannot beat the best found (an element moves the centre
at most 1.01 BL, a turn changes the heading at most 90 degrees). The best
ranked move that neither collides (except for ``ram``) nor leaves the table, checked
with the full move planner, is the answer. No floats; the same answer everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from bisect import insort
from math import isqrt
from typing import Callable

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.tsushima_1905.answers import Element
from adjudicator.games.tsushima_1905.geometry import Geometry, Pose
from adjudicator.games.tsushima_1905.orders.model import RelativeMove
from adjudicator.games.tsushima_1905.rules.movement import ahead_length, free_moves, paid_moves_left, plan_move
from adjudicator.games.tsushima_1905.state import Ship
from adjudicator.games.tsushima_1905.table import Table, pose_of

GRID = 5
SPACING = 1500     # the squadron's line-ahead spacing, centre to centre (scenario.toml spacing_bl)
AHEAD = Element(0)
ALPHABET = (AHEAD,) + tuple(Element(sign * d) for d in range(GRID, 91, GRID) for sign in (1, -1))
PARTIAL_GRID = 250         # thousandths of a BL: the partial aheads searched under the option partial_ahead
PARTIAL_AHEADS = tuple(Element(0, length) for length in range(PARTIAL_GRID, 1000, PARTIAL_GRID))


class NoMove(IllegalAnswer):
    """No legal move satisfies the relative order (every candidate collides or leaves the table)."""


#: A relative move is the orders' own value (``move:`` entries), resolved as written.
Relative = RelativeMove


POSITION = {element: index for index, element in enumerate(ALPHABET + PARTIAL_AHEADS)}
CANDIDATES = 12           # the best moves checked against collisions and the edge, in rank order
REACH_PER_ELEMENT = 1002   # an ahead moves the centre 1 BL (+ rounding), a turn at most 0.5 + 0.18 BL
TURN_REACH = 682           # a turn: 0.5 BL ahead, then a pivot that shifts the centre 2 x 0.125 x sin 45° at most
PIVOT_SHIFT = 180          # the pivot alone: 2 x 0.125 BL x sin 45° = 0.177 BL, and its rounding


@dataclass(frozen=True, slots=True)
class Objective:
    """An integer score to minimise, with a lower bound over every extension of a
    partial move (``remaining`` elements, ``turns`` of them turns at most)."""

    score: Callable[[Pose], int]
    bound: Callable[[Pose, int, int], int]
    point: tuple[int, int] | None = None     # for "end nearest this point": the point


def _segment_distance_sq(px: int, py: int, ex: int, ey: int) -> int:
    """The squared distance (rounded down) from (px, py) to the segment from the origin to (ex, ey)."""
    along, length_sq = px * ex + py * ey, ex * ex + ey * ey
    if along <= 0 or length_sq == 0:
        return px * px + py * py
    if along >= length_sq:
        return (px - ex) ** 2 + (py - ey) ** 2
    across = px * ey - py * ex
    return across * across // length_sq


def _distance_objective(geo: Geometry, point: tuple[int, int], farthest: bool) -> Objective:
    tx, ty = point
    sign = -1 if farthest else 1

    def score(pose: Pose) -> int:
        dx, dy = pose[0] - tx, pose[1] - ty
        return sign * (dx * dx + dy * dy)

    def bound(pose: Pose, remaining: int, turns: int) -> int:
        d2 = sign * score(pose)
        reach = remaining * REACH_PER_ELEMENT
        if farthest:
            return -((isqrt(d2) + 1 + reach) ** 2)
        # with no more turn, only aheads along this heading: the ship ends on the segment
        # from here to ``remaining`` whole aheads on (a partial ahead strays from it by
        # its rounding, at most a unit per element); with a turn, one element at least
        # moves the centre no more than a turn does
        straight = max(0, isqrt(_to_segment(pose, remaining)) - remaining - 1) ** 2
        if turns == 0:
            return straight
        turning = max(0, isqrt(d2) - reach + REACH_PER_ELEMENT - TURN_REACH) ** 2
        return min(straight, turning)

    def _to_segment(pose: Pose, remaining: int) -> int:
        """The squared distance (rounded down) from ``point`` to the segment of the aheads."""
        vx, vy = geo.step(pose.heading)
        return _segment_distance_sq(tx - pose.x, ty - pose.y, remaining * vx, remaining * vy)

    return Objective(score, bound, None if farthest else point)


def _objective(table: Table, ship: Ship, order: Relative) -> Objective:
    geo = table.geo
    if order.kind == "steer":
        wanted = order.heading % 360

        def off(pose: Pose) -> int:
            return min((pose.heading - wanted) % 360, (wanted - pose.heading) % 360)

        return Objective(off, lambda pose, remaining, turns: max(0, off(pose) - 90 * turns))
    other = table.resolve(order.ship, [s for s in table.state.ships.values() if s.name != ship.name])
    there = pose_of(other)
    if order.kind == "follow":
        dx, dy = geo.fwd(SPACING, there.heading)
        return _distance_objective(geo, (there.x - dx, there.y - dy), False)
    if order.kind == "station":
        dx, dy = geo.fwd(order.distance, there.heading + order.bearing)
        return _distance_objective(geo, (there.x + dx, there.y + dy), False)
    if order.kind == "broadside":
        def off_beam(pose: Pose) -> int:
            f, s = geo.bearing_parts(pose, (there.x, there.y))
            return (f * f * 1_000_000) // max(1, f * f + s * s)
        return Objective(off_beam, lambda pose, remaining, turns: 0)
    return _distance_objective(geo, (there.x, there.y), order.kind == "open")


def _best(geo: Geometry, start: Pose, objective: Objective, most: int, fewest: int, turns: int, free: int,
          keep: int, alphabet: tuple[Element, ...] = ALPHABET) -> list[tuple]:
    """Branch and bound over the moves: the ``keep`` best (score, CPs, length, list
    order, elements), best first. A subtree is cut only when its bound is worse than
    the worst kept, so ties are still ranked by CPs, length and list order."""
    half = geo.base_length // 2
    best: list[tuple] = []
    limit = [most]

    def offer(key: tuple) -> None:
        if key in best:
            return
        if len(best) < keep:
            insort(best, key)
        elif key < best[-1]:
            best.pop()
            insort(best, key)

    score_of = objective.score
    turns_in = tuple(e for e in alphabet if e.is_turn)
    aheads_in = tuple((e, ahead_length(geo, e)) for e in alphabet if not e.is_turn)

    def expand(pose: Pose, turns_left: int, remaining: int) -> list[tuple[Element, Pose, int]]:
        """The children of ``pose``: the aheads, and the turns (one half-length advance
        shared by every turn). A last turn toward nowhere near the point sought is left
        out: after it the ship can only go straight, so it ends on the segment of its
        aheads, shifted by the pivot at most -- if even that stays farther than the
        worst move kept, no move through it can be kept."""
        children = [(element, geo.advance(pose, length), turns_left) for element, length in aheads_in]
        if turns_left:
            middle = geo.advance(pose, half)
            turns = turns_in
            if turns_left == 1 and straight_only and objective.point is not None and len(best) == keep:
                worst = best[-1][0]
                px, py = objective.point[0] - middle.x, objective.point[1] - middle.y
                aheads = remaining - 1
                turns = []
                for element in turns_in:
                    vx, vy = geo.step(middle.heading + element.degrees)
                    near = isqrt(_segment_distance_sq(px, py, aheads * vx, aheads * vy))
                    if near <= PIVOT_SHIFT or (near - PIVOT_SHIFT) ** 2 <= worst:
                        turns.append(element)
            children += [(element, geo.pivot(middle, element.degrees), turns_left - 1) for element in turns]
        return children

    straight_only = [element for element, _ in aheads_in] == [AHEAD]

    def offer_if_kept(prefix: tuple[Element, ...], score: int) -> None:
        depth = len(prefix)
        if depth >= fewest and (len(best) < keep or score <= best[-1][0]):
            offer((score, max(0, depth - free), depth, tuple(POSITION[e] for e in prefix), prefix))

    def visit(prefix: tuple[Element, ...], pose: Pose, turns_left: int, score: int) -> None:
        offer_if_kept(prefix, score)
        depth = len(prefix)
        remaining = limit[0] - depth
        if remaining == 0:
            return
        if len(best) == keep:
            # every extension is longer, pays at least as much and scores at least the bound
            floor = (objective.bound(pose, remaining, turns_left), max(0, depth - free), depth + 1)
            if floor > best[-1][:3]:
                return
        if turns_left == 0 and straight_only:
            straight(prefix, pose, remaining)
            return
        children = [(score_of(child), element, child, turns)
                    for element, child, turns in expand(pose, turns_left, remaining)]
        if remaining == 1:
            for child_score, element, child, _ in children:
                offer_if_kept(prefix + (element,), child_score)
            return
        # the most promising first, so that the bound cuts early (the order of the
        # visits never changes the answer: only a subtree worse than the kept is cut)
        children.sort(key=lambda child: child[0])
        for child_score, element, child, turns in children:
            if turns == 0 and straight_only:
                offer_if_kept(prefix + (element,), child_score)
                straight(prefix + (element,), child, remaining - 1)
            else:
                visit(prefix + (element,), child, turns, child_score)

    def straight(prefix: tuple[Element, ...], pose: Pose, remaining: int) -> None:
        """No turn left and whole aheads only: the rest is one straight line of aheads,
        each scored at once (cheaper than bounding it)."""
        for _ in range(remaining):
            pose = geo.advance(pose, geo.base_length)
            prefix = prefix + (AHEAD,)
            offer_if_kept(prefix, score_of(pose))

    for depth in sorted({1, most}):        # the one-element moves first: a good bound early
        limit[0] = depth
        visit((), start, turns, score_of(start))
    return best


def resolve(table: Table, ship: Ship, order: Relative) -> list[Element]:
    """The move that best carries out ``order`` for ``ship`` now."""
    free = free_moves(table, ship)
    most = free + paid_moves_left(table, ship)
    if most == 0:
        return []
    fewest = 1 if table.options.must_move else 0
    objective = _objective(table, ship, order)
    ram_target = order.ship if order.kind == "ram" else None
    alphabet = ALPHABET + PARTIAL_AHEADS if table.options.partial_ahead else ALPHABET
    for keep in (1, CANDIDATES):          # the best alone first: that is nearly always the answer
        ranked = _best(table.geo, pose_of(ship), objective, most, fewest, table.cls(ship).turns_per_activation,
                       free, keep, alphabet)
        for entry in ranked:
            elements = entry[-1]
            try:
                plan = plan_move(table, ship, elements)
            except IllegalAnswer:
                continue
            if not plan.withdrawn and (not plan.struck or (ram_target is not None and ram_target in plan.struck)):
                return list(elements)
    raise NoMove(f"no move carries out {order.text()!r} for {ship.name} without a collision or leaving the table")
