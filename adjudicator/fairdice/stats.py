"""Dice statistics: is this side's luck within what fair dice produce?

For each side: how often each face came up, the mean, and Pearson's
chi-square goodness-of-fit test against a fair die, with its p-value --
the probability that fair dice would look at least this uneven. A p-value
below 0.05 happens to one honest table in twenty; below 0.01, to one in a
hundred. With fewer than 5 expected rolls per face the test is rough and
:attr:`DiceStats.reliable` is False.

The p-value needs the chi-square survival function, computed here without
third-party libraries as the regularised upper incomplete gamma function
``Q(k/2, x/2)`` (series for small ``x``, continued fraction otherwise).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import InvalidDieValue

#: Expected count per face below which the chi-square test is unreliable.
MIN_RELIABLE_EXPECTED = 5

_EPSILON = 1e-15
_TINY = 1e-300
_MAX_ITERATIONS = 10_000


@dataclass(frozen=True)
class DiceStats:
    """Statistics of the rolls of one die size, e.g. one side's d6 rolls.

    ``counts[f - 1]`` is how often face ``f`` came up. ``mean``,
    ``chi_square`` and ``p_value`` are ``None`` when there are no rolls.
    """

    faces: int
    counts: tuple[int, ...]
    total: int
    mean: float | None
    chi_square: float | None
    degrees_of_freedom: int
    p_value: float | None
    reliable: bool

    @property
    def expected_per_face(self) -> float:
        """How often each face is expected to come up with a fair die."""
        return self.total / self.faces


def dice_stats(rolls: Iterable[int], faces: int = 6) -> DiceStats:
    """Counts, mean and chi-square test of ``rolls`` of a ``faces``-sided die."""
    if isinstance(faces, bool) or not isinstance(faces, int) or faces < 2:
        raise InvalidDieValue(f"a die needs at least 2 faces, not {faces!r}")
    counts = face_counts(rolls, faces)
    total = sum(counts)
    degrees_of_freedom = faces - 1
    if total == 0:
        return DiceStats(faces, counts, 0, None, None, degrees_of_freedom, None, False)
    mean = sum(face * count for face, count in enumerate(counts, start=1)) / total
    statistic = chi_square_statistic(counts)
    return DiceStats(
        faces=faces,
        counts=counts,
        total=total,
        mean=mean,
        chi_square=statistic,
        degrees_of_freedom=degrees_of_freedom,
        p_value=chi_square_sf(statistic, degrees_of_freedom),
        reliable=total / faces >= MIN_RELIABLE_EXPECTED,
    )


def dice_stats_by_side(
    rolls_by_side: Mapping[str, Iterable[int]], faces: int = 6
) -> dict[str, DiceStats]:
    """:func:`dice_stats` for each side, keyed (and ordered) by side."""
    return {side: dice_stats(rolls_by_side[side], faces) for side in sorted(rolls_by_side)}


def face_counts(rolls: Iterable[int], faces: int = 6) -> tuple[int, ...]:
    """How often each face 1..faces occurs in ``rolls``."""
    counts = [0] * faces
    for roll in rolls:
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= faces:
            raise InvalidDieValue(f"{roll!r} is not a face of a {faces}-sided die")
        counts[roll - 1] += 1
    return tuple(counts)


def chi_square_statistic(counts: Iterable[int]) -> float:
    """Pearson's statistic of observed ``counts`` against equal frequencies."""
    observed = list(counts)
    total = sum(observed)
    if total == 0:
        raise InvalidDieValue("the chi-square statistic needs at least one roll")
    expected = total / len(observed)
    return sum((count - expected) ** 2 for count in observed) / expected


def chi_square_sf(x: float, degrees_of_freedom: int) -> float:
    """P(X >= x) for X chi-square distributed with the given degrees of freedom."""
    if degrees_of_freedom < 1:
        raise ValueError("degrees of freedom must be at least 1")
    if x <= 0:
        return 1.0
    return regularized_upper_gamma(degrees_of_freedom / 2, x / 2)


def regularized_upper_gamma(a: float, x: float) -> float:
    """``Q(a, x) = Gamma(a, x) / Gamma(a)`` for ``a > 0``, ``x >= 0``."""
    if a <= 0 or x < 0 or math.isnan(x):
        raise ValueError("Q(a, x) needs a > 0 and x >= 0")
    if x == 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_gamma_series(a, x))
    return _upper_gamma_continued_fraction(a, x)


def _log_prefactor(a: float, x: float) -> float:
    """``log(x**a * exp(-x) / Gamma(a))``."""
    return a * math.log(x) - x - math.lgamma(a)


def _lower_gamma_series(a: float, x: float) -> float:
    """``P(a, x)`` by its power series; converges quickly for ``x < a + 1``."""
    term = 1.0 / a
    total = term
    denominator = a
    for _ in range(_MAX_ITERATIONS):
        denominator += 1
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * _EPSILON:
            break
    return total * math.exp(_log_prefactor(a, x))


def _upper_gamma_continued_fraction(a: float, x: float) -> float:
    """``Q(a, x)`` by its continued fraction (modified Lentz); for ``x >= a + 1``."""
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    fraction = d
    for i in range(1, _MAX_ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        fraction *= delta
        if abs(delta - 1) < _EPSILON:
            break
    return math.exp(_log_prefactor(a, x)) * fraction
