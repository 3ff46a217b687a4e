"""Cleaning an orders text looks only at the lines that may be a mark (a start or end
marker, a quotation, a signature, an original message): the same lines are kept and
blanked, with the same notes, as when every line is tested against every mark."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.orders import text as cleaning

LINES = ["sortie:", "  Mikasa to Yellow Sea", "BEGIN ORDERS", "-- begin orders --", "orders:", "END ORDERS",
         "end of orders.", "> quoted", "  > quoted too", "--", "-- ", "---- Original Message ----",
         "On Monday, Togo wrote:", "on x wrote:", "", "   ", "dice: auto", "Hello Admiral,", "-----",
         "\tstart  order", "ORDERS", "end  orders ---", "On the way", ">"]


def every_line_tested(lines: list[str], notes: list[str]) -> list[str]:
    """The cleaning as first written: every line against every mark."""
    kept = list(lines)
    original = next((i for i in range(len(lines)) if cleaning._ends_orders(lines, i)), len(lines))
    start = next((i for i, line in enumerate(lines[:original]) if cleaning._START.match(line)), None)
    if start is not None:
        for i in range(start + 1):
            kept[i] = ""
        if start:
            notes.append(f"text above the start marker (line {start + 1}) was ignored")
    first = 0 if start is None else start + 1
    for i in range(first, len(lines)):
        line = lines[i]
        if cleaning._END.match(line) or cleaning._ends_orders(lines, i):
            for j in range(i, len(lines)):
                kept[j] = ""
            break
        if cleaning._QUOTED.match(line) or cleaning._ORIGINAL.match(line):
            kept[i] = ""
    return kept


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(LINES), st.text(alphabet=" -<>:aenodrsgiwt\t", max_size=20)),
                max_size=30))
def test_only_the_lines_that_may_be_marks_are_looked_at_and_the_result_is_the_same(lines):
    notes_fast: list[str] = []
    notes_slow: list[str] = []
    assert cleaning._keep_orders_lines(lines, notes_fast) == every_line_tested(lines, notes_slow)
    assert notes_fast == notes_slow


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab \t\f\v\u00a0\u3000\x01\x7f\n", max_size=40))
def test_odd_spaces_and_controls_are_replaced_line_by_line_or_all_at_once_alike(text):
    by_line = [cleaning._CONTROLS.sub(" ", cleaning._ODD_SPACES.sub(" ", line)) for line in text.split("\n")]
    assert cleaning._CONTROLS.sub(" ", cleaning._ODD_SPACES.sub(" ", text)).split("\n") == by_line
