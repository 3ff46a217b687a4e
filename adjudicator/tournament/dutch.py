"""FIDE's Dutch system (C.04.3) for a Swiss round, with its colour -- here side --
allocation, through the ``caissify-pairings`` package's Dutch engine: a maintained
implementation checked by its authors against FIDE's endorsement tests, rather than a
pairing this project alone wrote.

What the engine needs is read from the event's public record, as FIDE's Free Pairings
Checker reads it from a TRF file (C.04.A), so the pairing is recomputable by anyone:

- **pairing numbers**: the first round draws the initial ranking from its committed
  seed (nobody has a rating the record could show); players registered later follow
  in registration order (:func:`~adjudicator.tournament.publish.pairing_numbers`);
- **initial colour** (C.04.3, E): drawn from the first round's seed too; the game's
  first side is FIDE's white, the second its black;
- **scores** on FIDE's scale: a player's points over a win's points (a bye as the
  charter scores it);
- **colour history** from games played over the board (forfeits and no-result games
  give no colour); **floats**: a pairing-allocated bye or a forfeit win floats down,
  a game against a higher (lower) score before the round floats up (down);
- **byes**: pairing-allocated byes taken, and forfeit wins (which make a player
  ineligible for the bye, as in FIDE's rules);
- **accelerated rounds** (Baku, C.04.5.1) when the charter asks for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from adjudicator.tournament.errors import NothingToPair
from adjudicator.tournament.state import EventState

WHITE, BLACK = "white", "black"


def engine_version() -> str:
    """The Dutch engine in use, as the charter records it ("caissify-pairings 0.5.0"):
    an audit run with another version of the engine is told so when a round differs."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"caissify-pairings {version('caissify-pairings')}"
    except PackageNotFoundError:   # pragma: no cover - the package is a dependency
        return "caissify-pairings (version unknown)"


@dataclass(frozen=True)
class DutchRound:
    """A round as the Dutch system pairs it: each pair as (first side, second side), in
    board order, and the player with the pairing-allocated bye."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None


def dutch_round(state: EventState, active: Sequence[str], numbers: dict[str, int], initial_colour: str,
                round_number: int, total_rounds: int) -> DutchRound:
    """Pair ``active`` for ``round_number`` by FIDE's Dutch system."""
    from caissify_pairings.engines.dutch import DutchEngine

    from adjudicator.tournament.publish import cells

    table = cells(state)
    win = state.scoring("win")
    scores_after = _scores_after(state, table, win)
    players, previous = [], set()
    for player in active:
        players.append(_engine_player(player, numbers, table.get(player, {}), scores_after, round_number))
    for info in state.rounds:
        for first, second in info.pairs:
            previous.add((numbers[first], numbers[second]))
    if len(players) < 2:
        raise NothingToPair(f"nobody to pair in round {round_number} of {state.name}: {len(players)} active player(s)")
    engine = DutchEngine(players=players, previous_pairings=previous, round_number=round_number,
                         total_rounds=total_rounds, initial_color=initial_colour,
                         accelerated=bool(state.charter.get("accelerated")))
    by_number = {n: p for p, n in numbers.items()}
    pairs, bye = [], None
    for board in sorted(engine.generate_pairings(), key=lambda b: b.get("table", 0)):
        if board.get("black_id") is None:
            bye = by_number[board["white_id"]]
        else:
            pairs.append((by_number[board["white_id"]], by_number[board["black_id"]]))
    return DutchRound(tuple(pairs), bye)


def _scores_after(state: EventState, table: dict[str, dict[int, Any]], win: float) -> dict[str, dict[int, float]]:
    """Each player's score (FIDE scale) after each round, 0 before round 1."""
    out: dict[str, dict[int, float]] = {}
    for player, rounds in table.items():
        total, running = 0.0, {0: 0.0}
        for number in range(1, len(state.rounds) + 1):
            cell = rounds.get(number)
            if cell is not None:
                total += _points(state, cell, win)
            running[number] = total
        out[player] = running
    return out


def _points(state: EventState, cell: Any, win: float) -> float:
    if cell.opponent is None:
        return state.scoring(state.charter["bye"]) / win if cell.code == "U" else 0.0
    return (cell.points or 0.0) / win / state.games_per_pairing


def _engine_player(player: str, numbers: dict[str, int], rounds: dict[int, Any],
                   scores_after: dict[str, dict[int, float]], round_number: int) -> dict[str, Any]:
    colours, floats = [], []
    byes = forfeit_wins = 0
    for number in range(1, round_number):
        cell = rounds.get(number)
        if cell is None or cell.code == "Z":
            floats.append("none")     # not paired this round: no float, no colour
            continue
        if cell.opponent is None:     # the pairing-allocated bye: a downfloat
            byes += 1
            floats.append("down")
            continue
        played = cell.code in ("1", "0", "=")
        if played:
            colours.append(WHITE if cell.colour == "w" else BLACK)
            mine, theirs = scores_after[player][number - 1], scores_after[cell.opponent][number - 1]
            floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
        elif cell.code == "+":
            forfeit_wins += 1
            floats.append("down")
        else:
            floats.append("none")
    return {"id": numbers[player], "name": player, "score": scores_after[player][round_number - 1],
            "rating": 0, "starting_number": numbers[player], "pairing_number": numbers[player],
            "color_hist": colours, "float_history": floats, "bye_count": byes, "forfeit_win_count": forfeit_wins}
