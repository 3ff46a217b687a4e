"""Exact geometry (rulings §3): integer poses, the committed sine table, rounding
half away from zero, arcs without angles, lines of fire and contacts."""

from hypothesis import given, settings, strategies as st

from adjudicator.games.tsushima_1905.data import load_data
from adjudicator.games.tsushima_1905.geometry import (
    ARCS, Geometry, Pose, interiors_overlap, mirror, rdiv,
)

DATA = load_data()
GEO = Geometry(DATA.sin_table, DATA.trig_scale, DATA.units_per_bl, DATA.base_width, DATA.table)
W = DATA.table[0]

coords = st.integers(min_value=2000, max_value=18000)
headings = st.integers(min_value=0, max_value=359)
angles = st.integers(min_value=1, max_value=90)
poses = st.builds(Pose, coords, coords, headings)


def test_rounding_is_half_away_from_zero():
    assert rdiv(500_000, 10**6) == 1 and rdiv(-500_000, 10**6) == -1
    assert rdiv(499_999, 10**6) == 0 and rdiv(-1_500_000, 10**6) == -2


def test_starboard_90_turn_pivots_about_the_starboard_midpoint():
    assert GEO.turn(Pose(10000, 5000, 0), 90) == Pose(10125, 5625, 90)


def test_port_45_then_ahead_lands_to_the_thousandth():
    assert GEO.advance(GEO.turn(Pose(10000, 5000, 0), -45), 1000) == Pose(9256, 6295, 315)


@given(poses, st.lists(st.sampled_from(["A"]) | angles.map(lambda a: a) | angles.map(lambda a: -a), max_size=6))
def test_mirror_manoeuvres_stay_mirror_images(pose, elements):
    here, there = pose, mirror(pose, W)
    for element in elements:
        if element == "A":
            here, there = GEO.advance(here, 1000), GEO.advance(there, 1000)
        else:
            here, there = GEO.turn(here, element), GEO.turn(there, -element)
        assert there == mirror(here, W)


@given(poses, st.sampled_from([90, -90]))
def test_four_90_degree_pivots_return_to_the_start(pose, angle):
    here = pose
    for _ in range(4):
        here = GEO.pivot(here, angle)
    assert here == pose


@given(poses, st.sampled_from([90, -90]))
def test_four_90_degree_turns_trace_a_square(pose, angle):
    here = pose
    for _ in range(4):
        here = GEO.turn(here, angle)
    assert (here.x, here.y, here.heading) == (pose.x, pose.y, pose.heading)


@given(poses, coords, coords)
def test_arcs_tile_the_circle(firer, tx, ty):
    arcs = GEO.arcs_of(firer, (tx, ty))
    if (tx, ty) == (firer.x, firer.y):
        assert arcs == ARCS
    else:
        assert 1 <= len(arcs) <= 2
        if len(arcs) == 2:   # only on a 45-degree line: |f| == |s|
            f, s = GEO.bearing_parts(firer, (tx, ty))
            assert abs(f) == abs(s)


@given(poses, headings)
def test_a_target_dead_ahead_is_in_the_bow_arc_and_astern_in_the_stern_arc(firer, _):
    ahead = GEO.advance(firer, 3000)
    astern = GEO.advance(firer, -3000)
    assert GEO.arcs_of(firer, (ahead.x, ahead.y)) == ("bow",)
    assert GEO.arcs_of(firer, (astern.x, astern.y)) == ("stern",)


def test_a_target_exactly_45_degrees_off_the_bow_is_in_two_arcs():
    assert GEO.arcs_of(Pose(10000, 10000, 0), (12000, 12000)) == ("bow", "starboard")


def test_touching_bases_do_not_overlap_but_one_unit_more_does():
    a = GEO.corners(Pose(10000, 10000, 0))
    assert not interiors_overlap(a, GEO.corners(Pose(10250, 10000, 0)))
    assert interiors_overlap(a, GEO.corners(Pose(10249, 10000, 0)))


