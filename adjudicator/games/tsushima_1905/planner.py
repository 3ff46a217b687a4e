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
from functools import lru_cache
from math import isqrt
from typing import Callable

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.tsushima_1905.answers import Element
from adjudicator.games.tsushima_1905.geometry import Geometry, Pose
from adjudicator.games.tsushima_1905.language.model import RelativeMove
from adjudicator.games.tsushima_1905.rules.movement import ahead_length, free_moves, paid_moves_left, plan_move
from adjudicator.games.tsushima_1905.state import Ship
from adjudicator.games.tsushima_1905.rules.table import Table, pose_of

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
    distance: tuple[int, int, int] | None = None   # a score of sign x the squared distance to (x, y): (x, y, sign)

    @property
    def point(self) -> tuple[int, int] | None:
        """For "end nearest this point": the point."""
        return self.distance[:2] if self.distance is not None and self.distance[2] > 0 else None


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

    return Objective(score, bound, (tx, ty, sign))


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
        return _distance_objective(geo, wake_point(table, other, SPACING), False)
    if order.kind == "station":
        dx, dy = geo.fwd(order.distance, there.heading + order.bearing)
        return _distance_objective(geo, (there.x + dx, there.y + dy), False)
    if order.kind == "broadside":
        def off_beam(pose: Pose) -> int:
            f, s = geo.bearing_parts(pose, (there.x, there.y))
            return (f * f * 1_000_000) // max(1, f * f + s * s)
        return Objective(off_beam, lambda pose, remaining, turns: 0)
    return _distance_objective(geo, (there.x, there.y), order.kind == "open")


def wake_point(table: Table, leader: Ship, distance: int) -> tuple[int, int]:
    """The point ``distance`` astern of ``leader`` along its wake (rulings §4.2,
    ``follow``): back along the track it made this turn, centre to centre, then on
    along the reverse of its first leg (of its heading, if it has not moved)."""
    points = [(leader.x, leader.y)]
    for entry in table.state.log:
        if entry.get("kind") == "track" and entry.get("ship") == leader.name:
            points = [tuple(p) for p in reversed(entry["points"])]
    x, y = points[0]
    left = distance
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        length = isqrt((bx - ax) ** 2 + (by - ay) ** 2)
        if length == 0:
            continue
        if left <= length:
            return ax + _ratio(bx - ax, left, length), ay + _ratio(by - ay, left, length)
        left -= length
        x, y = bx, by
    if len(points) > 1 and points[-1] != points[-2]:
        (ax, ay), (bx, by) = points[-2], points[-1]
        length = isqrt((bx - ax) ** 2 + (by - ay) ** 2)
        if length:
            return x + _ratio(bx - ax, left, length), y + _ratio(by - ay, left, length)
    dx, dy = table.geo.fwd(left, leader.heading)
    return x - dx, y - dy


def _ratio(value: int, numerator: int, denominator: int) -> int:
    """``value * numerator / denominator`` rounded half away from zero, in integers."""
    product = value * numerator
    quotient, rest = divmod(abs(product), denominator)
    quotient += 1 if 2 * rest >= denominator else 0
    return quotient if product >= 0 else -quotient


class _Moves:
    """The elements of one alphabet from a heading, as integer offsets: the same
    integers :meth:`Geometry.advance` and :meth:`Geometry.pivot` give (both add an
    offset that depends on the heading alone), worked out once per heading met."""

    def __init__(self, geo: Geometry, alphabet: tuple[Element, ...]) -> None:
        self.geo = geo
        self.turns = tuple((element, POSITION[element], element.degrees) for element in alphabet if element.is_turn)
        self.aheads = tuple((element, POSITION[element], ahead_length(geo, element))
                            for element in alphabet if not element.is_turn)
        self.straight_only = [element for element, _, _ in self.aheads] == [AHEAD]
        self._aheads: dict[int, tuple] = {}
        self._turns: dict[int, tuple] = {}

    def aheads_from(self, heading: int) -> tuple[tuple[Element, int, int, int], ...]:
        """(element, list position, dx, dy) of each ahead along ``heading``."""
        found = self._aheads.get(heading)
        if found is None:
            origin = Pose(0, 0, heading)
            found = self._aheads[heading] = tuple(
                (element, position, *self.geo.advance(origin, length)[:2]) for element, position, length in self.aheads)
        return found

    def turns_from(self, heading: int) -> tuple[int, int, tuple[tuple[Element, int, int, int, int, int, int], ...]]:
        """The half-length advance (dx, dy) every turn from ``heading`` begins with,
        and (element, list position, dx, dy, new heading, and the whole ahead's dx, dy
        along it) of each turn: the advance, then the pivot about the inner side's
        midpoint (:meth:`Geometry.pivot`: the arm at the old heading less the arm at the
        new one to starboard, the other way round to port)."""
        found = self._turns.get(heading)
        if found is None:
            geo = self.geo
            h = heading % 360
            arms, whole = geo.pivot_arms, geo.whole_steps
            mx, my = geo.half_steps[h]
            ax, ay = arms[h]
            rows = []
            for element, position, degrees in self.turns:
                new_heading = (h + degrees) % 360
                bx, by = arms[new_heading]
                sx, sy = whole[new_heading]
                if degrees >= 0:
                    rows.append((element, position, mx + ax - bx, my + ay - by, new_heading, sx, sy))
                else:
                    rows.append((element, position, mx - ax + bx, my - ay + by, new_heading, sx, sy))
            found = self._turns[heading] = (mx, my, tuple(rows))
        return found


