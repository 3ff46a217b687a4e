"""Naval Battle (rulebook: "Naval Battle" A-D, "Initiative").

A. The first player is the side whose squadron has the higher SS (a tie: the
   defender); a second player holding the Initiative Marker may use it to fire first.
B. The first player fires: 1-6 dice against the SFP; critical hits are applied by
   the firer, then hits on target by the target.
C. The second player fires with what is left.
D. Sunk ships leave the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import quick_init
from adjudicator.games.port_arthur.answers import (
    FLIP,
    SINK,
    DiceCount,
    HitAllocation,
    Kind,
    ShipList,
    UseMarker,
)
from adjudicator.games.port_arthur.data import other
from adjudicator.games.port_arthur.rules.table import Steps, Table
from adjudicator.games.port_arthur.state import SUNK, LastFire, Ship, squadron_firepower, squadron_speed
from adjudicator.i18n import N_, said

INTACT, DAMAGED, GONE = 0, 1, 2


@quick_init
@dataclass(frozen=True, slots=True)
class FireResult:
    hits: int
    criticals: int


def fire_result(dice: tuple[int, ...] | list[int], sfp: int, partial_hits: str = "less-than") -> FireResult:
    """Naval Battle B. Sum <= SFP: one hit per die, and each group of k equal dice adds
    k-1 critical hits. Sum > SFP: as many hits as dice, taken from the highest down,
    keep their running sum below the SFP (``partial_hits="at-most"``: not above it);
    no critical hits."""
    if sum(dice) <= sfp:  # a group of k equal dice: k-1 critical hits, so all the dice less the faces shown
        return FireResult(len(dice), len(dice) - len(set(dice)))
    hits, running = 0, 0
    for die in sorted(dice, reverse=True):
        running += die
        if running < sfp or (partial_hits == "at-most" and running == sfp):
            hits += 1
        else:
            break
    return FireResult(hits, 0)


# -- A. First and second players ---------------------------------------------------


def naval_battle(table: Table, attacker: str, zone: str) -> Steps:
    """A NAVO of battle by ``attacker`` in ``zone``."""
    state = table.state
    defender = other(attacker)
    speeds = {attacker: squadron_speed(state.squadron(attacker, zone)),
              defender: squadron_speed(state.squadron(defender, zone))}
    first = attacker if speeds[attacker] > speeds[defender] else defender
    second = other(first)
    table.say(
        "battle",
        "Battle in {}: {} attacks (SS {}), {} defends (SS {}); {} fires first.",
        zone, attacker.capitalize(), speeds[attacker], defender.capitalize(), speeds[defender], first.capitalize(),
        zone=zone, attacker=attacker, defender=defender, first=first,
    )
    if state.initiative == second:
        seize: UseMarker = yield from table.ask(
            second, Kind.SEIZE, {"use": [True, False]},
            said("Battle in %(zone)s: %(side)s fires first. Use the Initiative Marker to fire first?", zone=zone,
                 side=said(first.capitalize())),
            lambda a: a,
        )
        if seize.use:
            state.initiative = first
            first, second = second, first
            table.say("initiative", "{} uses the Initiative Marker to fire first; the marker passes to {}.",
                      first.capitalize(), second.capitalize(), side=first)
    yield from fire(table, first, zone)
    if state.squadron(second, zone) and state.squadron(first, zone):
        yield from fire(table, second, zone)
    table.say("battle-end", "The battle in {} ends.", zone, zone=zone)


# -- B/C. Fire ----------------------------------------------------------------------


def fire(table: Table, firer: str, zone: str) -> Steps:
    """One side fires at the enemy squadron in ``zone``."""
    state = table.state
    target_side = other(firer)
    squadron = state.squadron(firer, zone)
    sfp = squadron_firepower(squadron)
    low, high = table.board.dice_per_fire
    counts = list(range(low, high + 1))
    targets = [s.name for s in state.squadron(target_side, zone)]
    choice: DiceCount = yield from table.ask(
        firer, Kind.DICE, {"count": counts, "firepower": sfp, "target": targets},
        said("%(side)s fires in %(zone)s with SFP %(sfp)s: how many dice (%(low)s-%(high)s)?",
             side=said(firer.capitalize()), zone=zone, sfp=sfp, low=low, high=high),
        lambda a: _check_count(a, counts),
    )
    dice = yield table.dice(choice.count, f"fire in {zone}, SFP {sfp}", firer)
    result = fire_result(dice, sfp, table.options.partial_hits)
    state.last_fire = LastFire(firer, tuple(dice), result.hits, result.criticals)
    table.say(
        "fire",
        "{} fires {} {} ({}, sum {}) against SFP {}: {} hit(s), {} critical hit(s).",
        firer.capitalize(), choice.count, N_("die") if choice.count == 1 else N_("dice"), ", ".join(map(str, dice)),
        sum(dice), sfp, result.hits, result.criticals,
        side=firer, zone=zone, dice=list(dice), sfp=sfp, hits=result.hits, criticals=result.criticals,
    )
    yield from apply_criticals(table, firer, zone, result.criticals)
    yield from apply_hits(table, target_side, zone, result.hits)


def _check_count(answer: DiceCount, counts: list[int]) -> DiceCount:
    if answer.count not in counts:
        raise IllegalAnswer(f"fire {counts[0]} to {counts[-1]} dice, not {answer.count}")
    return answer


# -- Distribution of damage -----------------------------------------------------------


def critical_steps(statuses: tuple[int, ...]) -> list[int]:
    """Ships a critical hit may strike: any intact ship; a damaged ship only when no
    intact ship is left in the target squadron."""
    intact = [i for i, s in enumerate(statuses) if s == INTACT]
    return intact or [i for i, s in enumerate(statuses) if s == DAMAGED]


def critical_capacity(statuses: tuple[int, ...]) -> int:
    return sum(2 if s == INTACT else 1 for s in statuses if s != GONE)


def strike(statuses: tuple[int, ...], index: int) -> tuple[int, ...]:
    """Flip an intact ship or sink a damaged one."""
    return statuses[:index] + (statuses[index] + 1,) + statuses[index + 1:]


def hit_steps(statuses: tuple[int, ...], defenses: tuple[int, ...], hits: int) -> list[tuple[str, int, int]]:
    """Hits on target: (action, ship index, hits used) that may be applied next.

    Flip an intact ship (1 hit); sink a damaged ship (its defense in hits). When no
    intact ship is left and the hits left are fewer than every damaged ship's
    defense, a damaged ship is sunk with the hits left (rules-notes)."""
    if hits <= 0:
        return []
    steps = [(FLIP, i, 1) for i, s in enumerate(statuses) if s == INTACT]
    damaged = [i for i, s in enumerate(statuses) if s == DAMAGED]
    steps += [(SINK, i, defenses[i]) for i in damaged if defenses[i] <= hits]
    if not steps:
        steps = [(SINK, i, hits) for i in damaged]
    return steps


def _outcomes(start, next_states, limit: int) -> list[tuple[tuple[int, ...], list]]:
    """Distinct final statuses reachable from ``start`` (at most ``limit``), each with
    one path that reaches it. ``next_states(node)`` gives (label, node) pairs."""
    found: dict[tuple[int, ...], list] = {}
    seen: set = set()

    def walk(node, path) -> bool:
        if node in seen:
            return False
        seen.add(node)
        successors = next_states(node)
        if not successors:
            found.setdefault(node[0], list(path))
            return len(found) >= limit
        return any(walk(child, path + [label]) for label, child in successors)

    walk(start, [])
    return list(found.items())


@lru_cache(maxsize=4096)
def critical_outcomes(statuses: tuple[int, ...], count: int, limit: int = 2):
    """The distinct results of ``count`` critical hits (at most ``limit``), each with
    one order of targets that reaches it (the same squadron often comes again: kept).
    Read-only: the result is shared."""
    def nexts(node):
        current, left = node
        if left == 0:
            return []
        return [(i, (strike(current, i), left - 1)) for i in critical_steps(current)]

    return _outcomes((statuses, count), nexts, limit)


@lru_cache(maxsize=4096)
def hit_outcomes(statuses: tuple[int, ...], defenses: tuple[int, ...], hits: int, limit: int = 2):
    """The distinct results of ``hits`` hits on target (at most ``limit``), each with one
    way of applying them (kept, like :func:`critical_outcomes`). Read-only: shared."""
    def nexts(node):
        current, left = node
        return [((action, i), (strike(current, i), left - used))
                for action, i, used in hit_steps(current, defenses, left)]

    return _outcomes((statuses, hits), nexts, limit)


def _statuses(ships: list[Ship]) -> tuple[int, ...]:
    return tuple([DAMAGED if s.damaged else INTACT for s in ships])


def apply_criticals(table: Table, firer: str, zone: str, criticals: int) -> Steps:
    """Critical hits: distributed by the side that fired, applied first."""
    if criticals <= 0:
        return
    targets = table.state.squadron(other(firer), zone)
    statuses = _statuses(targets)
    count = min(criticals, critical_capacity(statuses))
    if count == 0:
        return
    outcomes = critical_outcomes(statuses, count)
    forced = None
    if len(outcomes) == 1:
        forced = {"ships": [targets[i].name for i in outcomes[0][1]]}
    answer: ShipList = yield from table.ask(
        firer, Kind.CRITICALS, {"count": count, "targets": [s.name for s in targets]},
        said("%(side)s scored %(count)s critical hit(s) in %(zone)s: name the ship for each, in order.",
             side=said(firer.capitalize()), count=count, zone=zone),
        lambda a: _check_criticals(table, targets, count, a),
        forced=forced,
    )
    for name in answer.ships:
        _strike_ship(table, table.state.ships[name], N_("critical hit"))


def _check_criticals(table: Table, targets: list[Ship], count: int, answer: ShipList) -> ShipList:
    index = {s.name: i for i, s in enumerate(targets)}
    statuses = _statuses(targets)
    names = []
    for text in answer.ships:
        ship = table.state.ship(text)
        if ship is None or ship.name not in index:
            raise IllegalAnswer(f"{text!r} is not a ship of the target squadron "
                                f"({', '.join(s.name for s in targets)})")
        i = index[ship.name]
        if statuses[i] == GONE:
            raise IllegalAnswer(f"{ship.name} is already sunk by an earlier critical hit")
        if i not in critical_steps(statuses):
            raise IllegalAnswer(f"a critical hit may sink the damaged {ship.name} only when no intact "
                                f"ship is left in the squadron")
        statuses = strike(statuses, i)
        names.append(ship.name)
    if len(names) != count:
        raise IllegalAnswer(f"name {count} target(s) for {count} critical hit(s), not {len(names)}")
    return ShipList(tuple(names))


def apply_hits(table: Table, target_side: str, zone: str, hits: int) -> Steps:
    """Hits on target: applied by the side of the targeted squadron."""
    if hits == 0:
        return
    targets = table.state.squadron(target_side, zone)
    if not targets:
        table.say("hits-lost", "{} hit(s) on target find no ship left in {}.", hits, zone, zone=zone)
        return
    statuses = _statuses(targets)
    defenses = tuple(s.defense for s in targets)
    outcomes = hit_outcomes(statuses, defenses, hits)
    forced = None
    if len(outcomes) == 1:
        forced = {"apply": [f"{action} {targets[i].name}" for action, i in outcomes[0][1]]}
    answer: HitAllocation = yield from table.ask(
        target_side, Kind.HITS, {"hits": hits, "ships": [s.name for s in targets]},
        said("%(side)s takes %(hits)s hit(s) in %(zone)s: flip intact ships (1 hit) or "
             "sink damaged ones (their defense in hits).", side=said(target_side.capitalize()), hits=hits, zone=zone),
        lambda a: _check_hits(table, targets, hits, a),
        forced=forced,
    )
    for action, name in answer.actions:
        _strike_ship(table, table.state.ships[name], N_("hit"))


def _check_hits(table: Table, targets: list[Ship], hits: int, answer: HitAllocation) -> HitAllocation:
    index = {s.name: i for i, s in enumerate(targets)}
    statuses = _statuses(targets)
    defenses = tuple(s.defense for s in targets)
    left = hits
    actions = []
    for action, text in answer.actions:
        ship = table.state.ship(text)
        if ship is None or ship.name not in index:
            raise IllegalAnswer(f"{text!r} is not a ship of the squadron hit ({', '.join(index)})")
        i = index[ship.name]
        step = next(((a, j, used) for a, j, used in hit_steps(statuses, defenses, left) if (a, j) == (action, i)), None)
        if step is None:
            raise IllegalAnswer(_why_not_hit(action, ship, statuses[i], left))
        statuses = strike(statuses, i)
        left -= step[2]
        actions.append((action, ship.name))
    if hit_steps(statuses, defenses, left):
        raise IllegalAnswer(f"{left} hit(s) are left to apply: every hit must be used while ships remain")
    return HitAllocation(tuple(actions))


def _why_not_hit(action: str, ship: Ship, status: int, left: int) -> str:
    if left <= 0:
        return f"no hits are left for '{action} {ship.name}'"
    if status == GONE:
        return f"{ship.name} is already sunk"
    if action == FLIP:
        return f"{ship.name} is already damaged: it can only be sunk"
    if status == INTACT:
        return f"{ship.name} is intact: flip it before it can be sunk"
    return (f"sinking {ship.name} takes {ship.defense} hits and only {left} are left "
            f"(a ship may be sunk with fewer only when no intact ship is left and no damaged ship "
            f"can be sunk with the hits left)")


def _strike_ship(table: Table, ship: Ship, cause: str) -> None:
    if ship.damaged:
        table.state.move(ship, SUNK)
        table.say("sunk", "{} is sunk ({}).", ship.name, cause, ship=ship.name, cause=cause)
    else:
        ship.damaged = True
        table.say("damaged", "{} is damaged ({}).", ship.name, cause, ship=ship.name, cause=cause)
