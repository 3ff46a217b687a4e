"""Nothing dropped in silence: for each kind of order block, an order that cannot be
carried out in the position gets a note naming its line (the receipts' and
``check --store --campaign``'s notes, through the generic ``unusable_lines``)."""

from __future__ import annotations

import pytest

from adjudicator.campaign.log import AcceptedOrders
from adjudicator.campaign.running import NotCarriedOut, unusable_lines
from adjudicator.engine import Match
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.plugin import plugin
from adjudicator.orders import parse_orders

GAME = Tsushima1905()
SUPPORT = plugin()
HEADER = "campaign: c\nside: Japan\nturn: 1\npassword: x\n"


def position(**status):
    """A Japanese activation asked, with some ships out of action."""
    ships = [
        {"name": "Mikasa", "side": "japan", "class": "battleship", "at": [10.0, 20.0], "heading": 180},
        {"name": "Shikishima", "side": "japan", "class": "battleship", "at": [10.0, 21.5], "heading": 180},
        {"name": "Fuji", "side": "japan", "class": "battleship", "at": [10.0, 23.0], "heading": 180},
        {"name": "Iwate", "side": "japan", "class": "armoured_cruiser", "at": [4.0, 10.0], "heading": 0},
        {"name": "Asama", "side": "japan", "class": "armoured_cruiser", "at": [4.0, 12.1], "heading": 0},
        {"name": "Kniaz Suvorov", "side": "russia", "class": "battleship", "at": [14.0, 8.0], "heading": 0},
        {"name": "Orel", "side": "russia", "class": "battleship", "at": [16.0, 8.0], "heading": 0},
    ]
    for ship in ships:
        if ship["name"] in status:
            ship["status"], ship["cp"] = status[ship["name"]], 0
            ship["floods"] = 1 if status[ship["name"]] == "sunk" else 0
    match = Match(GAME, {"position": {"turn": 2, "phase": "action", "offense": "japan", "prime": 2, "next": "japan",
                                      "ship": ships}, "continuous": True}, {})
    assert match.decision.kind == "activate" and match.decision.side == "japan"
    return match


CASES = {
    "order": ("order: Mikasa, Fuji, Shikishima, others\n", 5, "Fuji activates before Shikishima"),
    "move": ("order: Iwate, others\nmove:\n  Iwate: ahead, ahead\n", 7, "would collide with Asama"),
    "move, ram": ("order: Iwate, others\nmove:\n  Iwate: ram Kniaz Suvorov\n", 7, "no legal move reaches"),
    "fire": ("fire:\n  all: at Kniaz Suvorov, else nearest\n", 6, "Kniaz Suvorov, which is sunk"),
    "armour": ("armour: 3 against 3 dice\n", 5, "an armoured cruiser rolls 1"),
    "counter-torpedo": ("counter-torpedo: 3\n", 5, "so a battleship rolls 2"),
    "torpedo targets": ("torpedo targets: Kniaz Suvorov, most damaged first\n", 5, "cannot be attacked"),
    "repairs": ("repairs: 12 dice, fire first\n", 5, "every Bank CP is rolled"),
    "move, a sunk ship": ("move:\n  Fuji: ahead\n", 6, "Fuji is sunk"),
    "armour, a ship's own": ("armour:\n  max\n  Iwate: 3 against 3 dice\n", 7, "armour: Iwate's \"3 against 3 dice\""),
    "counter-torpedo, a ship's own": ("counter-torpedo:\n  Mikasa: 3\n", 6, "counter-torpedo: Mikasa's 3 dice"),
    "repairs, a ship's own": ("repairs:\n  all dice, flooding first\n  Iwate: 12 dice, fire first\n", 7,
                              "repairs: Iwate's 12 dice"),
    "fire, no target": ("order: Mikasa, others\nmove:\n  Mikasa: ahead\nfire:\n  Mikasa: at Orel in stern\n", 9,
                        "\"at Orel in stern\" finds no enemy it can fire at"),
}


@pytest.mark.parametrize("kind", list(CASES))
def test_each_kind_of_order_block_that_cannot_be_carried_out_gets_a_note_naming_its_line(kind):
    body, line, words = CASES[kind]
    match = position(**{"Kniaz Suvorov": "sunk"} if "Suvorov," in body else
                     {"Fuji": "sunk"} if "Fuji: ahead" in body else {})
    text = HEADER + body
    orders = parse_orders(text, "tsushima-1905")
    notes = unusable_lines(SUPPORT, match.decision, match.state, orders, text)
    assert any(note.startswith(f"line {line}: ") and words in note for note in notes), notes


