"""Nothing dropped in silence: for each kind of order block, an order that cannot be
carried out gets a note naming its line (``plans.why_not``, read by ``check --store
--campaign`` and every receipt through ``campaign.running.unusable_lines``)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from adjudicator.campaign.games import support
from adjudicator.campaign.running import unusable_lines
from adjudicator.engine import Match
from adjudicator.games.russo_japanese_war import RussoJapaneseWar, plans
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA
from adjudicator.games.russo_japanese_war.players import dice_from
from adjudicator.orders import parse_orders

GAME = RussoJapaneseWar()
RJW = support("russo-japanese-war")


def header(side: str, turn: int = 1) -> str:
    return f"campaign: club\nside: {side}\nturn: {turn}\n"


def opening() -> Match:
    """The first question of a game: Japan's Movement Phase of Game Turn 1."""
    match = Match(GAME)
    rng = random.Random(1)
    while match.decision is None:
        match.supply(dice_from(rng)(match.chance))
    assert match.decision.kind == "move" and match.decision.side == JAPAN
    return match


def notes(match: Match, text: str, state=None) -> list[str]:
    orders = parse_orders(text, "russo-japanese-war", state=state)
    return unusable_lines(RJW, match.decision, match.state, orders, text)


def position(units, hands=None, phase="japan-combat", turn=3, **more) -> Match:
    spec = {"turn": turn, "phase": phase, "map": {"hexes": "0101-0606", **more.pop("map", {})},
            "unit": units, "cards": {"deck": [], "discard": more.pop("discard", []), "hands": hands or {}}, **more}
    return Match(GAME, {"position": spec})


# -- the bar: an unreachable move and an attack by a unit not adjacent ---------------------------

def test_an_unreachable_move_and_an_attack_by_a_unit_not_adjacent_are_both_named_by_line():
    match = opening()
    text = header("Japan") + (
        "move:\n"
        "  Gds korea-1015-1114\n"
        "  12 korea-1015-1115-1215-1216\n"        # line 6: four hexes, movement allowance 3
        "attack:\n"
        "  1214 with Gds, 12\n")                  # line 8: 12 stayed in Korea
    found = notes(match, text)
    assert found == [
        "line 6: 12 cannot reach 1216: 4 hexes, movement allowance 3 (8.0), so 12 does not move",
        "line 8: 12 cannot attack 1214: it is in the korea box, not adjacent (9.1, A10)",
    ]


def test_a_move_through_a_zone_of_control_is_named():
    match = opening()
    text = header("Japan") + "move:\n  2 korea-1015-1115-1215-1315\n"
    [note] = notes(match, text)
    assert note.startswith("line 5: 2 cannot reach 1315:")


