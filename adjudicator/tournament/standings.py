"""Standings: points per result and the declared tie-break chain, with the working.

Points: each game scores the charter's win / draw / loss points; a bye scores the
declared bye result for every game of a pairing; a game with no result scores
nothing and counts for no tie-break. Tie-breaks, applied in the charter's order to
players still level:

- ``sonneborn-berger``: for every game, the points scored in it divided by a win's
  points, times the opponent's total (beaten opponents' scores, half of drawn ones'
  at 1/1/2 scoring);
- ``buchholz``: the sum of the opponents' totals, once per game (a bye adds nothing);
- ``median-buchholz``: Buchholz without the best and the worst opponent (with three
  opponents or more);
- ``head-to-head``: points scored in games between the players still level;
- ``cumulative``: the sum of the running score after each round;
- ``side-wins``: wins with the side won with least (who won with both sides ranks
  above who won twice with one);

FIDE's Buchholz family with FIDE's rules for unplayed rounds (C.07, Tie-Break
Regulations 2023, Art. 16), over the rounds that are complete:

- a round is *played* when the player had a game decided over the board (or by an
  adjudication); a bye, a forfeit (either way), a game with no result and a round the
  player was not paired are *unplayed*;
- an opponent's *adjusted score* counts each of the opponent's unplayed rounds as a
  draw (Art. 16.3);
- each of the player's own unplayed rounds counts as a game against a *dummy opponent*
  with the player's own score (Art. 16.4);
- ``fide-buchholz`` (BH): the sum, over the rounds, of the opponents' adjusted scores
  and the dummy opponents' scores;
- ``fide-buchholz-cut1`` (BH-C1): BH less its lowest value -- a dummy opponent's first,
  when the player has an unplayed round;
- ``fide-sonneborn-berger`` (SB): over the rounds, the points scored in the round over a
  win's points, times that round's opponent's adjusted score (or the dummy's).
- finally a draw from the tournament's committed seed (the last one revealed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from adjudicator.tournament.draws import Draws
from adjudicator.tournament.state import EventState


@dataclass(frozen=True)
class PlayedGame:
    round: int
    opponent: str | None    # None: a bye
    side: str | None
    outcome: str            # win, draw, loss, bye
    points: float


@dataclass
class Line:
    """One line of the standings."""

    rank: int
    player: str
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    tiebreaks: dict[str, float] = field(default_factory=dict)
    decided_by: str = ""       # how this line was separated from the one below
    withdrawn: bool = False

    def to_json(self) -> dict:
        return {"rank": self.rank, "player": self.player, "points": self.points, "games": self.games,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "tiebreaks": {k: round(v, 4) for k, v in self.tiebreaks.items()},
                "decided_by": self.decided_by, "withdrawn": self.withdrawn}


def player_games(state: EventState) -> dict[str, list[PlayedGame]]:
    """Every player's scored games (and byes), round by round."""
    games: dict[str, list[PlayedGame]] = {p: [] for p in state.players}
    for info in state.rounds:
        for player in info.byes:
            games.setdefault(player, []).append(
                PlayedGame(info.number, None, None, "bye",
                           state.scoring(state.charter["bye"]) * state.games_per_pairing))
    for result in state.results.values():
        for side, player in result.sides.items():
            outcome = result.outcome_for(player)
            if outcome is None:
                continue
            opponent = next(p for s, p in result.sides.items() if s != side)
            games.setdefault(player, []).append(
                PlayedGame(result.round, opponent, side, outcome, float(result.points.get(player, 0.0))))
    for played in games.values():
        played.sort(key=lambda g: g.round)
    return games


