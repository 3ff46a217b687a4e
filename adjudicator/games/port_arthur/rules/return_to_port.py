"""Return to Port Phase (rulebook: "Return to Port Phase"; Optional Rule: "Detonation
of the mines", "Damage caused by mines").

In order: repairs are completed; ships at sea return to port by zone; (mines strike
the squadrons returning from a blockaded Yellow Sea); maintenance flips the Russian
ships in ports without a shipyard.
"""

from __future__ import annotations

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.port_arthur.answers import Kind, ReturnPorts
from adjudicator.games.port_arthur.data import JAPAN, RUSSIA
from adjudicator.games.port_arthur.rules.ports import has_shipyard, is_port
from adjudicator.games.port_arthur.rules.table import Steps, Table
from adjudicator.games.port_arthur.state import SHIPYARD, SUNK, Ship, squadron_speed
from adjudicator.i18n import N_, said


def return_to_port_phase(table: Table) -> Steps:
    completion_of_repairs(table)
    from_yellow_sea = {side: table.state.squadron(side, table.board.blockade_zone) for side in (JAPAN, RUSSIA)}
    mined = table.options.mines and table.state.blockade
    yield from return_to_port(table)
    if mined:
        yield from detonation_of_the_mines(table, from_yellow_sea)
    maintenance(table)


def completion_of_repairs(table: Table) -> None:
    """Ships in a shipyard go to the harbour of the same port, intact."""
    for ship in table.state.ships.values():
        if ship.at.endswith(SHIPYARD):
            table.state.move(ship, ship.at[: -len(SHIPYARD)])
            ship.damaged = False
            table.say("repaired", "{} leaves the {} shipyard repaired.", ship.name, ship.at, ship=ship.name,
                      owner=ship.side, seen_by_enemy=N_("A ship leaves the {1} shipyard repaired."))


def return_destinations(table: Table, ship: Ship) -> list[str]:
    """Where a ship at sea returns: Japan's ships to Japan; Russia's by zone."""
    if ship.side == JAPAN:
        return [table.board.japan_home]
    return [port for port in table.board.russian_return[ship.at] if is_port(table, port)]


def return_to_port(table: Table) -> Steps:
    state = table.state
    at_sea = [s for s in state.ships.values() if s.at in table.board.zones]
    choices = {s.name: return_destinations(table, s) for s in at_sea if s.side == RUSSIA}
    choosing = {name: ports for name, ports in choices.items() if len(ports) > 1}
    chosen: dict[str, str] = {}
    if choosing:
        answer: ReturnPorts = yield from table.ask(
            RUSSIA, Kind.RETURN, {"ships": choosing},
            said("Russia: name the port each of these ships returns to."),
            lambda a: _check_ports(table, choosing, a),
            hidden=table.options.fog_of_war,
        )
        chosen = dict(answer.ports)
    home = table.board.japan_home
    for ship in at_sea:
        port = chosen.get(ship.name) or (home if ship.side == JAPAN else choices[ship.name][0])
        table.say("return", "{0} returns from {1} to {2}.", ship.name, ship.at, port, ship.side.capitalize(),
                  ship=ship.name, origin=ship.at, port=port, owner=ship.side,
                  seen_by_enemy=N_("A {3} ship returns from {1} to {2}."))
        state.move(ship, port)


def _check_ports(table: Table, choosing: dict[str, list[str]], answer: ReturnPorts) -> ReturnPorts:
    ports: dict[str, str] = {}
    for name, text in answer.ports:
        ship = table.state.ship(name)
        if ship is None or ship.name not in choosing:
            raise IllegalAnswer(f"{name!r} has no choice of port (ships choosing: {', '.join(choosing)})")
        port = table.board.port_named(text)
        if port not in choosing[ship.name]:
            raise IllegalAnswer(f"{ship.name} may return to {' or '.join(choosing[ship.name])}, not {text!r}")
        ports[ship.name] = port
    missing = [n for n in choosing if n not in ports]
    if missing:
        raise IllegalAnswer(f"name a port for {', '.join(missing)}")
    return ReturnPorts(tuple(ports.items()))


def detonation_of_the_mines(table: Table, returning: dict[str, list[Ship]]) -> Steps:
    """Each side whose squadron returns from the blockaded Yellow Sea rolls a die:
    above its SS, that many of its ships hit mines (the owner chooses which)."""
    struck: dict[str, int] = {}
    for side in (JAPAN, RUSSIA):
        squadron = returning[side]
        if not squadron:
            continue
        speed = squadron_speed(squadron)
        (die,) = yield table.dice(1, f"mines, SS {speed}", side)
        struck[side] = min(len(squadron), max(0, die - speed))
        table.say("mines", "{}'s squadron from the Yellow Sea rolls {} against SS {}: {} ship(s) hit mines.",
                  side.capitalize(), die, speed, struck[side], side=side)
    for side, count in struck.items():
        if count:
            yield from mine_damage(table, side, returning[side], count)


def mine_damage(table: Table, side: str, squadron: list[Ship], count: int) -> Steps:
    struck = yield from table.ask_ships(
        side, Kind.MINES, count, [s.name for s in squadron],
        said("%(side)s: %(count)s ship(s) of the squadron returning from the Yellow Sea hit mines: which?",
             side=said(side.capitalize()), count=count),
        "the ships returning from the Yellow Sea")
    for name in struck:
        ship = table.state.ships[name]
        if ship.damaged:
            table.state.move(ship, SUNK)
            table.say("sunk", "{}, already damaged, hits a mine and sinks.", ship.name, ship=name)
            continue
        ship.damaged = True
        (die,) = yield table.dice(1, f"mine damage to {ship.name}, defense {ship.defense}", side)
        if die > ship.defense:
            table.state.move(ship, SUNK)
            table.say("sunk", "{} hits a mine and sinks ({} > defense {}).", ship.name, die, ship.defense,
                      ship=name)
        else:
            table.say("damaged", "{} hits a mine and reaches port damaged ({} <= defense {}).",
                      ship.name, die, ship.defense, ship=name)


def maintenance(table: Table) -> None:
    """Russian ships in ports without a shipyard are flipped to their damaged side."""
    for port in table.board.ports_of(RUSSIA):
        if not is_port(table, port) or has_shipyard(table, port):
            continue
        for ship in table.state.ships_at(port, RUSSIA):
            if not ship.damaged:
                ship.damaged = True
                table.say("maintenance", "{0} lies in {1}, which has no shipyard: "
                                         "it is damaged by lack of maintenance.", ship.name, port,
                          ship=ship.name, owner=RUSSIA,
                          seen_by_enemy=N_("A Russian ship in {1} is damaged by lack of maintenance."))
