"""A game's balance as the automatic players play it: N whole games between the
plug-in's commanders (the players of the demo, who write orders as a player would),
each side's win rate with a 95% Wilson confidence interval -- the figure a tournament
director needs to choose sides by bidding, a handicap, or alternating sides.

Each game is played by the rules engine alone (no store, no mail): at each question
the side's commander writes its orders, they are read by the game's orders language
and answered as a campaign answers them (the game's default answer where the orders
give none), the dice are the plug-in's simulation dice from a seeded generator, so
``--seed`` repeats a run exactly.
"""

from __future__ import annotations

import math
import re
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from adjudicator.campaign.games import support
from adjudicator.engine import Match, play_out
from adjudicator.orders import parse_orders
from adjudicator.tournament.errors import TournamentError
from adjudicator.tournament.gameplay import tournament_support

Z95 = 1.959963984540054   # the standard normal's 97.5th percentile


@dataclass(frozen=True)
class SideRate:
    side: str
    wins: int
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Balance:
    game: str
    games: int
    sides: tuple[SideRate, ...]
    draws: int
    endings: Mapping[str, int]
    seconds: float


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (good at 0 and at n, unlike the
    normal approximation: 60 wins of 60 gives about 94% to 100%, not 100% to 100%)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def commanders(game: str, rng: random.Random) -> Callable[[Any, Any], Mapping[str, Any]]:
    """A chooser for the engine: each side's commander writes orders for the question,
    which are read and answered as a campaign would answer them."""
    plugin = support(game)
    if plugin.commander is None:
        raise TournamentError(f"{plugin.title} has no automatic player that writes orders: no balance report")
    players: dict[str, Any] = {}
    steps = [0]

    def choose(decision: Any, state: Any) -> Mapping[str, Any]:
        side = decision.side
        player = players.setdefault(side, plugin.commander(side, rng))
        steps[0] += 1
        header = {"campaign": "balance", "side": side, "turn": getattr(state, "turn", None), "step": steps[0],
                  "password": "balance"}
        orders = parse_orders(player.orders(decision, state, header), game, state=state)
        given = plugin.answers.answer_for(decision, state, orders)
        return given if given is not None else plugin.answers.default_answer(decision, state)
    return choose


def balance(game: str, games: int, seed: int = 1, options: Mapping[str, Any] | None = None,
            progress: Callable[[int], None] | None = None) -> Balance:
    """Play ``games`` games of ``game`` between the commanders and count the results."""
    if games < 1:
        raise TournamentError(f"-n {games}: play at least one game")
    plugin = support(game)
    rules = plugin.game()
    interface = tournament_support(game)
    Match(rules, {}, dict(options or {}))   # bad options are refused before anything is played
    outcomes: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    start = time.monotonic()
    for number in range(games):
        rng = random.Random(f"{seed}:{number}")
        match = play_out(Match(rules, {}, dict(options or {})), plugin.dice(rng), commanders(game, rng))
        outcomes[str(interface.outcome(match.state.result))] += 1
        endings[_gist(interface.ending(match))] += 1
        if progress:
            progress(number + 1)
    rates = tuple(SideRate(side, outcomes[side], games, *wilson(outcomes[side], games)) for side in rules.sides)
    return Balance(game, games, rates, outcomes["draw"], dict(endings.most_common()), time.monotonic() - start)


def _gist(ending: str) -> str:
    """How a game ended without its counts ("End of turn 6: Russia wins (the CP marker
    stands at Russia 5)." -> "Russia wins (the CP marker stands at Russia N)"; a rule's
    number such as 4.2 is kept)."""
    text = ending.split(": ", 1)[-1] if ending.startswith("End of turn") else ending
    return re.sub(r"(?<![.\d])\d+(?![.\d])", "N", text).rstrip(".")   # a rule's number (4.2) stays


def render_balance(report: Balance) -> str:
    title = support(report.game).title
    lines = [f"{title}: {report.games} game(s) between the automatic players "
             f"({report.seconds:.1f} s, {report.seconds / report.games:.2f} s a game)."]
    for rate in report.sides:
        lines.append(f"  {rate.side:<10} wins {rate.wins:>5} of {rate.games}  {100 * rate.rate:5.1f}%  "
                     f"(95% CI {100 * rate.low:.1f}% to {100 * rate.high:.1f}%)")
    lines.append(f"  {'draws':<10}      {report.draws:>5} of {report.games}")
    lines += ["", "How the games ended:"] + [f"  {count:>5}  {how}" for how, count in report.endings.items()]
    lines.append("(95% CI: the Wilson score interval; the automatic players are the demo's, so the figure "
                 "measures the game as they play it, not as strong players would)")
    return "\n".join(lines)
