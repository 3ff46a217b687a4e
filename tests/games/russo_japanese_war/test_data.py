"""The game data: read from games/russo-japanese-war, validated, replaceable by a referee."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from adjudicator.engine import GameDataError, Match
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.conformance import run_case
from adjudicator.games.russo_japanese_war.data import default_data, load_data
from adjudicator.games.russo_japanese_war.hexmap import distance, fixture_map, grid_neighbours
from adjudicator.resources import game_data_dir

FOLDER = game_data_dir("russo-japanese-war")


def test_the_data_holds_the_rulebook_components():
    data = default_data()
    assert len(data.board.hexes) == 129
    assert len(data.units) == 26
    assert len(data.deck) == 16 and "Seiro-gan" in data.deck
    assert data.crt.read(4, 3) == "EX" and data.crt.read(3, 1) == "DE"      # the printed cells
    assert data.board.supply == {"japan": "1015", "russia": "2417"}      # 4.4
    assert data.board.key_locations["1201"] == "Port Arthur"             # 10.4.1
    assert data.numbers.stacking == {"japan": 2, "russia": 1}            # 7.1, 7.2


def test_the_map_agrees_with_the_hex_facts_of_the_rulebook():
    board = default_data().board
    # 6.0: the unit in 1303 (sea on three sides) does not reach 1302, 1203 and 1404
    assert {"1302", "1203", "1404"} <= set(grid_neighbours("1303"))
    assert not any(board.adjacent("1303", h) for h in ("1302", "1203", "1404"))
    # 9.4.1: an attack from 1810 on Kaijo (1811) is across a river; Motenrei is wasteland and a town
    assert board.river_between("1810", "1811")
    assert "1713" in board.wasteland and "1713" in board.towns
    # play example, Turn 3: 1713 -> 1813 -> 1712, 1813 not adjacent to 1714
    assert board.adjacent("1713", "1813") and board.adjacent("1813", "1712") and not board.adjacent("1813", "1714")
    assert distance("1913", "1713") == 2


def test_a_fixture_map_uses_the_case_adjacency():
    board = fixture_map({"hexes": "0101-0606"})
    assert sorted(board.land_neighbours["0303"]) == ["0203", "0204", "0302", "0304", "0403", "0404"]
    assert sorted(board.land_neighbours["0403"]) == ["0302", "0303", "0402", "0404", "0502", "0503"]


def _attack_position():
    return {"turn": 2, "phase": "japan-combat", "map": {"hexes": "0101-0606"},
            "unit": [{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"},
                     {"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0302"},
                     {"id": "J2", "side": "japan", "strength": 2, "ma": 3, "at": "0203"},
                     {"id": "J3", "side": "japan", "strength": 2, "ma": 3, "at": "0304"}]}


def test_a_referee_can_swap_in_a_different_crt(tmp_path):
    # +3 with a 6 is NE in the reconstructed table; the referee's table says DE
    crt = tmp_path / "printed-crt.toml"
    rows = "\n".join(f'"{die}" = ["EX", "EX", "DE", "DE", "DE", "EX", "DE"]' for die in range(1, 7))
    crt.write_text(f'[crt]\nprovenance = "rulebook"\ncolumns = [-1, 0, 1, 2, 3, 4, 5]\n[crt.rows]\n{rows}\n'
                   '[[crt.printed_cell]]\ncolumn = 4\ndie = 3\nresult = "EX"\n')
    case = {"id": "swap", "until": "japan-card-play", "dice": [6],
            "answers": [{"ask": "attacks", "side": "japan", "declare": [{"target": "0303", "with": ["J1", "J2", "J3"]}]}],
            "position": _attack_position(), "expect": {"result": "NE", "column": 3}}
    assert run_case(case, RussoJapaneseWar()) == []
    swapped = RussoJapaneseWar(load_data(crt=crt))
    assert swapped.data.crt.read(3, 6) == "DE"
    problems = run_case(case, swapped)
    assert "last combat result: expected 'NE', got 'DE'" in problems


def test_a_crt_contradicting_a_printed_cell_is_refused(tmp_path):
    crt = tmp_path / "crt.toml"
    rows = "\n".join(f'"{die}" = ["NE", "NE", "NE", "NE", "NE", "NE", "NE"]' for die in range(1, 7))
    crt.write_text(f'[crt]\nprovenance = "x"\ncolumns = [-1, 0, 1, 2, 3, 4, 5]\n[crt.rows]\n{rows}\n'
                   '[[crt.printed_cell]]\ncolumn = 3\ndie = 1\nresult = "DE"\n')
    with pytest.raises(GameDataError, match="printed cell"):
        load_data(crt=crt)


def test_every_table_must_say_where_its_values_come_from(tmp_path):
    folder = tmp_path / "rjw"
    shutil.copytree(FOLDER, folder)
    crt = folder / "crt.toml"
    crt.write_text(crt.read_text().replace('provenance = "reconstructed"\ncolumns', 'columns', 1))
    with pytest.raises(GameDataError, match="provenance"):
        load_data(folder)


def test_a_map_feature_off_the_map_is_refused(tmp_path):
    folder = tmp_path / "rjw"
    shutil.copytree(FOLDER, folder)
    path = folder / "map.toml"
    path.write_text(path.read_text().replace('hexes = ["1709", "1809"]', 'hexes = ["1709", "1808"]'))
    with pytest.raises(GameDataError, match="not on the map|not adjacent"):
        load_data(folder)


def test_the_setup_follows_section_3():
    game = RussoJapaneseWar()
    match = Match(game)
    assert match.shuffle is not None and match.shuffle.hidden and match.shuffle.size == 16
    match.supply_shuffle(random.Random(3).sample(range(16), 16))
    state = match.state
    assert state["phase"] == "japan-movement" and state["turn"] == 1
    assert len(state["cards"]["hands"]["japan"]) in (2, 3) and state["cards"]["hands"]["russia"] == []
    assert {u for u, v in state["units"].items() if v["at"] == "korea"} == {"Gds", "2", "12"}
    assert state["units"]["PA"]["at"] == "1201" and state["units"]["S2"]["at"] == "1214"
    assert state["morale"] == {"japan": 6, "russia": 6}


def test_each_side_sees_only_its_own_hand():
    game = RussoJapaneseWar()
    match = Match(game)
    match.supply_shuffle(list(range(16)))
    hand = match.state["cards"]["hands"]["japan"]
    japan, russia = match.view("japan"), match.view("russia")
    assert japan["cards"]["hand"] == hand
    assert russia["cards"]["hand"] == [] and russia["cards"]["opponent_hand_size"] == len(hand)
    assert "deck" not in russia["cards"] and "hands" not in russia["cards"]
    assert all(card not in str(russia) for card in hand if card != "Seiro-gan")


def test_a_card_label_gives_the_number_or_adds_the_id_when_the_half_shown_is_not_named_so():
    data = default_data()
    assert data.card_label("#09", "japan") == "#09 Kodama Gentaro"
    assert data.card_label("#09") == "#09 Kodama Gentaro / Trans-Siberian Railway"
    assert data.card_label("Seiro-gan", "japan") == "Seiro-gan"
    assert data.card_label("Seiro-gan", "russia") == "Southward Policy (Seiro-gan)"
    assert data.card_label("Seiro-gan") == "Seiro-gan / Southward Policy"
    assert data.card_label("#99") == "#99"
