"""Scoring Phase (rulebook: "Scoring Phase", "Control of maritime zones", "Blockade of
Port Arthur", "Disembarkation of troops / sinking of troop transports").

Its three steps come in order; each nets its CP changes and moves the marker once,
capped at 5 either way (rules-notes, Scoring Phase).
"""

from __future__ import annotations

from adjudicator.games.port_arthur.answers import Kind, UseMarker
from adjudicator.games.port_arthur.data import JAPAN, RUSSIA
from adjudicator.games.port_arthur.rules.ports import PORT_ARTHUR
from adjudicator.games.port_arthur.rules.table import Steps, Table
from adjudicator.games.port_arthur.state import PORT_FALLEN, PORT_INTACT, PORT_NO_SHIPYARD, SUNK, shipyard_of
from adjudicator.i18n import N_, said

HILL_203 = "Hill 203"
SIPING = "Siping"


def scoring_phase(table: Table) -> Steps:
    control = zone_control(table)
    control_of_maritime_zones(table, control)
    yield from blockade_of_port_arthur(table, control)
    yield from disembarkation_of_troops(table, control)


def zone_control(table: Table) -> dict[str, str | None]:
    """A zone is controlled by a side if it is the only one with ships in it."""
    control: dict[str, str | None] = {}
    for zone in table.board.zones:
        present = {ship.side for ship in table.state.ships_at(zone)}
        control[zone] = present.pop() if len(present) == 1 else None
    return control


def control_points(table: Table, control: dict[str, str | None], side: str) -> int:
    """CPs for the zones ``side`` controls: ordinary zones score their printed CPs;
    the key zones score 1, 3 or 6 for one, two or three of them."""
    board = table.board
    ordinary = sum(board.zones[z].cp[side] for z, owner in control.items()
                   if owner == side and z not in board.key_zones)
    keys = sum(1 for z in board.key_zones if control[z] == side)
    return ordinary + board.key_zone_score[keys]


def control_of_maritime_zones(table: Table, control: dict[str, str | None]) -> None:
    held = {side: [z for z, owner in control.items() if owner == side] for side in (JAPAN, RUSSIA)}
    points = {side: control_points(table, control, side) for side in (JAPAN, RUSSIA)}
    for side in (JAPAN, RUSSIA):
        if held[side]:
            table.say("control", "{} controls {}: {} CP.", side.capitalize(), ", ".join(held[side]), points[side],
                      side=side, zones=held[side], cp=points[side])
        else:
            table.say("control", "{} controls no zone: {} CP.", side.capitalize(), points[side],
                      side=side, zones=held[side], cp=points[side])
    table.move_cp_marker(points[JAPAN], points[RUSSIA], N_("Control of maritime zones"))


def blockade_of_port_arthur(table: Table, control: dict[str, str | None]) -> Steps:
    """If Russia does not control the Yellow Sea, Japan may place (or keep) the
    blockade for 1 CP; not while Russia has 5 CPs; lifted free if Russia regains the
    Yellow Sea; none once Port Arthur has fallen. (Rulings: with the option
    ``blockade = "no-russian-ships"`` -- the French summary's reading -- also not while
    Russian ships are in the Yellow Sea, even when Russia does not control it.)"""
    state, board = table.state, table.board
    if state.port_arthur == PORT_FALLEN:
        if state.blockade:
            state.blockade = False
            table.say("blockade", "Port Arthur has fallen: the blockade marker is removed.")
        return
    if control[board.blockade_zone] == RUSSIA:
        if state.blockade:
            state.blockade = False
            table.say("blockade", "Russia controls the Yellow Sea: the blockade is lifted at no cost.")
        return
    if state.cp <= -board.cp_limit:
        if state.blockade:
            state.blockade = False
            table.say("blockade", "Russia has 5 CPs: the blockade cannot be maintained and is removed.")
        return
    if table.options.blockade == "no-russian-ships" and state.squadron(RUSSIA, board.blockade_zone):
        if state.blockade:
            state.blockade = False
            table.say("blockade", "Russian ships are in the Yellow Sea: the blockade is lifted at no cost "
                                  "(option blockade = \"no-russian-ships\").")
        return
    verb = "keep" if state.blockade else "place"
    answer: UseMarker = yield from table.ask(
        JAPAN, Kind.BLOCKADE, {"use": [True, False], "keep": state.blockade, "cost": board.blockade_cost},
        said("Japan: keep the Port Arthur blockade for %(cost)s CP?", cost=board.blockade_cost) if verb == "keep"
        else said("Japan: place the Port Arthur blockade for %(cost)s CP?", cost=board.blockade_cost), lambda a: a,
    )
    if answer.use:
        state.blockade = True
        table.say("blockade", N_("Japan keeps the Port Arthur blockade.") if verb == "keep"
                  else N_("Japan places the Port Arthur blockade."))
        table.move_cp_marker(0, board.blockade_cost, N_("Blockade of Port Arthur"))
    elif state.blockade:
        state.blockade = False
        table.say("blockade", "Japan lifts the Port Arthur blockade.")