def test_a_move_through_an_enemy_zone_of_control_names_the_zone():
    match = position([{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"},
                      {"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0201"}],
                     phase="japan-movement")
    text = header("Japan", 3) + "move: J1 0201-0202-0203-0103\n"
    [note] = notes(match, text, match.state)
    assert note == ("line 4: J1 cannot reach 0103: 0203 is in an enemy ZOC: the move must end there (6.1), "
                    "so J1 does not move")


def test_a_second_rail_move_and_a_unit_that_has_moved_are_named():
    match = position([{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0606"},
                      {"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0101"},
                      {"id": "J2", "side": "japan", "strength": 2, "ma": 3, "at": "0102"}],
                     phase="japan-movement", map={"railways": [["0101", "0102", "0103", "0104"]]})
    text = header("Japan", 3) + "move:\n  rail J1 0101-0102-0103\n  rail J2 0102-0103-0104\n  J1 0103-0203\n"
    assert notes(match, text, match.state) == [
        "line 6: J2 cannot reach 0104: only one unit may move by rail in a Movement Phase (8.2, A15), "
        "so J2 does not move",
        "line 7: J1 cannot reach 0203: J1 has already moved in this Movement Phase (A58), so J1 does not move again"]


def test_a_move_through_a_zone_of_control_says_the_unit_does_not_move_unless_a_later_line_names_it():
    match = opening()
    text = header("Japan") + "move:\n  2 korea-1015-1115-1215-1315\n  2 korea-1015-1115\n"
    [note] = notes(match, text)
    assert note.startswith("line 5: 2 cannot reach 1315:")
    assert note.endswith(", so 2 does not make this move (a later line names it)")
    [note] = notes(match, header("Japan") + "move:\n  2 korea-1015-1115-1215-1315\n")
    assert note.endswith(", so 2 does not move")


def test_the_moves_are_played_in_turn_so_a_later_move_sees_the_earlier_ones():
    match = opening()
    text = header("Japan") + ("move:\n  2 korea-1015-1115-1215\n  12 korea-1015-1115-1215\n"
                              "  Gds korea-1015-1115-1215\n")
    [note] = notes(match, text)
    assert note.startswith("line 7: Gds cannot reach 1215: 1215 already holds 2 friendly unit(s)")


def test_orders_that_can_all_be_carried_out_give_no_note():
    match = opening()
    from tests.games.russo_japanese_war.test_orders import SAMPLES
    assert notes(match, (SAMPLES / "japan-turn1.orders").read_text()) == []


def test_orders_of_the_other_side_give_no_note():
    match = opening()
    assert notes(match, header("Russia") + "move:\n  S2 1214-1314-1414-1514\n") == []


# -- attacks -----------------------------------------------------------------------------------------

ATTACK_POSITION = [{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"},
                   {"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0302"},
                   {"id": "J2", "side": "japan", "strength": 2, "ma": 3, "at": "0305"}]


def test_an_attack_on_an_empty_hex_and_one_by_a_distant_unit_are_named():
    match = position(ATTACK_POSITION)
    assert match.decision.kind == "attacks"
    text = header("Japan", 3) + "attack:\n  0404 with J1\n  0303 with J1, J2\n"
    assert notes(match, text, match.state) == [
        "line 5: the attack on 0404 is not declared: 0404 holds no enemy unit",
        "line 6: J2 cannot attack 0303: it is at 0305, not adjacent (9.1, A10)"]


def test_support_using_a_card_not_in_hand_is_named_and_no_card_is_discarded():
    match = position(ATTACK_POSITION, hands={JAPAN: ["#06", "#07"]})
    match.answer(JAPAN, {"declare": [{"target": "0303", "with": ["J1"]}]})
    assert match.decision.kind == "support"
    text = header("Japan", 3) + "attack:\n  0303 with J1 support using Kodama\n"
    assert notes(match, text, match.state) == [
        "line 5: support using #09 Kodama Gentaro: the card is not in your hand; no support card is used"]
    orders = parse_orders(text, "russo-japanese-war", state=match.state)
    assert plans.answer_for(match.decision, match.state, orders) == {"pass": True}


def test_a_combat_event_not_in_hand_is_named():
    match = position(ATTACK_POSITION, hands={JAPAN: ["#07"]})
    match.answer(JAPAN, {"declare": [{"target": "0303", "with": ["J1"]}]})
    match.answer(JAPAN, {"pass": True})
    assert match.decision.kind == "combat-event"
    text = header("Japan", 3) + "events:\n  Kodama if differential < 3\n  Nogi\n"
    assert notes(match, text, match.state) == ["line 5: #09 Kodama Gentaro is not in your hand"]


def test_a_combat_event_its_own_rule_played_earlier_in_the_combat_is_not_named_as_not_carried_out():
    match = position(ATTACK_POSITION, hands={JAPAN: ["#11", "#02"]})
    match.answer(JAPAN, {"declare": [{"target": "0303", "with": ["J1"]}]})
    match.answer(JAPAN, {"pass": True})
    assert match.decision.kind == "combat-event" and match.decision.options["window"] == "before_roll"
    match.answer(JAPAN, {"card": "#11"})                       # the first rule: Kuroki before the die
    rng = random.Random(3)
    while match.decision is None:
        match.supply(dice_from(rng)(match.chance))
    assert match.decision.kind == "combat-event" and match.decision.options["window"] == "after_roll"
    text = header("Japan", 3) + "events:\n  Kuroki if attacking\n  Hotchkiss if result in AE\n"
    assert notes(match, text, match.state) == []


def test_a_support_card_the_attack_has_discarded_is_not_named_at_the_questions_after_it():
    match = position(ATTACK_POSITION, hands={JAPAN: ["#11", "#06"]})
    match.answer(JAPAN, {"declare": [{"target": "0303", "with": ["J1"]}]})
    assert match.decision.kind == "support"
    match.answer(JAPAN, {"card": "#06"})                       # support using Scurvy, as written
    assert match.decision.kind == "combat-event" and "#06" in match.state["cards"]["discard"]
    text = header("Japan", 3) + "attack: 0303 with J1 support using Scurvy\n"
    assert notes(match, text, match.state) == []


def test_events_rules_whose_card_is_no_combat_event_are_named_at_the_movement_question_held_or_not():
    match = position([{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"},
                      {"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0305"}],
                     hands={RUSSIA: ["#15", "#09"]}, phase="russia-movement")
    assert match.decision.kind == "move" and match.decision.side == RUSSIA
    text = header("Russia", 3) + ("events:\n"
                                  "  Grippenberg if attacking\n"           # in hand, a combat event
                                  "  Mishchenko\n"                         # line 6: a Card Play event
                                  "  Trans-Siberian Railway\n"             # line 7: one, in hand
                                  "  Crossfire if defending\n")            # a combat event, not in hand yet
    assert notes(match, text, match.state) == [
        "line 6: #14 Mishchenko's Raid is not a combat event of yours: this rule is never used",
        "line 7: #09 Trans-Siberian Railway is not a combat event of yours: this rule is never used"]


def test_an_event_step_for_a_card_the_naval_rules_keep_is_named_at_the_movement_question():
    from adjudicator.games.russo_japanese_war.players import RandomPlayer
    match = Match(GAME, {}, {"naval": True})
    rng = random.Random(5)
    player = RandomPlayer(GAME, rng=rng)
    while match.decision is None or (match.decision.kind, match.decision.side) != ("move", RUSSIA):
        if match.chance is not None:
            match.supply(dice_from(rng)(match.chance))
        else:
            match.answer(match.decision.side, player(match.decision, match.state))
    cards = match.state["cards"]
    for pile in (cards["deck"], cards["discard"], cards["hands"][JAPAN], cards["hands"][RUSSIA]):
        pile[:] = [card for card in pile if card not in ("#06", "#14")]
    cards["hands"][RUSSIA] += ["#06", "#14"]
    text = header("Russia", match.state["turn"]) + "cards:\n  1. event Admiral Makarov\n  2. event Mishchenko\n  3. done\n"
    assert notes(match, text, match.state) == [
        "line 5: this step is not used: Admiral Makarov is used only as the advanced naval rules say (11.0); "
        "the card may still be discarded"]


def test_an_event_step_naming_units_of_the_wrong_side_is_named_at_the_movement_question():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0302"},
                      {"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0304"}],
                     hands={JAPAN: ["#10"]}, phase="japan-movement")
    text = header("Japan", 3) + "cards:\n  1. event Infiltration on J1 if hand >= 2\n  2. event Infiltration on R1\n"
    assert notes(match, text, match.state) == [
        "line 5: this step is not used: name up to 2 enemy units on the map"]


def test_a_japanese_reorganise_step_is_named_at_the_movement_question():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0302"},
                      {"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0304"}],
                     hands={JAPAN: ["#16"]}, phase="japan-movement")
    text = header("Japan", 3) + "cards:\n  1. reorganise J1\n  2. done\n"
    assert notes(match, text, match.state) == [
        "line 5: this step is not used: only the Russian player reorganises by discarding a card (10.2.6)"]


