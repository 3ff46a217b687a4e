"""The RJW orders language: reading, errors with suggestions, and answers from orders."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.engine import Match
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.plans import OrdersPlayer, orders_chooser
from adjudicator.games.russo_japanese_war.language.reader import read_orders
from adjudicator.orders.problems import OrdersError

SAMPLES = Path(__file__).resolve().parents[3] / "samples" / "russo-japanese-war"
GAME = RussoJapaneseWar()
HEADER = "campaign: club-1905\nside: Japan\nturn: 2\npassword: x\n"


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.orders")))
def test_every_sample_reads(name):
    orders = read_orders((SAMPLES / name).read_text())
    assert orders.header["campaign"] == "club-1905"


def test_moves_attacks_cards_and_standing_orders_are_read():
    orders = read_orders((SAMPLES / "japan-turn2.orders").read_text())
    assert orders.side == "japan"
    assert orders.moves[0].unit == "2" and orders.moves[0].path == ("1414", "1514", "1614", "1714")
    assert [use.use for use in orders.cards] == ["transport", "transport", "forced-march"]
    assert orders.events[0].card == "#09"          # "Kodama", a unique prefix
    assert orders.events[1].card == "#02"          # by number
    assert orders.reactions[0].card == "#01"       # Port Arthur Blockade
    assert orders.protect == ("Gds",) and orders.retreat_toward == "1015"


def problems_of(text: str) -> str:
    with pytest.raises(OrdersError) as caught:
        read_orders(text)
    return caught.value.render()


def test_an_unknown_unit_gets_a_suggestion():
    rendered = problems_of(HEADER + "move:\n  Gsd 1015-1114\n")
    assert 'unknown unit "Gsd"' in rendered and '"Gds"' in rendered


def test_an_unknown_card_gets_a_suggestion():
    rendered = problems_of(HEADER + "events:\n  Kodamma\n")
    assert 'unknown card "Kodamma"' in rendered and "Kodama Gentaro" in rendered


def test_a_hex_off_the_map_and_a_bad_path_are_reported_together():
    rendered = problems_of(HEADER + "move:\n  Gds 1015-9999\n  2 1015\n")
    assert "9999 is not on the map" in rendered and '"1015" is not a path' in rendered


def test_a_missing_header_line_is_reported():
    assert 'line 1, column 1: E112 no "turn" line; add one, e.g. "turn: 1"' in problems_of("campaign: c\nside: Japan\nmove: none\n")


def test_a_syntax_error_says_what_was_expected():
    rendered = problems_of(HEADER + "attack:\n  1214 with\n")
    assert "line 6" in rendered and "expected" in rendered


def play_turn_one(japan_orders: str, russia_orders: str, die: int) -> tuple[Match, OrdersPlayer]:
    japan = OrdersPlayer(GAME, read_orders(japan_orders))
    russia = OrdersPlayer(GAME, read_orders(russia_orders))
    choose = orders_chooser({"japan": japan, "russia": russia})
    match = Match(GAME)
    match.supply_shuffle(list(range(16)))         # #01 #02 #03 on top: no Seiro-gan in the opening hand
    while match.state["phase"] != "victory-check" and not match.finished:
        if match.decision is not None:
            match.answer(match.decision.side, choose(match.decision, match.state))
        elif match.roll is not None:
            match.supply_dice([die])
        else:
            match.supply_shuffle(list(range(match.shuffle.size)))
    return match, japan


def test_the_play_example_of_turn_1_runs_from_one_email_per_side():
    match, japan = play_turn_one((SAMPLES / "japan-turn1.orders").read_text(),
                                 (SAMPLES / "russia-standing.orders").read_text(), die=3)
    units = match.state["units"]
    combat = match.state["combats"][0]
    assert (combat["differential"], combat["result"]) == (4, "EX")     # +3, support +4, die 3: EX
    assert units["S2"]["at"] == "eliminated" and units["Gds"]["at"] == "eliminated"   # protect 2, 12
    assert units["4"]["at"] == "1405" and units["2"]["at"] == "1314"   # transport, then the forced march
    assert match.state["losses"] == {"japan": 1, "russia": 1}
    assert japan.notes == []


def test_a_plan_step_that_became_illegal_is_skipped_with_a_note():
    orders = (SAMPLES / "japan-turn1.orders").read_text().replace("4 1206-1305-1405", "4 1206-1305-1405-1406-1506")
    match, japan = play_turn_one(orders, (SAMPLES / "russia-standing.orders").read_text(), die=3)
    assert match.state["units"]["4"]["at"] == "1206"
    assert any("forced move 3 not carried out" in note and "4 hexes, movement allowance 3" in note for note in japan.notes)


def test_the_defaults_lose_the_weakest_unit_and_retreat_toward_the_supply_source():
    player = OrdersPlayer(GAME, None)
    match = Match(GAME, {"position": {
        "turn": 2, "phase": "japan-combat", "map": {"hexes": "0101-0606", "supply": {"russia": "0606"}},
        "unit": [{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"},
                 {"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0302"}],
        "cards": {"hands": {"japan": ["#09"]}}}})
    match.answer("japan", {"declare": [{"target": "0303", "with": ["J1"]}]})
    match.answer("japan", {"pass": True})
    match.answer("japan", {"card": "#09"})                  # DR, no die
    decision = match.decision
    assert decision.kind == "retreat"
    answer = player(decision, match.state)
    assert answer == {"unit": "R1", "to": "0304"}           # nearest 0606 among the free hexes


def test_a_question_without_its_block_in_the_orders_in_force_is_asked():
    from adjudicator.games.russo_japanese_war import language, plans
    from adjudicator.orders.problems import ProblemLog
    from adjudicator.orders.text import clean

    text = clean((SAMPLES / "russia-standing.orders").read_text())
    standing = language.read(text, ProblemLog(list(text.lines)))
    match = Match(GAME)
    match.supply_shuffle(list(range(16)))
    move = match.decision                                  # Japan's move: Russia's orders do not matter
    assert plans.answer_for(move, match.state, standing) is None      # no "move:" block: ask
    text = clean((SAMPLES / "japan-turn1.orders").read_text())
    japan = language.read(text, ProblemLog(list(text.lines)))
    assert plans.answer_for(move, match.state, japan) == {"unit": "Gds", "path": ["korea", "1015", "1114"]}
    assert plans.default_answer(move, match.state) == {"done": True}



def test_past_the_most_problems_shown_a_unit_prefix_still_reads_as_before_the_limit():
    from adjudicator.orders.problems import MAX_PROBLEMS
    many = HEADER + "move:\n" + "".join(f"  Gds 1015-{9900 + i}\n" for i in range(MAX_PROBLEMS + 5))

    def not_shown(unit: str) -> str:
        with pytest.raises(OrdersError) as caught:
            read_orders(many + f"losses:\n  protect {unit}\n")
        return caught.value.problems[-1].message

    assert not_shown("Gds") == not_shown("Gd") == "5 more problems not shown; fix these first"
    assert not_shown("Gsd") == "6 more problems not shown; fix these first"     # unknown: one more
