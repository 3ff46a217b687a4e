"""Exact odds of fire, and the automatic choices made from them.

Naval Battle B: a squadron fires 1 to 6 dice against its firepower (SFP). The odds
here are exact: the 6^n outcomes of n dice are grouped by the dice shown, sorted, with
how many of the 6^n outcomes show them, and scored as the rules' own
:func:`fire_result` scores them, for each SFP as it is asked (cached).

Automatic choices (used for ``auto`` orders and for players who send no orders):

- **dice count** (:func:`best_dice_count`): the count with the highest expected
  effect, *expected hits + expected critical hits*; ties go to the count with the
  higher chance that every die hits (sum <= SFP), then to fewer dice.
- **hits on target** (:func:`auto_hits`): among all the legal ways to apply the hits,
  the one that loses least. A ship sunk loses ``SINK_WEIGHT`` times its intact
  firepower (it is gone for good); a ship flipped loses the firepower it drops
  (it is repaired within a turn). Ties: fewer ships sunk, then the faster squadron.
  Ships to *protect* are spared first, in the order named; "sink damaged first"
  keeps as many intact ships as it can, "flip intact first" sinks as few ships as
  it can; the loss decides among what is left.
- **critical hits** (:func:`auto_criticals`): one at a time, ships named first by
  the player (when the rules allow); otherwise flip the intact enemy ship that loses
  the most firepower (then the strongest, then the one that slows most), and once no
  intact ship is left, sink the damaged ship of the highest intact firepower.
- **mines** (:func:`auto_mines`): the ships whose striking a mine loses least on
  average (a damaged ship sinks; an intact ship is flipped and sinks when a die
  beats its defense).
- **attack on Port Arthur** (:func:`auto_attack`): the intact ships of the highest
  firepower, then speed.

Every automatic answer is legal: it is built step by step with the rules' step
functions (:func:`critical_steps`, :func:`hit_steps`).
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial
from typing import Iterable, Protocol, Sequence

from adjudicator.games.port_arthur.rules.battle import (
    DAMAGED,
    GONE,
    INTACT,
    critical_steps,
    fire_result,
    hit_steps,
    strike,
)

DICE_COUNTS = (1, 2, 3, 4, 5, 6)
LESS_THAN = "less-than"
AT_MOST = "at-most"

#: How many times its intact firepower a sunk ship counts, against a flip's loss.
SINK_WEIGHT = 3


class ShipLike(Protocol):
    """What the automatic choices need to know of a ship (``state.Ship`` has it)."""

    name: str
    damaged: bool
    firepower: tuple[int, int]
    speed: tuple[int, int]
    defense: int


# -- the odds of fire ------------------------------------------------------------------


@dataclass(frozen=True)
class FireOdds:
    """The exact odds of firing ``count`` dice against ``sfp``."""

    sfp: int
    count: int
    full_success: Fraction       # P(sum <= SFP)
    expected_hits: Fraction
    expected_criticals: Fraction
    hits: tuple[Fraction, ...]   # hits[k] = P(exactly k hits on target), k = 0..count

    @property
    def expected_effect(self) -> Fraction:
        """The measure :func:`best_dice_count` maximises: hits + critical hits."""
        return self.expected_hits + self.expected_criticals

    def to_json(self) -> dict:
        return {
            "count": self.count,
            "full_success": float(self.full_success),
            "expected_hits": float(self.expected_hits),
            "expected_criticals": float(self.expected_criticals),
            "hits": [float(p) for p in self.hits],
        }


@lru_cache(maxsize=None)
def outcomes(count: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """All 6^count outcomes of ``count`` dice, grouped: (dice sorted high to low, how many).

    Each group is one multiset of faces, counted without rolling out the 6^count
    outcomes: a multiset whose faces come k1, k2, ... times is shown by
    count! / (k1! k2! ...) of them (46,656 outcomes of six dice are 462 groups)."""
    if count not in DICE_COUNTS:
        raise ValueError(f"a fire rolls 1 to 6 dice, not {count}")
    grouped = []
    for dice in itertools.combinations_with_replacement(range(6, 0, -1), count):  # each high to low
        ways = factorial(count)
        for repeats in Counter(dice).values():
            ways //= factorial(repeats)
        grouped.append((dice, ways))
    return tuple(sorted(grouped))


@lru_cache(maxsize=None)
def _scored(count: int) -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
    """Each group of :func:`outcomes` as :func:`fire_result` reads it, for any SFP: how
    many outcomes, the sum of the dice, how many different faces, and the running sums
    of the dice from the highest down (rising: a die shows at least 1)."""
    return tuple((ways, sum(dice), len(set(dice)), tuple(itertools.accumulate(dice)))
                 for dice, ways in outcomes(count))


@lru_cache(maxsize=4096)
def fire_odds(sfp: int, count: int, partial_hits: str = LESS_THAN) -> FireOdds:
    """The exact odds of ``count`` dice against ``sfp`` (rulebook, Naval Battle B):
    each group of outcomes scored as :func:`fire_result` scores it, from the group's
    sums worked out once for every SFP (``tests/games/port_arthur/test_odds_counting.py``
    holds the two together)."""
    total = 6 ** count
    full = hits_sum = criticals_sum = 0
    by_hits = [0] * (count + 1)
    hits_below = bisect_right if partial_hits == AT_MOST else bisect_left
    for ways, dice_sum, faces, running in _scored(count):
        if dice_sum <= sfp:   # fire_result: one hit per die, a group of k equal dice k-1 criticals
            full += ways
            hits = count
            criticals_sum += ways * (count - faces)
        else:                 # the dice from the highest down while their running sum stays below
            hits = hits_below(running, sfp)
        hits_sum += ways * hits
        by_hits[hits] += ways
    return FireOdds(
        sfp,
        count,
        Fraction(full, total),
        Fraction(hits_sum, total),
        Fraction(criticals_sum, total),
        tuple(Fraction(n, total) for n in by_hits),
    )


def odds_table(sfp: int, partial_hits: str = LESS_THAN, counts: Iterable[int] = DICE_COUNTS) -> tuple[FireOdds, ...]:
    """The odds of every dice count, for reports and for :func:`best_dice_count`."""
    return tuple(fire_odds(sfp, n, partial_hits) for n in counts)


def best_dice_count(sfp: int, counts: Iterable[int] = DICE_COUNTS, partial_hits: str = LESS_THAN) -> int:
    """The dice count with the highest expected hits + critical hits (see module doc)."""
    table = odds_table(sfp, partial_hits, [c for c in counts if c in DICE_COUNTS])
    if not table:
        raise ValueError("no dice count to choose from")
    best = max(table, key=lambda o: (o.expected_effect, o.full_success, -o.count))
    return best.count


# -- hits on target --------------------------------------------------------------------


def _statuses(ships: Sequence[ShipLike]) -> tuple[int, ...]:
    return tuple(DAMAGED if s.damaged else INTACT for s in ships)


def _loss(ship: ShipLike, before: int, after: int) -> int:
    """Firepower lost by ``ship`` going from status ``before`` to ``after``."""
    if after == GONE:
        return SINK_WEIGHT * ship.firepower[0]
    if after == DAMAGED and before == INTACT:
        return ship.firepower[0] - ship.firepower[1]
    return 0


def _speed_left(ships: Sequence[ShipLike], statuses: tuple[int, ...]) -> int:
    speeds = [s.speed[1] if st == DAMAGED else s.speed[0] for s, st in zip(ships, statuses) if st != GONE]
    return min(speeds) if speeds else 0


def hits_score(
    ships: Sequence[ShipLike],
    start: tuple[int, ...],
    end: tuple[int, ...],
    protect: Sequence[str] = (),
    prefer: str = "auto",
) -> tuple:
    """How bad the outcome ``end`` is for the target (smaller is better; see module doc)."""
    index = {s.name: i for i, s in enumerate(ships)}
    harm = tuple(end[index[name]] - start[index[name]] for name in protect if name in index)
    sunk = sum(1 for st in end if st == GONE)
    if prefer == "sink damaged first":
        preference = sum(1 for a, b in zip(start, end) if a == INTACT and b != INTACT)
    elif prefer == "flip intact first":
        preference = sunk
    else:
        preference = 0
    loss = sum(_loss(s, a, b) for s, a, b in zip(ships, start, end))
    return (harm, preference, loss, sunk, -_speed_left(ships, end))


def auto_hits(
    hits: int,
    ships: Sequence[ShipLike],
    protect: Sequence[str] = (),
    prefer: str = "auto",
) -> list[str]:
    """The best legal hit allocation, as the answer's ``apply`` list ("flip X", "sink Y").

    Searches every legal sequence of steps (:func:`hit_steps`), trying one ship of each
    kind of identical ships at each step, and keeps the outcome of the best score.
    """
    start = _statuses(ships)
    defenses = tuple(s.defense for s in ships)
    kinds = [_kind(s, protect) for s in ships]
    memo: dict[tuple[tuple[int, ...], int], tuple[tuple, list[tuple[str, int]]]] = {}

    def best(statuses: tuple[int, ...], left: int) -> tuple[tuple, list[tuple[str, int]]]:
        key = (statuses, left)
        if key in memo:
            return memo[key]
        steps = hit_steps(statuses, defenses, left)
        if not steps:
            result = (hits_score(ships, start, statuses, protect, prefer), [])
        else:
            result = None
            tried = set()
            for action, i, used in steps:
                shape = (action, kinds[i], statuses[i])
                if shape in tried:
                    continue
                tried.add(shape)
                score, path = best(strike(statuses, i), left - used)
                if result is None or score < result[0]:
                    result = (score, [(action, i)] + path)
        memo[key] = result
        return result

    _, path = best(start, hits)
    return [f"{action} {ships[i].name}" for action, i in path]


def _kind(ship: ShipLike, protect: Sequence[str]) -> tuple:
    """Ships of the same kind are interchangeable for the search: same values and same
    status before the fire (protected ones never are)."""
    if ship.name in protect:
        return ("protected", ship.name)
    return (tuple(ship.firepower), tuple(ship.speed), ship.defense, ship.damaged)


# -- critical hits -----------------------------------------------------------------------


def _critical_rank(ship: ShipLike, status: int) -> tuple:
    """How much a critical hit on ``ship`` is worth to the firer (larger is better)."""
    if status == INTACT:
        return (ship.firepower[0] - ship.firepower[1], ship.firepower[0], ship.speed[0] - ship.speed[1])
    return (ship.firepower[0], ship.firepower[1], 0)


def auto_criticals(count: int, targets: Sequence[ShipLike], priority: Sequence[str] = ()) -> list[str]:
    """Targets for ``count`` critical hits, in order (the answer's ``ships`` list).

    Each critical goes to the first ship of ``priority`` the rules allow it to strike,
    else to the best target by :func:`_critical_rank`; it stops when no ship is left.
    """
    statuses = _statuses(targets)
    index = {s.name: i for i, s in enumerate(targets)}
    chosen: list[str] = []
    for _ in range(count):
        allowed = critical_steps(statuses)
        if not allowed:
            break
        wanted = [index[n] for n in priority if n in index and index[n] in allowed]
        i = wanted[0] if wanted else max(allowed, key=lambda j: (_critical_rank(targets[j], statuses[j]), -j))
        statuses = strike(statuses, i)
        chosen.append(targets[i].name)
    return chosen


# -- mines and the attack on Port Arthur -------------------------------------------------------


def mine_loss(ship: ShipLike) -> Fraction:
    """Expected loss when ``ship`` strikes a mine (Damage caused by mines): a damaged
    ship sinks; an intact ship is flipped, then sinks when a die is above its defense."""
    sunk = SINK_WEIGHT * ship.firepower[0]
    if ship.damaged:
        return Fraction(sunk)
    sink_chance = Fraction(max(0, 6 - ship.defense), 6)
    return (ship.firepower[0] - ship.firepower[1]) + sink_chance * sunk


def _pick(count: int, ships: Sequence[ShipLike], priority: Sequence[str], key) -> list[str]:
    names = [s.name for s in ships]
    chosen = [n for n in dict.fromkeys(priority) if n in names][:count]
    rest = sorted((s for s in ships if s.name not in chosen), key=key)
    return chosen + [s.name for s in rest[: count - len(chosen)]]


def auto_mines(count: int, ships: Sequence[ShipLike], priority: Sequence[str] = ()) -> list[str]:
    """The ``count`` ships to take the mines: named ones first, then the least expected loss."""
    order = {s.name: i for i, s in enumerate(ships)}
    return _pick(count, ships, priority, key=lambda s: (mine_loss(s), order[s.name]))


def auto_attack(count: int, ships: Sequence[ShipLike], priority: Sequence[str] = ()) -> list[str]:
    """The ``count`` Port Arthur ships to damage: named ones first, then the strongest."""
    order = {s.name: i for i, s in enumerate(ships)}
    return _pick(count, ships, priority, key=lambda s: (-s.firepower[0], -s.speed[0], order[s.name]))
