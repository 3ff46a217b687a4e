"""The table's colours stay apart for the common colour-vision deficiencies: each pair a
player tells apart by colour alone (the two sides; either side's ship and the sea; a
fire and a flood, drawn as the same dot; a torpedo's hit and miss, the same dashed ring;
the bow on either side's hull; an abandoned ship and the sea; the flagship's star and the
sea; the track and the arc limits, both dashed lines) is simulated for full protanopia,
deuteranopia and tritanopia (tests/colour_vision.py) and must still differ by a CIELAB
distance a reader sees at a glance. Every colour the picture is drawn in is one of the
palette's, so none escapes the check."""

from __future__ import annotations

import re

import pytest

from adjudicator.games.tsushima_1905.report import COLOURS
from tests.colour_vision import DEFICIENCIES, distance
from tests.games.tsushima_1905.test_report import played, rendered

PAIRS = [("japan", "russia"), ("japan", "table"), ("russia", "table"), ("fire", "flood"), ("fire", "table"),
         ("flood", "table"), ("torpedo-hit", "torpedo-miss"), ("torpedo-hit", "table"), ("torpedo-miss", "table"),
         ("bow", "japan"), ("bow", "russia"), ("abandoned", "table"), ("flagship", "table"), ("track", "arc"),
         ("surrendered", "japan"), ("surrendered", "russia"), ("pip-edge", "japan"), ("pip-edge", "russia")]


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_the_pairs_a_player_tells_apart_stay_apart_for_colour_vision_deficiencies(deficiency):
    close = {f"{a}/{b}": round(distance(COLOURS[a], COLOURS[b], deficiency), 1) for a, b in PAIRS
             if distance(COLOURS[a], COLOURS[b], deficiency) < 20}
    assert close == {}


def test_the_picture_is_drawn_in_the_palettes_colours_only():
    html = rendered(played(120), "japan")[1].html
    svg = html[html.index("<svg"):html.index("</svg>")]
    drawn = set(re.findall(r'(?:fill|stroke)="(#[0-9a-fA-F]{3,6})"', svg))
    assert drawn and drawn <= set(COLOURS.values()), drawn - set(COLOURS.values())
    assert {COLOURS["japan"], COLOURS["russia"], COLOURS["fire"], COLOURS["flood"]} <= drawn


def test_a_fire_or_flood_shows_on_a_hull_of_its_own_colour():
    html = rendered(played(120), "japan")[1].html
    pips = re.findall(r'<circle class="pip"[^>]*>', html)
    assert pips and all(f'stroke="{COLOURS["pip-edge"]}"' in pip for pip in pips)
    assert distance(COLOURS["fire"], COLOURS["japan"], "none") < 20   # without the edge, red on red


def test_the_check_fails_a_pair_that_only_red_and_green_tell_apart():
    assert distance("#d22", "#2a2", "none") > 60
    assert distance("#d22", "#2a2", "deuteranopia") < 20