def test_an_advance_by_a_unit_that_did_not_attack_is_named():
    match = position(ATTACK_POSITION, hands={JAPAN: ["#09"]})
    match.answer(JAPAN, {"declare": [{"target": "0303", "with": ["J1"]}]})
    match.answer(JAPAN, {"pass": True})
    match.answer(JAPAN, {"card": "#09"})                       # DR
    while match.decision.kind != "advance":
        match.answer(match.decision.side, plans.default_answer(match.decision, match.state))
    text = header("Japan", 3) + "advance:\n  0303 with J2\n"
    assert notes(match, text, match.state) == [
        "line 5: J2 may not advance into 0303: it did not attack it or cannot move (9.7)"]


# -- retreats and chain retreats -------------------------------------------------------------------

def question(side: str, kind: str, options: dict, units=ATTACK_POSITION):
    from adjudicator.engine import Decision
    state = GAME.new_state({"position": {"turn": 3, "phase": "japan-combat", "unit": units,
                                         "map": {"hexes": "0101-0606"}}}, {})
    state["last_combat"] = {"target": "0303"}
    return SimpleNamespace(decision=Decision(side, kind, options, "", lambda a: a), state=state)


def test_a_retreat_to_hexes_none_of_which_is_open_names_the_line_and_the_hex_used_instead():
    match = question(RUSSIA, "retreat", {"unit": "R1", "hexes": ["0204", "0304", "0404"]})
    text = header("Russia", 3) + "retreat:\n  from 0303 toward 0606\n  R1 to 0505, 0202\n"
    assert notes(match, text, match.state) == [
        "line 6: R1 cannot retreat to 0505 or 0202 (9.6; it may retreat to 0204, 0304, 0404): "
        "it retreats to 0304 instead"]
    orders = parse_orders(text, "russo-japanese-war", state=match.state)
    assert plans.answer_for(match.decision, match.state, orders) == {"unit": "R1", "to": "0304"}
    assert notes(match, text.replace("0202", "0204"), match.state) == []


