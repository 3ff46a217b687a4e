"""The referee's rulings added after the second review (A60-A68), one test or more each.

Positions are written as conformance cases (shared/cases/README.md) on small boards of
their own; the naval rulings (A65-A67) are in ``test_naval.py``.
"""

from __future__ import annotations

import random
import tomllib

import pytest

from adjudicator.engine import Match
from adjudicator.engine.cases import play_case
from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war import conformance
from adjudicator.games.russo_japanese_war.plans import OrdersPlayer
from adjudicator.games.russo_japanese_war.conformance import run_case
from adjudicator.games.russo_japanese_war.language.reader import read_orders
from adjudicator.games.russo_japanese_war.rules import card_play

GAME = RussoJapaneseWar()


def case(text: str) -> dict:
    return tomllib.loads(text)


def run(case_: dict) -> Match:
    """The match a case leaves, paused at its ``until`` as the case runner pauses (to
    look at what the expectations cannot say)."""
    return play_case(case_, GAME, conformance)[0]


# -- combats: every combat of the run ---------------------------------------------------------

WHOLE_RUN = case('''
id = "RJW-LOCAL-COMBATS-RUN"
title = "The combats expectation holds every combat of the run, earlier Game Turns too"
until = "japan-replenish"
dice = [4]
answers = [
  { ask = "attacks", side = "japan", declare = [{ target = "0303", with = ["J1"] }] },
  { ask = "advance", side = "japan", units = ["J1"] },
  { ask = "extra-card", side = "russia", use = false },
  { ask = "move", side = "russia", done = true },
  { ask = "attacks", side = "russia", declare = [{ target = "0303", with = ["R1"] }] },
]

[position]
turn = 1
phase = "japan-combat"
unit = [
  { id = "R1", side = "russia", strength = 3, ma = 2, at = "0303" },
  { id = "J1", side = "japan", strength = 5, ma = 3, at = "0302" },
]

[position.map]
hexes = ["0302", "0303", "0304", "0305"]

[position.cards]
deck = []
discard = []
hands = { japan = [], russia = [] }

[expect]
turn = 2
combats = [
  { target = "0303", differential = 2, column = 2, result = "DR" },
  { target = "0303", differential = -2, result = "NE" },
]
''')


def test_the_combats_of_an_earlier_game_turn_stay_in_the_record_of_the_run():
    assert run_case(WHOLE_RUN, GAME) == []


# -- A60: an event never acts on an eliminated unit -------------------------------------------

GARRISON_GONE = '''
id = "RJW-LOCAL-A60"
title = "Either half of #08 does nothing to an eliminated Port Arthur Garrison"
rulings = ["A60"]
until = "{until}"
answers = [
  {{ ask = "card-play", side = "{side}", event = "#08", units = [] }},
]

[position]
turn = 3
phase = "{side}-card-play"
morale = {{ japan = 5, russia = 5 }}
unit = [
  {{ id = "PA", side = "russia", strength = 2, ma = 0, at = "eliminated", flipped = {flipped} }},
  {{ id = "J1", side = "japan", strength = 2, ma = 3, at = "0302" }},
  {{ id = "R1", side = "russia", strength = 3, ma = 2, at = "0305" }},
]

[position.map]
hexes = ["0302", "0303", "0304", "0305"]

[position.cards]
deck = []
discard = []
hands = {{ {side} = ["#08"] }}

[expect]
morale = {{ japan = 5, russia = 5 }}
cards = {{ discard_top = "#08" }}

[expect.unit.PA]
at = "eliminated"
flipped = {flipped}
'''


def test_28_cm_howitzers_cost_no_morale_when_the_garrison_is_eliminated():
    assert run_case(case(GARRISON_GONE.format(side="japan", flipped="true", until="victory-check")), GAME) == []


def test_kondratenko_does_not_turn_an_eliminated_garrison():
    assert run_case(case(GARRISON_GONE.format(side="russia", flipped="false", until="japan-replenish")), GAME) == []


# -- A61, A63: Kondratenko in a combat only when the garrison defends; the re-read figures -----

