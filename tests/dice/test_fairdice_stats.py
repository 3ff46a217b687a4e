"""Dice statistics and the chi-square survival function."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.fairdice import InvalidDieValue, chi_square_sf, dice_stats, dice_stats_by_side
from adjudicator.fairdice.stats import chi_square_statistic, regularized_upper_gamma


@pytest.mark.parametrize(
    "x, dof, expected",
    [
        (11.0705, 5, 0.05),  # textbook critical values
        (15.0863, 5, 0.01),
        (20.5150, 5, 0.001),
        (3.841459, 1, 0.05),
        (5.991465, 2, 0.05),
        (18.307038, 10, 0.05),
        (1.0, 5, 0.9625657732472964),  # scipy.stats.chi2.sf(1, 5)
        (4.0, 5, 0.5494159513527802),  # scipy.stats.chi2.sf(4, 5)
        (4.351460, 5, 0.5),  # median of chi-square(5)
    ],
)
def test_known_values(x, dof, expected):
    assert chi_square_sf(x, dof) == pytest.approx(expected, rel=2e-5)


@given(st.floats(0.001, 200))
def test_two_degrees_of_freedom_is_exponential(x):
    assert chi_square_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12, abs=1e-300)


@given(st.floats(0.001, 100))
def test_one_degree_of_freedom_is_erfc(x):
    assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10, abs=1e-300)


@given(st.floats(0.001, 300))
def test_five_degrees_of_freedom_closed_form(x):
    """The d6 case: Q(5/2, x/2) = erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2) (1 + x/3)."""
    closed = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)
    assert chi_square_sf(x, 5) == pytest.approx(closed, rel=1e-11, abs=1e-300)


@given(st.floats(0.5, 60), st.floats(0.0, 200))
def test_q_is_a_probability_and_decreasing(a, x):
    q = regularized_upper_gamma(a, x)
    assert 0.0 <= q <= 1.0
    assert regularized_upper_gamma(a, x + 1.0) <= q + 1e-12


def test_edges():
    assert chi_square_sf(0, 5) == 1.0
    assert chi_square_sf(-1, 5) == 1.0
    assert chi_square_sf(1e6, 5) == 0.0
    assert regularized_upper_gamma(2.5, math.inf) == 0.0
    with pytest.raises(ValueError):
        regularized_upper_gamma(0, 1)
    with pytest.raises(ValueError):
        chi_square_sf(1, 0)


def test_stats_of_a_perfect_table():
    stats = dice_stats([1, 2, 3, 4, 5, 6] * 5)
    assert stats.counts == (5, 5, 5, 5, 5, 5)
    assert stats.total == 30 and stats.mean == 3.5
    assert stats.chi_square == 0.0 and stats.p_value == 1.0
    assert stats.degrees_of_freedom == 5 and stats.reliable
    assert stats.expected_per_face == 5


def test_stats_of_a_loaded_table():
    stats = dice_stats([6] * 60 + [1, 2, 3, 4, 5] * 6)
    assert stats.counts == (6, 6, 6, 6, 6, 60)
    assert stats.chi_square == pytest.approx(162.0)
    assert stats.p_value < 1e-30


def test_stats_of_few_rolls_are_flagged_unreliable():
    stats = dice_stats([1, 4, 3, 5, 4, 6, 4, 6, 2, 3, 2, 6, 3, 5, 1, 4, 3, 1, 1, 6, 1, 3, 3, 1])
    assert stats.counts == (6, 2, 6, 4, 2, 4)
    assert stats.chi_square == 4.0
    assert stats.p_value == pytest.approx(0.5494159513527802, rel=1e-9)
    assert not stats.reliable


def test_no_rolls():
    stats = dice_stats([])
    assert stats.counts == (0,) * 6 and stats.total == 0
    assert stats.mean is stats.chi_square is stats.p_value is None
    assert not stats.reliable


def test_by_side():
    table = dice_stats_by_side({"russia": [1, 1, 2], "japan": [6, 6]})
    assert list(table) == ["japan", "russia"]
    assert table["japan"].counts == (0, 0, 0, 0, 0, 2)
    assert table["russia"].mean == pytest.approx(4 / 3)


def test_other_die_sizes():
    stats = dice_stats([1, 2, 2, 1], faces=2)
    assert stats.counts == (2, 2) and stats.degrees_of_freedom == 1


@pytest.mark.parametrize("rolls", [[0], [7], [True], [3.0], ["6"]])
def test_non_faces_are_refused(rolls):
    with pytest.raises(InvalidDieValue):
        dice_stats(rolls)


def test_statistic_needs_rolls():
    with pytest.raises(InvalidDieValue):
        chi_square_statistic([0, 0, 0])
    with pytest.raises(InvalidDieValue):
        dice_stats([1], faces=1)
