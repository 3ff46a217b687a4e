"""The picture of the table (SVG to scale) and the text plot and ship table."""

import random
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine import Match
from adjudicator.engine.match import play_out
from adjudicator.games.tsushima_1905.players import RandomPlayer, ReasonablePlayer, random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.report import ascii_plot, plot_with_legend, render_svg, ship_marks, ship_table
from adjudicator.games import get as support
from adjudicator.reports.render import render
from adjudicator.reports.context import report_context
from tests.conftest import soak_cases
from tests.games.tsushima_1905.test_random_games import MORE_GAMES

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
    assert lines[27 - 19][4 + 6] == "M" and lines[27 - 11][4 + 12] == "s"
    assert lines[27 - 19 + 1][4 + 6] == "v" and lines[27 - 11 - 1][4 + 12] == "^"     # the bows: Mikasa south


def test_every_ship_has_a_mark_of_its_own_upper_case_for_japan_lower_for_russia():
    view = GAME.view(played(0).state, None)
    marks = ship_marks(view["ships"])
    assert len(set(marks.values())) == 26 and "#" not in marks.values()
    assert all(marks[s["name"]].isupper() == (s["side"] == "japan") for s in view["ships"])
    assert [marks[n] for n in ("Mikasa", "Asahi", "Azuma", "Asama", "Kniaz Suvorov", "Osliabia")] == [
        "M", "A", "Z", "B", "s", "l"]
    plot = ascii_plot(view)
    assert all(plot.count(mark) == 1 for mark in marks.values())


def test_the_legend_names_every_mark_and_the_status_of_ships_out_of_action():
    view = GAME.view(played(0).state, None)
    view["ships"][7]["status"] = "sunk"
    text = plot_with_legend(view)
    for ship, mark in ship_marks(view["ships"]).items():
        assert f" {mark} " in text
    assert "Z Azuma (sunk)" in text and "s Suvorov" in text and "#: two or more ships in one square" in text
    assert "Z" not in ascii_plot(view)


def test_two_ships_in_one_square_show_as_a_hash():
    view = GAME.view(played(0).state, None)
    view["ships"][1]["x"], view["ships"][1]["y"] = view["ships"][0]["x"] + 300, view["ships"][0]["y"] + 200
    plot = ascii_plot(view).splitlines()
    assert plot[27 - 19][4 + 6] == "#" and "M" not in "".join(plot) and "A" not in "".join(plot)


def test_the_ship_table_lists_every_ship_with_its_piles_within_76_columns():
    table = ship_table(GAME.view(played(0).state, None)).splitlines()
    assert table[1].split() == ["M", "Mikasa", "BB", "6.000", "19.000", "180", "8", "0", "0", "0", "0", "0/0/0",
                                "to", "act"]
    assert len([line for line in table if line[:1].strip() and line[1:2] == " "]) == 26
    assert max(len(line) for line in table) <= 76
    assert any(line.startswith("p Apraksin ") for line in table)        # the full name is 29 characters


def rendered(match, side="japan", language="en"):
    """``side``'s text and HTML report of ``match`` now, in ``language``, with fixed
    stand-ins for everything random in a campaign (seeds, hashes, dates)."""
    records = [SimpleNamespace(hash="c0" * 32)]
    log = SimpleNamespace(campaign="golden-1905", next_batch=3, records=records,
                          record_hash=lambda index: records[index].hash,
                          charter={"options": {}, "chain": {"anchor": "a0" * 32}})
    batch = SimpleNamespace(body={"batch": 2, "seed": "5e" * 32, "contributions": {},
                                  "entries": match.history_json()})
    context = report_context(log=log, match=match, events=match.events, side=side,
                             player="Heihachiro Togo <togo@japan.test>" if side == "japan" else
                             "Zinovy Rozhestvensky <zr@russia.test>",
                             deadline=datetime(1905, 5, 28, 12, 0, tzinfo=timezone.utc),
                             game_support=support("tsushima-1905"), defaults=(), refused=(), batch=batch,
                             language=language)
    return context, render(context)


OPTION_SETS = [{}, {"split_fire": True}, {"partial_ahead": True, "admiral_on_default_dice": False},
               {"cadence": "activation", "collision_place": "step-start"}]


@pytest.mark.parametrize("seed", [*range(4), *soak_cases(range(4, 4 + MORE_GAMES))])
def test_every_line_of_the_text_report_fits_78_columns_through_whole_random_games(seed):
    """Reports at about 25 points of a whole game, from either side's view; the plot,
    its key and the ship table fit without being wrapped. More games: 20 with the soaks
    (ADJUDICATOR_SOAK=1), or TSUSHIMA_SOAK=50 pytest tests/games/tsushima_1905/test_report.py -k 78_columns"""
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    player = RandomPlayer(seed) if seed % 2 else ReasonablePlayer()
    chance, match = random_dice(random.Random(seed)), Match(GAME, {}, options)
    reports, step = 0, 0
    while not match.finished:
        if match.chance is not None:
            match.supply(chance(match.chance))
            continue
        if step % 12 == 0:
            context, report = rendered(match, ("japan", "russia")[reports % 2])
            reports += 1
            too_long = [line for line in report.text.splitlines() if len(line) > 78]
            assert too_long == []
            written = context["game"]["written"](str, lambda one, many, count: one if count == 1 else many)
            for part in ("plot", "ships"):
                assert written[part] in report.text         # never wrapped
            if context["waiting"]:
                assert all(len(line) <= 74 for line in context["waiting"]["hint"])   # indented by 4
        match.answer(match.decision.side, player(match.decision, match.state))
        step += 1
    context, report = rendered(match)
    assert [line for line in report.text.splitlines() if len(line) > 78] == []
    assert reports >= 5 and "THE GAME IS OVER" in report.text


