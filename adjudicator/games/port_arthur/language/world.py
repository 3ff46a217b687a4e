"""The names Port Arthur orders may use: ships, zones, ports, sides, landing spaces.

Names come from the board and the counter sheet (``games/port-arthur``) and, when the
state of a game is given, from the ships actually in play (a case or a campaign may
use ships of its own). See :mod:`adjudicator.orders.names` for how names resolve.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from adjudicator.games.port_arthur.data import JAPAN, RUSSIA, Board, load_board
from adjudicator.orders.keywords import side_names
from adjudicator.orders.names import Catalog

#: What players may call the sides.
SIDE_ALIASES = {JAPAN: ("Japanese", "Nippon", *side_names(JAPAN)), RUSSIA: ("Russian", *side_names(RUSSIA))}


@dataclass(frozen=True)
class World:
    """Everything orders can name, with each ship's side."""

    ships: Catalog
    ship_side: Mapping[str, str]
    zones: Catalog
    ports: Catalog
    sides: Catalog = field(default_factory=lambda: Catalog.of("side", SIDE_ALIASES))
    landing_spaces: tuple[str, ...] = ("Yellow Sea", "Tsushima")
    turns: int = 6

    @classmethod
    def build(
        cls,
        ships: Iterable[tuple[str, str, Iterable[str]]],
        zones: Mapping[str, Iterable[str]] | Iterable[str],
        ports: Iterable[str],
        landing_spaces: Iterable[str] = ("Yellow Sea", "Tsushima"),
        turns: int = 6,
    ) -> "World":
        """A world from ``(name, side, aliases)`` ships, zones (with aliases) and ports."""
        ships = list(ships)
        return cls(
            ships=Catalog.of("ship", {name: tuple(aliases) for name, _, aliases in ships}),
            ship_side={name: side for name, side, _ in ships},
            zones=Catalog.of("zone", zones),
            ports=Catalog.of("port", list(ports)),
            landing_spaces=tuple(landing_spaces),
            turns=turns,
        )

    @classmethod
    def from_board(cls, board: Board | None = None, state: Any = None) -> "World":
        """The world of the board data; with ``state``, its ships are those in play."""
        board = board or load_board()
        aliases = {c.name.casefold(): c.aliases for c in board.counters}
        if state is not None:
            ships = [(s.name, s.side, aliases.get(s.name.casefold(), ())) for s in state.ships.values()]
        else:
            ships = [(c.name, c.side, c.aliases) for c in board.counters]
        return cls.build(
            ships,
            {z.name: z.aliases for z in board.zones.values()},
            board.ports,
            board.landing_spaces,
            board.turns,
        )
