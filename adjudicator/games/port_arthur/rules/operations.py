"""Operations Phase (rulebook: "Operations Phase", "Ship Movement", "Initiative").

The cycle, as ruled (rules-notes, Operations Phase):
- a roll-off (Japan's die, then Russia's): the higher die conducts a NAVO; a tie ends
  the phase unless the Initiative Marker's holder re-rolls and hands the marker over;
- a successful move, or a battle, ends the chain: a new roll-off follows;
- a pass hands a NAVO to the other side; two passes in a row end the phase;
- a failed movement check hands a NAVO to the other side; two failures in a row end
  the chain and a new roll-off follows.
"""

from __future__ import annotations

from enum import Enum
from typing import Mapping, Sequence

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.port_arthur.answers import Battle, Kind, Move, Pass, UseMarker
from adjudicator.games.port_arthur.data import JAPAN, RUSSIA, other
from adjudicator.games.port_arthur.rules.battle import naval_battle
from adjudicator.games.port_arthur.rules.ports import harbour_ships, is_port, ports_of
from adjudicator.games.port_arthur.rules.table import Steps, Table
from adjudicator.games.port_arthur.state import Ship, squadron_speed
from adjudicator.i18n import N_, said


Positions = Mapping[str, Sequence[Ship]]


class Outcome(Enum):
    """How a NAVO ended, which decides what follows it."""

    DONE = "done"        # a successful move or a battle: new roll-off
    FAILED = "failed"    # a failed movement check: the other side's NAVO
    PASSED = "passed"    # a pass: the other side's NAVO


def operations_phase(table: Table) -> Steps:
    """Repeat roll-offs and NAVO chains until the phase ends."""
    while True:
        first = yield from roll_off(table)
        if first is None:
            return
        phase_over = yield from navo_chain(table, first)
        if phase_over:
            return


def roll_off(table: Table) -> Steps:
    """Determining the first player: each side rolls one die. Returns the side that
    conducts the NAVO, or None when a tie ends the phase."""
    state = table.state
    while True:
        (japan,) = yield table.dice(1, "roll-off", JAPAN)
        (russia,) = yield table.dice(1, "roll-off", RUSSIA)
        if japan != russia:
            winner = JAPAN if japan > russia else RUSSIA
            table.say("roll-off", "Roll-off: Japan {}, Russia {}: {} conducts a NAVO.",
                      japan, russia, winner.capitalize(), japan=japan, russia=russia)
            return winner
        holder = state.initiative
        answer: UseMarker = yield from table.ask(
            holder, Kind.REROLL, {"use": [True, False]},
            said("The roll-off is tied %(japan)s-%(russia)s: the Operations Phase ends unless "
                 "%(side)s uses the Initiative Marker to re-roll. Re-roll?", japan=japan, russia=russia,
                 side=said(holder.capitalize())),
            lambda a: a,
        )
        if not answer.use:
            table.say("phase-end", "Tied roll-off ({}-{}): the Operations Phase ends.", japan, russia)
            return None
        state.initiative = other(holder)
        table.say(
            "initiative",
            "Roll-off tied {}-{}: {} uses the Initiative Marker to re-roll; the marker passes to {}.",
            japan, russia, holder.capitalize(), state.initiative.capitalize(),
            side=holder,
        )


def navo_chain(table: Table, side: str) -> Steps:
    """NAVOs alternate until one succeeds (returns False: new roll-off), two fail in a
    row (False), or two passes in a row end the phase (True)."""
    last: Outcome | None = None
    while True:
        outcome = yield from navo(table, side)
        if outcome is Outcome.DONE:
            return False
        if outcome is last:
            if outcome is Outcome.PASSED:
                table.say("phase-end", "Both sides pass: the Operations Phase ends.")
                return True
            table.say("chain-end", "Two failed movement checks in a row: a new roll-off follows.")
            return False
        last = outcome
        side = other(side)


def battle_zones(table: Table, own: Positions, enemy: Positions) -> list[str]:
    """Zones where the side (``own``) has a squadron and the ``enemy`` has ships."""
    return [z for z in table.board.zones if z in own and z in enemy]


def move_options(table: Table, side: str, positions: Positions) -> list[dict]:
    """Every squadron (or port) ``side`` may move, with its destinations (new lists
    each time, worked out again only when a ship has moved or Port Arthur has fallen)."""
    key = ("moves", side)
    known = table.known.get(key)
    if known is None or known[0] is not positions or known[1] != table.state.port_arthur:
        known = table.known[key] = (positions, table.state.port_arthur, _move_options(table, side, positions))
    return [{"from": origin, "to": list(to), "ships": list(ships), "port": port}
            for origin, to, ships, port in known[2]]


def _move_options(table: Table, side: str, positions: Positions) -> tuple[tuple, ...]:
    board = table.board
    ports = ports_of(table, side)
    moves = []
    for zone in board.zones:
        squadron = positions.get(zone)
        if squadron:
            moves.append((zone, _destinations(table, zone, ports), tuple(s.name for s in squadron), False))
    for port in ports:
        ships = positions.get(port)
        if ships:
            moves.append((port, board.ports[port].adjacent, tuple(s.name for s in ships), True))
    return tuple(moves)


