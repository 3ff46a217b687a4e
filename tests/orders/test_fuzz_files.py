"""Fuzzing mutated orders files: nothing but OrdersError escapes, every error is located
in the text sent, and every accepted file's receipt reads back to the same orders.

By default a few hundred files; ``FUZZ_ORDERS=10000 pytest tests/orders/test_fuzz_files.py``
runs the full 10,000."""

from __future__ import annotations

import pytest
from fuzz_orders import FUZZ_COUNT, mutated_files

from adjudicator.orders import OrdersError, Receipt, parse_orders
from adjudicator.orders.text import clean

GAME = "port-arthur"


def assert_located(text: str, err: OrdersError) -> None:
    """Every problem (but the E900 summary) has a line and column inside the text."""
    try:
        lines = clean(text).lines
    except OrdersError:  # the file as a whole is refused: places are in the text as sent
        lines = tuple(text.split("\n"))
    for problem in err.problems:
        if problem.code == "E900":
            continue
        assert 1 <= problem.line <= len(lines), (problem, len(lines))
        assert 1 <= problem.column <= len(lines[problem.line - 1]) + 1, (problem, lines[problem.line - 1])


def check_one(text: str):
    """The fuzz property for one file; returns the receipt when accepted."""
    try:
        orders = parse_orders(text, GAME)
    except OrdersError as err:
        assert err.problems
        assert_located(text, err)
        assert "my secret words" not in err.render() + repr([p.to_json() for p in err.problems])
        return None
    receipt = Receipt.of(orders)
    again = parse_orders(receipt.text, GAME)
    assert again == orders, receipt.text
    assert Receipt.of(again).text == receipt.text
    return receipt


@pytest.mark.soak("sized")
def test_mutated_orders_files_are_refused_clearly_or_read_back_the_same():
    accepted = sum(check_one(text) is not None for text in mutated_files(seed=1904, count=FUZZ_COUNT))
    assert 0 < accepted < FUZZ_COUNT  # the mutations make both kinds
