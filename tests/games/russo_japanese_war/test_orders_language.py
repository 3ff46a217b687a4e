"""Orders that say everything the rules allow: ``move: done``, ``support using CARD``,
``chain:``, retreats per combat and per unit, conditions on the role, the opponent's play,
the top discard and hexes, conditional card steps, repairs; each read back from its
canonical form, and each mistake reported with its line, column and "did you mean"."""

from __future__ import annotations

import pytest

from adjudicator.engine import Decision, Match
from adjudicator.games.russo_japanese_war import RussoJapaneseWar, plans
from adjudicator.games.russo_japanese_war.plans import OrdersPlayer
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA
from adjudicator.games.russo_japanese_war.language import to_rjw
from adjudicator.orders import parse_orders
from adjudicator.orders.problems import OrdersError

GAME = RussoJapaneseWar()
HEADER = "campaign: c\nside: {side}\nturn: 2\n"

EVERYTHING = HEADER.format(side="Japan") + """move: done
attack:
  1214 with Gds, 2 support using Kodama if differential <= 2
events:
  Kodama if attacking and differential < 3
  Hotchkiss if defending and enemy played Field Fortifications
  Gunshin if top discard is Kodama
retreat:
  toward 1015
  from 1214 toward 1114
  Gds to 1313, 1312
chain: 12, 2; strongest first
AR:
cards:
  1. transport 4 to 1206 if hand >= 2 and hex 1206 empty
  2. forced march movement using 5 if hex 1611 theirs
  3. done
naval: repair Mikasa, Asahi
"""


def read(text: str, state=None):
    return parse_orders(text, "russo-japanese-war", state=state)


def canonical(orders) -> str:
    lines = [line for block in orders.blocks for line in block.canonical_lines()]
    return HEADER.format(side=orders.header.side) + "\n".join(lines) + "\n"


def problems(text: str) -> list:
    with pytest.raises(OrdersError) as caught:
        read(text)
    return caught.value.problems


def test_every_new_form_reads_back_from_its_canonical_form():
    orders = read(EVERYTHING)
    again = read(canonical(orders))
    assert again.blocks == orders.blocks
    rjw = to_rjw(orders)
    assert rjw.moves == () and rjw.attacks[0].support_card == "#09"
    assert rjw.retreat_from == (("1214", "1114"),) and rjw.retreat_units == (("Gds", ("1313", "1312")),)
    assert rjw.chain_first == ("12", "2") and rjw.chain_order == "strongest"
    assert [c.condition is not None for c in rjw.cards] == [True, True, False]
    assert rjw.naval.repair == ("Mikasa", "Asahi")


@pytest.mark.parametrize("heading", ["move", "attack", "events", "retreat", "chain", "AR", "cards", "react",
                                     "naval", "advance", "losses", "replenish", "forced move", "forced attack"])
def test_an_empty_heading_is_accepted_and_its_stored_form_reads_back(heading):
    orders = read(HEADER.format(side="Russia") + f"{heading}:\n")
    stored = canonical(orders)
    assert read(stored).blocks == orders.blocks


def test_move_done_is_accepted_and_answers_done():
    match = Match(GAME)
    match.supply_shuffle(list(range(16)))
    orders = read(HEADER.format(side="Japan").replace("turn: 2", "turn: 1") + "move: done\n")
    assert match.decision.kind == "move"
    assert plans.answer_for(match.decision, match.state, orders) == {"done": True}


# -- the answers the new forms give ------------------------------------------------------------------

