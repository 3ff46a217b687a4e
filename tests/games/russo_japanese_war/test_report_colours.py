"""The map's colours stay apart for the common colour-vision deficiencies: each pair a
player must tell apart (the two sides; a river and an all-sea hexside; a road and the
railway; the two kinds of harbour; clear and wasteland) is simulated for full protanopia,
deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity 1) and must
still differ by a CIELAB distance a reader sees at a glance (tests/colour_vision.py)."""

from __future__ import annotations

import pytest

from adjudicator.games.russo_japanese_war.picture import COLOURS
from tests.colour_vision import DEFICIENCIES, distance

PAIRS = [("japan", "russia"), ("river", "sea-hexside"), ("road", "railway"), ("southern-harbour", "harbour"),
         ("clear", "wasteland"), ("japan", "clear"), ("russia", "river"), ("zoc", "clear")]


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_the_pairs_a_player_tells_apart_stay_apart_for_colour_vision_deficiencies(deficiency):
    close = {f"{a}/{b}": round(distance(COLOURS[a], COLOURS[b], deficiency), 1) for a, b in PAIRS
             if distance(COLOURS[a], COLOURS[b], deficiency) < 20}
    assert close == {}


def test_the_simulation_merges_red_and_green_for_protanopia_as_it_should():
    assert distance("#D00000", "#508000", "none") > 60
    assert distance("#D00000", "#508000", "protanopia") < 25
