"""7.0 Stacking, 8.0 Movement, 8.2 Rail Movement, 8.3 Off-Map Boxes, 10.2.4 Strategic Movement.

Every path starts at the unit's position (a hex, or the Korean Peninsula / Siberia box)
and lists every hex entered; every hex entered is passed through (3.4, A3): it changes
control, costs key-location Morale and is tested for sudden death at once.
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Phrase
from adjudicator.games.russo_japanese_war.answers import Kind
from adjudicator.games.russo_japanese_war.data import RUSSIA, other
from adjudicator.games.russo_japanese_war.hexmap import ELIMINATED, ENTRY_BOXES, EUROPE, HOME, SIBERIA
from adjudicator.games.russo_japanese_war.rules.table import in_forced_march

FROZEN_BOXES = (HOME, EUROPE)
"""8.3: units in the Home Islands and European Russia boxes may not move."""
_STAYING = frozenset((*FROZEN_BOXES, ELIMINATED))


def _path(answer: Mapping[str, Any]) -> list[str]:
    path = answer.get("path")
    if not isinstance(path, list) or len(path) < 2 or not all(isinstance(h, str) for h in path):
        raise IllegalAnswer(f"a path lists the unit's position and every hex entered, e.g. ['1015', '1115']; "
                            f"got {path!r}")
    return path


def _own_unit(t, uid: Any, side: str) -> str:
    if not isinstance(uid, str) or uid not in t.units:
        raise IllegalAnswer(f"there is no unit {uid!r}")
    if t.side_of(uid) != side:
        raise IllegalAnswer(f"{uid} is not a {side.capitalize()} unit")
    return uid


def siberia_frozen_for(t, side: str) -> bool:
    """Japanese #05 (reconstructed): no Russian rail move and nobody leaves Siberia."""
    return side == RUSSIA and t.s.get("siberia_frozen", False)


# -- 8.0/8.1 ordinary movement -------------------------------------------------------------

def step_error(t, uid: str, side: str, a: str, b: str, first: bool, last: bool) -> str | None:
    """What forbids the step a-b of an ordinary move (None: allowed)."""
    board = t.board
    if a in ENTRY_BOXES:
        if board.entries.get(a) != b:
            return f"from the {a} box a unit enters the map only at {board.entries.get(a, 'no hex')} (8.3)"
    elif b not in board.hexes:
        return f"{b} is not on the map (8.1)"
    elif not board.adjacent(a, b):
        return (f"{a} and {b} are separated by an all-sea hexside (8.1)" if b in _grid(a)
                else f"{b} is not adjacent to {a}")
    problem = entry_error(t, uid, side, b)
    if problem:
        return problem
    if first and a not in ENTRY_BOXES and t.in_ezoc(a, side) and t.in_ezoc(b, side):
        return f"a unit starting in an EZOC may not enter another EZOC on its first move ({a} -> {b}, 6.1)"
    if not last:
        if t.in_ezoc(b, side):
            return f"{b} is in an enemy ZOC: the move must end there (6.1)"
        along = board.along_road_or_railway(a, b)
        if b in board.wasteland and not along:
            return f"{b} is wasteland: the move must end there unless it follows a road or railway (8.1)"
        if a not in ENTRY_BOXES and board.river_between(a, b) and not along:
            return f"{a} -> {b} crosses a river: the move must end there unless along a road or railway (8.1)"
    return None


def entry_error(t, uid: str, side: str, b: str) -> str | None:
    """7.0, 7.3: never into enemy units; within the stacking limit, also when passing."""
    stacks = t._occupants if t._occupants is not None else t._stacks()
    occupants = stacks.get(b)
    if occupants:
        if t.units[occupants[0]]["side"] != side:
            return f"{b} holds enemy units"
        if len(occupants) - (uid in occupants) >= t.limit(side):
            return f"{b} already holds {t.limit(side)} friendly unit(s): stacking limit, also when passing (7.3)"
    return None


def may_enter(t, uid: str, side: str, b: str) -> bool:
    """:func:`entry_error` is None: asked for every step a search tries, so no reason is written."""
    stacks = t._occupants if t._occupants is not None else t._stacks()
    occupants = stacks.get(b)
    return not occupants or (t.units[occupants[0]]["side"] == side
                             and len(occupants) - (uid in occupants) < t._limits[side])


