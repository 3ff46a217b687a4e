"""The option ``partial_ahead`` (R-MOVE-1): by the ruling an ahead is exactly one base
length for its CP; with ``partial_ahead = true`` it is "any length up to 1 BL per CP".
Written ``ahead 0.6`` or ``ahead 0.6 BL`` in the orders (always with a decimal point,
so that ``ahead 2`` stays two aheads) and ``A0.6`` in an answer. A turn's advance stays
half a base length."""

import random

import pytest
from hypothesis import given, strategies as st

from adjudicator.engine import Match
from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.match import play_out
from adjudicator.games.tsushima_1905.answers import Element, ahead_units, length_text, parse_element
from adjudicator.games.tsushima_1905.players import RandomPlayer, random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.language import CODES, read
from adjudicator.games.tsushima_1905.plans import Plans
from adjudicator.orders.problems import ProblemLog
from adjudicator.orders.text import clean

GAME = Tsushima1905()
POSITION = {"turn": 1, "phase": "action", "offense": "russia", "prime": 1, "next": "russia",
            "ship": [{"name": "Kniaz Suvorov", "side": "russia", "class": "battleship", "at": [5, 5], "heading": 0},
                     {"name": "Mikasa", "side": "japan", "class": "battleship", "at": [5, 6.6], "heading": 90}]}


def at_table(options):
    return Match(GAME, {"position": POSITION, "continuous": True}, options)


def suvorov_moves(options, move):
    match = at_table(options)
    match.answer("russia", {"ship": "Kniaz Suvorov", "move": move, "fire": "none"})
    return match, match.state.ships["Kniaz Suvorov"]


def test_by_the_ruling_an_ahead_is_a_whole_base_length_and_a_partial_one_names_the_option():
    with pytest.raises(IllegalAnswer, match="whole base lengths.*partial_ahead"):
        suvorov_moves({}, ["A0.5"])


def test_partial_ahead_moves_the_length_written_for_one_cp():
    _, suvorov = suvorov_moves({"partial_ahead": True}, ["A0.6"])
    assert (suvorov.x, suvorov.y, suvorov.heading) == (5000, 5600, 0)
    assert suvorov.used_move == 1 and suvorov.spent == 1


def test_partial_ahead_stops_short_of_the_ship_a_whole_ahead_would_hit():
    match, suvorov = suvorov_moves({"partial_ahead": True}, ["A0.5"])
    assert suvorov.floods == 0 and not any(e.kind == "collision" for e in match.events)
    match, suvorov = suvorov_moves({"partial_ahead": True}, ["A"])
    assert suvorov.floods == 1 and any(e.kind == "collision" for e in match.events)


def test_a_turns_advance_stays_half_a_base_length_under_partial_ahead():
    _, plain = suvorov_moves({}, ["P90"])
    _, partial = suvorov_moves({"partial_ahead": True}, ["P90"])
    assert (plain.x, plain.y, plain.heading) == (partial.x, partial.y, partial.heading)


def test_partial_ahead_elements_read_and_print_exactly():
    assert parse_element("A0.6") == Element(0, 600) and Element(0, 600).code == "A0.6"
    assert parse_element("a.125") == Element(0, 125) and parse_element("A1.0") == Element(0)
    for bad in ("A1.5", "A0.0", "A0.0001"):
        with pytest.raises(IllegalAnswer):
            parse_element(bad)


@given(st.integers(min_value=1, max_value=999))
def test_a_partial_aheads_length_reads_back_from_its_text(units):
    assert ahead_units(length_text(units)) == units
    assert parse_element(Element(0, units).code) == Element(0, units)


HEADER = "campaign: c\nside: Russia\nturn: 1\npassword: x\n"


def parse(text, options=None):
    cleaned = clean(text)
    log = ProblemLog(list(cleaned.lines), codes=CODES)
    state = None if options is None else at_table(options).state
    return read(cleaned, log, state=state), log.problems


def test_partial_ahead_orders_have_a_decimal_point_and_an_optional_unit():
    orders, problems = parse(HEADER + "move:\n  Admiral Nakhimov: ahead 0.6 BL, port 30, ahead .25\n"
                                      "  Borodino: ahead 2\n", {"partial_ahead": True})
    assert problems == []
    moves = {o.who: o.options[0].elements for o in orders.block("move").orders}
    assert moves == {"Admiral Nakhimov": ("A0.6", "P30", "A0.25"), "Borodino": ("A", "A")}
    again, problems = parse(orders.canonical_text() + "password: x\n", {"partial_ahead": True})
    assert problems == [] and again == orders


def test_a_partial_ahead_longer_than_a_base_length_is_refused_with_its_line():
    _, problems = parse(HEADER + "move:\n  Kniaz Suvorov: ahead 1.5\n", {"partial_ahead": True})
    assert [(p.code, p.line) for p in problems] == [("E301", 6)] and "two aheads" in problems[0].message


def test_a_partial_ahead_in_a_campaign_without_the_option_is_an_error_naming_it():
    _, problems = parse(HEADER + "move:\n  Kniaz Suvorov: ahead 0.5\n", {})
    assert [p.code for p in problems] == ["E408"] and "partial_ahead" in problems[0].message


def test_standing_orders_carry_out_a_partial_ahead_and_skip_it_without_the_option():
    orders, _ = parse(HEADER + "move:\n  Kniaz Suvorov: ahead 0.5, else ahead\n")
    match = at_table({"partial_ahead": True})
    assert Plans({"russia": orders})(match.decision, match.state)["move"] == ["A0.5"]
    match = at_table({})
    answer = Plans({"russia": orders})(match.decision, match.state)
    assert "A0.5" not in answer["move"] and "whole base lengths" in answer["notes"][0]


def test_a_relative_move_under_partial_ahead_keeps_station_closer_than_whole_aheads_can():
    orders, _ = parse(HEADER + "move:\n  Kniaz Suvorov: follow Borodino\n")

    def off_station(options):
        match = at_table(options)
        match.state.ships["Mikasa"].x = 15000       # out of the way
        match.state.ships["Borodino"] = type(match.state.ships["Mikasa"])(
            "Borodino", "russia", "battleship", 5000, 6800, 0, 8, 8, activated=True)
        answer = Plans({"russia": orders})(match.decision, match.state)
        match.answer("russia", answer)
        s = match.state.ships["Kniaz Suvorov"]
        return (s.x - 5000) ** 2 + (s.y - 5300) ** 2, answer["move"]   # 1.5 BL astern of Borodino

    (whole, _), (partial, move) = off_station({}), off_station({"partial_ahead": True})
    assert partial < whole and any(parse_element(m).is_partial for m in move)


@pytest.mark.parametrize("seed", [3, 4])
def test_partial_ahead_random_games_end_and_replay_identically(seed):
    match = play_out(Match(GAME, {}, {"partial_ahead": True}), random_dice(random.Random(seed)),
                     RandomPlayer(seed, GAME.data))
    again = Match(GAME, {}, {"partial_ahead": True}, match.history_json())
    assert match.finished and again.state.to_json() == match.state.to_json()
    moves = [m for e in match.history_json() if e.get("kind") == "activate" for m in e["answer"].get("move", [])]
    assert all(parse_element(m) for m in moves)
