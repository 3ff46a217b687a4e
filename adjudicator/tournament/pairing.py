"""Pairings: Swiss, round-robin pools and ladder challenges. Pure functions of the
event so far and a :class:`~adjudicator.tournament.draws.Draws`, so that anyone can
recompute them from the public record.

Swiss (for two-player games):

1. Players are ranked by score; within a score group their order is a seeded
   shuffle (the draw decides, never the referee).
2. With an odd number of players, the bye goes to a player of the *lowest* score
   group who has not had one (a player never gets two byes), drawn in that order;
   if nobody there can take it, the next group up.
3. From the top, each player is paired with the first player below who is not a
   previous opponent -- their own score group first, then the groups below
   (floaters) -- backtracking when the rest of the field could not be paired. Only
   when no pairing without a repeat exists is a repeat allowed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from adjudicator.tournament.draws import Draws

SEARCH_LIMIT = 200_000  # backtracking steps before repeats are allowed (a large field never needs them)


@dataclass(frozen=True)
class Pairing:
    """One round's pairings: pairs (in board order) and the player with the bye."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None = None
    repeats: int = 0


def suggested_rounds(players: int) -> int:
    """Swiss rounds for a field: enough for one player to stay unbeaten
    (ceil(log2 n)), and at least 1."""
    return max(1, math.ceil(math.log2(players))) if players > 1 else 0


def swiss(players: Sequence[str], scores: Mapping[str, float], met: Mapping[str, set[str]],
          had_bye: Iterable[str], draws: Draws) -> Pairing:
    """Pair one Swiss round (see the module's rules)."""
    groups = _score_groups(players, scores, draws)
    ranked = [p for group in groups for p in group]
    byes_taken = set(had_bye)
    candidates: list[str | None] = [None]
    if len(ranked) % 2 == 1:
        candidates = [p for group in reversed(groups) for p in reversed(group) if p not in byes_taken]
        candidates = candidates or [ranked[-1]]  # everybody had a bye already: the lowest-ranked takes another
    for allow_repeats in (False, True):
        for bye in candidates:
            field = [p for p in ranked if p != bye]
            pairs = _pair_down(field, met, allow_repeats)
            if pairs is not None:
                repeats = sum(1 for a, b in pairs if b in met.get(a, set()))
                return Pairing(tuple(pairs), bye, repeats)
    raise AssertionError("unreachable: with repeats allowed any even field pairs")


def _score_groups(players: Sequence[str], scores: Mapping[str, float], draws: Draws) -> list[list[str]]:
    by_score: dict[float, list[str]] = {}
    for player in sorted(players):
        by_score.setdefault(scores.get(player, 0.0), []).append(player)
    return [draws.shuffle(by_score[score], f"order of score group {score:g}")
            for score in sorted(by_score, reverse=True)]


def _pair_down(field: list[str], met: Mapping[str, set[str]], allow_repeats: bool) -> list[tuple[str, str]] | None:
    """Pair ``field`` (ranked) top-down with backtracking; None if impossible."""
    budget = [SEARCH_LIMIT]

    def solve(left: list[str]) -> list[tuple[str, str]] | None:
        if not left:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        first, rest = left[0], left[1:]
        for index, other in enumerate(rest):
            if not allow_repeats and other in met.get(first, set()):
                continue
            tail = solve(rest[:index] + rest[index + 1:])
            if tail is not None:
                return [(first, other), *tail]
        return None

    return solve(list(field))


def round_robin(players: Sequence[str]) -> list[tuple[list[tuple[str, str]], str | None]]:
    """Every round of a round robin by the circle method, as (pairs, bye): each player
    meets every other once; with an odd count the bye rotates."""
    field: list[str | None] = list(players)
    if len(field) % 2:
        field.append(None)
    rounds = []
    n = len(field)
    for _ in range(n - 1):
        pairs = [(field[i], field[n - 1 - i]) for i in range(n // 2)]
        bye = next((a or b for a, b in pairs if (a is None) != (b is None)), None)
        rounds.append(([(a, b) for a, b in pairs if a is not None and b is not None], bye))
        field = [field[0], field[-1], *field[1:-1]]
    return rounds  # type: ignore[return-value]


def pools(players: Sequence[str], count: int, draws: Draws) -> list[list[str]]:
    """Players dealt into ``count`` pools after a seeded shuffle, in turn (snake order)."""
    shuffled = draws.shuffle(sorted(players), "pools")
    dealt: list[list[str]] = [[] for _ in range(count)]
    for index, player in enumerate(shuffled):
        lap, position = divmod(index, count)
        dealt[position if lap % 2 == 0 else count - 1 - position].append(player)
    return dealt