def attack_on_1201(defender: str, japan_hand: str, japan_strength: int, dice: str, answers: str, expect: str) -> dict:
    units = {"PA": '{ id = "PA", side = "russia", strength = 2, ma = 0, at = "1201", flipped = false }',
             "R1": '{ id = "R1", side = "russia", strength = 2, ma = 2, at = "1201" },\n'
                   '  { id = "PA", side = "russia", strength = 2, ma = 0, at = "1203", flipped = false }'}[defender]
    return case(f'''
id = "RJW-LOCAL-A61"
title = "Kondratenko in a combat"
until = "japan-card-play"
dice = [{dice}]
answers = [
  {{ ask = "attacks", side = "japan", declare = [{{ target = "1201", with = ["J1"] }}] }},
  {answers}
]

[position]
turn = 3
phase = "japan-combat"
unit = [
  {units},
  {{ id = "J1", side = "japan", strength = {japan_strength}, ma = 3, at = "1301" }},
]

[position.map]
hexes = ["1101", "1201", "1202", "1203", "1301"]
key_locations = {{ "1201" = "Port Arthur" }}

[position.cards]
deck = []
discard = []
hands = {{ japan = [{japan_hand}], russia = ["#08"] }}

[expect]
{expect}
''')


def test_kondratenko_is_an_after_roll_event_when_the_garrison_defends_and_the_combat_is_re_read():
    # 5 against 2: +3, die 3: EX; Kondratenko turns the garrison to 3: +2, die 3: DR (A63: the
    # re-read figures); the garrison (movement allowance 0) cannot retreat (9.6.1)
    played = attack_on_1201("PA", "", 5, "3", '''{ ask = "combat-event", side = "russia", card = "#08" },
  { ask = "advance", side = "japan", units = [] },''', '''combats = [{ target = "1201", differential = 2, column = 2, result = "DR" }]
[expect.unit.PA]
eliminated = true
flipped = true''')
    assert run_case(played, GAME) == []


def test_kondratenko_is_not_offered_in_a_combat_at_port_arthur_without_the_garrison():
    """A61: R1 defends Port Arthur, the garrison is elsewhere: Russia is not asked."""
    not_offered = attack_on_1201("R1", "", 5, "4", '{ ask = "advance", side = "japan", units = [] },', '''combats = [{ target = "1201", differential = 3, column = 3, result = "DR" }]
cards = { hands = { russia = ["#08"] } }
[expect.unit.R1]
at = "1101"''')
    assert run_case(not_offered, GAME) == []


def test_a_re_read_replaces_the_result_so_an_earlier_hotchkiss_shift_no_longer_applies():
    # +3, die 3: EX; Hotchkiss: DE; Kondratenko re-reads at +2: DR, without Hotchkiss's step (A63)
    answers = '''{ ask = "support", side = "japan", pass = true },
  { ask = "combat-event", side = "japan", card = "#02" },
  { ask = "combat-event", side = "russia", card = "#08" },
  { ask = "advance", side = "japan", units = [] },'''
    reread = attack_on_1201("PA", '"#02"', 5, "3", answers,
                            'combats = [{ target = "1201", differential = 2, column = 2, result = "DR" }]')
    assert run_case(reread, GAME) == []


def test_a_re_read_below_minus_one_is_no_effect_without_a_column():
    # 1 against 2: -1, die 5: AR; Kondratenko: -2, below -1: NE (A32), no column read
    answers = '''{ ask = "combat-event", side = "russia", card = "#08" },'''
    below = attack_on_1201("PA", "", 1, "5", answers, 'combats = [{ target = "1201", differential = -2, result = "NE" }]')
    assert run_case(below, GAME) == []
    record = run(below).state["combats"][0]
    assert "column" not in record and record["result"] == "NE"


# -- A62: a chain retreat never makes the same unit make way twice ------------------------------

def test_a_chain_that_would_come_back_to_a_unit_that_made_way_fails():
    from tests.games.russo_japanese_war.test_chain_retreat import CIRCLE
    assert run_case(CIRCLE, GAME) == []


# -- A64: Gunshin with an empty discard pile -----------------------------------------------------

