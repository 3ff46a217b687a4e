"""The turn told in order, with its dice (rulings §4.4): each salvo with its natural
dice, the re-rolled 1s, the Admirals' +1, the armour dice, every pair and every
critical die; a ship's fate told after the salvo, torpedo, collision or damage that
brought it; counts in plain English ("1 die", never "1 dice" or "hit(s)")."""

from __future__ import annotations

import random
import re

import pytest

from adjudicator.engine import Match
from adjudicator.engine.match import play_out
from adjudicator.engine.requests import Decision, Roll
from adjudicator.games.tsushima_1905.players import RandomPlayer, ReasonablePlayer, random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.rules.gunnery import resolve_fire
from adjudicator.games.tsushima_1905.rules.torpedoes import torpedo_phase
from adjudicator.games.tsushima_1905.rules.table import Table

GAME = Tsushima1905()


def table_with(ships, admiral=None, options=None, offense="japan"):
    position = {"turn": 1, "phase": "action", "offense": offense, "prime": 1, "next": offense,
                "admiral": admiral or {}, "ship": ships}
    chosen = options or {}
    state = GAME.new_state({"position": position}, chosen)
    events = []
    return Table(state, GAME.data, GAME.geo, Options.from_json(chosen), events.append), events


def drive(steps, dice, answers=()):
    """Run rules ``steps`` to their end with fixed ``dice`` (in the order asked) and
    fixed ``answers`` to the questions; returns the rolls asked for."""
    dice, answers, rolls = list(dice), list(answers), []
    try:
        request = next(steps)
        while True:
            if isinstance(request, Roll):
                rolls.append((request.purpose, request.count))
                given, dice = dice[:request.count], dice[request.count:]
                request = steps.send(tuple(given))
            else:
                assert isinstance(request, Decision)
                request = steps.send(answers.pop(0))
    except StopIteration:
        pass
    assert dice == [] and answers == []
    return rolls


MIKASA = {"name": "Mikasa", "side": "japan", "class": "battleship", "at": [10, 10], "heading": 90}
SUVOROV = {"name": "Kniaz Suvorov", "side": "russia", "class": "battleship", "at": [10, 14], "heading": 90}
NAKHIMOV = {"name": "Admiral Nakhimov", "side": "russia", "class": "armoured_cruiser", "at": [14, 14],
            "heading": 270}


def test_a_salvo_shows_its_natural_dice_the_rerolled_ones_the_admiral_and_the_critical_die():
    table, events = table_with([MIKASA, SUVOROV], admiral={"japan": "offense"})
    mikasa, suvorov = table.ship("Mikasa"), table.ship("Kniaz Suvorov")
    rolls = drive(resolve_fire(table, mikasa, suvorov, 3), dice=[6, 1, 5, 2, 6, 5], answers=[1])

    assert [purpose for purpose, _ in rolls] == ["gunnery Mikasa", "re-roll of 1s Mikasa", "armour Kniaz Suvorov",
                                                 "critical Kniaz Suvorov"]
    (fire,) = events
    assert fire.text == ("Mikasa fires 3 dice at Kniaz Suvorov. Attack: rolled 6 1 5, the 1 re-rolled: 2, "
                         "Admiral +1. Armour: 1 real die rolled 6 and 2 default 1s. Pairs: 7 v 6 hit; "
                         "6 v 1 hit and critical (die 5: flood); 3 v 1 hit. 3 hits, a flood.")
    assert fire.data["natural"] == [6, 1, 5] and fire.data["rerolled"] == [2] and fire.data["attack_bonus"] == 1
    assert fire.data["pairs"][1] == [6, 1, "hit", 5, "flood"]
    assert suvorov.cp == 5 and suvorov.floods == 1


def test_the_defensive_admiral_is_shown_on_every_armour_die_or_on_the_real_ones_only():
    table, events = table_with([MIKASA, SUVOROV], admiral={"russia": "defense"})
    drive(resolve_fire(table, table.ship("Kniaz Suvorov"), table.ship("Mikasa"), 2), dice=[4, 3, 2], answers=[1])
    assert "Armour: 1 real die rolled 2 and 1 default 1." in events[0].text    # Mikasa has no Admiral

    table, events = table_with([MIKASA, SUVOROV], admiral={"russia": "defense"})
    drive(resolve_fire(table, table.ship("Mikasa"), table.ship("Kniaz Suvorov"), 3), dice=[4, 3, 5, 2], answers=[1])
    assert "Armour: 1 real die rolled 2 and 2 default 1s, Admiral +1. Pairs: 5 v 3 hit; 4 v 2 hit; 3 v 2 hit." \
        in events[0].text

    table, events = table_with([MIKASA, SUVOROV], admiral={"russia": "defense"},
                               options={"admiral_on_default_dice": False})
    drive(resolve_fire(table, table.ship("Mikasa"), table.ship("Kniaz Suvorov"), 3), dice=[4, 3, 5, 2], answers=[1])
    assert "Armour: 1 real die rolled 2 (Admiral +1) and 2 default 1s. Pairs: 5 v 3 hit; 4 v 1 hit; 3 v 1 hit." \
        in events[0].text