def closed_hexes(t, side: str) -> set[str]:
    """The hexes a unit of ``side`` coming from another hex may not enter: enemy units
    there, or the stacking limit reached (7.0, 7.3) -- :func:`may_enter` for every hex at once."""
    return t.closed_to(side)


def closed_to_long_moves(t, side: str, strategic: bool) -> set[str]:
    """The hexes a step of a rail (8.2) or strategic (10.2.4) move of ``side`` may not
    enter: :func:`closed_hexes`, the EZOC, towns (and for a strategic move supply sources)
    controlled by the enemy -- :func:`long_step_allowed` past its hexside test."""
    closed = set(closed_hexes(t, side))
    closed |= t.enemy_zone(side)
    board = t.board
    enemy = other(side)
    closed.update(hex_ for hex_ in board.towns if t.controller(hex_) == enemy)
    if strategic:
        closed.update(hex_ for hex_ in board.supply.values() if t.controller(hex_) == enemy)
    return closed


def step_allowed(t, uid: str, side: str, a: str, b: str, first: bool, last: bool) -> bool:
    """:func:`step_error` is None, the same tests without writing the reason (the search
    for legal moves asks this for every step it tries)."""
    board = t.board
    if a in ENTRY_BOXES:
        if board.entries.get(a) != b:
            return False
    elif b not in board.land_neighbours.get(a, ()):       # off the map, not adjacent, all sea
        return False
    if not may_enter(t, uid, side, b):
        return False
    zone = t.enemy_zone(side)
    if first and a not in ENTRY_BOXES and a in zone and b in zone:
        return False
    return last or not (b in zone or (a not in ENTRY_BOXES and b in board.halting_neighbours[a]))


def _grid(a: str) -> tuple[str, ...]:
    from adjudicator.games.russo_japanese_war.hexmap import grid_neighbours
    return grid_neighbours(a) if a.isdigit() else ()


def unit_may_move(t, uid: str, side: str, moved: set[str]) -> str | None:
    unit = t.units[uid]
    if uid in moved:
        return f"{uid} has already moved in this Movement Phase (A58)"
    if unit["ma"] <= 0:
        return f"{uid} has a movement allowance of 0 (8.0)"
    if unit["at"] in FROZEN_BOXES:
        return f"{uid} is in the {unit['at']} box: units there do not move in the Movement Phase (8.3)"
    if unit["at"] in ENTRY_BOXES and ENTRY_BOXES[unit["at"]] != side:
        return f"{uid} cannot leave the {unit['at']} box"
    if unit["at"] == SIBERIA and siberia_frozen_for(t, side):
        return "no unit may leave the Siberia box this Player Turn (Japanese #05)"
    if unit["at"] not in t.board.hexes and unit["at"] not in ENTRY_BOXES:
        return f"{uid} is not on the map"
    return None


def move_error(t, uid: str, path: list[str], side: str, moved: set[str]) -> str | None:
    problem = unit_may_move(t, uid, side, moved)
    if problem:
        return problem
    if path[0] != t.at(uid):
        return f"{uid} is at {t.at(uid)}, the path starts at {path[0]}"
    steps = len(path) - 1
    if steps > t.units[uid]["ma"]:
        return f"{steps} hexes, movement allowance {t.units[uid]['ma']} (8.0)"
    for i in range(steps):
        a, b, first, last = path[i], path[i + 1], i == 0, i == steps - 1
        if not step_allowed(t, uid, side, a, b, first, last):   # the reason is written only for a refusal
            return step_error(t, uid, side, a, b, first, last)
    return None


