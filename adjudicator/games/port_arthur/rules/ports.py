"""Ports (rulebook, "Ports"): who may use them, shipyards, and Port Arthur's fate."""

from __future__ import annotations

from adjudicator.games.port_arthur.rules.table import Table
from adjudicator.games.port_arthur.state import PORT_FALLEN, PORT_INTACT, Ship

PORT_ARTHUR = "Port Arthur"


def is_port(table: Table, name: str) -> bool:
    """Whether ``name`` is a port now (Port Arthur stops being one when it falls)."""
    if name not in table.board.ports:
        return False
    return not (name == PORT_ARTHUR and table.state.port_arthur == PORT_FALLEN)


def has_shipyard(table: Table, port: str) -> bool:
    """Diego Suarez has none; Port Arthur loses its own when Hill 203 is taken."""
    if not is_port(table, port) or not table.board.ports[port].shipyard:
        return False
    return port != PORT_ARTHUR or table.state.port_arthur == PORT_INTACT


def ports_of(table: Table, side: str) -> list[str]:
    """The ports ``side`` may use."""
    return [name for name in table.board.side_ports[side] if is_port(table, name)]


def harbour_ships(table: Table, side: str, port: str | None = None) -> list[Ship]:
    """``side``'s ships in a harbour (not in a shipyard): these may sail."""
    return table.state.ships_in((port,) if port else ports_of(table, side), side)
