"""The table, exactly (rulings §3, R-GEO-1..5, R-MOVE-3): integers only.

Positions are integer pairs in 1/1000 base length (BL), origin at the south-west
corner, x east, y north. Headings are whole compass degrees, 0 = north, clockwise.
Sines come from the committed table (``games/tsushima-1905/trig.toml``), never from
libm; every division by the table's scale rounds half away from zero, so that mirror
manoeuvres stay mirror images. Arcs, lines of fire and contacts are decided by
integer dot and cross products: no angle is ever computed, no float is ever used.

Rulebook, Movement and Turning: "To turn, a ship moves forward 1/2 length, and then
pivots about the right or left center edge of the base." Gunnery: "Ships roll 1D6
for gunnery fire off the bow or stern (plus or minus 45 degrees), and up to 2D6 for
broadside fire (plus or minus 45 degrees of the beam) ... Ships may not fire over
interposing ships."
"""

from __future__ import annotations

from typing import Iterable, NamedTuple, Sequence

Point = tuple[int, int]
Polygon = tuple[Point, ...]

BOW, STARBOARD, STERN, PORT = "bow", "starboard", "stern", "port"
PIVOT_RUN = 8          # degrees of a pivot tested together first (one hull of their poses)
ARCS = (BOW, STARBOARD, STERN, PORT)


class Pose(NamedTuple):
    """A ship's centre (1/1000 BL) and heading (compass degrees 0-359)."""

    x: int
    y: int
    heading: int


def rdiv(value: int, scale: int) -> int:
    """``value / scale`` rounded to the nearest integer, halves away from zero."""
    half = scale // 2
    if value >= 0:
        return (value + half) // scale if scale % 2 == 0 else _rdiv_odd(value, scale)
    return -((half - value) // scale) if scale % 2 == 0 else -_rdiv_odd(-value, scale)


def _rdiv_odd(value: int, scale: int) -> int:
    quotient, remainder = divmod(value, scale)
    return quotient + (2 * remainder >= scale)


def cross(o: Point, a: Point, b: Point) -> int:
    """The z of (a - o) x (b - o): > 0 when o, a, b turn anticlockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(points: Iterable[Point]) -> Polygon:
    """The convex hull, anticlockwise, without collinear points (monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return tuple(pts)

    def chain(sequence: Iterable[Point]) -> list[Point]:
        out: list[Point] = []
        for p in sequence:
            while len(out) >= 2:
                (ox, oy), (ax, ay) = out[-2], out[-1]
                if (ax - ox) * (p[1] - oy) - (ay - oy) * (p[0] - ox) > 0:
                    break
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(pts), chain(reversed(pts))
    return tuple(lower[:-1] + upper[:-1])


def _separated(axis_x: int, axis_y: int, a: Polygon, b: Polygon) -> bool:
    pa = [x * axis_x + y * axis_y for x, y in a]
    pb = [x * axis_x + y * axis_y for x, y in b]
    return max(pa) <= min(pb) or max(pb) <= min(pa)


def interiors_overlap(a: Polygon, b: Polygon) -> bool:
    """Whether two convex polygons' interiors overlap (separating-axis test).

    Touching along an edge or at a corner is not overlap (R-GEO-5)."""
    for polygon in (a, b):
        previous = polygon[-1]
        for point in polygon:
            if _separated(previous[1] - point[1], point[0] - previous[0], a, b):
                return False
            previous = point
    return True


def _moving_extent(motion: tuple, ax: int, ay: int) -> tuple[int, int]:
    """The extent on the axis (ax, ay) of a base c +- f +- r moved straight by d."""
    cx, cy, fx, fy, rx, ry, dx, dy = motion
    centre = cx * ax + cy * ay
    half = abs(fx * ax + fy * ay) + abs(rx * ax + ry * ay)
    shift = dx * ax + dy * ay
    return centre - half + min(0, shift), centre + half + max(0, shift)


def overlaps_base(shape: Polygon, base: Polygon) -> bool:
    """:func:`interiors_overlap` against a base, whose opposite sides are parallel
    (c +- f +- r), so that two of its sides give all its axes."""
    previous = shape[-1]
    for point in shape:
        if _separated(previous[1] - point[1], point[0] - previous[0], shape, base):
            return False
        previous = point
    for (x1, y1), (x2, y2) in ((base[0], base[1]), (base[1], base[2])):
        if _separated(y1 - y2, x2 - x1, shape, base):
            return False
    return True


def _on_segment(p: Point, q: Point, r: Point) -> bool:
    return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])