def test_orders_that_can_all_be_carried_out_get_no_note():
    match = position()
    text = HEADER + "order: Mikasa, Shikishima, Fuji, others\nmove:\n  Mikasa: ahead, port 30\nfire:\n  all: at nearest\n"
    orders = parse_orders(text, "tsushima-1905")
    assert unusable_lines(SUPPORT, match.decision, match.state, orders, text) == []


def test_a_ship_s_own_dice_choice_is_checked_against_its_own_class_only():
    match = position()
    text = HEADER + "armour:\n  1 against 2 dice\n  Mikasa: 2 against 3 dice\n  Iwate: 1 against 3 dice\n"
    orders = parse_orders(text, "tsushima-1905")
    assert unusable_lines(SUPPORT, match.decision, match.state, orders, text) == []
    text = HEADER + "armour:\n  Mikasa: 2 against 3 dice\n  Iwate: 2 against 3 dice\n"
    orders = parse_orders(text, "tsushima-1905")
    notes = unusable_lines(SUPPORT, match.decision, match.state, orders, text)
    assert len(notes) == 1 and notes[0].startswith("line 7: armour: Iwate's") and "so an armoured cruiser rolls 1" in notes[0], notes


def test_a_squadron_s_repair_dice_are_checked_against_its_ships_classes():
    match = position()
    text = HEADER + "repairs:\n  1st Division: 7 dice, fire first\n  2nd Division: 7 dice, fire first\n"
    orders = parse_orders(text, "tsushima-1905")
    notes = unusable_lines(SUPPORT, match.decision, match.state, orders, text)
    assert notes == ["line 7: repairs: 2nd Division's 7 dice: a ship rolls at most as many dice as CPs in its Bank "
                     "(6 at most); every Bank CP is rolled"]


def test_a_fire_order_that_finds_no_target_is_noted_in_the_answer_as_in_why_not():
    match = position()
    text = HEADER + "order: Mikasa, others\nfire:\n  Mikasa: at Orel in stern\n"
    orders = parse_orders(text, "tsushima-1905")
    answer = SUPPORT.answers.answer_for(match.decision, match.state, orders)
    assert answer["fire"] == "none"
    assert answer["notes"] == ["Mikasa's fire \"at Orel in stern\" finds no enemy it can fire at now (none in an "
                               "arc it allows, with guns that bear and a clear line of fire): it does not fire"]
    assert unusable_lines(SUPPORT, match.decision, match.state, orders, text) == [
        f"line 7: fire: {answer['notes'][0]}"]


def test_the_note_of_an_avoided_collision_says_what_is_done_instead():
    match = position()
    text = HEADER + "order: Iwate, others\nmove:\n  Iwate: ahead, ahead\n"
    orders = parse_orders(text, "tsushima-1905")
    notes = unusable_lines(SUPPORT, match.decision, match.state, orders, text)
    assert any(note.startswith("line 7: ") and "instead of A A" in note for note in notes), notes


def orders_stop():
    """The stop before turn 2's activations (``cadence = turn``): both sides' orders are due."""
    ships = [
        {"name": "Mikasa", "side": "japan", "class": "battleship", "at": [13.0, 6.5], "heading": 90},
        {"name": "Iwate", "side": "japan", "class": "armoured_cruiser", "at": [4.0, 10.0], "heading": 0},
        {"name": "Kniaz Suvorov", "side": "russia", "class": "battleship", "at": [14.0, 8.0], "heading": 0},
        {"name": "Orel", "side": "russia", "class": "battleship", "at": [16.0, 8.0], "heading": 0},
    ]
    match = Match(GAME, {"position": {"turn": 2, "phase": "action", "offense": "japan", "prime": 2,
                                      "next": "japan", "ship": ships}}, {"cadence": "turn"})
    assert [(d.kind, d.side) for d in match.decisions] == [("orders", "japan"), ("orders", "russia")]
    return match


RAMS = "move:\n  Mikasa: ram Kniaz Suvorov\n  Iwate: ram Orel, else ahead\n"


