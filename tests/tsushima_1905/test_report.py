"""The picture of the table (SVG to scale) and the text plot and ship table."""

import random
import xml.etree.ElementTree as ET

from adjudicator.engine import Match
from adjudicator.games.tsushima_1905.autoplayer import ReasonablePlayer, random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.report import ascii_plot, render_svg, ship_table

GAME = Tsushima1905()
SVG = "{http://www.w3.org/2000/svg}"


def played(steps):
    chance, player, match = random_dice(random.Random(3)), ReasonablePlayer(), Match(GAME)
    for _ in range(steps):
        if match.chance is not None:
            match.supply(chance(match.chance))
        elif match.decision:
            match.answer(match.decision.side, player(match.decision, match.state))
    return match


def test_the_svg_draws_every_ship_as_its_rectangle_with_a_tooltip():
    view = GAME.view(played(0).state, None)
    root = ET.fromstring(render_svg(view))
    groups = [g for g in root.iter(f"{SVG}g") if "ship" in g.get("class", "").split()]
    assert len(groups) == 26
    polygon = groups[0].find(f"{SVG}polygon")
    assert len(polygon.get("points").split()) == 4
    assert groups[0].find(f"{SVG}title").text.startswith("Mikasa (battleship): (6.000, 19.000) heading 180")


def test_the_table_is_drawn_to_scale_20_by_28_base_lengths():
    root = ET.fromstring(render_svg(GAME.view(played(0).state, None)))
    table = next(r for r in root.iter(f"{SVG}rect") if r.get("class") == "table")
    assert (int(table.get("width")), int(table.get("height"))) == (20 * 28, 28 * 28)


def test_tracks_and_gunfire_of_the_turn_and_the_arcs_of_the_ship_asked_are_drawn():
    match = played(60)
    root = ET.fromstring(render_svg(GAME.view(match.state, None), asked="Mikasa"))
    classes = [e.get("class") for e in root.iter()]
    assert "track" in classes and classes.count("arc") == 4
    assert "fire" in classes


def test_ship_names_are_escaped_in_the_svg():
    position = {"turn": 1, "phase": "action", "offense": "japan", "prime": 1, "next": "japan",
                "ship": [{"name": "Mi<script>", "side": "japan", "class": "battleship", "at": [5, 5], "heading": 0}]}
    svg = render_svg(GAME.view(GAME.new_state({"position": position}, {}), None))
    assert "<script>" not in svg and "Mi&lt;script&gt;" in svg
    ET.fromstring(svg)


def test_the_ascii_plot_has_a_character_per_base_length_north_up():
    lines = ascii_plot(GAME.view(played(0).state, None)).splitlines()
    assert len(lines) == 29 and all(len(line) == 24 for line in lines)
    assert lines[27 - 19][4 + 6] == "M" and lines[27 - 11][4 + 12] == "k"


def test_the_ship_table_lists_every_ship_with_its_piles():
    table = ship_table(GAME.view(played(0).state, None)).splitlines()
    assert len(table) == 27 and table[1].split()[0] == "Mikasa" and " 8 " in table[1]
