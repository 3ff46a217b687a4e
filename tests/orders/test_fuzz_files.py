"""Fuzzing mutated orders files: nothing but OrdersError escapes, every error is located
in the text sent, and every accepted file's receipt reads back to the same orders.

By default a few hundred files; ``FUZZ_ORDERS=10000 pytest tests/orders/test_fuzz_files.py``
runs the full 10,000."""

from __future__ import annotations

import pytest
from fuzz_orders import FUZZ_COUNT, mutated_files, read_back


GAME = "port-arthur"


def check_one(text: str):
    """The fuzz property for one file; returns the receipt when accepted."""
    return read_back(text, GAME)


@pytest.mark.soak("sized")
def test_mutated_orders_files_are_refused_clearly_or_read_back_the_same():
    accepted = sum(check_one(text) is not None for text in mutated_files(seed=1904, count=FUZZ_COUNT))
    assert 0 < accepted < FUZZ_COUNT  # the mutations make both kinds
