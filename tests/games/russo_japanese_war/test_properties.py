"""Property tests: hex geometry (ruling A1) and the orders reader on any text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.games.russo_japanese_war.hexmap import distance, grid_neighbours, hex_name
from adjudicator.games.russo_japanese_war.language.reader import read_orders
from adjudicator.orders.problems import OrdersError

hexes = st.builds(hex_name, st.integers(2, 40), st.integers(2, 40))


@given(hexes)
def test_adjacency_is_symmetric_and_at_distance_one(h):
    neighbours = grid_neighbours(h)
    assert len(set(neighbours)) == 6
    for n in neighbours:
        assert h in grid_neighbours(n)
        assert distance(h, n) == 1


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


WORDS = st.sampled_from(["move:", "attack:", "cards:", "events:", "Gds", "1015-1114", "with", "support", "if",
                         "differential", "<=", "2", ";", ",", "\n", "transport", "to", "1206", "Kodama", "#", "x"])


@settings(max_examples=150, deadline=None)
@given(st.lists(WORDS, max_size=30).map(" ".join) | st.text(max_size=200))
def test_any_text_is_read_or_refused_with_problems_never_a_traceback(body):
    text = "campaign: c\nside: Japan\nturn: 2\n" + body
    try:
        read_orders(text)
    except OrdersError as err:
        assert err.problems and all(p.code.startswith("E") for p in err.problems)
