"""6.4 / #10 Infiltration Tactics: ZOC Lost markers last "until the end of this Japanese
Player Turn" -- every marker, whichever units carry them and in whatever order the
state lists the units (a replay of the record must reach the same state)."""

from __future__ import annotations

from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.rules.sequence import end_of_player_turn


def test_every_zoc_lost_marker_is_removed_at_the_end_of_the_japanese_player_turn():
    game = RussoJapaneseWar()
    state = game.new_state({}, {})
    russians = [uid for uid, unit in state["units"].items() if unit["side"] == "russia"][:3]
    for uid in russians:
        state["units"][uid]["zoc_lost"] = True
    table = game.table(state)

    end_of_player_turn(table, "japan")

    assert [uid for uid in russians if state["units"][uid].get("zoc_lost")] == []


def test_the_russian_player_turn_end_leaves_the_markers_alone():
    game = RussoJapaneseWar()
    state = game.new_state({}, {})
    uid = next(uid for uid, unit in state["units"].items() if unit["side"] == "russia")
    state["units"][uid]["zoc_lost"] = True

    end_of_player_turn(game.table(state), "russia")

    assert state["units"][uid]["zoc_lost"] is True