def test_a_chain_naming_no_unit_in_the_hex_names_the_line_and_the_unit_that_makes_way():
    units = [*ATTACK_POSITION, {"id": "J3", "side": "japan", "strength": 4, "ma": 3, "at": "0302"}]
    match = question(JAPAN, "chain", {"hex": "0302", "units": ["J1", "J3"]}, units)
    text = header("Japan", 3) + "losses: weakest first\nchain: J2; strongest first\n"
    assert notes(match, text, match.state) == [
        "line 5: none of J2 is in 0302 to make way (9.6, A21): J3, the strongest there, makes way instead"]
    orders = parse_orders(text, "russo-japanese-war", state=match.state)
    assert plans.answer_for(match.decision, match.state, orders) == {"unit": "J3"}
    assert notes(match, text.replace("J2;", "J1;"), match.state) == []


# -- cards ---------------------------------------------------------------------------------------------

def test_card_steps_naming_a_card_not_in_hand_or_an_illegal_use_are_named():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "home"},
                      {"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0606"}],
                     hands={JAPAN: ["#06", "#14"]}, phase="japan-card-play",
                     map={"harbours": {"0101": {"southern": True}}})
    assert match.decision.kind == "card-play"
    text = header("Japan", 3) + ("cards:\n"
                                 "  1. transport J1 to 0101 using Kodama\n"     # not in hand
                                 "  2. event Nogi\n"                           # not in hand
                                 "  3. transport J1 to 0202\n"                 # not a harbour
                                 "  4. transport J1 to 0101\n"                 # fine
                                 "  5. event Scurvy\n")                        # fine
    found = notes(match, text, match.state)
    assert found[0] == "line 5: #09 Kodama Gentaro is not in your hand: this step is not used"
    assert found[1] == "line 6: #07 Nogi Maresuke is not in your hand: this step is not used"
    assert found[2].startswith("line 7: this step is not used: J1 cannot be transported to '0202'")
    assert len(found) == 3


