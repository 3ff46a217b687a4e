"""What Port Arthur tells the tournament layer (the interface is described in
``adjudicator/tournament/gameplay.py``; this module imports none of it).

- how a finished game ended: the Victory Conditions' own words;
- adjudication of an unfinished game (a rung of a tournament's abandonment ladder):
  the Victory Conditions (rulebook, "Victory Conditions") applied to the position at
  the end of the last completed turn -- without an Army meeple in Mukden Russia wins;
  otherwise the CP marker decides, the centre being a draw;
- what a side would surely get by playing on (the cap on a silent side's adjudication):
  the Victory Conditions are applied only "at the end of the game" (Sequence of Play:
  after the last turn), and until then the Army may still reach Mukden or be held and
  every Scoring Phase moves the CP marker either way, so the rules guarantee neither
  side anything before the end: a loss;
- the luck index: each fire (rulebook, "Naval Battle" B) scores hits + critical hits;
  its exact distribution for the number of dice chosen and the squadron's SFP is
  counted over all 6^n rolls (each multiset of faces once, times its orderings).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any, Iterable, Mapping

from adjudicator.games.port_arthur.data import JAPAN, RUSSIA
from adjudicator.games.port_arthur.rules.battle import fire_result
from adjudicator.games.port_arthur.rules.sequence import MUKDEN




class PortArthurTournament:
    def ending(self, match: Any) -> str:
        victory = [e for e in match.events if e.kind == "victory"]
        return victory[-1].text if victory else "the game ended"

    def turn(self, state: Any) -> int | None:
        return getattr(state, "turn", None)

    def outcome(self, result: Any) -> str | None:
        """The Victory Conditions' result is a side's name or "draw" already."""
        return result

    def secured(self, position: Mapping[str, Any], side: str) -> tuple[str, str]:
        """Nothing is decided before the Victory Conditions at the end of the last turn."""
        return "loss", (f"Port Arthur's Victory Conditions are applied only after the last turn; "
                        f"at turn {position.get('turn')} the Army may still take or miss Mukden and "
                        "the CP marker may still move either way")

    def adjudicate(self, position: Mapping[str, Any]) -> tuple[str, str]:
        """Victory Conditions on the position at the end of a completed turn."""
        track, occupied, cp = position["track"], int(position["occupied"]), int(position["cp"])
        if MUKDEN not in track[:occupied]:
            return RUSSIA, "Japan does not hold Mukden"
        if cp > 0:
            return JAPAN, f"Japan holds Mukden and the CP marker stands at Japan {cp}"
        if cp < 0:
            return RUSSIA, f"the CP marker stands at Russia {-cp}"
        return "draw", "Japan holds Mukden and the CP marker is in the centre"

    def luck(self, events: Iterable[Any], options: Mapping[str, Any]) -> list[tuple[str, int, tuple[float, ...], str]]:
        """(side, hits + critical hits, their exact distribution, what was fired) per fire."""
        partial = str(options.get("partial_hits", "less-than"))
        samples = []
        for event in events:
            if event.kind != "fire":
                continue
            data = event.data
            dice, sfp = tuple(data["dice"]), int(data["sfp"])
            samples.append((data["side"], int(data["hits"]) + int(data["criticals"]),
                            fire_distribution(len(dice), sfp, partial), f"{len(dice)} dice against SFP {sfp}"))
        return samples


@lru_cache(maxsize=512)
def fire_distribution(count: int, sfp: int, partial_hits: str) -> tuple[float, ...]:
    """P(hits + criticals = k) for ``count`` dice against ``sfp``, over all 6^count rolls."""
    tally: Counter[int] = Counter()
    for roll in combinations_with_replacement(range(1, 7), count):
        result = fire_result(roll, sfp, partial_hits)
        ways = factorial(count)
        for repeats in Counter(roll).values():
            ways //= factorial(repeats)   # the orderings of this multiset of faces
        tally[result.hits + result.criticals] += ways
    total = 6 ** count
    top = max(tally)
    return tuple(tally.get(k, 0) / total for k in range(top + 1))


def tournament_support() -> PortArthurTournament:
    return PortArthurTournament()