def test_one_die_is_a_die_and_a_miss_is_no_hit():
    table, events = table_with([MIKASA, NAKHIMOV])
    drive(resolve_fire(table, table.ship("Admiral Nakhimov"), table.ship("Mikasa"), 1), dice=[1], answers=[0])
    assert events[0].text == ("Admiral Nakhimov fires 1 die at Mikasa. Attack: rolled 1. Armour: 1 default 1. "
                              "Pair: 1 v 1 miss. No hit.")


def test_a_sinking_is_told_after_the_salvo_that_sank_the_ship_and_the_later_pairs_are_not_compared():
    table, events = table_with([MIKASA, dict(SUVOROV, cp=1, floods=1)])
    drive(resolve_fire(table, table.ship("Mikasa"), table.ship("Kniaz Suvorov"), 3), dice=[4, 3, 2], answers=[0])
    assert [e.kind for e in events] == ["fire", "fate"]
    assert events[0].text.endswith("Pairs: 4 v 1 hit; 3 v 1 not compared; 2 v 1 not compared. 1 hit.")
    assert events[1].text == "Kniaz Suvorov sinks and is removed from the table."


def test_a_critical_that_sinks_is_told_in_the_salvo_before_the_sinking():
    table, events = table_with([MIKASA, dict(SUVOROV, cp=1)])
    drive(resolve_fire(table, table.ship("Mikasa"), table.ship("Kniaz Suvorov"), 3), dice=[6, 4, 3, 5], answers=[0])
    assert events[0].text.endswith("Pairs: 6 v 1 hit and critical (die 5: flood); 4 v 1 not compared; "
                                   "3 v 1 not compared. 1 hit, a flood.")
    assert events[1].text == "Kniaz Suvorov sinks and is removed from the table."


def test_a_torpedo_attack_shows_every_die_and_the_admirals():
    table, events = table_with([MIKASA, SUVOROV], admiral={"japan": "offense"}, offense="japan")
    table.state.torpedo_attacks = 1
    drive(torpedo_phase(table), dice=[1, 3, 2, 4, 2], answers=[[table.ship("Kniaz Suvorov")], 2])
    assert events[0].text == ("Torpedoes at Kniaz Suvorov: attack rolled 1 3 2, Admiral +1; 2 counter-torpedo dice "
                              "rolled 4 2. Highest 4 v 4: a miss.")


CAUSES = {"fire": "target", "torpedo": "target", "damage": "ship"}


def cause_of_each_fate(events):
    """For each fate, the event just before it that is not itself a fate."""
    told = [e for e in events if e.kind != "phase"]
    for i, event in enumerate(told):
        if event.kind == "fate":
            j = i - 1
            while told[j].kind == "fate":
                j -= 1
            yield event, told[j]


@pytest.mark.parametrize("kind,seed", [("random", 1), ("random", 2), ("reasonable", 3), ("reasonable", 4)])
def test_every_fate_follows_its_cause_and_no_count_reads_1_dice_or_hit_s(kind, seed):
    player = RandomPlayer(seed) if kind == "random" else ReasonablePlayer()
    match = play_out(Match(GAME), random_dice(random.Random(seed)), player)
    fates = list(cause_of_each_fate(match.events))
    assert fates
    for fate, cause in fates:
        ship = fate.data["ship"]
        if cause.kind == "collision":
            assert ship in [cause.data["ship"], *cause.data["struck"]], (fate.text, cause.text)
        else:
            assert cause.kind in CAUSES and cause.data[CAUSES[cause.kind]] == ship, (fate.text, cause.text)
    for event in match.events:
        assert "(s)" not in event.text and not re.search(r"\b1 (dice|hits|CPs|floods|fires)\b", event.text), event.text


def test_repairs_show_their_dice_and_count_the_tokens_removed():
    from adjudicator.games.tsushima_1905.answers import Repair
    from adjudicator.games.tsushima_1905.rules.repair import repair_phase

    table, events = table_with([dict(MIKASA, fires=1, floods=2, cp=3)])
    table.state.phase = "repair"
    drive(repair_phase(table), dice=[4, 6, 1], answers=[Repair("Mikasa", 3, "flood")])
    assert events[0].text == "Mikasa rolls 3 dice for repairs (4 6 1): 2 floods removed."


def test_a_collision_says_what_it_costs_each_ship_and_a_struck_hulk_loses_nothing():
    from adjudicator.games.tsushima_1905.rules.movement import collide

    second = {"name": "Fuji", "side": "japan", "class": "battleship", "at": [11, 10], "heading": 90}
    hulk = dict(NAKHIMOV, at=[10, 11], cp=0, status="surrendered")
    table, events = table_with([MIKASA, second, hulk])
    collide(table, table.ship("Mikasa"), ["Fuji"])
    assert events[0].text == "Mikasa collides with Fuji: both lose 1 CP, take a flood and are done for the turn."
    table, events = table_with([MIKASA, second, hulk])
    collide(table, table.ship("Mikasa"), ["Admiral Nakhimov"])
    assert events[0].text == ("Mikasa collides with Admiral Nakhimov (surrendered): Mikasa loses 1 CP, takes a "
                              "flood and is done for the turn.")
