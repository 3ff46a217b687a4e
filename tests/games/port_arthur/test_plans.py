"""Orders answer the game's decisions; defaults answer for silent players; all legal."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest

from adjudicator.engine import Decision, Match
from adjudicator.games.port_arthur.game import PortArthur
from adjudicator.games.port_arthur.plans import DEFAULT_TEXT, answer_for, default_answer
from adjudicator.games.port_arthur.players import RandomPlayer, random_dice
from adjudicator.orders import merge_orders as any_merge_orders, parse_orders as any_parse_orders
merge_orders = partial(any_merge_orders, game="port-arthur")
parse_orders = partial(any_parse_orders, game="port-arthur")

SAMPLES = Path(__file__).resolve().parents[3] / "samples" / "port-arthur"

JAPAN = parse_orders((SAMPLES / "japan-turn1.orders").read_text())
RUSSIA = parse_orders((SAMPLES / "russia-turn1.orders").read_text())
GAME = PortArthur()


def position(*ships, **extra):
    base = {"turn": 2, "phase": "operations", "initiative": "japan", "cp": 0}
    return GAME.new_state({"position": {**base, **extra, "ship": list(ships)}}, {})


def ship(name, side, at, damaged=False, fp=(6, 3), sp=(5, 4), defense=3):
    return {"name": name, "side": side, "at": at, "damaged": damaged, "firepower": list(fp),
            "speed": list(sp), "defense": defense}


def decision(side, kind, options):
    return Decision(side, kind, options, "", lambda a: a)


def orders(text, side="Japan"):
    return parse_orders(f"campaign: t\nside: {side}\nturn: 2\n{text}")


def test_plan_first_applicable_step():
    state = position(ship("Mikasa", "japan", "Tsushima"), ship("Retvizan", "russia", "Yellow Sea", fp=(5, 3)))
    plan = orders("operations:\n  battle in Tsushima\n  move Tsushima squadron to Yellow Sea if stronger\n  pass\n")
    options = {"battle": [], "move": [{"from": "Tsushima", "to": ["Yellow Sea", "Japan"],
                                       "ships": ["Mikasa"], "port": False}], "pass": True}
    assert answer_for(decision("japan", "navo", options), state, plan) == {"move": "Tsushima", "to": "Yellow Sea",
                                                                          "plan_step": 2}
    weaker = position(ship("Mikasa", "japan", "Tsushima", fp=(2, 1)), ship("Retvizan", "russia", "Yellow Sea"))
    assert answer_for(decision("japan", "navo", options), weaker, plan) == {"pass": True, "plan_step": 3}


def test_plan_without_applicable_step_asks():
    state = position(ship("Mikasa", "japan", "Tsushima"))
    plan = orders("operations: battle in Yellow Sea\n")
    assert answer_for(decision("japan", "navo", {"battle": [], "move": [], "pass": True}), state, plan) is None
    plan = orders("operations: ask\n")
    assert answer_for(decision("japan", "navo", {"battle": [], "move": [], "pass": True}), state, plan) is None


def test_port_move_with_chosen_ships():
    state = position(ship("Mikasa", "japan", "Japan"), ship("Asahi", "japan", "Japan"))
    plan = orders("operations: move Asahi from Japan to Tsushima\n")
    options = {"battle": [], "move": [{"from": "Japan", "to": ["Tsushima"], "ships": ["Mikasa", "Asahi"],
                                       "port": True}], "pass": True}
    assert answer_for(decision("japan", "navo", options), state, plan) == {
        "move": "Japan", "to": "Tsushima", "ships": ["Asahi"], "plan_step": 1}


def test_sortie_all_to_and_impossible_orders():
    state = position(ship("Mikasa", "japan", "Japan"), ship("Fuji", "japan", "Japan", damaged=True),
                     phase="sortie-japan")
    options = {"ships": {"Mikasa": ["East China Sea", "Yellow Sea"], "Fuji": ["East China Sea", "shipyard"]},
               "land": ["Yellow Sea"], "meeples": 6}
    d = decision("japan", "sortie", options)
    assert answer_for(d, state, orders("sortie: all to Yellow Sea; land in Yellow Sea\n")) == {
        "moves": {"Mikasa": "Yellow Sea"}, "land": ["Yellow Sea"]}
    assert answer_for(d, state, orders("sortie: Fuji to Yellow Sea\n")) is None
    assert answer_for(d, state, orders("sortie: land in Tsushima\n")) is None


def test_policies():
    state = position(ship("Mikasa", "japan", "Yellow Sea"), ship("Retvizan", "russia", "Yellow Sea"), turn=3)
    yes_no = {"use": [True, False]}
    assert answer_for(decision("japan", "reroll", yes_no), state, orders("reroll: yes if turn < 4\n")) == {"use": True}
    assert answer_for(decision("japan", "reroll", yes_no), state, orders("reroll: yes if turn > 4\n")) == {"use": False}
    assert answer_for(decision("japan", "reroll", yes_no), state, orders("reroll: ask\n")) is None
    # "there" for a seize is the battle's zone
    assert answer_for(decision("japan", "seize", yes_no), state, orders("seize: yes if faster\n")) == {"use": False}
    assert answer_for(decision("japan", "dice", {"count": [1, 2, 3, 4, 5, 6], "firepower": 6, "target": []}),
                      state, orders("dice: auto\n")) == {"count": 2}
    assert answer_for(decision("japan", "dice", {"count": [1, 2, 3], "firepower": 6, "target": []}),
                      state, orders("dice: 5\n")) is None


def test_orders_of_the_other_side_answer_nothing():
    state = position(ship("Mikasa", "japan", "Yellow Sea"))
    assert answer_for(decision("russia", "reroll", {"use": [True, False]}), state, orders("reroll: yes\n")) is None
    assert answer_for(decision("japan", "reroll", {"use": [True, False]}), state, None) is None


def test_return_ports():
    state = position(ship("Retvizan", "russia", "Yellow Sea"), ship("Pobeda", "russia", "East China Sea"),
                     phase="return")
    options = {"ships": {"Retvizan": ["Port Arthur", "Diego Suarez"], "Pobeda": ["Port Arthur", "Diego Suarez"]}}
    d = decision("russia", "return", options)
    assert answer_for(d, state, orders("return: Pobeda to Diego Suarez\n", "Russia")) == {
        "ports": {"Retvizan": "Port Arthur", "Pobeda": "Diego Suarez"}}
    assert default_answer(d, state) == {"ports": {"Retvizan": "Port Arthur", "Pobeda": "Port Arthur"}}


def test_every_kind_has_a_default_and_its_text():
    assert set(DEFAULT_TEXT) == {"sortie", "navo", "reroll", "seize", "blockade", "dice", "criticals", "hits",
                                 "return", "mines", "attack"}


def test_standing_orders_merge():
    first = orders("sortie: Mikasa to Tsushima\ndice: 3\nhits: protect Mikasa\n")
    second = orders("dice: auto\noperations: pass\n")
    merged = merge_orders(first, second)
    assert merged.kinds == ("navo", "dice", "hits")
    assert merged.block("dice").count is None
    assert merge_orders(None, second) == second
    assert first.standing().kinds == ("dice", "hits")


OPTIONS = {"mines": True, "attack_on_port_arthur": True, "additional_ships": True}


@pytest.mark.parametrize("seed", range(6))
def test_orders_and_defaults_play_whole_games_legally(seed):
    """Both sides answer from the sample orders, else by default: the game accepts every answer."""
    rng = random.Random(seed)
    match = Match(GAME, {}, OPTIONS)
    dice = random_dice(rng)
    sides = {"japan": JAPAN, "russia": RUSSIA}
    answered = 0
    while not match.finished:
        if match.paused_at is not None:
            match.resume()
        elif match.roll is not None:
            match.supply_dice(dice(match.roll))
        else:
            d = match.decision
            answer = answer_for(d, match.state, sides[d.side])
            answered += answer is not None
            match.answer(d.side, answer if answer is not None else default_answer(d, match.state))
    assert match.state.result is not None and answered


@pytest.mark.parametrize("seed", range(6))
def test_defaults_against_a_random_player(seed):
    rng = random.Random(seed)
    player = RandomPlayer(rng)
    match = Match(GAME, {}, OPTIONS)
    dice = random_dice(rng)
    while not match.finished:
        if match.paused_at is not None:
            match.resume()
        elif match.roll is not None:
            match.supply_dice(dice(match.roll))
        else:
            d = match.decision
            answer = player(d, match.state) if d.side == "russia" else default_answer(d, match.state)
            match.answer(d.side, answer)


def test_standing_order_top_goes_with_each_sortie_answer_and_puts_that_ship_on_top_under_the_fog_of_war():
    russia = orders("top: Novik, Retvizan\nsortie:\n  Retvizan to Yellow Sea\n  Novik to Yellow Sea\n", side="Russia")
    assert "top: Novik, Retvizan" in russia.canonical_text()
    state = position(ship("Retvizan", "russia", "Port Arthur", fp=(7, 3)), ship("Novik", "russia", "Port Arthur",
                     fp=(2, 1)), ship("Mikasa", "japan", "Japan"))
    options = {"ships": {"Retvizan": ["Yellow Sea"], "Novik": ["Yellow Sea"]}, "land": [], "meeples": 0}
    answer = answer_for(decision("russia", "sortie", options), state, russia)
    assert answer["top"] == ["Novik", "Retvizan"]
    match = Match(GAME, {"position": {"turn": 2, "phase": "sortie-russia", "initiative": "japan", "cp": 0,
                                      "ship": [ship("Retvizan", "russia", "Port Arthur", fp=(7, 3)),
                                               ship("Novik", "russia", "Port Arthur", fp=(2, 1)),
                                               ship("Mikasa", "japan", "Japan")]}}, {"fog_of_war": True})
    while match.decision is None or match.decision.kind != "sortie" or match.decision.side != "russia":
        match.answer(match.decision.side, default_answer(match.decision, match.state))
    match.answer("russia", answer)
    seen = {s["name"] for s in match.view("japan")["ships"] if s["side"] == "russia"}
    assert seen == {"Novik"}


def test_the_report_tells_only_the_player_which_step_of_their_operations_plan_was_carried_out():
    state_ships = [ship("Mikasa", "japan", "Tsushima"), ship("Retvizan", "russia", "Yellow Sea", fp=(5, 3))]
    match = Match(GAME, {"position": {"turn": 2, "phase": "operations", "initiative": "japan", "cp": 0,
                                      "ship": state_ships}}, {})
    plan = orders("operations:\n  1. battle in Tsushima\n  2. pass\n")
    dice = iter([6, 1])  # the roll-off: Japan conducts a NAVO
    while match.decision is None or (match.decision.side, match.decision.kind) != ("japan", "navo"):
        if match.decision is None:
            match.supply_dice([next(dice) for _ in range(match.pending.count)])
        else:
            match.answer(match.decision.side, default_answer(match.decision, match.state))
    match.answer("japan", answer_for(match.decision, match.state, plan))
    plan_events = [e for e in match.events if e.kind == "plan"]
    assert [e.text for e in plan_events] == ["Japan's operations plan: step 2 is carried out."]
    assert plan_events[0].visible_to == ("japan",)