def test_a_ram_that_cannot_reach_its_target_is_named_at_the_orders_stop_by_its_line():
    match = orders_stop()
    text = HEADER.replace("turn: 1", "turn: 2") + RAMS
    orders = parse_orders(text, "tsushima-1905")
    notes = unusable_lines(SUPPORT, match.decision, match.state, orders, text)
    assert notes == ["line 7: move: Iwate's move \"ram Orel\" cannot be carried out: no legal move reaches Orel "
                     "(as the ships stand now)"]


def test_a_ram_out_of_reach_is_among_the_notes_of_the_report_sent_at_the_orders_stop():
    match = orders_stop()
    text = HEADER.replace("turn: 1", "turn: 2") + RAMS
    sent = AcceptedOrders("japan", 3, "sha", text, None, None, 1, turn=2)
    undone = NotCarriedOut(SUPPORT.answers, lambda turn: {"japan": [sent]}, 3)
    undone(match.decision, match.state, parse_orders(text, "tsushima-1905"))
    assert undone.by_side() == {"japan": (
        "line 7: move: Iwate's move \"ram Orel\" cannot be carried out: no legal move reaches Orel "
        "(as the ships stand now)",)}


def test_a_ram_after_an_option_that_can_be_carried_out_is_not_named_at_the_orders_stop():
    match = orders_stop()
    text = HEADER.replace("turn: 1", "turn: 2") + "move:\n  Iwate: ahead, else ram Orel\n"
    orders = parse_orders(text, "tsushima-1905")
    assert unusable_lines(SUPPORT, match.decision, match.state, orders, text) == []


def test_the_notes_on_an_activation_and_its_answer_plan_the_ship_s_move_once(monkeypatch):
    from adjudicator.games.tsushima_1905 import plans as plans_module
    from adjudicator.games.tsushima_1905.plans import StandingAnswers
    planned = []
    real = plans_module.resolve
    monkeypatch.setattr(plans_module, "resolve", lambda table, ship, order: planned.append(ship.name)
                        or real(table, ship, order))
    answers = StandingAnswers()
    text = HEADER + "order: Mikasa, others\nmove:\n  Mikasa: close Kniaz Suvorov\n"
    orders = parse_orders(text, "tsushima-1905")
    match = position()
    assert answers.why_not(match.decision, match.state, orders) == []
    answer = answers.answer_for(match.decision, match.state, orders)
    assert answer["ship"] == "Mikasa" and planned == ["Mikasa"]
    moved = position()
    moved.state.ships["Mikasa"].x -= 500            # another position: planned again, not taken from before
    again = answers.answer_for(moved.decision, moved.state, orders)
    assert planned == ["Mikasa", "Mikasa"] and again["ship"] == "Mikasa"


def test_a_sunk_ship_s_move_and_fire_are_each_named_by_the_line_in_their_own_block():
    """Orders for a sunk ship in ``move:`` and in ``fire:``: each note names the line of
    its own block, not the first line that names the ship."""
    match = position(Fuji="sunk")
    text = HEADER + "move:\n  Fuji: ahead\n  Mikasa: ahead\nfire:\n  Fuji: at nearest\n  all: at nearest\n"
    orders = parse_orders(text, "tsushima-1905")
    notes = unusable_lines(SUPPORT, match.decision, match.state, orders, text)
    assert "line 6: move: Fuji is sunk: this order is not used" in notes, notes
    assert "line 9: fire: Fuji is sunk: this order is not used" in notes, notes


def test_the_notes_on_a_receipt_come_in_the_order_of_their_lines():
    """A player reads the notes down the orders sent: line 5 before line 7, whatever
    kind of problem each is."""
    match = position(Fuji="sunk")
    text = HEADER + "order: Mikasa, Iwate, Asama, others\nmove:\n  Fuji: ahead\n"
    orders = parse_orders(text, "tsushima-1905")
    notes = unusable_lines(SUPPORT, match.decision, match.state, orders, text)
    numbers = [int(note.split(":")[0].removeprefix("line ")) for note in notes]
    assert len(numbers) >= 2 and numbers == sorted(numbers), notes


def test_a_follower_is_not_warned_of_a_leader_that_is_not_on_the_table():
    """A position without some of a column's ships (a case, a scenario's part): the
    ship ahead of a follower is the nearest one of its column that is on the table."""
    match = position()
    text = HEADER + "order: Iwate, Asama, others\n"
    orders = parse_orders(text, "tsushima-1905")
    notes = unusable_lines(SUPPORT, match.decision, match.state, orders, text)
    assert not any("Yakumo" in note for note in notes), notes
    assert any("Iwate activates before Asama" in note for note in notes), notes