def compute(state: EventState, draw_seed: tuple[int, bytes] | None = None,
            chain: Sequence[str] | None = None) -> list[Line]:
    """The standings: points, then the tie-break chain, then the seeded draw."""
    games = player_games(state)
    totals = {p: sum(g.points for g in games.get(p, [])) for p in state.players}
    win_points = state.scoring("win")
    chain = list(state.charter["tiebreaks"] if chain is None else chain)
    values: dict[str, dict[str, float]] = {p: {} for p in state.players}
    rounds = max((info.number for info in state.rounds), default=0)
    for player in state.players:
        played = games.get(player, [])
        opponents = [totals.get(g.opponent, 0.0) for g in played if g.opponent is not None]
        for name in chain:
            if name == "sonneborn-berger":
                values[player][name] = sum(g.points / win_points * totals.get(g.opponent, 0.0)
                                           for g in played if g.opponent is not None)
            elif name == "buchholz":
                values[player][name] = sum(opponents)
            elif name == "median-buchholz":
                trimmed = sorted(opponents)[1:-1] if len(opponents) >= 3 else opponents
                values[player][name] = sum(trimmed)
            elif name == "cumulative":
                values[player][name] = sum(sum(g.points for g in played if g.round <= r) for r in range(1, rounds + 1))
            elif name == "side-wins":
                sides = state.charter.get("game_sides") or sorted({g.side for g in played if g.side})
                per_side = [sum(1 for g in played if g.side == s and g.outcome == "win") for s in sides]
                values[player][name] = float(min(per_side)) if per_side else 0.0
    if any(name in FIDE_TIEBREAKS for name in chain):
        for player, found in fide_tiebreaks(state).items():
            values.setdefault(player, {}).update({k: v for k, v in found.items() if k in chain})
    order = sorted(state.players, key=lambda p: -totals[p])
    groups = _split(order, lambda p: totals[p])
    decided: dict[str, str] = {}
    for name in chain:
        groups = [part for group in groups for part in _break(group, name, values, games, decided)]
    draws = Draws(state.name, draw_seed[0], draw_seed[1]) if draw_seed else None
    ranked: list[str] = []
    for group in groups:
        if len(group) > 1 and draws is not None:
            drawn = draws.shuffle(sorted(group), "final tie-break")
            for upper in drawn[:-1]:
                decided[upper] = f"seeded draw (seed {draw_seed[0]})"
            ranked += drawn
        else:
            ranked += sorted(group)
    return [_line(i + 1, p, games.get(p, []), totals[p], values[p], decided.get(p, ""), p in state.withdrawn)
            for i, p in enumerate(ranked)]


FIDE_TIEBREAKS = ("fide-buchholz", "fide-buchholz-cut1", "fide-sonneborn-berger")


def fide_tiebreaks(state: EventState) -> dict[str, dict[str, float]]:
    """BH, BH-C1 and SB with FIDE's unplayed-round rules (see the module's notes), over
    the complete rounds only: an opponent's adjusted score and a player's own score for
    their unplayed rounds both leave out a round still being played."""
    from adjudicator.tournament.publish import cells

    table = cells(state)
    win, draw = (state.scoring(outcome) * state.games_per_pairing for outcome in ("win", "draw"))
    complete = [info.number for info in state.rounds if all(s.game in state.results for s in info.games)]
    round_points = {p: {n: _round_points(state, cell) for n, cell in rounds.items()} for p, rounds in table.items()}

    def played(cell) -> bool:
        return cell is not None and cell.opponent is not None and cell.code in ("1", "0", "=")

    adjusted = {p: sum(round_points[p].get(n, 0.0) if played(table[p].get(n)) else draw for n in complete)
                for p in state.players}
    own = {p: sum(round_points[p].get(n, 0.0) for n in complete) for p in state.players}
    out: dict[str, dict[str, float]] = {}
    for player in state.players:
        parts = []   # (value, unplayed, fraction of a win scored)
        for number in complete:
            cell = table.get(player, {}).get(number)
            fraction = round_points[player].get(number, 0.0) / win
            if played(cell):
                parts.append((adjusted[cell.opponent], False, fraction))
            else:
                parts.append((own[player], True, fraction))
        buchholz = sum(v for v, _, _ in parts)
        cut = min(parts, key=lambda part: (not part[1], part[0]))[0] if parts else 0.0
        out[player] = {"fide-buchholz": buchholz, "fide-buchholz-cut1": buchholz - cut,
                       "fide-sonneborn-berger": sum(v * f for v, _, f in parts)}
    return out


