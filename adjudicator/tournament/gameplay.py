"""What the tournament needs from a game, through a small interface the game provides
(``adjudicator/games/<game>/tournament.py``, a ``tournament_support()`` function);
generic tournament code never imports a game.

- ``ending(match)``: how a finished game ended, in words ("the CP marker ...");
- ``turn(state)``: the game turn a state has reached (None if the game has no turns);
- ``adjudicate(position)``: the result of an unfinished game from its position at the
  end of the last completed turn, as the game defines it: ``(result, reason)``;
- ``luck(events, options)``: per side, samples of what the dice gave against their exact
  distribution for the dice chosen (:class:`LuckSample`), for the luck index;
- ``automatic_player(side, rng)``: a player that writes orders files (the demo's).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Protocol, Sequence

from adjudicator.campaign.games import support
from adjudicator.engine import Match


@dataclass(frozen=True)
class LuckSample:
    """One use of the dice: what it gave (a whole number) and its exact distribution
    (``pmf[k]`` = the chance of k) for the dice the player chose."""

    side: str
    observed: int
    pmf: tuple[float, ...]
    what: str = ""

    @property
    def expected(self) -> float:
        return sum(k * p for k, p in enumerate(self.pmf))


class TournamentGame(Protocol):
    def ending(self, match: Match) -> str: ...
    def turn(self, state: Any) -> int | None: ...
    def adjudicate(self, position: Mapping[str, Any]) -> tuple[str, str]: ...
    def luck(self, events: Iterable[Any], options: Mapping[str, Any]) -> list[LuckSample]: ...
    def automatic_player(self, side: str, rng: Any) -> Any: ...


def tournament_support(game: str) -> TournamentGame:
    """The game's tournament interface (its wing's ``tournament`` module)."""
    module = importlib.import_module(f"{support(game).game_module}.tournament")
    return module.tournament_support()


def positions_by_turn(match: Match) -> dict[int, dict]:
    """Replay ``match``'s history from the start and keep the position at the moment
    each turn began (= the end of the turn before): turn completed -> position JSON."""
    history = list(match.history)
    replay = Match(match.game, match.setup, match.options)
    turn_of = lambda state: getattr(state, "turn", None)  # noqa: E731
    positions: dict[int, dict] = {}
    current = turn_of(replay.state)
    for entry in history:
        replay.apply(entry)
        now = turn_of(replay.state)
        if now is not None and current is not None and now > current:
            positions[current] = replay.state.to_json()
            current = now
    return positions


def convolve(pmfs: Sequence[Sequence[float]]) -> list[float]:
    """The distribution of a sum of independent whole numbers."""
    total = [1.0]
    for pmf in pmfs:
        out = [0.0] * (len(total) + len(pmf) - 1)
        for i, a in enumerate(total):
            if a:
                for j, b in enumerate(pmf):
                    out[i + j] += a * b
        total = out
    return total


def percentile(pmf: Sequence[float], observed: int) -> float:
    """Mid-percentile of ``observed`` in ``pmf``: P(X < x) + P(X = x) / 2, in 0..100.
    50 is exactly as lucky as expected; above 50, luckier than most."""
    below = sum(pmf[:observed])
    at = pmf[observed] if 0 <= observed < len(pmf) else 0.0
    return 100.0 * (below + at / 2)