def segments_touch(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two closed segments share a point (touching counts)."""
    d1, d2 = cross(q1, q2, p1), cross(q1, q2, p2)
    d3, d4 = cross(p1, p2, q1), cross(p1, p2, q2)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return ((d1 == 0 and _on_segment(q1, q2, p1)) or (d2 == 0 and _on_segment(q1, q2, p2))
            or (d3 == 0 and _on_segment(p1, p2, q1)) or (d4 == 0 and _on_segment(p1, p2, q2)))


def point_in_polygon(p: Point, polygon: Polygon) -> bool:
    """Whether ``p`` lies in the closed convex polygon (anticlockwise or clockwise)."""
    signs = {(c > 0) - (c < 0) for c in
             (cross(polygon[i], polygon[(i + 1) % len(polygon)], p) for i in range(len(polygon)))}
    return not (1 in signs and -1 in signs)


def segment_meets_polygon(p1: Point, p2: Point, polygon: Polygon) -> bool:
    """Whether the closed segment touches or crosses the closed convex polygon."""
    if point_in_polygon(p1, polygon) or point_in_polygon(p2, polygon):
        return True
    n = len(polygon)
    return any(segments_touch(p1, p2, polygon[i], polygon[(i + 1) % n]) for i in range(n))


def segment_meets_base(p1: Point, p2: Point, base: Polygon) -> bool:
    """:func:`segment_meets_polygon` for a base (a rectangle, corners in order), by
    the separating-axis test: a closed segment and a closed convex polygon are
    disjoint iff one of the polygon's side normals or the segment's normal strictly
    separates them (touching is meeting). Integer dot products only."""
    (x1, y1), (x2, y2) = p1, p2
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = base
    for nx, ny in ((y2 - y1, x1 - x2), (ay - by, bx - ax), (by - cy, cx - bx)):
        s1, s2 = x1 * nx + y1 * ny, x2 * nx + y2 * ny
        ka, kb, kc, kd = ax * nx + ay * ny, bx * nx + by * ny, cx * nx + cy * ny, dx * nx + dy * ny
        if s1 < s2:
            low, high = s1, s2
        else:
            low, high = s2, s1
        if high < min(ka, kb, kc, kd) or max(ka, kb, kc, kd) < low:
            return False
    return True


class Geometry:
    """The geometry kernel over one committed sine table and base size."""

    def __init__(self, sin_0_90: Sequence[int], scale: int, base_length: int = 1000,
                 base_width: int = 250, table: tuple[int, int] = (20000, 28000)) -> None:
        if len(sin_0_90) != 91:
            raise ValueError("the sine table needs the 91 values of 0..90 degrees")
        sines = []
        for d in range(360):
            if d <= 90:
                sines.append(sin_0_90[d])
            elif d <= 180:
                sines.append(sin_0_90[180 - d])
            elif d <= 270:
                sines.append(-sin_0_90[d - 180])
            else:
                sines.append(-sin_0_90[360 - d])
        self.sin = tuple(sines)
        self.cos = tuple(sines[(d + 90) % 360] for d in range(360))
        self.scale = scale
        self.base_length = base_length
        self.base_width = base_width
        self.table = table
        self._offsets = tuple((self.fwd(base_length // 2, h), self.right(base_width // 2, h)) for h in range(360))
        # the vectors of the moves, per heading (the same integers fwd and right give)
        self._steps = {length: tuple(self.fwd(length, h) for h in range(360))
                       for length in (base_length, base_length // 2)}
        # read-only, per heading: a whole ahead, half an ahead, and the pivot's arm (the
        # integers step, advance and pivot add to a pose), for searches that add them up
        self.whole_steps = self._steps[base_length]
        self.half_steps = self._steps[base_length // 2]
        self.pivot_arms = tuple(self.right(base_width // 2, h) for h in range(360))
        self._corners: dict[Pose, Polygon] = {}
        self._sweeps: dict[tuple, tuple[Pose, list[str]]] = {}
        half_diagonal_sq = (base_length // 2) ** 2 + (base_width // 2) ** 2
        self._base_reach = _isqrt_up(half_diagonal_sq) + 1
        self._pivot_reach = _isqrt_up((base_length // 2) ** 2 + base_width ** 2) + 1

    # -- vectors ---------------------------------------------------------------------

    def fwd(self, length: int, heading: int) -> Point:
        """``length`` units ahead along ``heading``."""
        h = heading % 360
        return rdiv(length * self.sin[h], self.scale), rdiv(length * self.cos[h], self.scale)

    def right(self, length: int, heading: int) -> Point:
        """``length`` units to starboard of ``heading``."""
        h = heading % 360
        return rdiv(length * self.cos[h], self.scale), rdiv(-length * self.sin[h], self.scale)

    # -- the base and the moves (Movement and Turning) -------------------------------

    def corners(self, pose: Pose) -> Polygon:
        """The base's four corners, anticlockwise: c +- fwd(L/2) +- right(W/2)."""
        found = self._corners.get(pose)
        if found is not None:
            return found
        (fx, fy), (rx, ry) = self._offsets[pose.heading]
        x, y = pose.x, pose.y
        found = ((x + fx + rx, y + fy + ry), (x + fx - rx, y + fy - ry),
                 (x - fx - rx, y - fy - ry), (x - fx + rx, y - fy + ry))
        if len(self._corners) > 50_000:
            self._corners.clear()
        self._corners[pose] = found
        return found

    def step(self, heading: int) -> Point:
        """The move of one whole ahead along ``heading``: fwd(base length)."""
        return self.whole_steps[heading % 360]

    def advance(self, pose: Pose, length: int) -> Pose:
        """``length`` units straight ahead."""
        x, y, heading = pose
        steps = self._steps.get(length)
        dx, dy = steps[heading % 360] if steps is not None else self.fwd(length, heading)
        return Pose(x + dx, y + dy, heading)

    def pivot(self, pose: Pose, degrees: int) -> Pose:
        """Pivot about the midpoint of the inner long side: ``degrees`` > 0 to
        starboard, < 0 to port (R-MOVE-3). Computed from the pre-pivot pose."""
        x, y, heading = pose
        new_heading = (heading + degrees) % 360
        rx0, ry0 = self.pivot_arms[heading % 360]
        rx1, ry1 = self.pivot_arms[new_heading]
        if degrees >= 0:
            return Pose(x + rx0 - rx1, y + ry0 - ry1, new_heading)
        return Pose(x - rx0 + rx1, y - ry0 + ry1, new_heading)

    def turn(self, pose: Pose, degrees: int) -> Pose:
        """A whole turn: half a length ahead, then the pivot."""
        return self.pivot(self.advance(pose, self.base_length // 2), degrees)

    def forget(self) -> None:
        """Empty the caches of corners and sweeps (a new process starts without them)."""
        self._corners.clear()
        self._sweeps.clear()

    # -- arcs, range, line of fire (Gunnery) -----------------------------------------

    def bearing_parts(self, firer: Pose, target: Point) -> tuple[int, int]:
        """(f, s): the target's offset along the bow and to starboard, scaled."""
        dx, dy = target[0] - firer.x, target[1] - firer.y
        s, c = self.sin[firer.heading], self.cos[firer.heading]
        return dx * s + dy * c, dx * c - dy * s

    def arcs_of(self, firer: Pose, target: Point) -> tuple[str, ...]:
        """The arcs (closed, R-FIRE-1) that hold ``target``: one, or two on a 45° line."""
        f, s = self.bearing_parts(firer, target)
        found = []
        if f >= abs(s):
            found.append(BOW)
        if s >= abs(f):
            found.append(STARBOARD)
        if -f >= abs(s):
            found.append(STERN)
        if -s >= abs(f):
            found.append(PORT)
        return tuple(found)

    @staticmethod
    def range_squared(a: Point, b: Point) -> int:
        return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2

    def line_blocked(self, firer: Point, target: Point, others: Iterable[Pose]) -> bool:
        """Whether the centre-to-centre segment touches or crosses any base in
        ``others`` (R-GEO-3, R-GEO-4)."""
        return self.line_blocked_by(firer, target, (("", pose) for pose in others), ())

    def line_blocked_by(self, firer: Point, target: Point, bases: Iterable[tuple[str, tuple[int, int, int]]],
                        excluded: Sequence[str]) -> bool:
        """:meth:`line_blocked` by the named ``bases`` but the ``excluded`` (the firer's
        and the target's own). A base whose centre is out of the segment's box or
        farther from the line than its half-diagonal is skipped by exact integer tests
        first."""
        (x1, y1), (x2, y2) = firer, target
        dx, dy = x2 - x1, y2 - y1
        reach = self._base_reach
        strip = reach * reach * (dx * dx + dy * dy)
        lo_x, hi_x = min(x1, x2) - reach, max(x1, x2) + reach
        lo_y, hi_y = min(y1, y2) - reach, max(y1, y2) + reach
        offsets = self._offsets
        for name, (x, y, heading) in bases:
            if x < lo_x or x > hi_x or y < lo_y or y > hi_y or name in excluded:
                continue
            side = (x - x1) * dy - (y - y1) * dx
            if side * side > strip:
                continue
            # segment_meets_base on c +- f +- r: each base extent is c.a +- (|f.a| + |r.a|)
            (fx, fy), (rx, ry) = offsets[heading]
            for ax, ay in ((dy, -dx), (ry, -rx), (fy, -fx)):
                s1, s2 = x1 * ax + y1 * ay, x2 * ax + y2 * ay
                centre = x * ax + y * ay
                half = abs(fx * ax + fy * ay) + abs(rx * ax + ry * ay)
                if max(s1, s2) < centre - half or centre + half < min(s1, s2):
                    break
            else:
                return True
        return False

    def on_table(self, pose: Pose) -> bool:
        """Whether the centre is on the table, edges included (X-EDGE)."""
        return 0 <= pose.x <= self.table[0] and 0 <= pose.y <= self.table[1]

    # -- contacts (R-GEO-5) ----------------------------------------------------------

    def overlapping(self, shape: Polygon, others: Sequence[tuple[str, Pose]]) -> list[str]:
        """The names in ``others`` whose bases overlap the convex ``shape``."""
        xs, ys = [p[0] for p in shape], [p[1] for p in shape]
        lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
        reach = self._base_reach
        hits = []
        for name, pose in others:
            if pose.x + reach <= lo_x or pose.x - reach >= hi_x or pose.y + reach <= lo_y or pose.y - reach >= hi_y:
                continue
            if overlaps_base(shape, self.corners(pose)):
                hits.append(name)
        return hits

    def _translation_hits(self, start: Pose, dx: int, dy: int, others: Sequence[tuple[str, Pose]]) -> list[str]:
        """The ships a base moved straight by (dx, dy) would overlap on the way: the
        separating-axis test on the swept shape (the base plus the segment, which is
        the convex hull of the start and end bases), done without building the hull."""
        base = self.corners(start)
        xs, ys = [p[0] for p in base], [p[1] for p in base]
        lo_x, hi_x = min(xs) + min(0, dx), max(xs) + max(0, dx)
        lo_y, hi_y = min(ys) + min(0, dy), max(ys) + max(0, dy)
        reach = self._base_reach
        hits = []
        mover = None
        for name, pose in others:
            if pose.x + reach <= lo_x or pose.x - reach >= hi_x or pose.y + reach <= lo_y or pose.y - reach >= hi_y:
                continue
            if mover is None:
                mover = self._moving(start, dx, dy)
            if self._meets_moving(mover, pose):
                hits.append(name)
        return hits

    def _moving(self, start: Pose, dx: int, dy: int) -> tuple:
        """A base moving straight by (dx, dy): its centre, half-vectors and motion, with
        its extent (widened by the motion) on its own axes -- its sides' normals and
        the normal of the motion."""
        (fx, fy), (rx, ry) = self._offsets[start.heading]
        motion = (start.x, start.y, fx, fy, rx, ry, dx, dy)
        axes = [(ry, -rx), (fy, -fx)] + ([(-dy, dx)] if dx or dy else [])
        return motion, [(ax, ay) + _moving_extent(motion, ax, ay) for ax, ay in axes]

    def _meets_moving(self, mover: tuple, other: Pose) -> bool:
        """Whether the moving base (:meth:`_moving`) swept straight overlaps the interior
        of the base ``other``. The axes are the two sides of each base and the normal of
        the motion; on each, the swept shape's extent is the base's widened by the
        motion's projection. Worked from the bases' centres and half-vectors: a base
        c +- f +- r projects on an axis a to c.a +- (|f.a| + |r.a|), the very integers
        its corners give; separated on one axis, the two do not meet."""
        motion, own = mover
        (gx, gy), (sx, sy) = self._offsets[other.heading]
        ox, oy = other.x, other.y
        for ax, ay, low, high in own:
            centre = ox * ax + oy * ay
            half = abs(gx * ax + gy * ay) + abs(sx * ax + sy * ay)
            if high <= centre - half or centre + half <= low:
                return False
        for ax, ay in ((sy, -sx), (gy, -gx)):
            centre = ox * ax + oy * ay
            half = abs(gx * ax + gy * ay) + abs(sx * ax + sy * ay)
            low, high = _moving_extent(motion, ax, ay)
            if high <= centre - half or centre + half <= low:
                return False
        return True

    def _in_box(self, points: Polygon, others: Sequence[tuple[str, Pose]]) -> list[tuple[str, Pose]]:
        """The bases of ``others`` that may reach into the bounding box of ``points``
        (a base reaches at most its half-diagonal from its centre): a cheap, exact
        first cut that keeps every base a finer test could find overlapping."""
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        reach = self._base_reach
        lo_x, hi_x, lo_y, hi_y = min(xs) - reach, max(xs) + reach, min(ys) - reach, max(ys) + reach
        return [(n, p) for n, p in others if lo_x < p[0] < hi_x and lo_y < p[1] < hi_y]

    def sweep(self, pose: Pose, element: int, length: int,
              others: tuple[tuple[str, Pose], ...]) -> tuple[Pose, list[str]]:
        """:meth:`sweep_pivot` (``element`` degrees, not 0) or :meth:`sweep_ahead`
        (``element`` 0, ``length`` units), remembered: both are pure functions of their
        arguments, and a move is often swept twice (planned, then checked)."""
        key = (pose, element, length, others)
        found = self._sweeps.get(key)
        if found is None:
            found = self.sweep_pivot(pose, element, others) if element else self.sweep_ahead(pose, length, others)
            if len(self._sweeps) > 20_000:
                self._sweeps.clear()
            self._sweeps[key] = found
        return found[0], list(found[1])

    def move_reach(self, lengths: Iterable[int], turns: int) -> int:
        """How far from its start centre any part of a base may come in a move made of
        aheads of ``lengths`` and ``turns`` turns (each ½ BL and a pivot), plus the
        half-diagonal of another base: every base farther than that is out of reach."""
        pivot = self.base_length // 2 + 2 * self._pivot_reach
        return sum(lengths) + turns * pivot + 2 * self._base_reach + self._pivot_reach

    def _swept_hits(self, start: Pose, end: Pose, others: Sequence[tuple[str, Pose]]) -> list[str]:
        """The ships the move from ``start`` to ``end`` would overlap (box test first)."""
        return self._swept_hits_of(self.corners(start) + self.corners(end), others)

    def _swept_hits_of(self, points: Sequence[Point], others: Sequence[tuple[str, Pose]]) -> list[str]:
        """The ships whose bases overlap the hull of ``points`` (box test first)."""
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
        reach = self._base_reach
        close = [(n, p) for n, p in others
                 if not (p.x + reach <= lo_x or p.x - reach >= hi_x or p.y + reach <= lo_y or p.y - reach >= hi_y)]
        if not close:
            return []
        return self.overlapping(convex_hull(points), close)

    def sweep_ahead(self, pose: Pose, length: int, others: Sequence[tuple[str, Pose]]) -> tuple[Pose, list[str]]:
        """Advance up to ``length`` units; stop at the last whole unit before a base
        would overlap another. Returns the end pose and the ships struck (none when
        the way is clear)."""
        end = self.advance(pose, length)
        others = self._in_box(self.corners(pose) + self.corners(end), others)
        if not others or not self._translation_hits(pose, end.x - pose.x, end.y - pose.y, others):
            return end, []
        at_start = self.overlapping(self.corners(pose), others)
        if at_start:
            return pose, at_start
        low, high = 0, length          # clear up to low, overlap at high
        while high - low > 1:
            middle = (low + high) // 2
            step = self.advance(pose, middle)
            if self._translation_hits(pose, step.x - pose.x, step.y - pose.y, others):
                high = middle
            else:
                low = middle
        step = self.advance(pose, high)
        return self.advance(pose, low), self._translation_hits(pose, step.x - pose.x, step.y - pose.y, others)

    def sweep_pivot(self, pose: Pose, degrees: int, others: Sequence[tuple[str, Pose]]) -> tuple[Pose, list[str]]:
        """Pivot degree by degree (each step's pose from the pre-pivot pose); stop at
        the last clear degree. Returns the end pose and the ships struck.

        R-PIV-1: the base is split at the pivot point into its fore and aft halves,
        each a rectangle with the pivot point at one corner, and each half is tested
        on the hull of its two consecutive poses: the hull of the whole base reached
        up to 4.4 units beyond the swept area at the pivot point."""
        rx, ry = self.right(self.base_width // 2, pose.heading)
        px, py = (pose.x + rx, pose.y + ry) if degrees > 0 else (pose.x - rx, pose.y - ry)
        limit = (self._pivot_reach + self._base_reach) ** 2
        nearby = [(n, p) for n, p in others if (p.x - px) ** 2 + (p.y - py) ** 2 < limit]
        if not nearby:
            return self.pivot(pose, degrees), []
        step = 1 if degrees > 0 else -1
        poses = [pose] + [self.pivot(pose, k) for k in range(step, degrees + step, step)]
        halves = [self.halves(p, step) for p in poses]
        for first in range(1, len(poses), PIVOT_RUN):
            hit = self._first_step_hit(halves, first, min(first + PIVOT_RUN - 1, len(poses) - 1), nearby)
            if hit is not None:
                return poses[hit[0] - 1], hit[1]
        return poses[-1], []

    def halves(self, pose: Pose, toward: int) -> tuple[Polygon, Polygon]:
        """The fore and aft halves of the base split at the pivot point, the midpoint
        of its starboard side (``toward`` > 0) or port side (< 0) (R-PIV-1, R-MOVE-3):
        two rectangles, each with the pivot point at one corner."""
        (fx, fy), (rx, ry) = self._offsets[pose.heading]
        if toward < 0:
            rx, ry = -rx, -ry
        x, y = pose.x, pose.y
        inner, outer = (x + rx, y + ry), (x - rx, y - ry)
        fore = (inner, (x + fx + rx, y + fy + ry), (x + fx - rx, y + fy - ry), outer)
        aft = (inner, outer, (x - fx - rx, y - fy - ry), (x - fx + rx, y - fy + ry))
        return fore, aft

    def _first_step_hit(self, halves: list[tuple[Polygon, Polygon]], first: int, last: int,
                        nearby: Sequence[tuple[str, Pose]]) -> tuple[int, list[str]] | None:
        """The first degree step i in [first, last] at which the hull of either half's
        poses i-1 and i meets another base, with the ships it meets (None: all clear).
        Each step's hull lies in the hull of a whole run of poses, so a run whose hulls
        meet nothing is clear at once; a run that meets something is halved. The same
        first step as testing the degrees one by one, in fewer hulls (runs of
        ``PIVOT_RUN`` degrees: a hull of many points costs more than it saves)."""
        met: set[str] = set()
        for part in (0, 1):
            corners = [c for i in range(first - 1, last + 1) for c in halves[i][part]]
            met.update(self._swept_hits_of(corners, nearby))
        if not met:
            return None
        if first == last:
            return first, [name for name, _ in nearby if name in met]
        middle = (first + last) // 2
        return (self._first_step_hit(halves, first, middle, nearby)
                or self._first_step_hit(halves, middle + 1, last, nearby))


def _isqrt_up(value: int) -> int:
    """The smallest integer whose square is at least ``value``."""
    from math import isqrt

    root = isqrt(value)
    return root if root * root == value else root + 1


def mirror(pose: Pose, width: int) -> Pose:
    """The pose reflected in the table's north-south centre line."""
    return Pose(width - pose.x, pose.y, (360 - pose.heading) % 360)
