"""The balance report: whole games between the automatic players, each side's win
rate with a Wilson 95% interval, repeatable by seed, for every game."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from adjudicator import games
from adjudicator.cli import tournament_cmds  # noqa: F401  (registers the commands)
from adjudicator.cli.app import app
from adjudicator.tournament.balance import balance, wilson
from adjudicator.tournament.errors import TournamentError


def test_the_wilson_interval_matches_known_values():
    low, high = wilson(60, 60)
    assert round(low, 4) == 0.9398 and high == pytest.approx(1.0)   # 60 of 60 is not a certainty
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634


@pytest.mark.parametrize("game", games.names())
def test_every_game_is_played_to_the_end_and_counted_the_same_for_the_same_seed(game):
    first = balance(game, 2, seed=3)
    assert sum(rate.wins for rate in first.sides) + first.draws == 2
    assert sum(first.endings.values()) == 2
    again = balance(game, 2, seed=3)
    assert [r.wins for r in again.sides] == [r.wins for r in first.sides] and again.endings == first.endings


def test_no_games_is_refused():
    with pytest.raises(TournamentError, match="at least one game"):
        balance("port-arthur", 0)


def test_the_balance_command_prints_each_sides_rate_with_its_interval():
    result = CliRunner().invoke(app, ["balance", "--game", "port-arthur", "-n", "2", "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert {s["side"] for s in report["sides"]} == {"japan", "russia"}
    assert all(0 <= s["ci95"][0] <= s["rate"] <= s["ci95"][1] <= 1 for s in report["sides"])


def test_how_a_game_ended_is_counted_without_its_numbers_but_with_its_rule():
    from adjudicator.tournament.balance import _gist

    assert _gist("End of turn 6: Russia wins (the CP marker stands at Russia 5).") == \
        "Russia wins (the CP marker stands at Russia N)"
    assert _gist("Russia wins (4.2).") == "Russia wins (4.2)"
