"""What Russo-Japanese War 1904-1905 tells the tournament layer (the interface is
described in ``adjudicator/tournament/gameplay.py``; this module imports none of it).

- how a finished game ended: the Victory Check Phase's own words (4.1, 4.2), or the
  sudden death of a unit entering the enemy's supply source (4.4);
- the game's outcome: the side named by 4.1 / 4.2, or "draw" (both at 0 Morale, 4.1);
- adjudication of an unfinished game (a rung of a tournament's abandonment ladder) is
  not in the rules (reconstructed): the game ends only when a side's Morale reaches 0
  (4.1) or after Game Turn 12 (4.2), so the position at the end of a completed turn is
  read on the Morale Track -- the side with more Morale Points wins, equal Morale is a
  draw. Reasoning: Morale is the rules' own measure of how near each side is to losing;
  4.2 gives Russia the game on time only because Japan failed to break it, which a game
  stopped early has not yet tested, so time is not counted for either side;
- what a side would surely get by playing on (the cap on a silent side's adjudication):
  nothing before the game ends -- every Game Turn's Morale Checks (4.3.2) and events can
  take a side's Morale to 0, a unit entering the enemy's supply source wins at once
  (4.4), and 4.2 gives Russia the game only after Game Turn 12: a loss;
- the luck index: each Morale Check die (4.3.2, A7-A8), for the side that rolls it; a
  high die passes, so a higher face is luckier; its distribution is the fair die's.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA

FAIR_DIE = tuple([1 / 6] * 6)   # face k + 1 with probability 1/6


class RussoJapaneseWarTournament:
    def ending(self, match: Any) -> str:
        ended = [e for e in match.events if e.kind in ("game-end", "sudden-death")]
        return ended[-1].text if ended else "the game ended"

    def turn(self, state: Any) -> int | None:
        return getattr(state, "turn", None)

    def outcome(self, result: Any) -> str | None:
        """4.1 / 4.2 name the winning side, or a draw."""
        return result

    def adjudicate(self, position: Mapping[str, Any]) -> tuple[str, str]:
        """The Morale Track at the end of a completed Game Turn (reconstructed, above)."""
        morale = position["morale"]
        japan, russia = int(morale[JAPAN]), int(morale[RUSSIA])
        standing = f"Morale Japan {japan}, Russia {russia} at the end of Game Turn {position.get('turn')}"
        if japan > russia:
            return JAPAN, f"{standing}: Japan stands higher on the Morale Track"
        if russia > japan:
            return RUSSIA, f"{standing}: Russia stands higher on the Morale Track"
        return "draw", f"{standing}: level on the Morale Track"

    def secured(self, position: Mapping[str, Any], side: str) -> tuple[str, str]:
        """Nothing is decided before Morale 0 (4.1) or the end of Game Turn 12 (4.2)."""
        return "loss", (f"the game ends only at Morale 0 (4.1) or after the last Game Turn (4.2); at Game Turn "
                        f"{position.get('turn')} a Morale Check can still break either side")

    def luck(self, events: Iterable[Any], options: Mapping[str, Any]) -> list[tuple[str, int, tuple[float, ...], str]]:
        """(side, face - 1, the fair die, what) per Morale Check die: a higher die passes."""
        return [(event.data["side"], int(event.data["die"]) - 1, FAIR_DIE, "a Morale Check die")
                for event in events if event.kind == "morale-check"]


def tournament_support() -> RussoJapaneseWarTournament:
    return RussoJapaneseWarTournament()