def test_the_sample_report_is_what_the_adjudicator_renders_now():
    import importlib.util
    from pathlib import Path

    folder = Path(__file__).resolve().parents[3] / "samples" / "tsushima-1905"
    spec = importlib.util.spec_from_file_location("make_report", folder / "make_report.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    svg, text = module.build()
    assert (folder / "report-turn-1.svg").read_text() == svg, "regenerate: python samples/tsushima-1905/make_report.py"
    assert (folder / "report-turn-1.txt").read_text() == text


def test_the_html_report_has_the_ship_table_as_a_table_with_a_row_per_ship():
    _, report = rendered(played(120))
    rows = report.html.split('<table class="ts-ships">', 1)[1].split("</table>", 1)[0].count('<td class="name">')
    assert rows == 26 and "<td class=\"name\">M Mikasa (BB)</td>" in report.html


def test_ship_labels_cover_no_other_hull_where_a_free_spot_exists():
    from adjudicator.games.tsushima_1905.report import Picture, _boxes_meet

    context = Picture().context(GAME.view(played(0).state, None))
    ships = context["ships"]
    for ship in ships:
        width = len(ship["label"]) * 5.8
        left = ship["lx"] if ship["anchor"] == "start" else ship["lx"] - width
        box = (left, ship["ly"] - 10, left + width, ship["ly"] + 2)
        assert not any(_boxes_meet(box, other["hull"]) for other in ships if other is not ship), ship["name"]
        assert 0 <= left and left + width <= context["width"]
    assert {s["anchor"] for s in ships} == {"start", "end"}      # the set-up's port column is labelled to the left


def test_the_report_of_a_finished_battle_names_the_winner_and_the_score():
    match = play_out(Match(GAME), random_dice(random.Random(2)), RandomPlayer(2))
    result = match.state.result
    _, report = rendered(match)
    winner = "a draw" if result["winner"] == "draw" else f"{result['winner'].title()} wins"
    assert f"THE GAME IS OVER: {winner}." in report.text
    assert f"The game is over: {winner}." in report.html
    assert (f"enemy CPs destroyed: Japan {result['score']['japan']}, Russia {result['score']['russia']}"
            in " ".join(report.text.split()))


SHIP_LISTS = st.lists(st.tuples(st.text(min_size=1, max_size=12), st.sampled_from(["japan", "russia"]),
                                st.integers(0, 19_999), st.integers(0, 27_999), st.integers(0, 359)),
                      max_size=40, unique_by=lambda t: t[0]).filter(
    lambda ships: all(sum(1 for s in ships if s[1] == side) <= 26 for side in ("japan", "russia")))


@settings(max_examples=150, deadline=None)
@given(SHIP_LISTS)
def test_marks_are_distinct_letters_and_each_ship_on_the_table_shows_its_mark_or_a_hash(ships):
    view = {"ships": [{"name": name, "side": side, "x": x, "y": y, "heading": heading, "status": "active"}
                      for name, side, x, y, heading in ships]}
    marks = ship_marks(view["ships"])
    assert len(set(marks.values())) == len(ships)
    assert all(len(m) == 1 and m.isalpha() and m.isupper() == (side == "japan")
               for (name, side, *_), m in zip(ships, marks.values()))
    grid = ascii_plot(view).splitlines()
    assert len(grid) == 29 and all(len(line) == 24 for line in grid)
    squares = {}
    for name, _, x, y, _ in ships:
        squares.setdefault((x // 1000, y // 1000), []).append(marks[name])
    for (col, row), here in squares.items():
        shown = grid[27 - row][4 + col]
        assert shown == (here[0] if len(here) == 1 else "#")
    assert sum(ch.isalpha() and ch != "v" for line in grid for ch in line[4:]) == sum(
        1 for h in squares.values() if len(h) == 1)
    assert "v" not in marks.values()


def test_the_text_lists_the_dice_each_ship_may_fire_at_each_enemy_in_arc_and_in_sight():
    from adjudicator.games.tsushima_1905.report import targets_in_sight

    ships = [{"name": "Mikasa", "side": "japan", "class": "battleship", "at": [10, 10], "heading": 0},
             {"name": "Kniaz Suvorov", "side": "russia", "class": "battleship", "at": [10, 14], "heading": 90},
             {"name": "Osliabia", "side": "russia", "class": "battleship", "at": [10, 16], "heading": 90},
             {"name": "Admiral Nakhimov", "side": "russia", "class": "armoured_cruiser", "at": [14, 10],
              "heading": 180}]
    position = {"turn": 1, "phase": "action", "offense": "japan", "prime": 1, "next": "japan", "ship": ships}
    lines = targets_in_sight(GAME.new_state({"position": position}, {}))
    assert lines[0] == "M Mikasa: 3 dice at Nakhimov; 1 die at Suvorov"       # Osliabia is behind Suvorov
    assert lines[1].startswith("s Suvorov: 3 dice at Mikasa") and lines[3] == "n Nakhimov: 2 dice at Mikasa"
