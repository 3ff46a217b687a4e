"""Campaign options are read once and remembered; a value of the wrong type is refused
every time, never taken for one read earlier (1 is not true)."""

import pytest

from adjudicator.games.tsushima_1905.options import InvalidOption, Options


def test_options_read_twice_are_the_same_and_both_rulings_options_can_be_set():
    chosen = Options.from_json({"split_fire": True, "partial_ahead": True})
    assert chosen is Options.from_json({"partial_ahead": True, "split_fire": True})
    assert chosen.split_fire and chosen.partial_ahead and Options.from_json({}) == Options()


@pytest.mark.parametrize("raw", [{"must_move": 1}, {"split_fire": 0}, {"partial_ahead": "yes"},
                                 {"split_fire": [True]}, {"no_such_option": True}])
def test_an_option_of_the_wrong_type_is_refused_even_after_the_right_one_was_read(raw):
    Options.from_json({"must_move": True, "split_fire": False})
    with pytest.raises(InvalidOption):
        Options.from_json(raw)