@lru_cache(maxsize=8)
def _moves(geo: Geometry, alphabet: tuple[Element, ...]) -> _Moves:
    """The offsets of ``alphabet`` for ``geo``, shared by the searches of a process
    (pure functions of the sine table and the base size)."""
    return _Moves(geo, alphabet)


def forget() -> None:
    """Empty the offsets worked out so far (a new process starts without them)."""
    _moves.cache_clear()


def _score_key(child: tuple) -> int:
    return child[0]


def _best(geo: Geometry, start: Pose, objective: Objective, most: int, fewest: int, turns: int, free: int,
          keep: int, alphabet: tuple[Element, ...] = ALPHABET) -> list[tuple]:
    """Branch and bound over the moves: the ``keep`` best (score, CPs, length, list
    order, elements), best first. A subtree is cut only when its bound is worse than
    the worst kept, so ties are still ranked by CPs, length and list order.

    Each pose is its predecessor plus an offset from :class:`_Moves`, and each move
    carries its list order with it."""
    moves = _moves(geo, alphabet)
    aheads_from, turns_from, whole_step = moves.aheads_from, moves.turns_from, geo.step
    straight_only = moves.straight_only
    point, distance = objective.point, objective.distance
    score_of, bound_of = objective.score, objective.bound
    ahead_position = POSITION[AHEAD]
    best: list[tuple] = []

    def offer_if_kept(prefix: tuple[Element, ...], order: tuple[int, ...], score: int) -> None:
        depth = len(prefix)
        if depth < fewest:
            return
        if len(best) < keep:
            key = (score, max(0, depth - free), depth, order, prefix)
            if key not in best:
                insort(best, key)
        elif score <= best[-1][0]:
            key = (score, max(0, depth - free), depth, order, prefix)
            if key < best[-1] and key not in best:
                best.pop()
                insort(best, key)

    def last_turns(px: int, py: int, rows: tuple, aheads: int) -> tuple | list:
        """The last turns worth taking, ``px, py`` the point sought from the turns'
        middle pose: after the last turn the ship can only go straight, so it ends on
        the segment of its ``aheads``, shifted by the pivot at most -- if even that
        stays farther than the worst move kept, no move through the turn can be kept.
        (``isqrt(d) - PIVOT_SHIFT`` squared against the worst score, as one
        threshold on the squared distance ``d`` to the segment.)"""
        threshold = (PIVOT_SHIFT + 1 + isqrt(best[-1][0])) ** 2
        near_sq = px * px + py * py
        if near_sq < threshold:        # the segments all start here: every turn is worth it
            return rows
        if aheads == 0:                # no segment: every turn ends here, none is worth it
            return ()
        kept = []
        for row in rows:           # _segment_distance_sq against the threshold, inline (the hot loop)
            ex, ey = aheads * row[5], aheads * row[6]
            along = px * ex + py * ey
            if along <= 0:
                continue               # the start is the nearest point of the segment
            length_sq = ex * ex + ey * ey
            if along >= length_sq:
                if (px - ex) ** 2 + (py - ey) ** 2 < threshold:
                    kept.append(row)
            else:
                across = px * ey - py * ex
                if across * across // length_sq < threshold:
                    kept.append(row)
        return kept

    def one_turn_bound(pose: Pose, remaining: int) -> int:
        """A lower bound of the squared distance to the point sought after any
        extension with at most one turn and whole aheads: straight on, the ship ends on
        the segment of its aheads; turning after ``i`` aheads, it ends at most the
        pivot's shift and one element per ahead left from the turn's middle pose."""
        x, y, heading = pose
        sx, sy = whole_step(heading)
        mx, my = turns_from(heading)[:2]
        px, py = point[0] - x - mx, point[1] - y - my
        found = _segment_distance_sq(point[0] - x, point[1] - y, remaining * sx, remaining * sy)
        for i in range(remaining):
            near = isqrt((px - i * sx) ** 2 + (py - i * sy) ** 2) - PIVOT_SHIFT - (remaining - 1 - i) * REACH_PER_ELEMENT
            if near <= 0:
                return 0
            found = min(found, near * near)
        return found

    def visit(prefix: tuple[Element, ...], order: tuple[int, ...], pose: Pose, turns_left: int, score: int,
              limit: int) -> None:
        offer_if_kept(prefix, order, score)
        depth = len(prefix)
        remaining = limit - depth
        if remaining == 0:
            return
        if len(best) == keep:
            # every extension is longer, pays at least as much and scores at least the bound
            floor = (bound_of(pose, remaining, turns_left), max(0, depth - free), depth + 1)
            if floor > best[-1][:3]:
                return
            if turns_left == 1 and straight_only and point is not None:
                floor = (one_turn_bound(pose, remaining), floor[1], floor[2])
                if floor > best[-1][:3]:
                    return
        if turns_left == 0 and straight_only:
            straight(prefix, order, pose.x, pose.y, pose.heading, remaining)
            return
        x, y, heading = pose
        if distance is not None:    # the score inline: sign x the squared distance to the point
            tx, ty, sign = distance
            children = [(sign * ((x + dx - tx) ** 2 + (y + dy - ty) ** 2), element, position, x + dx, y + dy,
                         heading, turns_left) for element, position, dx, dy in aheads_from(heading)]
        else:
            children = [(score_of(Pose(x + dx, y + dy, heading)), element, position, x + dx, y + dy, heading,
                         turns_left) for element, position, dx, dy in aheads_from(heading)]
        if turns_left:
            mx, my, rows = turns_from(heading)
            if turns_left == 1 and straight_only and point is not None and len(best) == keep:
                rows = last_turns(point[0] - x - mx, point[1] - y - my, rows, remaining - 1)
            left = turns_left - 1
            if distance is not None:
                children += [(sign * ((x + dx - tx) ** 2 + (y + dy - ty) ** 2), element, position, x + dx, y + dy,
                              new_heading, left) for element, position, dx, dy, new_heading, _, _ in rows]
            else:
                children += [(score_of(Pose(x + dx, y + dy, new_heading)), element, position, x + dx, y + dy,
                              new_heading, left) for element, position, dx, dy, new_heading, _, _ in rows]
        if remaining == 1:
            for child_score, element, position, *_ in children:
                offer_if_kept(prefix + (element,), order + (position,), child_score)
            return
        # the most promising first, so that the bound cuts early (the order of the
        # visits never changes the answer: only a subtree worse than the kept is cut)
        children.sort(key=_score_key)
        for child_score, element, position, cx, cy, ch, left in children:
            if left == 0 and straight_only:
                offer_if_kept(prefix + (element,), order + (position,), child_score)
                straight(prefix + (element,), order + (position,), cx, cy, ch, remaining - 1)
            else:
                visit(prefix + (element,), order + (position,), Pose(cx, cy, ch), left, child_score, limit)

    def straight(prefix: tuple[Element, ...], order: tuple[int, ...], x: int, y: int, heading: int,
                 remaining: int) -> None:
        """No turn left and whole aheads only: the rest is one straight line of aheads,
        each scored at once (cheaper than bounding it)."""
        sx, sy = whole_step(heading)
        for _ in range(remaining):
            x, y = x + sx, y + sy
            prefix, order = prefix + (AHEAD,), order + (ahead_position,)
            if distance is not None:
                score = distance[2] * ((x - distance[0]) ** 2 + (y - distance[1]) ** 2)
            else:
                score = score_of(Pose(x, y, heading))
            offer_if_kept(prefix, order, score)

    for depth in sorted({1, most}):        # the one-element moves first: a good bound early
        visit((), (), start, turns, score_of(start), depth)
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