def test_a_line_of_fire_grazing_a_base_is_blocked_and_one_unit_clear_is_not():
    firer, target = (10000, 10000), (16000, 10000)
    assert GEO.line_blocked(firer, target, [Pose(13000, 10125, 90)])
    assert not GEO.line_blocked(firer, target, [Pose(13000, 10126, 90)])


def test_an_ahead_stops_at_the_last_clear_unit():
    end, struck = GEO.sweep_ahead(Pose(10000, 11000, 0), 1000, [("Azuma", Pose(10000, 11800, 90))])
    assert end == Pose(10000, 11175, 0) and struck == ["Azuma"]


@settings(max_examples=60)
@given(poses, poses, st.integers(min_value=1, max_value=1000))
def test_a_swept_ahead_never_ends_overlapping(mover, other, length):
    if interiors_overlap(GEO.corners(mover), GEO.corners(other)):
        return
    end, struck = GEO.sweep_ahead(mover, length, [("other", other)])
    assert not interiors_overlap(GEO.corners(end), GEO.corners(other))
    assert (end == GEO.advance(mover, length)) == (not struck)


@settings(max_examples=60)
@given(poses, poses, angles | angles.map(lambda a: -a))
def test_a_pivot_never_ends_overlapping(mover, other, degrees):
    if interiors_overlap(GEO.corners(mover), GEO.corners(other)):
        return
    end, _ = GEO.sweep_pivot(mover, degrees, [("other", other)])
    assert not interiors_overlap(GEO.corners(end), GEO.corners(other))


def test_no_float_in_the_geometry_module():
    import inspect
    from adjudicator.games.tsushima_1905 import geometry
    source = inspect.getsource(geometry)
    assert "float" not in source.replace("no float is ever used", "") and "import math" not in source


near = st.integers(min_value=-1600, max_value=1600)


@settings(max_examples=300)
@given(poses, near, near, headings, st.integers(min_value=0, max_value=1000))
def test_the_straight_sweep_without_a_hull_agrees_with_the_hull(mover, dx, dy, heading, length):
    other = Pose(mover.x + dx, mover.y + dy, heading)
    end = GEO.advance(mover, length)
    by_hull = GEO._swept_hits(mover, end, [("other", other)])
    assert GEO._translation_hits(mover, end.x - mover.x, end.y - mover.y, [("other", other)]) == by_hull