def _destinations(table: Table, zone: str, ports: list[str]) -> list[str]:
    """Where a squadron in ``zone`` may move: the adjacent zones, and those of ``ports``
    beside it (worked out once per game for each zone and set of ports)."""
    key = ("move", zone, *ports)
    found = table.known.get(key)
    if found is None:
        board = table.board
        found = table.known[key] = board.neighbours[zone] + [p for p in board.ports_beside[zone] if p in ports]
    return found


def navo(table: Table, side: str) -> Steps:
    """One naval operation: a move, a battle, or a pass."""
    own = table.state.positions(side)
    battles = battle_zones(table, own, table.state.positions(other(side)))
    moves = move_options(table, side, own)
    if not battles and not moves:
        table.say("pass", "{} has no squadron to move or fight: it passes.", side.capitalize(), side=side)
        return Outcome.PASSED
    options = {"battle": battles, "move": moves, "pass": True}
    choice = yield from table.ask(
        side, Kind.NAVO, options, said("%(side)s conducts a NAVO: move, battle, or pass?", side=said(side.capitalize())),
        lambda answer: _check_navo(table, side, answer, battles, moves),
        hidden=table.options.fog_of_war,
    )
    if choice.plan_step is not None:
        table.tell(side, "plan", f"{side.capitalize()}'s operations plan: step {choice.plan_step} is carried out.",
                   plan_step=choice.plan_step)
    if isinstance(choice, Pass):
        table.say("pass", "{} passes.", side.capitalize(), side=side)
        return Outcome.PASSED
    if isinstance(choice, Battle):
        yield from naval_battle(table, side, choice.zone)
        return Outcome.DONE
    moved = yield from move_squadron(table, side, choice)
    return Outcome.DONE if moved else Outcome.FAILED


def _check_navo(table: Table, side: str, answer, battles: list[str], moves: list[dict]):
    if isinstance(answer, Pass):
        return answer
    if isinstance(answer, Battle):
        zone = table.zone(answer.zone)
        if zone not in battles:
            raise IllegalAnswer(f"no battle is possible in {zone}: it needs ships of both sides "
                                f"(possible: {', '.join(battles) or 'none'})")
        return answer if zone == answer.zone else Battle(zone, answer.plan_step)
    origin = table.place(answer.origin)
    option = next((m for m in moves if m["from"] == origin), None)
    if option is None:
        raise IllegalAnswer(f"{side.capitalize()} has no squadron that may move from {origin}")
    destination = table.place(answer.destination)
    if destination not in option["to"]:
        raise IllegalAnswer(f"from {origin} a squadron may move to {', '.join(option['to'])}, not {destination}")
    ships = _moving_ships(table, side, answer, option)
    if (origin, destination, ships) == (answer.origin, answer.destination, answer.ships):
        return answer  # already in canonical names
    return Move(origin, destination, ships, answer.plan_step)


def _moving_ships(table: Table, side: str, answer: Move, option: dict) -> tuple[str, ...] | None:
    if answer.ships is None:
        return None
    names = tuple(dict.fromkeys(table.own_ship(n, side).name for n in answer.ships))
    outside = [n for n in names if n not in option["ships"]]
    if outside:
        raise IllegalAnswer(f"{', '.join(outside)} {'is' if len(outside) == 1 else 'are'} not in the "
                            f"squadron at {option['from']}")
    if not option["port"] and set(names) != set(option["ships"]):
        raise IllegalAnswer(f"all ships of the squadron at {option['from']} must move together")
    if not names:
        raise IllegalAnswer("name at least one ship to leave port")
    return None if set(names) == set(option["ships"]) else names


def move_squadron(table: Table, side: str, move: Move) -> Steps:
    """Ship Movement A-C: a movement check (one die <= SS) moves the squadron."""
    state = table.state
    group: list[Ship] = (
        [state.ships[n] for n in move.ships] if move.ships is not None
        else (harbour_ships(table, side, move.origin) if is_port(table, move.origin)
              else state.squadron(side, move.origin))
    )
    speed = squadron_speed(group)
    names = ", ".join(s.name for s in group)
    (die,) = yield table.dice(1, f"movement check, {move.origin} to {move.destination}, SS {speed}", side)
    if die > speed:
        table.say("move-failed", "{}'s move from {} to {} fails ({} > SS {}).",
                  side.capitalize(), move.origin, move.destination, die, speed, side=side)
        return False
    for ship in group:
        state.move(ship, move.destination)
    table.say("move", "{0} moves {1} from {2} to {3} ({4} <= SS {5}).",
              side.capitalize(), names, move.origin, move.destination, die, speed, len(group),
              side=side, ships=[s.name for s in group],
              origin=move.origin, destination=move.destination, owner=side,
              seen_by_enemy=N_("{0} moves {6} ship(s) from {2} to {3} ({4} <= SS {5})."))
    return True
