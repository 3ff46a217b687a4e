"""What a tournament publishes besides its record: a FIDE Tournament Report File
(TRF16, C.04.A Annex-2), a CSV of every game's result, a cross-table, and a static
standings page (HTML, one file, no script) -- all from the public record alone.

TRF conventions for a wargame event (the format is chess's):

- a player's starting number is their pairing number (:func:`pairing_numbers`);
- a game's "colour" is the side: the game's first side is ``w``, the second ``b``;
- results: ``1`` / ``=`` / ``0`` over the board or by adjudication, ``+`` / ``-`` by a
  forfeit (a forfeit ruling, or a sealed reveal missing: the result record says which),
  ``-`` for both players of a game with no result, ``U`` for the
  pairing-allocated bye, ``Z`` for a round a player was not paired (absent, withdrawn,
  not yet registered); a game still running has a blank result;
- with two games per pairing (sides alternate) a round's block is the pairing's: the
  player's points against the opponent's (more: ``1``, equal: ``=``, fewer: ``0``),
  colour ``w`` for the player who had the first side in the first game;
- the score column is the charter's points, the rank the standings' rank.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any, Sequence

from adjudicator.tournament.standings import Line
from adjudicator.tournament.state import EventState, GameResult, GameSlot


@dataclass(frozen=True)
class Cell:
    """One player's round in the cross-table and the TRF file."""

    opponent: str | None   # None: no game this round (bye or not paired)
    colour: str            # "w", "b", or "-" (no game)
    code: str              # 1 = 0 + - U Z, or " " while running
    points: float | None


def pairing_numbers(state: EventState) -> dict[str, int]:
    """Each player's pairing number: the order the record gives (the first round's
    ranking when it has one, then registration order for those not in it)."""
    ranking = list(state.rounds[0].ranking) if state.rounds else []
    order = ranking + [p for p in state.players if p not in ranking]
    return {player: number for number, player in enumerate(order, start=1)}


def cells(state: EventState) -> dict[str, dict[int, Cell]]:
    """player -> round -> what the player's round was."""
    table: dict[str, dict[int, Cell]] = {p: {} for p in state.players}
    first_side = list(state.charter["game_sides"])[0]
    for info in state.rounds:
        for player in info.byes:
            table.setdefault(player, {})[info.number] = Cell(None, "-", "U", None)
        by_pair: dict[int, list[GameSlot]] = {}
        for slot in info.games:
            by_pair.setdefault(slot.pair, []).append(slot)
        for slots in by_pair.values():
            for player, cell in _pairing_cells(state, slots, first_side).items():
                table.setdefault(player, {})[info.number] = cell
        for player in state.players:
            table[player].setdefault(info.number, Cell(None, "-", "Z", None))
    return table


def _pairing_cells(state: EventState, slots: list[GameSlot], first_side: str) -> dict[str, Cell]:
    players = list(slots[0].sides.values())
    results = [state.results.get(slot.game) for slot in slots]
    out: dict[str, Cell] = {}
    for player in players:
        opponent = next(p for p in players if p != player)
        colour = "w" if slots[0].sides.get(first_side) == player else "b"
        if any(r is None for r in results):
            out[player] = Cell(opponent, colour, " ", None)
            continue
        if len(slots) == 1:
            out[player] = Cell(opponent, colour, _code(results[0], player), results[0].points.get(player, 0.0))
            continue
        mine = sum(r.points.get(player, 0.0) for r in results)
        theirs = sum(r.points.get(opponent, 0.0) for r in results)
        if all(r.result is None for r in results):
            code = "-"
        else:
            code = "1" if mine > theirs else "=" if mine == theirs else "0"
        out[player] = Cell(opponent, colour, code, mine)
    return out


def _code(result: GameResult, player: str) -> str:
    if result.result is None:
        return "-"
    outcome = result.outcome_for(player)
    if outcome == "draw":
        return "="
    if result.forfeit:
        return "+" if outcome == "win" else "-"
    return "1" if outcome == "win" else "0"


def trf(state: EventState, lines: Sequence[Line]) -> str:
    """The event as a FIDE TRF16 file, written by caissify-pairings' TRF writer."""
    from caissify_pairings.trf import write_trf

    numbers = pairing_numbers(state)
    ranks = {line.player: line.rank for line in lines}
    points = {line.player: line.points for line in lines}
    table = cells(state)
    players = []
    for player, number in numbers.items():
        results = {}
        for round_number, cell in table.get(player, {}).items():
            if cell.opponent is None:
                results[round_number] = {"opponent": None, "result": cell.code}
            else:
                results[round_number] = {"opponent": numbers[cell.opponent], "color": cell.colour,
                                         "result": None if cell.code == " " else cell.code}
        players.append({"starting_number": number, "name": player, "score": points.get(player, 0.0),
                        "rank": ranks.get(player, number), "results": results})
    opened = state.charter.get("opened", "")[:10].replace("-", "/")
    closed = (state.closed or {}).get("at", "")[:10].replace("-", "/")
    header = {"name": f"{state.name} ({state.game})", "start_date": opened, "end_date": closed,
              "type": state.format, "system": _system(state)}
    if state.charter.get("accelerated"):   # Baku acceleration (C.04.5.1): its first two rounds
        from caissify_pairings.engines.dutch import DutchEngine

        header["accelerated_rounds"] = [n for n in range(1, DutchEngine.BAKU_ACCELERATION_ROUNDS + 1)
                                        if n <= len(state.rounds)]
    return write_trf(header, players, max(len(state.rounds), 1)) + "\n"