GUNSHIN = case('''
id = "RJW-LOCAL-A64"
title = "Gunshin named in the Card Play Phase with an empty discard pile is refused"
rulings = ["A64"]
until = "victory-check"
answers = [
  { ask = "card-play", side = "japan", event = "#13", units = [] },
  { ask = "card-play", side = "japan", done = true },
]

[position]
turn = 3
phase = "japan-card-play"
unit = [{ id = "J1", side = "japan", strength = 2, ma = 3, at = "0302" }]

[position.map]
hexes = ["0302", "0303"]

[position.cards]
deck = []
discard = []
hands = { japan = ["#13"] }

[expect]
rejected = 1
cards = { hands = { japan = ["#13"] }, discard_top = "" }
''')


def test_gunshin_with_an_empty_discard_pile_is_refused_with_a_clear_message():
    assert run_case(GUNSHIN, GAME) == []
    match = Match(GAME, conformance.setup(GUNSHIN))
    table = GAME.table(match.state)
    with pytest.raises(IllegalAnswer, match="discard pile.*empty.*A64"):
        card_play.parse_card_play(table, "japan", {"event": "#13", "units": []})


# -- A68: the differential a combat event's condition sees ----------------------------------------

A68_POSITION = {
    "turn": 3, "phase": "japan-combat",
    "unit": [{"id": "R1", "side": "russia", "strength": 3, "ma": 2, "at": "0303"},
             {"id": "J1", "side": "japan", "strength": 3, "ma": 3, "at": "0302"},
             {"id": "J2", "side": "japan", "strength": 3, "ma": 3, "at": "0403"}],
    "map": {"hexes": ["0302", "0303", "0304", "0403", "0404"]},
    "cards": {"deck": [], "discard": [], "hands": {"japan": ["#06", "#07"], "russia": ["#10"]}},
}


def play_with_orders(japan: str, russia: str) -> list:
    """Play the position from both sides' orders; return the combat events played."""
    header = "campaign: c\nturn: 3\nside: {}\n"
    state = GAME.new_state({"position": A68_POSITION}, {})
    players = {"japan": OrdersPlayer(GAME, read_orders(header.format("Japan") + japan, state)),
               "russia": OrdersPlayer(GAME, read_orders(header.format("Russia") + russia, state))}
    match = Match(GAME, {"position": A68_POSITION}, pause_on=lambda e: e.data.get("phase") == "japan-card-play")
    rng = random.Random(1)
    while match.decision is not None or match.chance is not None:
        if match.chance is not None:
            match.supply([rng.randint(1, 6) for _ in range(getattr(match.chance, "count", 1))])
        else:
            decision = match.decision
            match.answer(decision.side, players[decision.side](decision, match.state))
    return [e.data.get("card") for e in match.events if e.kind == "combat-event"]


def test_a_defenders_differential_condition_sees_the_attack_with_support_and_strength_events():
    """6 against 3 is +3; support makes +4: the defender's Kuropatkin fires (A68)."""
    japan = "attack: 0303 with J1, J2 support\nevents: none\n"
    russia = "events: Kuropatkin if differential >= 4\n"
    assert play_with_orders(japan, russia) == ["#10"]
    assert play_with_orders("attack: 0303 with J1, J2\nevents: none\n", russia) == []


def test_an_attackers_differential_condition_counts_the_support_card():
    """6 against 3 is +3; with support +4: the attacker's own Nogi condition holds (A68)."""
    japan = "attack: 0303 with J1, J2 support using 6\nevents: 7 if differential >= 4\n"
    assert play_with_orders(japan, "events: none\n") == ["#07"]
    japan = "attack: 0303 with J1, J2\nevents: 7 if differential >= 4\n"
    assert play_with_orders(japan, "events: none\n") == []


def test_a_defenders_condition_answering_a_strength_event_sees_it():
    """Support and Nogi (+2): +6, and Russia's answer sees +6 (A68)."""
    japan = "attack: 0303 with J1, J2 support using 6\nevents: 7\n"
    assert play_with_orders(japan, "events: Kuropatkin if differential >= 6\n") == ["#07", "#10"]
    assert play_with_orders(japan, "events: Kuropatkin if differential >= 7\n") == ["#07"]