def test_card_steps_already_played_are_neither_named_nor_asked_again():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "home"},
                      {"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0606"}],
                     hands={JAPAN: ["#06", "#14", "#09"]}, phase="japan-card-play",
                     map={"harbours": {"0101": {"southern": True}}})
    text = header("Japan", 3) + "cards:\n  1. transport J1 to 0101 using Kodama\n  2. event Scurvy\n"
    orders = parse_orders(text, "russo-japanese-war", state=match.state)
    played = []
    while match.decision is not None and match.decision.kind == "card-play":
        assert notes(match, text, match.state) == []
        answer = plans.answer_for(match.decision, match.state, orders)
        assert answer is not None
        played.append(answer)
        if answer.get("done"):
            break
        match.answer(JAPAN, answer)
    assert played == [{"transport": "#09", "unit": "J1", "to": "0101"}, {"event": "#06", "units": []},
                      {"done": True}]


def test_a_card_step_whose_condition_does_not_hold_is_not_named():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0101"}],
                     hands={JAPAN: ["#06", "#14"]}, phase="japan-card-play")
    text = header("Japan", 3) + "cards:\n  1. event Nogi if hand >= 3\n  2. event Nogi if hand >= 2\n"
    assert notes(match, text, match.state) == [
        "line 6: #07 Nogi Maresuke is not in your hand: this step is not used"]


def test_gunshin_named_with_an_empty_discard_pile_is_named():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0101"}],
                     hands={JAPAN: ["#13"]}, phase="japan-card-play")
    [note] = notes(match, header("Japan", 3) + "cards: event Gunshin\n", match.state)
    assert note.startswith("line 4: this step is not used:") and "A64" in note


def test_a_reaction_not_in_hand_is_named():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0101"}],
                     hands={RUSSIA: ["#06"], JAPAN: ["#01"]}, phase="russia-card-play")
    match.answer(RUSSIA, {"event": "#06", "units": []})
    assert match.decision.kind == "reaction"
    text = header("Japan", 3) + "react: Port Arthur Blockade; Akiyama\n"
    assert notes(match, text, match.state) == ["line 4: #04 Akiyama Saneyuki is not in your hand"]


# -- the advanced naval rules ------------------------------------------------------------------------------

def naval_question(kind: str, prepare=None) -> Match:
    match = Match(GAME, {}, {"naval": True})
    rng = random.Random(5)
    from adjudicator.games.russo_japanese_war.players import RandomPlayer
    player = RandomPlayer(GAME, rng=rng)
    while match.decision is None or match.decision.kind != kind:
        if match.chance is not None:
            match.supply(dice_from(rng)(match.chance))
        else:
            match.answer(match.decision.side, player(match.decision, match.state))
    return match


def test_a_flagship_that_is_not_a_port_arthur_ship_is_named():
    match = naval_question("flagship")
    [note] = notes(match, header("Russia") + "naval:\n  flagship Mikasa\n")
    assert note == "line 5: Mikasa is not a Port Arthur Fleet ship afloat: Tsesarevich carries Makarov"


def test_a_line_naming_a_sunk_or_enemy_ship_is_named_and_one_of_the_other_fleet_is_not():
    match = naval_question("line-up")
    assert match.decision.options["fleet"] == "port_arthur"
    assert match.state["naval"]["ships"]["Sevastopol"]["steps"] == 0
    text = header("Russia", match.state["turn"]) + "naval:\n  line Rossia, Sevastopol, Mikasa, Pobeda\n"
    assert notes(match, text) == [
        "line 5: Sevastopol is not in a line of yours afloat (11.3.1): it is left out",
        "line 5: Mikasa is not in a line of yours afloat (11.3.1): it is left out"]


