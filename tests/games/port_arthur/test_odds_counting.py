"""The odds of fire count each multiset of faces instead of rolling out every outcome:
the groups, their counts and so every Fraction are those of the 6^n outcomes rolled out."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from adjudicator.games.port_arthur import odds


def rolled_out(count: int) -> tuple:
    """The grouping as first written: every outcome of ``count`` dice, sorted and counted."""
    grouped = Counter(tuple(sorted(roll, reverse=True)) for roll in itertools.product(range(1, 7), repeat=count))
    return tuple(sorted(grouped.items()))


@pytest.mark.parametrize("count", odds.DICE_COUNTS)
def test_the_outcomes_counted_by_multiset_are_the_outcomes_rolled_out(count):
    assert odds.outcomes(count) == rolled_out(count)


def test_the_odds_of_every_sfp_and_count_are_unchanged_exactly():
    tables = {count: rolled_out(count) for count in odds.DICE_COUNTS}
    for partial in (odds.LESS_THAN, odds.AT_MOST):
        for sfp in range(0, 40):
            for count in odds.DICE_COUNTS:
                got = odds.fire_odds(sfp, count, partial)
                total = 6 ** count
                results = [(dice, ways, odds.fire_result(dice, sfp, partial)) for dice, ways in tables[count]]
                assert got.full_success * total == sum(w for d, w, _ in results if sum(d) <= sfp)
                assert got.expected_hits * total == sum(w * r.hits for _, w, r in results)
                assert got.expected_criticals * total == sum(w * r.criticals for _, w, r in results)
                assert [p * total for p in got.hits] == [sum(w for _, w, r in results if r.hits == k)
                                                        for k in range(count + 1)]
