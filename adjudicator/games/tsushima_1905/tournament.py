"""What Battle of Tsushima Strait 1905 tells the tournament layer (the interface is
described in ``adjudicator/tournament/gameplay.py``; this module imports none of it).

- how a finished game ended: the end-of-battle line (reconstructions X-END, X-VICTORY,
  ``games/tsushima-1905/game.toml`` [end], [victory]);
- the game's outcome: the state's result names the winner (decisive or marginal both
  score as a win) or "draw";
- adjudication of an unfinished game (a rung of a tournament's abandonment ladder): the
  game's own victory rule applied to the position at the end of a completed turn, as if
  the battle ended there -- each side's score is the enemy's combat points destroyed;
  the higher score wins, equal scores are a draw (X-VICTORY);
- what a side would surely get by playing on (the cap on a silent side's adjudication):
  the score is counted only when the battle ends (X-END), and until then every turn's
  gunnery, torpedoes, fires and flooding can change it either way: a loss;
- the luck index: not counted. A fire's exact distribution of hits depends on the attack
  and armour dice, the admirals' bonuses and Japanese battleships' re-rolls; the fire
  event records them all (``natural``, ``rerolled``, ``attack_bonus``, ``real``,
  ``armour_bonus``, ``default_bonus``), but that distribution is not computed, so no
  sample is given.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from adjudicator.games.tsushima_1905.rules.end import scores
from adjudicator.games.tsushima_1905.state import JAPAN, RUSSIA, State


class TsushimaTournament:
    def ending(self, match: Any) -> str:
        ended = [e for e in match.events if e.kind == "end"]
        return ended[-1].text if ended else "the battle ended"

    def turn(self, state: Any) -> int | None:
        return getattr(state, "turn", None)

    def outcome(self, result: Any) -> str | None:
        """The winner named by the victory rule (X-VICTORY), or "draw"."""
        if result is None:
            return None
        return result["winner"] if isinstance(result, Mapping) else result

    def adjudicate(self, position: Mapping[str, Any]) -> tuple[str, str]:
        """X-VICTORY on the position, as if the battle ended there."""
        score = scores(State.from_json(position))
        said = f"score Japan {score[JAPAN]}, Russia {score[RUSSIA]} (combat points destroyed)"
        if score[JAPAN] > score[RUSSIA]:
            return JAPAN, f"{said}: Japan scores more"
        if score[RUSSIA] > score[JAPAN]:
            return RUSSIA, f"{said}: Russia scores more"
        return "draw", f"{said}: equal scores"

    def secured(self, position: Mapping[str, Any], side: str) -> tuple[str, str]:
        """The score counts only when the battle ends (X-END)."""
        return "loss", (f"the score is counted only when the battle ends; at turn {position.get('turn')} "
                        "gunnery, torpedoes, fires and flooding can still change it either way")

    def luck(self, events: Iterable[Any], options: Mapping[str, Any]) -> list[tuple[str, int, tuple[float, ...], str]]:
        """No sample (see the module's note)."""
        return []


def tournament_support() -> TsushimaTournament:
    return TsushimaTournament()