POSITION = {
    "turn": 3, "phase": "japan-combat",
    "unit": [{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"},
             {"id": "J1", "side": "japan", "strength": 3, "ma": 3, "at": "0302"},
             {"id": "J2", "side": "japan", "strength": 3, "ma": 3, "at": "0403"}],
    "map": {"hexes": "0101-0606"},
    "cards": {"deck": [], "discard": ["#05"], "hands": {"japan": ["#06", "#07", "#14"], "russia": ["#10", "#04"]}},
}


def player(side: str, text: str, state) -> OrdersPlayer:
    return OrdersPlayer(GAME, to_rjw(read(HEADER.format(side=side) + text, state)))


def to_support() -> Match:
    match = Match(GAME, {"position": POSITION})
    match.answer(JAPAN, {"declare": [{"target": "0303", "with": ["J1", "J2"]}]})
    assert match.decision.kind == "support"
    return match


def test_support_using_a_card_discards_that_card():
    match = to_support()
    assert player("Japan", "attack: 0303 with J1, J2 support using 14", match.state)(
        match.decision, match.state) == {"card": "#14"}


def test_without_a_card_named_support_spares_the_cards_the_orders_name():
    match = to_support()
    japan = player("Japan", "attack: 0303 with J1, J2 support\nevents: Nogi\ncards: event Scurvy", match.state)
    assert japan(match.decision, match.state) == {"card": "#14"}


def test_a_role_condition_holds_only_in_that_role():
    match = to_support()
    match.answer(JAPAN, {"pass": True})
    assert match.decision.kind == "combat-event" and match.decision.options["role"] == "attacker"
    assert player("Japan", "events: Nogi if defending", match.state)(match.decision, match.state) == {"pass": True}
    assert player("Japan", "events: Nogi if attacking", match.state)(match.decision, match.state) == {"card": "#07"}


def test_a_defender_may_answer_the_event_the_enemy_has_just_played():
    match = to_support()
    match.answer(JAPAN, {"pass": True})
    match.answer(JAPAN, {"card": "#07"})                              # Nogi
    decision = match.decision
    assert (decision.side, decision.options["answering"]) == (RUSSIA, "#07")
    russia = "events: Kuropatkin if enemy played Nogi"
    assert player("Russia", russia, match.state)(decision, match.state) == {"card": "#10"}
    russia = "events: Kuropatkin if enemy played Kodama"
    assert player("Russia", russia, match.state)(decision, match.state) == {"pass": True}


def test_a_condition_on_the_top_discard_and_on_a_hex():
    match = to_support()
    match.answer(JAPAN, {"pass": True})
    decision = match.decision
    assert player("Japan", "events: Nogi if top discard is 5", match.state)(decision, match.state) == {"card": "#07"}
    assert player("Japan", "events: Nogi if top discard is 9", match.state)(decision, match.state) == {"pass": True}
    assert player("Japan", "events: Nogi if hex 0303 theirs and hex 0303 occupied", match.state)(
        decision, match.state) == {"card": "#07"}
    assert player("Japan", "events: Nogi if hex 0304 empty and hex 0302 ours", match.state)(
        decision, match.state) == {"card": "#07"}
    assert player("Japan", "events: Nogi if hex 0304 occupied", match.state)(decision, match.state) == {"pass": True}


def test_a_conditional_card_step_is_used_only_when_its_condition_holds():
    state = GAME.new_state({"position": {**POSITION, "phase": "japan-card-play"}}, {})
    decision = Decision(JAPAN, "card-play", {}, "", lambda a: a)
    japan = player("Japan", "cards:\n  1. event Scurvy if hand >= 4\n  2. forced march combat if morale >= 6\n",
                   state)
    assert japan(decision, state) == {"forced-march": "#07", "phase": "combat"}
    japan = player("Japan", "cards: event Scurvy if hand >= 3", state)
    assert japan(decision, state) == {"event": "#06", "units": []}


def test_retreats_per_unit_then_per_combat_then_toward_a_hex():
    state = GAME.new_state({"position": POSITION}, {})
    state["last_combat"] = {"target": "0303"}
    decision = Decision(RUSSIA, "retreat", {"unit": "R1", "hexes": ["0204", "0304", "0404"]}, "", lambda a: a)
    orders = "retreat:\n  toward 0101\n  from 0303 toward 0606\n  R1 to 0505, 0204\n"
    assert player("Russia", orders, state)(decision, state) == {"unit": "R1", "to": "0204"}
    orders = "retreat:\n  toward 0101\n  from 0303 toward 0606\n"
    assert player("Russia", orders, state)(decision, state) == {"unit": "R1", "to": "0304"}
    orders = "retreat:\n  toward 0101\n  from 0505 toward 0606\n"
    assert player("Russia", orders, state)(decision, state) == {"unit": "R1", "to": "0204"}


def test_chain_names_the_unit_that_makes_way():
    state = GAME.new_state({"position": POSITION}, {})
    decision = Decision(JAPAN, "chain", {"hex": "0302", "units": ["J1", "J2"]}, "", lambda a: a)
    assert player("Japan", "chain: J2", state)(decision, state) == {"unit": "J2"}
    assert player("Japan", "chain: weakest first", state)(decision, state) == {"unit": "J1"}


def test_a_chain_question_is_answered_by_losses_or_retreat_orders_too():
    state = GAME.new_state({"position": POSITION}, {})
    decision = Decision(JAPAN, "chain", {"hex": "0302", "units": ["J1", "J2"]}, "", lambda a: a)
    orders = read(HEADER.format(side="Japan") + "losses: weakest first\n", state)
    assert plans.answer_for(decision, state, orders) == {"unit": "J1"}
    assert plans.answer_for(decision, state, read(HEADER.format(side="Japan") + "move: done\n", state)) is None


# -- mistakes: line, column, did you mean -------------------------------------------------------------

def test_a_misspelt_card_in_a_condition_is_located_with_a_suggestion():
    [problem] = problems(HEADER.format(side="Russia") + "events: Kuropatkin if enemy played Kodamma\n")
    assert (problem.line, problem.column) == (4, 36)
    assert any("Kodama" in s for s in problem.suggestions)


def test_a_misspelt_unit_in_chain_and_retreat_is_located_with_a_suggestion():
    found = problems(HEADER.format(side="Japan") + "chain: Gsd\nretreat: Gdz to 1313\n")
    assert [(p.line, p.column, p.suggestions[:1]) for p in found] == [(4, 8, ("Gds",)), (5, 10, ("Gds",))]


def test_a_hex_off_the_map_in_a_retreat_is_located():
    [problem] = problems(HEADER.format(side="Japan") + "retreat: from 9999 toward 1015\n")
    assert (problem.line, problem.column) == (4, 15) and "9999" in problem.message


def test_a_bad_hex_state_says_what_was_expected():
    [problem] = problems(HEADER.format(side="Japan") + "cards: done if hex 1611 ourz\n")
    assert problem.line == 4 and problem.column == 25


def test_the_game_line_is_checked_as_in_every_game():
    [problem] = problems(HEADER.format(side="Japan") + "game: port-arthur\nmove: done\n")
    assert (problem.code, problem.line, problem.column) == ("E113", 4, 7)
    assert 'orders for "russo-japanese-war", not "port-arthur"' in problem.message
    assert read(HEADER.format(side="Japan") + "game: Russo-Japanese-War\nmove: done\n").header.game == \
        "russo-japanese-war"


def test_the_names_have_codes_of_their_own_with_suggestions():
    text = HEADER.format(side="Russian") + ("move: Gsd korea-1015\nevents: Kodamma\nnaval: flagship Petropavlosk\n"
                                             "retreat: toward 99x9\nattack: 1214 with S2\nmove: S2 1214\n")
    found = {p.code: p for p in problems(text)}
    assert found["E501"].suggestions[:1] == ("Gds",)
    assert found["E503"].suggestions == ("#09 Trans-Siberian Railway",)     # Russia's half of #09
    assert found["E503"].message.endswith(": close to the Japanese half of #09 Kodama Gentaro; "
                                          "Russia plays #09 Trans-Siberian Railway")
    assert found["E504"].suggestions[:1] == ("Petropavlovsk",)
    assert found["E505"].line == 7
    assert found["E110"].line == 9 and found["E110"].message.startswith('a second "move:" block')
    [path] = problems(HEADER.format(side="Russia") + "move: S2 1214\n")
    assert path.code == "E506"


def test_a_unit_of_the_other_side_is_named_as_such():
    [problem] = problems(HEADER.format(side="Russia") + "move: Gds korea-1015\n")
    assert (problem.code, problem.message) == ("E507", "Gds is not a Russia unit")


def test_a_side_is_read_with_its_aliases_and_a_wrong_one_gets_suggestions():
    assert read(HEADER.format(side="Japanese") + "move: done\n").header.side == "japan"
    [problem] = problems(HEADER.format(side="Rusia") + "move: done\n")
    assert problem.code == "E113" and "russia" in [s.lower() for s in problem.suggestions]


def test_a_card_named_by_the_other_sides_half_is_suggested_by_the_writers_half():
    [problem] = problems(HEADER.format(side="Russia") + "events: Hotchkiss if defending\n")
    assert (problem.code, problem.line, problem.suggestions) == ("E503", 4, ("#02 Permanent Fortification",))
    assert problem.message == ('unknown card "Hotchkiss" for Russia: the Japanese half of #02 Hotchkiss Machine '
                               "Guns; Russia plays #02 Permanent Fortification")
    [problem] = problems(HEADER.format(side="Japan") + "cards: event Maxim\n")
    assert problem.suggestions == ("#07 Nogi Maresuke",)
    assert "the Russian half of #07 Maxim Machine Guns; Japan plays #07 Nogi Maresuke" in problem.message


def test_a_card_the_enemy_played_is_read_as_the_enemys_half():
    [problem] = problems(HEADER.format(side="Japan") + "events: 2 if enemy played Kuropatkn\n")
    assert problem.code == "E503" and problem.suggestions == ("#10 Kuropatkin",)
    rjw = to_rjw(read(HEADER.format(side="Russia") + "events: Kuropatkin if enemy played Kodama\n"))
    assert rjw.events[0].condition.clauses[0].value == "#09"


def test_a_name_completed_from_a_prefix_is_noted_with_its_line_and_an_exact_one_is_not():
    from adjudicator.orders import check_orders
    text = ("campaign: club\nside: Japan\nturn: 1\n"
            "move:\n  Gd korea-1015-1114\n  gds korea-1015-1115\n"
            "naval: hit Retv, Tsesarevich\n")
    receipt = check_orders(text, "russo-japanese-war")
    assert receipt.notes == ("line 5: 'Gd' read as Gds", "line 7: 'Retv' read as Retvizan")


def test_the_orders_page_names_the_blocks_that_answer_one_player_turn_only_and_the_rest_stand():
    import re
    from pathlib import Path
    from adjudicator.games.russo_japanese_war.language import BLOCKS
    page = (Path(__file__).parents[3] / "docs/games/russo-japanese-war/orders.md").read_text()
    sentence = re.search(r"Some blocks answer only the Player Turn they are sent for: (.*?)\. Every other", page,
                         re.S).group(1)
    one_turn = set(re.findall(r"`([a-zA-Z ]+):`", sentence))
    assert one_turn == {heading for heading, standing in BLOCKS.values() if not standing}
