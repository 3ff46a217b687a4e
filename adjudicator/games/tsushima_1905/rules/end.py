"""Not in the rules: the end of the game and victory (reconstructions X-END, X-VICTORY).

"The game ends at the end of a turn in which one side has no ship in action on the
table, at the end of turn `turns`, or when a side concedes." "Score = the enemy's
combat points destroyed: a ship sunk, abandoned or surrendered counts its full
starting CPs, any other enemy ship the CPs it has lost. Higher score wins; at least
twice the loser's score (and more than 0) is a decisive victory; equal scores are a
draw." (games/tsushima-1905/game.toml [end], [victory])
"""

from __future__ import annotations

from adjudicator.games.tsushima_1905.state import ACTIVE, OUT_OF_ACTION, SIDES, State, other


def scores(state: State) -> dict[str, int]:
    """What each side destroyed of the other's combat points."""
    result = {side: 0 for side in SIDES}
    for ship in state.ships.values():
        destroyed = ship.start_cp if ship.status in OUT_OF_ACTION else ship.start_cp - ship.cp
        result[other(ship.side)] += destroyed
    return result


def game_over(state: State, last_turn: int) -> bool:
    """At the end of a turn: a side with no ship in action, or the last turn played."""
    in_action = {side: any(s.side == side and s.status == ACTIVE for s in state.ships.values()) for side in SIDES}
    return not all(in_action.values()) or state.turn >= last_turn


def decide(state: State, ratio: int) -> None:
    """Set the winner, the kind of victory and the score."""
    score = scores(state)
    state.score = score
    high, low = sorted(SIDES, key=lambda s: score[s], reverse=True)
    if score[high] == score[low]:
        state.winner, state.victory = "draw", "draw"
        return
    state.winner = high
    state.victory = "decisive" if score[high] >= ratio * score[low] and score[high] > 0 else "marginal"


def concede(state: State, side: str) -> None:
    """R-END-2: "the game ends at once with the other side the winner, recorded as
    conceded"; the score is what each side destroyed, as at any end."""
    state.score = scores(state)
    state.winner, state.victory = other(side), "conceded"