@pytest.mark.parametrize("kind", ["sortie"])
def test_a_sortie_using_a_card_not_in_hand_is_named(kind):
    match = naval_question(kind)
    held = match.decision.options["cards"]
    card = next(c for c in ("#01", "#06") if c not in held)
    [note] = notes(match, header("Russia", match.state["turn"]) + f"naval:\n  sortie port-arthur using {card[1:]}\n")
    assert note.startswith("line 5: sortie using") and "not in your hand" in note


# -- the card a step discards when none is named ------------------------------------------------------

def test_the_spare_card_keeps_the_cards_the_orders_name_and_those_the_naval_rules_use():
    from adjudicator.games.russo_japanese_war.plans import spare_card
    for naval, expected in ((False, "#01"), (True, "#14")):
        match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0101"}],
                         hands={JAPAN: ["#01", "#04", "#09", "#14"]})
        table = GAME.table(match.state)
        table.s["options"]["naval"] = naval
        assert spare_card(table, JAPAN, None, {"#09"}) == expected
        assert spare_card(table, JAPAN, "#09", set()) == "#09"
        assert spare_card(table, JAPAN, "#07", set()) is None


def test_at_a_later_move_question_the_moves_already_made_are_not_named_again():
    match = opening()
    match.answer(JAPAN, {"unit": "Gds", "path": ["korea", "1015", "1114"]})
    assert match.decision.kind == "move"
    text = header("Japan") + "move:\n  Gds korea-1015-1114\n  12 korea-1015-1115-1215-1216\n"
    assert notes(match, text) == ["line 6: 12 cannot reach 1216: 4 hexes, movement allowance 3 (8.0), so 12 does not move"]


# -- the cards named, checked on the receipt whatever question is open ---------------------------------

def test_cards_named_by_support_and_card_steps_are_checked_at_the_movement_question():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0302"},
                      {"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0304"}],
                     hands={JAPAN: ["#06", "#14"]}, discard=["#07"], phase="japan-movement")
    assert match.decision.kind == "move"
    text = header("Japan", 3) + ("move: J1 0302-0303\n"
                                 "attack: 0304 with J1 support using Kodama\n"     # line 5: not in hand
                                 "cards:\n"
                                 "  1. event Nogi\n"                              # line 7: played already
                                 "  2. event Scurvy\n"                            # in hand
                                 "  3. reorganise J1 using Kodama\n")             # line 9: not in hand
    assert notes(match, text, match.state) == [
        "line 5: support using #09 Kodama Gentaro: the card is not in your hand; no support card is used",
        "line 7: #07 Nogi Maresuke is not in your hand (it has been played: it is in the discard pile): "
        "this step is not used",
        "line 9: #09 Kodama Gentaro is not in your hand: this step is not used"]


def test_before_card_replenishment_a_card_not_in_hand_is_named_with_the_draw_still_to_come():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0302"},
                      {"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"}],
                     hands={JAPAN: ["#06"]}, phase="japan-replenish")
    assert match.decision.kind == "extra-card"
    text = header("Japan", 3) + "attack: 0303 with J1 support using Kodama\ncards: event Scurvy; event Nogi\n"
    assert notes(match, text, match.state) == [
        "line 4: support using #09 Kodama Gentaro: the card is not in your hand; unless Card Replenishment "
        "(10.1) draws it, no support card is used",
        "line 5: #07 Nogi Maresuke is not in your hand: unless Card Replenishment (10.1) draws it, "
        "this step is not used"]