def reachable(t, uid: str) -> dict[str, list[str]]:
    """Every hex ``uid`` may end an ordinary move in, with one legal path to it: the hexes
    of :func:`step_allowed` first steps and of the steps after them (breadth first, the
    first path found to a hex kept)."""
    side = t.side_of(uid)
    start = t.at(uid)
    ma = t.units[uid]["ma"]
    board = t.board
    land, halting = board.land_neighbours, board.halting_neighbours
    closed = closed_hexes(t, side)
    zone = t.enemy_zone(side)
    found: dict[str, list[str]] = {}
    frontier = [[start]]
    best: dict[str, int] = {start: ma}
    while frontier:
        nxt = []
        for path in frontier:
            a = path[-1]
            left = ma - len(path)                   # movement left after the next step
            from_box = a in ENTRY_BOXES
            if from_box:
                entry = board.entries.get(a)
                around = (entry,) if entry else ()
            else:
                around = land.get(a, ())
            leaving_ezoc = len(path) == 1 and not from_box and a in zone   # 6.1: not EZOC to EZOC
            for b in around:
                if b == start or b in closed or (leaving_ezoc and b in zone):
                    continue
                new = path + [b]
                if b not in found:
                    found[b] = new
                if left > 0 and best.get(b, -1) < left and not (
                        b in zone or (not from_box and b in halting[a])):   # 6.1, 8.1: it stops there
                    best[b] = left
                    nxt.append(new)
        frontier = nxt
    return found


# -- 8.2 rail movement and 10.2.4 strategic movement ------------------------------------

def may_use_railway(t, uid: str, side: str) -> str | None:
    unit = t.units[uid]
    if unit["ma"] <= 0:
        return f"{uid} has a movement allowance of 0 and cannot move by rail (8.0)"
    if siberia_frozen_for(t, side):
        return "no Russian rail movement this Player Turn (Japanese #05)"
    if unit["at"] == SIBERIA and side == RUSSIA:
        return None
    if unit["at"] not in t.board.railway_hexes:
        return f"{uid} is not on a railway hex (8.2)"
    if t.in_ezoc(unit["at"], side):
        return f"{uid} starts in an enemy ZOC and may not move by rail (8.2)"
    return None


def may_move_strategically(t, uid: str, side: str) -> str | None:
    unit = t.units[uid]
    if unit["ma"] <= 0:
        return f"{uid} has a movement allowance of 0 (8.0)"
    if unit["at"] in ENTRY_BOXES:
        if ENTRY_BOXES[unit["at"]] != side:
            return f"{uid} cannot leave the {unit['at']} box"
        if unit["at"] == SIBERIA and siberia_frozen_for(t, side):
            return "no unit may leave the Siberia box this Player Turn (Japanese #05)"
        return None
    if unit["at"] not in t.board.hexes:
        return f"{uid} is not on the map"
    if t.in_ezoc(unit["at"], side):
        return f"{uid} is in an enemy ZOC (10.2.4)"
    if not t.board.on_road_or_railway(unit["at"]):
        return f"{uid} is not on a road or railway hex (10.2.4)"
    return None


def long_step_error(t, uid: str, side: str, a: str, b: str, strategic: bool) -> str | None:
    """A step of a rail (8.2) or strategic (10.2.4) move."""
    board = t.board
    if strategic:
        if not board.road_or_railway_step(a, b):
            return f"{a} -> {b} does not follow a road or railway (10.2.4)"
    elif not board.railway_step(a, b):
        return f"{a} -> {b} does not follow the railway (8.2)"
    if b not in board.hexes:
        return f"{b} is not on the map"
    problem = entry_error(t, uid, side, b)
    if problem:
        return problem
    if t.in_ezoc(b, side):
        return f"{b} is in an enemy ZOC (6.2)"
    enemy = other(side)
    if b in board.towns and t.controller(b) == enemy:
        return f"{b} is a town controlled by the enemy ({'10.2.4' if strategic else '8.2'})"
    if strategic and b in board.supply.values() and t.controller(b) == enemy:
        return f"{b} is a supply source controlled by the enemy (10.2.4)"
    return None


def long_step_allowed(t, uid: str, side: str, a: str, b: str, strategic: bool) -> bool:
    """:func:`long_step_error` is None, without writing the reason."""
    board = t.board
    if not (board.road_or_railway_step(a, b) if strategic else board.railway_step(a, b)):
        return False
    return b in board.hexes and long_entry_allowed(t, uid, side, b, strategic)


def long_entry_allowed(t, uid: str, side: str, b: str, strategic: bool) -> bool:
    """A rail or strategic move of ``uid`` may enter the hex ``b`` (the tests of
    :func:`long_step_error` after its hexside's)."""
    if not may_enter(t, uid, side, b) or b in t.enemy_zone(side):
        return False
    board = t.board
    if b in board.towns or (strategic and b in board.supply.values()):
        return t.controller(b) != other(side)              # not the enemy's
    return True


