"""The quick lookups the rules use give what the lookups they stand in for give: a zone
or port named as the data spells it is the one its case-folded name finds."""

from __future__ import annotations

import pytest

from adjudicator.games.port_arthur.data import load_board

BOARD = load_board()
ZONE_LABELS = [label for zone in BOARD.zones.values() for label in (zone.name, *zone.aliases)]
PORTS = list(BOARD.ports)


def spellings(label: str) -> list[str]:
    return [label, label.upper(), label.lower(), f"  {label} ", label.swapcase(), label + "x", ""]


@pytest.mark.parametrize("label", ZONE_LABELS + PORTS)
def test_a_name_as_spelled_finds_what_its_folded_name_finds(label):
    for text in spellings(label):
        assert BOARD.zone_named(text) == BOARD.zone_index.get(text.strip().casefold())
        assert BOARD.port_named(text) == BOARD.port_index.get(text.strip().casefold())


def test_every_name_and_alias_is_spelled():
    assert set(BOARD.zone_spelled) == set(ZONE_LABELS)
    assert set(BOARD.port_spelled) == set(PORTS)
