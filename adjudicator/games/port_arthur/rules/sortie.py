"""Fleet Sortie Phases (rulebook: "Fleet Sortie Phases", "Repairs",
"Japanese Troop Transports").

- Ships in a harbour may enter a zone adjacent to their port; intact ships may go
  one zone further; a blockade holds Port Arthur's ships to the Yellow Sea.
- Ships in a shipyard may not set out to sea; damaged ships may be moved into the
  shipyard of their port (not Diego Suarez, not Port Arthur once Hill 203 is taken).
- Japan may place one Army meeple on each landing space.
"""

from __future__ import annotations

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.port_arthur.answers import Kind, Sortie
from adjudicator.games.port_arthur.data import JAPAN
from adjudicator.games.port_arthur.rules.ports import harbour_ships, has_shipyard
from adjudicator.games.port_arthur.rules.table import Steps, Table
from adjudicator.games.port_arthur.state import Ship, shipyard_of
from adjudicator.i18n import N_, said

SHIPYARD = "shipyard"


def sortie_destinations(table: Table, ship: Ship) -> list[str]:
    """Where ``ship``, in a harbour, may go in its side's Sortie Phase."""
    state = table.state
    key = ("sortie", ship.at, ship.damaged, state.blockade, state.port_arthur)
    places = table.known.get(key)
    if places is None:
        places = table.known[key] = _sortie_destinations(table, ship)
    return list(places)


def _sortie_destinations(table: Table, ship: Ship) -> list[str]:
    board, state = table.board, table.state
    port = ship.at
    first = list(board.ports[port].adjacent)
    reach = set(first)
    blockaded = port == "Port Arthur" and state.blockade
    if not ship.damaged and not blockaded:
        for zone in first:
            reach |= board.adjacency[zone]
    places = [zone for zone in board.zones if zone in reach]
    if ship.damaged and has_shipyard(table, port):
        places.append(SHIPYARD)
    return places


def landing_spaces_open(table: Table) -> list[str]:
    """Landing spaces Japan may use: one meeple each, while meeples remain."""
    state = table.state
    if state.meeple_pool <= 0:
        return []
    return [space for space in table.board.landing_spaces if space not in state.landing]


def fleet_sortie(table: Table, side: str) -> Steps:
    """The Sortie Phase of ``side``."""
    state = table.state
    choices = {ship.name: sortie_destinations(table, ship) for ship in harbour_ships(table, side)}
    spaces = landing_spaces_open(table) if side == JAPAN else []
    if not choices and not spaces:
        table.say("sortie", "{} has no ship in harbour: no sortie.", side.capitalize(), side=side)
        return
    options = {"ships": choices, "land": spaces, "meeples": state.meeple_pool if side == JAPAN else 0}

    def check(answer: Sortie) -> Sortie:
        return _check_sortie(table, side, answer, choices, spaces)

    orders = yield from table.ask(side, Kind.SORTIE, options,
                                  said("%(side)s: which ships sortie, and where?", side=said(side.capitalize())), check,
                                  hidden=table.options.fog_of_war)
    _carry_out(table, side, orders)


def _check_sortie(table: Table, side: str, answer: Sortie, choices: dict, spaces: list[str]) -> Sortie:
    moves: dict[str, str] = {}
    for name, where in answer.moves:
        ship = table.own_ship(name, side)
        if ship.name not in choices:
            raise IllegalAnswer(f"{ship.name} is not in a harbour and cannot sortie (it is at {ship.at})")
        if ship.name in moves:
            raise IllegalAnswer(f"{ship.name} is given two destinations")
        dest = SHIPYARD if where.casefold() == SHIPYARD else table.board.zone_named(where)
        if dest not in choices[ship.name]:
            raise IllegalAnswer(_why_not(table, ship, where, dest))
        moves[ship.name] = dest
    land = []
    for text in answer.land:
        space = table.board.zone_named(text)
        if side != JAPAN:
            raise IllegalAnswer("only Japan lands troops")
        if space not in spaces or space in land:
            raise IllegalAnswer(f"cannot place an Army meeple on the {text!r} landing space "
                                f"(open: {', '.join(spaces) or 'none'})")
        land.append(space)
    if len(land) > table.state.meeple_pool:
        raise IllegalAnswer(f"Japan has {table.state.meeple_pool} Army meeple(s) to land, not {len(land)}")
    top = tuple(table.own_ship(name, side).name for name in answer.top)
    return Sortie(tuple(moves.items()), tuple(land), top)


def _why_not(table: Table, ship: Ship, text: str, dest: str | None) -> str:
    if dest is None:
        return f"{text!r} is not a maritime zone or 'shipyard'"
    if dest == SHIPYARD:
        if not ship.damaged:
            return f"{ship.name} is intact: only damaged ships go into a shipyard"
        return f"{ship.at} has no shipyard"
    if ship.at == "Port Arthur" and table.state.blockade:
        return f"{ship.name} cannot reach {dest}: the blockade holds ships leaving Port Arthur to the Yellow Sea"
    if ship.damaged:
        return f"{ship.name} is damaged and may only enter a zone adjacent to {ship.at}, not {dest}"
    return f"{dest} is more than one zone beyond {ship.at}"


def _carry_out(table: Table, side: str, orders: Sortie) -> None:
    state = table.state
    if orders.top:
        state.top[side] = list(orders.top)
    for name, dest in orders.moves:
        ship = state.ships[name]
        port = ship.at
        state.move(ship, shipyard_of(port) if dest == SHIPYARD else dest)
        where = f"the {port} shipyard" if dest == SHIPYARD else dest
        table.say("sortie", "{0} leaves {1} for {2}.", ship.name, port, where, side.capitalize(),
                  side=side, ship=name, to=ship.at, owner=side, seen_by_enemy=N_("A {3} ship leaves {1} for {2}."))
    for space in orders.land:
        state.landing.append(space)
        table.say("landing", "Japan places an Army meeple on the {} landing space.", space, space=space)
    if not orders.moves and not orders.land:
        table.say("sortie", "{} keeps its ships in port.", side.capitalize(), side=side)