def long_move_error(t, uid: str, path: list[str], side: str, strategic: bool) -> str | None:
    problem = may_move_strategically(t, uid, side) if strategic else may_use_railway(t, uid, side)
    if problem:
        return problem
    if path[0] != t.at(uid):
        return f"{uid} is at {t.at(uid)}, the path starts at {path[0]}"
    if len(set(path)) != len(path):
        return "the path enters a hex twice"
    for a, b in zip(path, path[1:]):
        if not long_step_allowed(t, uid, side, a, b, strategic):   # the reason is written only for a refusal
            return long_step_error(t, uid, side, a, b, strategic)
    return None


def long_reachable(t, uid: str, strategic: bool) -> dict[str, list[str]]:
    """Every hex a rail or strategic move of ``uid`` may end in, with a path."""
    side = t.side_of(uid)
    start = t.at(uid)
    closed = closed_to_long_moves(t, side, strategic)
    found: dict[str, list[str]] = {}
    seen = {start}
    frontier = [[start]]
    while frontier:
        nxt = []
        for path in frontier:
            a = path[-1]
            from_box = a in ENTRY_BOXES
            for b in long_exits(t, a, strategic):
                # the exits of a hex follow the railway (road) already: only the hex entered is tested
                if b in seen or (not long_step_allowed(t, uid, side, a, b, strategic) if from_box else b in closed):
                    continue
                seen.add(b)
                new = path + [b]
                found[b] = new
                nxt.append(new)
        frontier = nxt
    return found


def exits(t, a: str) -> tuple[str, ...]:
    """The hexes one step from ``a`` (a box leads to its connection hex only, 8.3)."""
    if a in ENTRY_BOXES:
        entry = t.board.entries.get(a)
        return (entry,) if entry else ()
    return t.board.land_neighbours.get(a, ())


def long_exits(t, a: str, strategic: bool) -> tuple[str, ...]:
    """The hexes one step of a rail (8.2) or strategic (10.2.4) move may lead to from
    ``a``: its exits along the railway, or along a road or railway."""
    if a in ENTRY_BOXES:
        return exits(t, a)
    board = t.board
    return (board.road_or_railway_neighbours if strategic else board.railway_neighbours).get(a, ())


def walk(t, uid: str, path: list[str]) -> None:
    """Move ``uid`` along ``path``, entering every hex in turn (3.4, 4.3.1, 4.4)."""
    for hex_ in path[1:]:
        t.place(uid, hex_)
        t.enter(uid, hex_)


# -- the Movement Phase ---------------------------------------------------------------------

def movement_phase(t):
    """8.0: the phasing player moves any, all or none of his units, one at a time; one
    unit may move by rail in each Movement Phase (8.2, A15)."""
    side = t.phasing
    moved: set[str] = set()
    rail = {"used": False}
    t.s["moved"] = []                       # for the reports and the answers from orders
    while True:
        movers = movable_units(t, side, moved)
        railers = [] if rail["used"] else [uid for uid in long_movable_units(t, side, strategic=False)
                                           if uid not in moved]
        if not movers and not railers:
            return
        options = {"units": movers, "rail": railers, "at": {uid: t.at(uid) for uid in (*movers, *railers)},
                   "forced": in_forced_march(t.s)}

        def parse(answer: Mapping[str, Any], side=side) -> dict:
            if answer.get("done") is True:
                return {"done": True}
            if "rail" in answer:
                uid = _own_unit(t, answer["rail"], side)
                path = _path(answer)
                if rail["used"]:
                    raise IllegalAnswer("only one unit may move by rail in a Movement Phase (8.2, A15)")
                if uid in moved:
                    raise IllegalAnswer(f"{uid} has already moved in this Movement Phase (A58)")
                problem = long_move_error(t, uid, path, side, strategic=False)
                if problem:
                    raise IllegalAnswer(f"rail move of {uid} refused: {problem}")
                return {"rail": uid, "path": path}
            uid = _own_unit(t, answer.get("unit"), side)
            path = _path(answer)
            problem = move_error(t, uid, path, side, moved)
            if problem:
                raise IllegalAnswer(f"move of {uid} refused: {problem}")
            return {"unit": uid, "path": path}

        answer = yield from t.ask(side, Kind.MOVE, options,
                                  Phrase("{} Movement Phase: move a unit (a path of hexes), a rail move, "
                                         "or done", side.capitalize()), parse)
        if answer.get("done"):
            return
        uid = answer.get("rail") or answer["unit"]
        moved.add(uid)
        t.s["moved"].append(uid)
        if "rail" in answer:
            rail["used"] = True
        if "rail" in answer:
            t.say("move", "{} {} moves by rail {}.", side.capitalize(), uid, "-".join(answer["path"]),
                  unit=uid, path=answer["path"], rail=True)
        else:
            t.say("move", "{} {} moves {}.", side.capitalize(), uid, "-".join(answer["path"]),
                  unit=uid, path=answer["path"], rail=False)
        walk(t, uid, answer["path"])