def test_orders_that_answer_card_replenishment_have_their_cards_named_once_after_the_draws():
    from adjudicator.campaign.running import NotCarriedOut
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0302"},
                      {"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"}],
                     hands={JAPAN: ["#06"]}, phase="japan-replenish")
    match.state["cards"]["deck"] = ["#12", "#15"]
    assert match.decision.kind == "extra-card"
    text = header("Japan", 3) + ("replenish: no extra card\n"
                                 "attack: 0303 with J1 support using Kodama\n"     # line 5
                                 "events: Nogi\n"                                  # line 6
                                 "cards: event Akashi\n")                          # line 7
    orders = parse_orders(text, "russo-japanese-war", state=match.state)
    assert notes(match, text, match.state) == []            # the draws come first: nothing known yet
    undone = NotCarriedOut(RJW.answers, lambda turn: {}, 1)
    undone(match.decision, match.state, orders)
    match.answer(JAPAN, {"use": False})
    rng = random.Random(2)
    while match.decision is None:
        match.supply(dice_from(rng)(match.chance))
    assert match.decision.kind == "move" and "#07" not in match.state["cards"]["hands"][JAPAN]
    undone(match.decision, match.state, orders)
    assert undone.by_side()[JAPAN] == (
        "support using #09 Kodama Gentaro: the card is not in your hand; no support card is used",
        "#14 Akashi Motojiro is not in your hand: this step is not used")


def test_at_card_replenishment_the_moves_and_attacks_to_come_are_named():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0302"},
                      {"id": "J2", "side": "japan", "strength": 2, "ma": 3, "at": "0106"},
                      {"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0304"}],
                     hands={JAPAN: ["#06"]}, phase="japan-replenish")
    assert match.decision.kind == "extra-card"
    text = header("Japan", 3) + ("replenish: extra card\n"
                                 "move:\n"
                                 "  J1 0302-0303\n"
                                 "  J2 0106-0105-0104-0103-0102\n"        # line 7: four hexes
                                 "attack: 0304 with J1, J2\n")             # line 8: J2 stayed at 0106
    assert notes(match, text, match.state) == [
        "line 7: J2 cannot reach 0102: 4 hexes, movement allowance 3 (8.0), so J2 does not move",
        "line 8: J2 cannot attack 0304: it is at 0106, not adjacent (9.1, A10)"]


def test_the_cards_of_a_side_outside_its_own_player_turn_are_not_named():
    match = question(RUSSIA, "retreat", {"unit": "R1", "hexes": ["0204", "0304", "0404"]})
    assert match.state["phase"] == "japan-combat" and "#09" not in match.state["cards"]["hands"][RUSSIA]
    text = header("Russia", 3) + "attack: 0302 with R1 support using 9\ncards: event 9\n"
    assert notes(match, text, match.state) == []


