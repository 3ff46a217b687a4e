"""Limits: a file over 256 KiB or 5,000 lines is refused at once, orders whose stored
(canonical) form would be over the limits are refused, and reading costs in proportion
to the length of the file (counted in Python calls, not timed)."""

from __future__ import annotations

import sys

import pytest
from conftest import HEADER_JAPAN

from adjudicator.orders import MAX_BYTES, MAX_LINES, OrdersError, Receipt, parse_orders

GAME = "port-arthur"


def refused(text: str | bytes):
    with pytest.raises(OrdersError) as caught:
        parse_orders(text, GAME)
    return caught.value


def test_a_file_over_the_line_limit_is_refused_naming_the_first_line_too_many():
    err = refused(HEADER_JAPAN + "dice: auto\n" * 16_000)
    (problem,) = err.problems
    assert (problem.code, problem.line, problem.column) == ("E100", MAX_LINES + 1, 1)
    assert "5,000 lines" in problem.message and "16,003 lines" in problem.message


def test_a_file_of_exactly_the_line_limit_is_read():
    text = HEADER_JAPAN + "operations:\n" + "  pass\n  # why not\n" * ((MAX_LINES - 4) // 2)
    assert text.count("\n") == MAX_LINES
    assert len(parse_orders(text, GAME).block("navo").steps) == (MAX_LINES - 4) // 2


def test_a_file_over_the_size_limit_is_refused_where_it_passes_the_limit():
    line = "# " + "x" * 98 + "\n"
    err = refused((line * (MAX_BYTES // len(line) + 1)).encode())
    (problem,) = err.problems
    assert problem.code == "E100" and problem.line == MAX_BYTES // len(line) + 1


def test_orders_under_the_limits_whose_stored_form_is_over_them_are_refused():
    """Each step of "pass, else pass, else pass" is a line of its own once written out."""
    text = HEADER_JAPAN + "operations:\n" + "  pass, else pass, else pass\n" * 2000
    assert text.count("\n") < MAX_LINES and len(text) < MAX_BYTES
    (problem,) = refused(text).problems
    assert problem.code == "E107" and "6,000" not in problem.message and "lines" in problem.message
    assert problem.line == 1


def test_orders_whose_names_grow_past_the_size_limit_when_spelt_out_are_refused():
    entry = "  battle in ECS if enemy in ECS and stronger in ECS\n"
    text = HEADER_JAPAN + "operations:\n" + entry * (MAX_LINES - 10)
    assert len(text.encode()) <= MAX_BYTES and text.count("\n") <= MAX_LINES
    (problem,) = refused(text).problems
    assert problem.code == "E107" and "bytes" in problem.message


def test_accepted_orders_are_stored_within_the_limits():
    entry = "  battle in ECS if enemy in ECS\n"
    text = HEADER_JAPAN + "operations:\n" + entry * 3000
    receipt = Receipt.of(parse_orders(text, GAME))
    assert len(receipt.text.encode()) <= MAX_BYTES and receipt.text.count("\n") <= MAX_LINES
    assert parse_orders(receipt.text, GAME) == receipt.orders


def python_calls(text: str) -> int:
    """Python function calls (and generator steps) made reading ``text``."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        parse_orders(text, GAME)
    except OrdersError:
        pass
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("shape", [
    "hits:\n",                                  # empty headings (were n squared)
    "dice: auto\n",                             # a block given again and again
    "operations:\n  battle in Tsushima if enemy there\n",
    "criticals: Tses, Retv\n",
    "sortie:\n  Mikasa to Yelow Sea\n",         # unknown names
])
def test_reading_costs_in_proportion_to_the_length(shape):
    parse_orders(HEADER_JAPAN + "dice: auto\n", GAME)  # the grammar loaded once
    small = python_calls(HEADER_JAPAN + shape * 500)
    large = python_calls(HEADER_JAPAN + shape * 2000)
    assert large / small < 4 * 1.15, (small, large)