def movable_units(t, side: str, moved: set[str]) -> list[str]:
    """The units of ``side`` with a legal first step: :func:`unit_may_move` is None and
    :func:`step_allowed` for a step (with the hexes closed to them found once: this runs
    at every ``move`` question)."""
    units = t.units
    land = t.board.land_neighbours
    closed = closed_hexes(t, side)
    zone = t.enemy_zone(side)
    closed_or_ezoc = None                   # for a unit starting in an EZOC (6.1)
    found = []
    for uid in t.side_units(side):
        unit = units[uid]
        a = unit["at"]
        if a in _STAYING or uid in moved or unit["ma"] <= 0:
            continue
        if a in ENTRY_BOXES:
            if unit_may_move(t, uid, side, moved) is None and any(
                    step_allowed(t, uid, side, a, b, True, True) for b in exits(t, a)):
                found.append(uid)
        elif a in zone:
            if closed_or_ezoc is None:
                closed_or_ezoc = closed | zone
            if not closed_or_ezoc.issuperset(land.get(a, ())):
                found.append(uid)
        elif not closed.issuperset(land.get(a, ())):
            found.append(uid)
    return found


def long_movable_units(t, side: str, strategic: bool) -> list[str]:
    """The units of ``side`` that may move by rail (8.2) or strategically (10.2.4) now:
    :func:`may_use_railway` (:func:`may_move_strategically`) is None and
    :func:`long_step_allowed` for a first step."""
    units = t.units
    board = t.board
    starts = board.road_or_railway_hexes if strategic else board.railway_hexes
    around = board.road_or_railway_neighbours if strategic else board.railway_neighbours
    zone = t.enemy_zone(side)
    found = []
    for uid in t.side_units(side):
        unit = units[uid]
        a = unit["at"]
        if a in ENTRY_BOXES:
            if (can_move_strategically if strategic else _can_rail)(t, uid, side):
                found.append(uid)
            continue
        if a not in starts or unit["ma"] <= 0 or a in zone or (not strategic and siberia_frozen_for(t, side)):
            continue
        for b in around[a]:             # these follow the railway (road) already
            if long_entry_allowed(t, uid, side, b, strategic):
                found.append(uid)
                break
    return found


def _can_rail(t, uid: str, side: str) -> bool:
    """:func:`may_use_railway` is None and a first step is allowed (without the reasons)."""
    unit = t.units[uid]
    a = unit["at"]
    if unit["ma"] <= 0 or siberia_frozen_for(t, side):
        return False
    if not (a == SIBERIA and side == RUSSIA) and (a not in t.board.railway_hexes or a in t.enemy_zone(side)):
        return False
    return any(long_step_allowed(t, uid, side, a, b, False) for b in long_exits(t, a, False))


def can_move_strategically(t, uid: str, side: str) -> bool:
    """:func:`may_move_strategically` is None and a first step is allowed (without the reasons)."""
    unit = t.units[uid]
    a = unit["at"]
    if unit["ma"] <= 0:
        return False
    if a in ENTRY_BOXES:
        if ENTRY_BOXES[a] != side or (a == SIBERIA and siberia_frozen_for(t, side)):
            return False
    elif a not in t.board.road_or_railway_hexes or a not in t.board.hexes or a in t.enemy_zone(side):
        return False
    return any(long_step_allowed(t, uid, side, a, b, True) for b in long_exits(t, a, True))
