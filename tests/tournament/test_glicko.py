"""Glicko-2 against the worked example of Glickman's paper."""

from __future__ import annotations

import pytest

from adjudicator.tournament.glicko import Outcome, RatedGame, Rating, rate, ratings


def test_glickmans_worked_example_1500_rd200_against_three_opponents():
    player = Rating(1500, 200, 0.06)
    after = rate(player, [Outcome(Rating(1400, 30), 1), Outcome(Rating(1550, 100), 0),
                          Outcome(Rating(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    player = Rating(1600, 80, 0.06)
    after = rate(player, [])
    assert after.rating == 1600
    assert after.rd > 80


def test_a_new_player_is_provisional_until_the_deviation_falls():
    assert Rating().provisional
    games = [RatedGame("a", "b", 0.0 if week % 3 == 2 else 1.0, (f"{week:02d}",)) for week in range(30)]
    found = ratings(games[:1])
    assert found["a"].provisional and found["a"].rating > found["b"].rating
    found = ratings(games)
    assert not found["a"].provisional and found["a"].rating > found["b"].rating