def nearest_clear(table: Table, ship: Ship, point: tuple[int, int]) -> list[Element] | None:
    """``collision: avoid`` (rulings §4.3): the legal move that neither collides nor
    leaves the table and ends nearest ``point`` (where the move written would have
    ended), searched as the relative moves are; failing that, the first single
    element that stays clear (A, S1-S90, P1-P90), then no move where R-SEQ-3 allows
    it. None: every legal move collides or leaves the table."""
    free = free_moves(table, ship)
    most = free + paid_moves_left(table, ship)
    fewest = 1 if table.options.must_move else 0
    if most == 0:
        return []
    alphabet = ALPHABET + PARTIAL_AHEADS if table.options.partial_ahead else ALPHABET
    objective = _distance_objective(table.geo, point, False)
    ranked = _best(table.geo, pose_of(ship), objective, most, fewest, table.cls(ship).turns_per_activation,
                   free, CANDIDATES, alphabet)
    singles = [(AHEAD,)] + [(Element(sign * d),) for d in range(1, 91) for sign in (1, -1)]
    for elements in [entry[-1] for entry in ranked] + singles:
        if sum(1 for e in elements if e.is_turn) > table.cls(ship).turns_per_activation:
            continue
        try:
            plan = plan_move(table, ship, elements)
        except IllegalAnswer:
            continue
        if not plan.withdrawn and not plan.struck:
            return list(elements)
    return None if fewest else []
