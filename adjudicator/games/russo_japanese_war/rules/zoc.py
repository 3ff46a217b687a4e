"""6.0 Zone of Control.

"Every unit has a ZOC into the six hexes adjacent to it. However, if a hex is completely
separated from the unit by sea, the ZOC does not extend there." Several ZOCs are one; both
sides' ZOCs may share a hex; "An EZOC in a hex is not cancelled because one of your own
units is placed in that hex." A unit under a ZOC Lost marker exerts none (6.4).
"""

from __future__ import annotations

from adjudicator.games.russo_japanese_war.hexmap import OFF_MAP


def zone_of_control(table, side: str) -> frozenset[str]:
    """The hexes into which ``side``'s units exert a ZOC."""
    zone: set[str] = set()
    neighbours = table.board.land_neighbours
    units = table.units
    for uid in table.side_units(side):
        unit = units[uid]
        hex_ = unit["at"]
        if hex_ not in OFF_MAP and not unit.get("zoc_lost"):
            zone.update(neighbours.get(hex_, ()))
    return frozenset(zone)


def exerts_zoc_into(table, uid: str, hex_: str) -> bool:
    """A10: an attacker must exert its ZOC into the target (adjacent, not across sea)."""
    unit = table.units[uid]
    return unit["at"] not in OFF_MAP and not unit.get("zoc_lost") and table.board.adjacent(unit["at"], hex_)
