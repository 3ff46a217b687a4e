"""The game data: read from games/tsushima-1905, every table with its provenance,
inconsistent files refused with a message naming the file."""

import shutil
from pathlib import Path

import pytest

from adjudicator.engine.errors import GameDataError
from adjudicator.games.tsushima_1905.data import card_value, load_data, read_data
from adjudicator.resources import game_data_dir


def test_order_of_battle_has_12_japanese_and_14_russian_ships():
    data = load_data()
    sides = [s.side for s in data.ships]
    assert sides.count("japan") == 12 and sides.count("russia") == 14
    assert data.ships[0].name == "Mikasa"


def test_classes_are_the_rulebook_combat_points():
    data = load_data()
    assert data.classes["battleship"].cp == 8 and data.classes["armoured_cruiser"].cp == 6
    assert data.classes["battleship"].max_movement == 2 and data.classes["armoured_cruiser"].turns_per_activation == 2


def test_decks_hold_ten_cards_each_with_ace_low_and_king_without_value():
    data = load_data()
    assert all(len(deck) == 10 for deck in data.decks.values())
    assert card_value("AD") == 1 and card_value("KS") == 0 and card_value("6H") == 6


def test_every_ship_of_the_setup_is_placed_once_on_the_table():
    data = load_data()
    assert sorted(p.ship for p in data.placements) == sorted(s.name for s in data.ships)
    assert all(0 <= p.x <= data.table[0] and 0 <= p.y <= data.table[1] for p in data.placements)


def test_sine_table_is_committed_data():
    data = load_data()
    assert data.sin_table[27] == 453990 and data.sin_table[90] == data.trig_scale == 10**6


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "tsushima-1905"
    shutil.copytree(game_data_dir("tsushima-1905"), folder)
    return folder


def test_a_sine_table_out_of_order_is_refused(tmp_path):
    folder = _copy(tmp_path)
    text = (folder / "trig.toml").read_text().replace("453990", "999999")
    (folder / "trig.toml").write_text(text)
    with pytest.raises(GameDataError, match="increase"):
        read_data(folder)


def test_a_table_without_provenance_is_refused(tmp_path):
    folder = _copy(tmp_path)
    text = (folder / "game.toml").read_text().replace('provenance = "rulebook"\nsection = "Gunnery"', 'section = "Gunnery"')
    (folder / "game.toml").write_text(text)
    with pytest.raises(GameDataError, match="gunnery.*provenance"):
        read_data(folder)


def test_a_ship_of_unknown_class_is_refused(tmp_path):
    folder = _copy(tmp_path)
    text = (folder / "ships.toml").read_text().replace('class = "armoured_cruiser"', 'class = "frigate"', 1)
    (folder / "ships.toml").write_text(text)
    with pytest.raises(GameDataError, match="frigate"):
        read_data(folder)