def test_the_top_discard_gunshin_will_take_back_is_not_named():
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0101"},
                      {"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0102"}],
                     hands={JAPAN: ["#13", "#06"]}, discard=["#07", "#14"], phase="japan-movement")
    text = header("Japan", 3) + "cards:\n  1. event Gunshin\n  2. event Akashi\n  3. event Nogi\n"
    expected = ["line 7: #07 Nogi Maresuke is not in your hand (it has been played: it is in the discard pile): "
                "this step is not used"]
    assert notes(match, text, match.state) == expected
    assert notes(match, header("Japan", 3) + "attack: 0102 with J1 support using Akashi\n", match.state) == []
    match = position([{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0101"},
                      {"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0102"}],
                     hands={JAPAN: ["#13", "#06"]}, discard=["#07", "#14"], phase="japan-card-play")
    assert notes(match, text, match.state) == expected


# -- orders for a Player Turn that is over --------------------------------------------------------

def test_blocks_for_a_player_turn_that_is_over_are_named_in_the_receipt():
    from adjudicator.orders import parse_orders_noted
    match = position([{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"},
                      {"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0305"}],
                     hands={JAPAN: ["#06"]}, phase="japan-card-play")
    assert (match.decision.kind, match.decision.side) == ("card-play", JAPAN)
    russia = header("Russia", 3) + "move: R1 0303-0304\nevents: Crossfire if defending\ncards: done\n"
    _, readings = parse_orders_noted(russia, "russo-japanese-war", state=match.state)
    assert readings == (
        "line 4: move: the Russian Movement Phase of turn 3 is over, so this block is not used; send orders "
        "for turn 4 once its report asks for them, with 'turn: 4'",
        "line 6: cards: the Russian Card Play Phase of turn 3 is over, so this block is not used; send orders "
        "for turn 4 once its report asks for them, with 'turn: 4'")
    japan = header("Japan", 3) + "move: J1 0305-0304\ncards: done\n"
    _, readings = parse_orders_noted(japan, "russo-japanese-war", state=match.state)
    assert readings == ("line 4: move: the Japanese Movement Phase of turn 3 is over, so this block is not used",)


def test_russian_blocks_for_game_turn_1_are_named_and_japanese_ones_still_to_come_are_not():
    from adjudicator.orders import parse_orders_noted
    match = opening()
    russia = header("Russia") + "move: S1 1913-1813\n"
    _, readings = parse_orders_noted(russia, "russo-japanese-war", state=match.state)
    assert readings == ("line 4: move: Game Turn 1 has no Russian Movement Phase (5.1), so this block is not used; "
                        "send orders for turn 2 once its report asks for them, with 'turn: 2'",)
    japan = header("Japan") + "move: Gds korea-1015-1114\nattack: 1214 with Gds\ncards: done\n"
    assert parse_orders_noted(japan, "russo-japanese-war", state=match.state)[1] == ()


def test_a_forced_march_move_asked_for_lack_of_a_forced_move_block_does_not_blame_the_move_orders():
    from adjudicator.campaign.running import run_from_orders
    match = position([{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"},
                      {"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0305"}],
                     hands={RUSSIA: ["#06", "#14"]}, phase="russia-card-play")
    assert match.decision.kind == "card-play"
    match.answer(RUSSIA, {"forced-march": "#14", "phase": "movement"})
    assert match.decision.kind == "move"                          # the forced-march Movement Phase
    orders = parse_orders(header("Russia", 3) + "move: R1 0303-0203\n", "russo-japanese-war", state=match.state)
    _, refused = run_from_orders(match, lambda chance: [], lambda turn: {RUSSIA: orders}, set(), RJW.answers)
    assert match.decision.kind == "move"                          # asked: no forced move: block
    assert refused == []


def test_orders_sent_while_the_other_side_plays_name_what_can_never_be_carried_out():
    match = position([{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"},
                      {"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0305"}],
                     hands={RUSSIA: ["#15"], JAPAN: []}, phase="russia-movement")
    assert match.decision_for(JAPAN) is None
    text = header("Japan", 3) + ("move: J1 0305-0304\n"
                                 "attack: 0303 with J1 support using Kodama\n"    # not in hand: drawn later?
                                 "events: Akashi\n"                                # line 6: a Card Play event
                                 "cards:\n"
                                 "  1. reorganise J1\n"                            # line 8
                                 "  2. event Infiltration on J1\n"                 # line 9
                                 "  3. event Nogi\n")                              # a combat event
    orders = parse_orders(text, "russo-japanese-war", state=match.state)
    found = [f"line {text[:text.index(name)].count(chr(10)) + 1}: {reason}"
             for name, reason in plans.why_not_waiting(JAPAN, match.state, orders)]
    assert found == [
        "line 6: #14 Akashi Motojiro is not a combat event of yours: this rule is never used",
        "line 8: this step is not used: only the Russian player reorganises by discarding a card (10.2.6)",
        "line 9: this step is not used: name up to 2 enemy units on the map",
        "line 10: this step is not used: Nogi Maresuke is played at another time (in a combat, before the die "
        "is rolled)"]
    assert plans.why_not_waiting(RUSSIA, match.state, orders) == []
