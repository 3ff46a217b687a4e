"""Glicko-2 ratings (Mark E. Glickman, "Example of the Glicko-2 system", 2013).

A player has a rating r, a rating deviation RD and a volatility sigma. Results are
grouped into rating periods; :func:`rate` updates one player for one period from the
results against opponents as they stood at the start of the period. A player who
plays nobody in a period only has the deviation grow (step 6 of the paper).

A rating whose deviation is still above :data:`PROVISIONAL_RD` is *provisional*.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
PROVISIONAL_RD = 110.0
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    def to_json(self) -> dict:
        return {"rating": round(self.rating, 2), "rd": round(self.rd, 2),
                "volatility": round(self.volatility, 6), "games": self.games, "provisional": self.provisional}


@dataclass(frozen=True)
class Outcome:
    """One game from the rated player's point of view: score 1, 0.5 or 0."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, outcomes: Sequence[Outcome], tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after one rating period (steps 2-8 of the paper)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not outcomes:
        return Rating(player.rating, min(math.sqrt(phi * phi + sigma * sigma) * SCALE, DEFAULT_RD),
                      sigma, player.games)
    terms = []
    for outcome in outcomes:
        mu_j = (outcome.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = outcome.opponent.rd / SCALE
        terms.append((_g(phi_j), _expected(mu, mu_j, phi_j), outcome.score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)
    delta = v * sum(g * (s - e) for g, e, s in terms)
    sigma_new = _new_volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * sum(g * (s - e) for g, e, s in terms)
    return Rating(mu_new * SCALE + DEFAULT_RATING, phi_new * SCALE, sigma_new, player.games + len(outcomes))


def _new_volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) of the paper."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


@dataclass(frozen=True)
class RatedGame:
    """A finished two-player game for the ratings: who played, the score of ``first``
    (1 win, 0.5 draw, 0 loss), and the rating period it belongs to (sortable)."""

    first: str
    second: str
    score: float
    period: tuple


def ratings(games: Iterable[RatedGame], tau: float = DEFAULT_TAU) -> dict[str, Rating]:
    """Every player's rating after all ``games``, period by period in order. A player
    absent from a period after their first game has the deviation grow."""
    by_period: dict[tuple, list[RatedGame]] = {}
    for game in games:
        by_period.setdefault(game.period, []).append(game)
    current: dict[str, Rating] = {}
    for period in sorted(by_period):
        played: dict[str, list[tuple[str, float]]] = {}
        for game in by_period[period]:
            for name in (game.first, game.second):
                current.setdefault(name, Rating())
            played.setdefault(game.first, []).append((game.second, game.score))
            played.setdefault(game.second, []).append((game.first, 1.0 - game.score))
        start: Mapping[str, Rating] = dict(current)
        for name, rating in start.items():
            outcomes = [Outcome(start[other], score) for other, score in played.get(name, [])]
            current[name] = rate(rating, outcomes, tau)
    return current