def _system(state: EventState) -> str:
    if state.format == "swiss":
        return "FIDE Dutch (C.04.3)" if state.charter.get("pairing") == "dutch" else "Swiss (seeded, fewest repeats)"
    return {"round-robin": "Round robin (Berger)", "ladder": "Ladder challenges"}.get(state.format, state.format)


def results_csv(state: EventState) -> str:
    """One row per game (and per bye): round, game, each side's player, the result, the
    winning player, how it was decided, the turn reached, the campaign's head hash and
    each player's points."""
    sides = list(state.charter["game_sides"])
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["round", "game", *sides, "result", "winner", "how", "turn", "head",
                     *(f"{s}_points" for s in sides)])
    for info in state.rounds:
        for slot in info.games:
            result = state.results.get(slot.game)
            players = [slot.sides.get(s, "") for s in sides]
            if result is None:
                writer.writerow([info.number, slot.game, *players, "running", "", "", "", "", *([""] * len(sides))])
                continue
            winner = slot.sides.get(result.result, "") if result.result not in (None, "draw") else ""
            writer.writerow([info.number, slot.game, *players, result.result or "no result", winner, result.how,
                             "" if result.turn is None else result.turn, result.head or "",
                             *(f"{result.points.get(p, 0.0):g}" for p in players)])
        for player in info.byes:
            writer.writerow([info.number, "bye", player, *([""] * (len(sides) - 1)), "bye", player,
                             f"a bye, scored as a {state.charter['bye']}", "", "", *([""] * len(sides))])
    return buffer.getvalue()


def cross_table(state: EventState, lines: Sequence[Line]) -> list[dict[str, Any]]:
    """Rows in standings order: rank, player, each round's cell as text -- the
    opponent's rank, the side's initial, the result code (``3J1``: beat number 3
    playing Japan; ``U``: the bye; ``Z``: not paired) -- and the points."""
    table = cells(state)
    ranks = {line.player: line.rank for line in lines}
    side_initial = {"w": state.charter["game_sides"][0][0].upper(), "b": state.charter["game_sides"][1][0].upper()}
    rows = []
    for line in lines:
        rounds = []
        for number in range(1, len(state.rounds) + 1):
            cell = table.get(line.player, {}).get(number)
            if cell is None or cell.opponent is None:
                rounds.append(cell.code if cell else "")
            else:
                rounds.append(f"{ranks[cell.opponent]}{side_initial[cell.colour]}{cell.code.strip() or '*'}")
        rows.append({"rank": line.rank, "player": line.player, "rounds": rounds, "points": line.points})
    return rows


def render_cross_table(state: EventState, lines: Sequence[Line]) -> str:
    rows = cross_table(state, lines)
    rounds = len(state.rounds)
    head = f"{'#':>3}  {'player':<16}" + "".join(f"{'R' + str(n):>7}" for n in range(1, rounds + 1)) + f"{'pts':>7}"
    out = [head]
    for row in rows:
        out.append(f"{row['rank']:>3}  {row['player']:<16}" + "".join(f"{cell:>7}" for cell in row["rounds"])
                   + f"{row['points']:7g}")
    sides = state.charter["game_sides"]
    out.append(f"(each round: the opponent's rank, the side played -- {sides[0][0].upper()} {sides[0]}, "
               f"{sides[1][0].upper()} {sides[1]} -- and the result: 1 win, = draw, 0 loss, + / - by forfeit, "
               "- for no result, * still running; U the bye, Z not paired)")
    return "\n".join(out)


#: the static standings page's template (templates/tournament/standings.html.j2)
PAGE = "tournament/standings.html.j2"


def standings_page(state: EventState, lines: Sequence[Line], title: str) -> str:
    """The static standings page: standings with tie-breaks, cross-table, games, rulings."""
    sides = list(state.charter["game_sides"])
    games = []
    for info in state.rounds:
        for slot in info.games:
            result = state.results.get(slot.game)
            said = "running" if result is None else (
                "no result" if result.result is None else "draw" if result.result == "draw"
                else f"{slot.sides[result.result]} ({result.result}) wins") + ("" if result is None else f" -- {result.how}")
            games.append({"round": info.number, "game": slot.game, "players": [slot.sides.get(s, "") for s in sides],
                          "said": said})
    from adjudicator.reports.render import template_environment

    return template_environment(True).get_template(PAGE).render(
        name=state.name, title=title, format=state.format, rounds=len(state.rounds), closed=state.closed is not None,
        win=f"{state.scoring('win'):g}", draw=f"{state.scoring('draw'):g}", loss=f"{state.scoring('loss'):g}",
        bye=state.charter["bye"], chain=list(state.charter["tiebreaks"]), lines=lines,
        cross=cross_table(state, lines), sides=sides, games=games, rulings=state.rulings, head=state.head,
        legend=f"{sides[0][0].upper()} {sides[0]}, {sides[1][0].upper()} {sides[1]}")
