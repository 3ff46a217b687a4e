"""A greeting above orders without a start marker: the first error says to add one."""

from __future__ import annotations

from conftest import HEADER_JAPAN, problems, read

GREETING = "Hi Bob,\nhere are my orders: good luck!\n\n"


def test_a_greeting_without_a_marker_gets_a_hint_to_add_it():
    found = problems(HEADER_JAPAN + "dice: auto\n", header=GREETING)
    assert [(p.code, p.line) for p in found] == [("E101", 1), ("E101", 2)]
    assert 'put a line "BEGIN ORDERS" just above your orders' in found[0].render()
    assert found[0].to_json()["hint"] and not found[1].hint


def test_with_the_marker_the_greeting_is_ignored():
    orders = read(HEADER_JAPAN + "dice: auto\n", header=GREETING + "BEGIN ORDERS\n")
    assert orders.header.side == "japan"


def test_a_bad_line_among_the_orders_gets_no_greeting_hint():
    found = problems("dice: auto\nthis is wrong\n")
    assert [p.hint for p in found] == [""]


def test_a_file_of_nothing_but_prose_gets_no_greeting_hint():
    found = problems("", header="Hi Bob,\nsee you soon\n")
    assert not any(p.hint for p in found)
