"""The luck index: exact fire distributions, their sum over an event, the percentile;
and Port Arthur's adjudication of an unfinished game."""

from __future__ import annotations

import pytest

from adjudicator.engine import Event
from adjudicator.games.port_arthur.tournament import fire_distribution, tournament_support
from adjudicator.tournament.gameplay import convolve, luck_samples, percentile


def test_one_die_against_sfp_3_hits_half_the_time():
    assert fire_distribution(1, 3, "less-than") == pytest.approx((0.5, 0.5))


def test_two_dice_against_sfp_7_counted_by_hand():
    # 21 of 36 rolls sum to 7 or less: 2 hits, plus a critical for the doubles 1-1, 2-2, 3-3;
    # the other 15 keep one die (the highest, below 7): 1 hit.
    assert fire_distribution(2, 7, "less-than") == pytest.approx((0, 15 / 36, 18 / 36, 3 / 36))


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6])
def test_every_distribution_sums_to_one(count):
    assert sum(fire_distribution(count, 4 * count, "at-most")) == pytest.approx(1.0)


def test_the_sum_of_fires_and_its_mid_percentile():
    total = convolve([(0.5, 0.5), (0.5, 0.5)])
    assert total == pytest.approx([0.25, 0.5, 0.25])
    assert percentile(total, 1) == pytest.approx(50.0)
    assert percentile(total, 2) == pytest.approx(87.5)
    assert percentile(total, 0) == pytest.approx(12.5)


def test_luck_samples_are_taken_from_the_fire_events_of_each_side():
    events = [Event("fire", "", {"side": "japan", "dice": [1, 2], "sfp": 7, "hits": 2, "criticals": 0}),
              Event("battle", "", {}),
              Event("fire", "", {"side": "russia", "dice": [6], "sfp": 3, "hits": 0, "criticals": 0})]
    samples = luck_samples(tournament_support(), events, {})
    assert [(s.side, s.observed) for s in samples] == [("japan", 2), ("russia", 0)]
    assert samples[1].expected == pytest.approx(0.5)


@pytest.mark.parametrize("occupied, cp, result", [(2, 3, "russia"), (6, 2, "japan"), (6, -1, "russia"),
                                                   (6, 0, "draw")])
def test_adjudication_applies_the_victory_conditions_to_the_position(occupied, cp, result):
    track = ["Yalu", "Nanshan", "Dalny", "Hill 203", "Port Arthur", "Mukden"]
    assert tournament_support().adjudicate({"track": track, "occupied": occupied, "cp": cp})[0] == result