@settings(max_examples=500)
@given(poses, near, near, near, near, headings)
def test_the_line_of_fire_test_by_separating_axes_agrees_with_the_segment_and_corner_tests(
        base, x1, y1, x2, y2, heading):
    from adjudicator.games.tsushima_1905.geometry import segment_meets_base, segment_meets_polygon
    corners = GEO.corners(Pose(base.x, base.y, heading))
    p1, p2 = (base.x + x1 // 3, base.y + y1 // 3), (base.x + x2, base.y + y2)
    assert segment_meets_base(p1, p2, corners) == segment_meets_polygon(p1, p2, corners)
    assert segment_meets_base(p1, p1, corners) == segment_meets_polygon(p1, p1, corners)


@settings(max_examples=500)
@given(poses, near, near, near, near, headings)
def test_a_line_of_fire_is_blocked_exactly_when_the_segment_meets_the_base(base, x1, y1, x2, y2, heading):
    from adjudicator.games.tsushima_1905.geometry import segment_meets_polygon
    other = Pose(base.x, base.y, heading)
    p1, p2 = (base.x + x1 * 2, base.y + y1 * 2), (base.x + x2 // 2, base.y + y2 // 2)
    assert GEO.line_blocked(p1, p2, [other]) == segment_meets_polygon(p1, p2, GEO.corners(other))


def pivot_degree_by_degree(mover, degrees, others):
    """The ruling's pivot test as written (rulings §3, R-PIV-1): degree by degree, the
    fore and aft halves of the base split at the pivot point, each on the hull of its
    two consecutive poses, stopping at the last clear degree."""
    from adjudicator.games.tsushima_1905.geometry import convex_hull
    step, previous = (1 if degrees > 0 else -1), mover
    for k in range(step, degrees + step, step):
        current = GEO.pivot(mover, k)
        hulls = [convex_hull(GEO.halves(previous, step)[i] + GEO.halves(current, step)[i]) for i in (0, 1)]
        struck = [name for name, pose in others
                  if any(interiors_overlap(hull, GEO.corners(pose)) for hull in hulls)]
        if struck:
            return previous, struck
        previous = current
    return previous, []


@settings(max_examples=300, deadline=None)    # the degree-by-degree reference is slow on a busy machine
@given(poses, near, near, headings, near, near, headings, angles | angles.map(lambda a: -a))
def test_the_pivot_sweep_by_halving_runs_stops_where_the_degree_by_degree_test_does(
        mover, dx, dy, heading, dx2, dy2, heading2, degrees):
    others = [("one", Pose(mover.x + dx // 2, mover.y + dy // 2, heading)),
              ("two", Pose(mover.x + dx2 // 2, mover.y + dy2 // 2, heading2))]
    others = [(n, p) for n, p in others if not interiors_overlap(GEO.corners(mover), GEO.corners(p))]
    assert GEO.sweep_pivot(mover, degrees, others) == pivot_degree_by_degree(mover, degrees, others)


def _whole_base_first_hit(pose, degrees, other):
    """The old pivot test on the hull of the whole base's consecutive poses."""
    step = 1 if degrees > 0 else -1
    poses = [pose] + [GEO.pivot(pose, k) for k in range(step, degrees + step, step)]
    for i in range(1, len(poses)):
        if GEO._swept_hits_of(GEO.corners(poses[i - 1]) + GEO.corners(poses[i]), [("B", other)]):
            return i
    return None


def test_a_pivot_swinging_away_from_a_ship_flush_alongside_does_not_collide_with_it():
    """R-PIV-1: the fore half swings away from a ship touching it alongside; the hull
    of the whole base's consecutive poses over-reached at the pivot point and found a
    contact at the first degree."""
    mover = Pose(10000, 10000, 0)
    for degrees, beside, above in ((90, 9750, 300), (10, 9750, 30), (-90, 10250, 300), (-10, 10250, 30)):
        neighbour = Pose(beside, 10500 + above, 0)
        assert not interiors_overlap(GEO.corners(mover), GEO.corners(neighbour))
        assert _whole_base_first_hit(mover, degrees, neighbour) == 1
        end, struck = GEO.sweep_pivot(mover, degrees, [("B", neighbour)])
        assert (end, struck) == (GEO.pivot(mover, degrees), [])


def test_a_pivot_whose_aft_half_swings_into_a_ship_alongside_collides():
    """R-PIV-1: the aft half of a starboard pivot swings out to port."""
    mover = Pose(10000, 10000, 0)
    end, struck = GEO.sweep_pivot(mover, 90, [("B", Pose(9750, 9500, 0))])
    assert (end, struck) == (mover, ["B"])
    end, struck = GEO.sweep_pivot(mover, 90, [("B", Pose(9750, 10550, 0))])
    assert struck == ["B"] and 0 < end.heading < 90


@settings(max_examples=80)
@given(poses, poses, angles | angles.map(lambda a: -a))
def test_the_pivot_halves_stop_no_earlier_than_the_whole_base(mover, other, degrees):
    """Each half lies in the base, so the halves never find a contact the whole base's
    hull would not: a pivot goes at least as far under R-PIV-1."""
    if interiors_overlap(GEO.corners(mover), GEO.corners(other)):
        return
    end, struck = GEO.sweep_pivot(mover, degrees, [("other", other)])
    old = _whole_base_first_hit(mover, degrees, other)
    turned = abs((end.heading - mover.heading + 180) % 360 - 180)
    assert old is None and not struck or old is not None and turned >= old - 1
