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

from dataclasses import dataclass
from typing import Iterable, Sequence

Point = tuple[int, int]
Polygon = tuple[Point, ...]

BOW, STARBOARD, STERN, PORT = "bow", "starboard", "stern", "port"
ARCS = (BOW, STARBOARD, STERN, PORT)


@dataclass(frozen=True, slots=True)
class Pose:
    """A ship's centre (1/1000 BL) and heading (compass degrees 0-359)."""

    x: int
    y: int
    heading: int


def rdiv(value: int, scale: int) -> int:
    """``value / scale`` rounded to the nearest integer, halves away from zero."""
    quotient, remainder = divmod(abs(value), scale)
    if 2 * remainder >= scale:
        quotient += 1
    return quotient if value >= 0 else -quotient


def cross(o: Point, a: Point, b: Point) -> int:
    """The z of (a - o) x (b - o): > 0 when o, a, b turn anticlockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(points: Iterable[Point]) -> Polygon:
    """The convex hull, anticlockwise, without collinear points (monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return tuple(pts)
    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return tuple(lower[:-1] + upper[:-1])


def _axes(polygon: Polygon) -> list[Point]:
    n = len(polygon)
    axes = []
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        axes.append((y1 - y2, x2 - x1))
    return axes


def interiors_overlap(a: Polygon, b: Polygon) -> bool:
    """Whether two convex polygons' interiors overlap (separating-axis test).

    Touching along an edge or at a corner is not overlap (R-GEO-5)."""
    for axis in _axes(a) + _axes(b):
        ax, ay = axis
        pa = [x * ax + y * ay for x, y in a]
        pb = [x * ax + y * ay for x, y in b]
        if max(pa) <= min(pb) or max(pb) <= min(pa):
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
        fx, fy = self.fwd(self.base_length // 2, pose.heading)
        rx, ry = self.right(self.base_width // 2, pose.heading)
        x, y = pose.x, pose.y
        return ((x + fx + rx, y + fy + ry), (x + fx - rx, y + fy - ry),
                (x - fx - rx, y - fy - ry), (x - fx + rx, y - fy + ry))

    def advance(self, pose: Pose, length: int) -> Pose:
        """``length`` units straight ahead."""
        dx, dy = self.fwd(length, pose.heading)
        return Pose(pose.x + dx, pose.y + dy, pose.heading)

    def pivot(self, pose: Pose, degrees: int) -> Pose:
        """Pivot about the midpoint of the inner long side: ``degrees`` > 0 to
        starboard, < 0 to port (R-MOVE-3). Computed from the pre-pivot pose."""
        half = self.base_width // 2
        new_heading = (pose.heading + degrees) % 360
        rx0, ry0 = self.right(half, pose.heading)
        rx1, ry1 = self.right(half, new_heading)
        if degrees >= 0:
            return Pose(pose.x + rx0 - rx1, pose.y + ry0 - ry1, new_heading)
        return Pose(pose.x - rx0 + rx1, pose.y - ry0 + ry1, new_heading)

    def turn(self, pose: Pose, degrees: int) -> Pose:
        """A whole turn: half a length ahead, then the pivot."""
        return self.pivot(self.advance(pose, self.base_length // 2), degrees)

    def swept(self, start: Pose, end: Pose) -> Polygon:
        """The hull of two poses' bases: the area a short step sweeps."""
        return convex_hull(self.corners(start) + self.corners(end))

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
        reach = self.base_length
        lo_x, hi_x = min(firer[0], target[0]) - reach, max(firer[0], target[0]) + reach
        lo_y, hi_y = min(firer[1], target[1]) - reach, max(firer[1], target[1]) + reach
        for pose in others:
            if lo_x <= pose.x <= hi_x and lo_y <= pose.y <= hi_y:
                if segment_meets_polygon(firer, target, self.corners(pose)):
                    return True
        return False

    def on_table(self, pose: Pose) -> bool:
        """Whether the centre is on the table, edges included (X-EDGE)."""
        return 0 <= pose.x <= self.table[0] and 0 <= pose.y <= self.table[1]

    # -- contacts (R-GEO-5) ----------------------------------------------------------

    def near(self, a: Pose, b: Pose, extra: int) -> bool:
        """A cheap bound: could bases at ``a`` and ``b`` come within ``extra`` units?"""
        reach = self.base_length + self.base_width + extra
        return abs(a.x - b.x) <= reach and abs(a.y - b.y) <= reach

    def overlapping(self, shape: Polygon, others: Sequence[tuple[str, Pose]], centre: Pose,
                    extra: int) -> list[str]:
        """The names in ``others`` whose bases overlap ``shape`` (near ``centre``)."""
        hits = []
        for name, pose in others:
            if self.near(centre, pose, extra) and interiors_overlap(shape, self.corners(pose)):
                hits.append(name)
        return hits

    def sweep_ahead(self, pose: Pose, length: int, others: Sequence[tuple[str, Pose]]) -> tuple[Pose, list[str]]:
        """Advance up to ``length`` units; stop at the last whole unit before a base
        would overlap another. Returns the end pose and the ships struck (none when
        the way is clear)."""
        nearby = [(n, p) for n, p in others if self.near(pose, p, length)]
        if not nearby:
            return self.advance(pose, length), []
        end = self.advance(pose, length)
        if not self.overlapping(self.swept(pose, end), nearby, pose, length):
            return end, []
        low, high = 0, length          # clear at low (or low = 0), overlap at high
        if self.overlapping(self.corners(pose), nearby, pose, 0):
            return pose, self.overlapping(self.corners(pose), nearby, pose, 0)
        while high - low > 1:
            middle = (low + high) // 2
            if self.overlapping(self.swept(pose, self.advance(pose, middle)), nearby, pose, length):
                high = middle
            else:
                low = middle
        struck = self.overlapping(self.swept(pose, self.advance(pose, high)), nearby, pose, length)
        return self.advance(pose, low), struck

    def sweep_pivot(self, pose: Pose, degrees: int, others: Sequence[tuple[str, Pose]]) -> tuple[Pose, list[str]]:
        """Pivot degree by degree (each step's pose from the pre-pivot pose); stop at
        the last clear degree. Returns the end pose and the ships struck."""
        nearby = [(n, p) for n, p in others if self.near(pose, p, self.base_width)]
        if not nearby:
            return self.pivot(pose, degrees), []
        step = 1 if degrees > 0 else -1
        previous = pose
        for k in range(step, degrees + step, step):
            current = self.pivot(pose, k)
            struck = self.overlapping(self.swept(previous, current), nearby, pose, self.base_width)
            if struck:
                return previous, struck
            previous = current
        return previous, []


def mirror(pose: Pose, width: int) -> Pose:
    """The pose reflected in the table's north-south centre line."""
    return Pose(width - pose.x, pose.y, (360 - pose.heading) % 360)
