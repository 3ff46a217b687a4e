"""The game data in games/port-arthur: complete, consistent, and sourced."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from adjudicator.engine import GameDataError
from adjudicator.games.port_arthur.data import load_board
from adjudicator.resources import game_data_dir
from tests.public_cases import SHARED_RULES

DATA = game_data_dir("port-arthur")


def test_the_counter_sheet_has_50_counters_with_the_rulebooks_fleets():
    board = load_board()
    assert len(board.counters) == 50
    fleets = {c.fleet for c in board.counters}
    assert fleets == {"japan", "port-arthur", "vladivostok", "baltic"}
    assert sorted(c.name for c in board.counters if c.optional) == ["Hatsuse", "Petropavlovsk", "Yashima"]
    assert {c.entry_turn for c in board.counters if c.fleet == "baltic"} == {4, 5}


def test_every_counter_and_table_says_where_its_values_come_from():
    sheet = tomllib.loads((DATA / "counters.toml").read_text(encoding="utf-8"))
    for ship in sheet["ship"]:
        assert ship["provenance"] in ("rulebook", "reconstructed") and ship["source"].strip(), ship["name"]
    board = tomllib.loads((DATA / "board.toml").read_text(encoding="utf-8"))
    for key in ("game", "key_zones", "transports", "blockade", "siping", "adjacency", "track", "return_to_port"):
        assert board[key]["provenance"] in ("rulebook", "reconstructed"), key
    for entry in board["zone"] + board["port"]:
        assert entry["provenance"] in ("rulebook", "reconstructed") and entry["reason"], entry["name"]


def test_counter_values_agree_with_the_rulebooks_battle_example():
    board = load_board()
    squadron = ["Mikasa", "Asahi", "Yakumo", "Azuma", "Iwate", "Asama"]
    assert sum(board.counter(n).firepower[0] for n in squadron) == 28
    assert board.counter("Asama").speed[0] == board.counter("Yakumo").speed[0] == 5
    assert board.counter("Fuji").speed[0] == 4
    for counter in board.counters:
        assert counter.firepower[1] <= counter.firepower[0] and counter.speed[1] <= counter.speed[0]


def test_the_board_matches_the_rulebooks_geography():
    board = load_board()
    assert "Pacific Ocean" in board.adjacency["Sea of Japan"]
    assert "Philippine Sea" not in board.adjacency["Tsushima"]
    assert "Yellow Sea" not in board.ports["Japan"].adjacent
    assert not board.ports["Diego Suarez"].shipyard
    assert board.zone_named("tsushima strait") == "Tsushima"


def test_a_referee_can_replace_the_data_and_a_broken_file_is_reported(tmp_path):
    for name in ("board.toml", "counters.toml"):
        shutil.copy(DATA / name, tmp_path / name)
    text = (tmp_path / "counters.toml").read_text(encoding="utf-8")
    (tmp_path / "counters.toml").write_text(text.replace("firepower = [6, 3]", "firepower = [7, 3]", 1),
                                            encoding="utf-8")
    changed = load_board(tmp_path)
    assert changed.data_hashes["counters.toml"] != load_board().data_hashes["counters.toml"]
    (tmp_path / "board.toml").write_text("[game\n", encoding="utf-8")
    with pytest.raises(GameDataError, match="not valid TOML"):
        load_board(tmp_path)


RULEBOOK = SHARED_RULES / "port-arthur-rules.txt"
needs_the_rulebook = pytest.mark.skipif(
    not RULEBOOK.is_file(), reason="the rulebook text ../shared/rules/port-arthur-rules.txt is not beside the checkout")


def test_a_counter_is_marked_rulebook_only_when_its_values_are_printed():
    """The rulebook prints no counter: only a referee's copy of a printed counter is 'rulebook'."""
    sheet = tomllib.loads((DATA / "counters.toml").read_text(encoding="utf-8"))
    marked = [s["name"] for s in sheet["ship"] if s["provenance"] == "rulebook"]
    assert [n for n in marked if "printed counter" not in
            next(s for s in sheet["ship"] if s["name"] == n)["source"]] == []


@needs_the_rulebook
def test_the_values_said_to_be_printed_name_ships_the_rulebook_names():
    rules = RULEBOOK.read_text(encoding="utf-8")
    sheet = tomllib.loads((DATA / "counters.toml").read_text(encoding="utf-8"))
    printed = {s["name"] for s in sheet["ship"] if "rulebook_prints" in s}
    assert printed == {"Asama", "Yakumo", "Fuji", "Poltava"}
    assert all(name in rules for name in printed)


@needs_the_rulebook
def test_the_counters_page_credits_the_rulebook_only_with_ships_it_names():
    rules = RULEBOOK.read_text(encoding="utf-8")
    page = (Path(__file__).resolve().parents[3] / "docs" / "games" / "port-arthur" / "counters.md").read_text(encoding="utf-8")
    section = page.split("## What the rulebook prints", 1)[1].split("Those three speeds", 1)[0]
    names = [c.name for c in load_board().counters if c.name in section]
    assert names and [n for n in names if n not in rules] == []
    assert "Mikasa" not in rules and "Asahi" not in rules


def test_the_board_file_says_the_track_order_is_a_reconstruction_not_the_battles_order():
    text = (DATA / "board.toml").read_text(encoding="utf-8")
    comment = " ".join(text.split("[track]", 1)[0].rsplit("\n\n", 1)[1].replace("#", " ").split())
    assert "reconstruction, not the order of the battles" in comment
    assert "historical course" not in text