def disembarkation_of_troops(table: Table, control: dict[str, str | None]) -> Steps:
    """Each landing space on its own: Russian control sinks the transport (its meeple
    returns to Japan's pool); otherwise the meeple lands on the first empty space."""
    state, board = table.state, table.board
    japan_cp = 0
    sunk = 0
    for space in board.landing_spaces:
        if space not in state.landing:
            continue
        state.landing.remove(space)
        if control[space] == RUSSIA:
            sunk += 1
            table.say("transport-sunk", "Russia controls {}: the troop transport is sunk.", space, space=space)
            continue
        japan_cp += land_army(table, space)
    if SIPING in state.track[: state.occupied]:
        (die,) = yield table.dice(1, "Siping", JAPAN)
        if die in board.siping_scores_on:
            japan_cp += board.siping_cp
            table.say("siping", "Siping: Japan rolls {} and scores {} CP.", die, board.siping_cp)
        else:
            table.say("siping", "Siping: Japan rolls {}, no CP.", die)
    russia_cp = board.transports_sunk_score[sunk]
    table.move_cp_marker(japan_cp, russia_cp, N_("Disembarkation of troops"))


def land_army(table: Table, space: str) -> int:
    """Place a meeple on the track's first empty space and apply that space's effect.
    Returns Japan's CPs from it."""
    state = table.state
    taken = state.track[state.occupied]
    state.occupied += 1
    table.say("landing", "Troops land from {}: the Japanese Army takes {}.", space, taken, space=space, taken=taken)
    if taken == HILL_203:
        hill_203_falls(table)
    elif taken == PORT_ARTHUR:
        return port_arthur_falls(table)
    return 0


def hill_203_falls(table: Table) -> None:
    """Port Arthur loses its shipyard; damaged ships in it go to the harbour."""
    state = table.state
    if state.port_arthur == PORT_INTACT:
        state.port_arthur = PORT_NO_SHIPYARD
    for ship in state.ships_at(shipyard_of(PORT_ARTHUR)):
        state.move(ship, PORT_ARTHUR)
    table.say("hill-203", "Hill 203 is taken: Port Arthur loses its shipyard.")


def port_arthur_falls(table: Table) -> int:
    """Port Arthur is no longer a port: the Russian ships in it are sunk; Japan scores 1.
    (Rulings: ships in its shipyard, if it still has one, are sunk too; the blockade
    marker is removed, as there is no port left to blockade.)"""
    state = table.state
    state.port_arthur = PORT_FALLEN
    lost = state.ships_at(PORT_ARTHUR) + state.ships_at(shipyard_of(PORT_ARTHUR))
    for ship in lost:
        state.move(ship, SUNK)
    names = ", ".join(s.name for s in lost) or N_("no ship")
    table.say("port-arthur-falls", "Port Arthur falls: {} sunk in harbour.", names, sunk=[s.name for s in lost])
    if state.blockade:
        state.blockade = False
        table.say("blockade", "With Port Arthur fallen, the blockade marker is removed.")
    return table.board.port_arthur_fall_cp
