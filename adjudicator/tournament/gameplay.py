"""What the tournament needs from a game, through a small interface the game provides:
a ``tournament`` module beside the plug-in module the registry names
(``adjudicator/games/<game>/tournament.py``, with a ``tournament_support()``
function). Generic tournament code never imports a game: it finds the module from the
registry (:mod:`adjudicator.games`), as the campaign layer finds the plug-in.

- ``ending(match)``: how a finished game ended, in words ("the CP marker ...");
- ``turn(state)``: the game turn a state has reached (None if the game has no turns);
- ``outcome(result)``: a finished game's result (the state's ``result``) as the
  tournament scores it: a side's name, ``"draw"``, or None;
- ``adjudicate(position)``: the result of an unfinished game from its position at the
  end of the last completed turn, as the game defines it: ``(result, reason)``;
- ``secured(position, side)``: the best outcome (``"win"``, ``"draw"`` or ``"loss"``)
  the rules guarantee ``side`` from that position whatever both sides do next, and
  why: a silent side's adjudication is capped at it (see :func:`capped`);
- ``luck(events, options)``: for each use of the dice, ``(side, observed, pmf, what)``:
  what the dice gave (a whole number) and its exact distribution for the dice chosen
  (read by :func:`luck_samples` into :class:`LuckSample`), for the luck index.

The demo's automatic players are the plug-in's ``commander``.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Protocol, Sequence

from adjudicator import games
from adjudicator.campaign.games import support
from adjudicator.tournament.errors import TournamentError
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
    def outcome(self, result: Any) -> str | None: ...
    def adjudicate(self, position: Mapping[str, Any]) -> tuple[str, str]: ...
    def secured(self, position: Mapping[str, Any], side: str) -> tuple[str, str]: ...
    def luck(self, events: Iterable[Any], options: Mapping[str, Any]) -> Iterable[tuple]: ...


def tournament_support(game: str) -> TournamentGame:
    """The game's tournament interface: the ``tournament`` module of the package whose
    plug-in the registry names. A game without one cannot be played as a tournament."""
    support(game)  # an unknown game: the campaign layer's error, naming the games
    package = games.GAMES[game].rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.tournament")
    except ModuleNotFoundError as err:
        raise TournamentError(f"{support(game).title} offers no tournament interface "
                              f"({package}.tournament): it cannot be played as a tournament") from err
    return module.tournament_support()


def tournament_games() -> tuple[str, ...]:
    """The registered games that offer a tournament interface."""
    found = []
    for name, module in games.GAMES.items():
        package = module.rpartition(".")[0]
        if importlib.util.find_spec(f"{package}.tournament") is not None:
            found.append(name)
    return tuple(found)


OUTCOME_RANK = {"loss": 0, "draw": 1, "win": 2}


def outcome_for(result: str | None, side: str) -> str | None:
    """'win', 'draw' or 'loss' for ``side`` under ``result`` (a side, "draw", None)."""
    if result is None:
        return None
    if result == "draw":
        return "draw"
    return "win" if result == side else "loss"


def result_giving(side: str, outcome: str, sides: Sequence[str]) -> str:
    """The game result that gives ``side`` the ``outcome``."""
    if outcome == "draw":
        return "draw"
    return side if outcome == "win" else next(s for s in sides if s != side)


def capped(game: TournamentGame, position: Mapping[str, Any], result: str, why: str,
           silent: Sequence[str], sides: Sequence[str]) -> tuple[str | None, str]:
    """An adjudicated ``result`` with each silent side held to what the rules would
    surely have given it had it played on (``game.secured``): a side that stops
    answering is never better off than by playing. Both sides silent: no result."""
    if len(silent) > 1:
        return None, f"both sides silent, so neither can gain from the position ({why})"
    for side in silent:
        got = outcome_for(result, side)
        most, because = game.secured(position, side)
        if got is not None and OUTCOME_RANK[got] > OUTCOME_RANK[most]:
            return (result_giving(side, most, sides),
                    f"the position gives silent {side} a {got} ({why}), but a side that played on "
                    f"would surely get only a {most} ({because}), so it gets a {most}")
    return result, why


def luck_samples(game: TournamentGame, events: Iterable[Any], options: Mapping[str, Any]) -> list[LuckSample]:
    """The game's luck samples for a match's events."""
    return [LuckSample(side, int(observed), tuple(pmf), str(what))
            for side, observed, pmf, what in game.luck(events, options)]


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