def _round_points(state: EventState, cell) -> float:
    if cell.opponent is None:
        return state.scoring(state.charter["bye"]) * state.games_per_pairing if cell.code == "U" else 0.0
    return cell.points or 0.0


def _split(players: list[str], key: Callable[[str], float]) -> list[list[str]]:
    groups: list[list[str]] = []
    for player in players:
        if groups and abs(key(groups[-1][0]) - key(player)) < 1e-9:
            groups[-1].append(player)
        else:
            groups.append([player])
    return groups


def _break(group: list[str], name: str, values: dict[str, dict[str, float]],
           games: Mapping[str, list[PlayedGame]], decided: dict[str, str]) -> list[list[str]]:
    if len(group) < 2:
        return [group]
    if name == "head-to-head":
        members = set(group)
        score = {p: sum(g.points for g in games.get(p, []) if g.opponent in members) for p in group}
        for p in group:
            values[p]["head-to-head"] = score[p]
        key = score.__getitem__
    else:
        key = lambda p: values[p][name]  # noqa: E731
    parts = _split(sorted(group, key=lambda p: -key(p)), key)
    for upper, lower in zip(parts, parts[1:]):
        decided.setdefault(upper[-1], f"{name} {key(upper[-1]):g} against {key(lower[0]):g}")
    return parts


def _line(rank: int, player: str, played: list[PlayedGame], points: float, values: dict[str, float],
          decided: str, withdrawn: bool) -> Line:
    return Line(rank, player, points, sum(1 for g in played if g.opponent is not None),
                sum(1 for g in played if g.outcome == "win"), sum(1 for g in played if g.outcome == "draw"),
                sum(1 for g in played if g.outcome == "loss"), dict(values), decided, withdrawn)


#: The width of the standings as text: a mail's 78 columns.
WIDTH = 78
SHORT = {"sonneborn-berger": "SB", "buchholz": "Buch", "median-buchholz": "MBuch", "head-to-head": "H2H",
         "cumulative": "Cum", "side-wins": "SideW", "fide-buchholz": "BH", "fide-buchholz-cut1": "BH-C1",
         "fide-sonneborn-berger": "SB-F"}


def render(lines: Sequence[Line], chain: Sequence[str]) -> str:
    """The standings as text, with every tie-break value and what separated ties, in
    :data:`WIDTH` columns: the tie-breaks that do not fit beside the points go on in a
    table of their own below, and what put a player above the next ('ahead on') and a
    withdrawal stand on a line under the player's."""
    name = max([16, *(len(line.player) + 2 for line in lines)])
    first = (WIDTH - (3 + 2 + name + 6 + 6 + 2 + 5 + 2)) // 7
    later = (WIDTH - (3 + 2 + name)) // 7
    blocks = [list(chain[:max(first, 1)])]
    rest = list(chain[len(blocks[0]):])
    while rest:
        blocks.append(rest[:max(later, 1)])
        rest = rest[len(blocks[-1]):]
    out = []
    for number, block in enumerate(blocks):
        columns = "".join(f"{SHORT[c]:>7}" for c in block)
        if number == 0:
            out.append(f"{'#':>3}  {'player':<{name}}{'pts':>6}{'games':>6}  W-D-L  {columns}".rstrip())
        else:
            out += ["", f"{'#':>3}  {'player':<{name}}{columns}"]
        for line in lines:
            values = "".join(f"{line.tiebreaks[c]:7g}" if c in line.tiebreaks else f"{'-':>7}" for c in block)
            if number == 0:
                out.append(f"{line.rank:>3}  {line.player:<{name}}{line.points:6g}{line.games:6d}  "
                           f"{line.wins}-{line.draws}-{line.losses}  {values}".rstrip())
                notes = ([f"ahead on {line.decided_by}"] if line.decided_by else []) + \
                    (["withdrawn"] if line.withdrawn else [])
                if notes:
                    out.append(" " * 7 + "; ".join(notes))
            else:
                out.append(f"{line.rank:>3}  {line.player:<{name}}{values}")
    return "\n".join(out)
