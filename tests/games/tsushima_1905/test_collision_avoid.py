"""``collision: avoid`` (rulings §4.3, issue "collisions that are avoided"): the
project's own sample orders, played from the historical set-up, collide only where
no legal move avoids it, and each move the orders could not carry out as written is
told with what was done instead."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from adjudicator.engine import Match
from adjudicator.games.tsushima_1905.answers import Element
from adjudicator.games.tsushima_1905.players import random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.plans import Plans
from adjudicator.games.tsushima_1905.rules.movement import plan_move
from adjudicator.games.tsushima_1905.rules.table import Table
from adjudicator.orders import parse_orders
from tests.conftest import soak_cases
from tests.games.tsushima_1905.test_random_games import MORE_GAMES, questions

SAMPLES = Path(__file__).resolve().parents[3] / "samples" / "tsushima-1905"
GAME = Tsushima1905()
SINGLES = [Element(0)] + [Element(sign * d) for d in range(1, 91) for sign in (1, -1)]


def sample_orders(side: str):
    return parse_orders((SAMPLES / f"{side}-orders.txt").read_text(), "tsushima-1905")


def clear_single_elements(state, name: str) -> list[str]:
    """The single move elements that take ``name`` neither into a collision nor off the table."""
    table = Table(state, GAME.data, GAME.geo, Options.from_json(state.options), lambda event: None)
    ship = table.ship(name)
    found = []
    for element in SINGLES:
        plan = plan_move(table, ship, [element])
        if not plan.struck and not plan.withdrawn:
            found.append(element.code)
    return found


def collides(state, answer) -> bool:
    """Whether the answer's move runs into a ship."""
    table = Table(state, GAME.data, GAME.geo, Options.from_json(state.options), lambda event: None)
    from adjudicator.games.tsushima_1905.answers import parse_element
    return bool(plan_move(table, table.ship(answer["ship"]), [parse_element(e) for e in answer["move"]]).struck)


@pytest.mark.parametrize("seed", [5] + soak_cases([3, 1, 2] if MORE_GAMES else []))   # more with the soaks
def test_the_sample_orders_collide_only_where_no_legal_move_avoids_it(seed):
    plans = Plans({"japan": sample_orders("japan"), "russia": sample_orders("russia")})
    chance, match = random_dice(random.Random(seed)), Match(GAME)
    collisions = avoided = 0
    for decision in questions(match, chance, 200_000):
        answer = plans(decision, match.state)
        if decision.kind == "activate" and not answer.get("pass"):
            before = len(match.events)
            clear = clear_single_elements(match.state, answer["ship"]) if collides(match.state, answer) else []
            match.answer(decision.side, answer)
            struck = [e for e in match.events[before:] if e.kind == "collision" and e.data["ship"] == answer["ship"]]
            notes = answer.get("notes", [])
            avoided += sum(1 for note in notes if "avoids a collision" in note)
            if struck:
                collisions += 1
                assert not clear, (answer, clear[:5])
                assert any("no legal move avoids a collision" in note for note in notes), answer
            continue
        match.answer(decision.side, answer)
    assert match.finished
    assert avoided > 0          # the orders as written would have collided, and did not


def test_others_activate_column_by_column_front_to_back():
    """R-LINE-1: without an ``order:`` list the leader of each column goes first, then
    the ships astern of it in the line's order; never the counter sheet's order."""
    from adjudicator.games.tsushima_1905.plans import line_order
    names = [info.name for info in GAME.data.ships if info.side == "russia"]
    ordered = line_order(GAME.data, names)
    assert ordered[:4] == ["Kniaz Suvorov", "Alexander III", "Borodino", "Orel"]
    assert ordered[4:6] == ["Osliabia", "Sissoi Veliki"]
    assert ordered.index("Admiral Nakhimov") < ordered.index("Dimitri Donskoi") < ordered.index("Vladimir Monomakh")


def test_an_orders_file_that_collides_and_fires_moves_without_the_fire_and_says_why():
    """R-ACT-2: a move that collides ends the ship's turn; the orders' fire does not
    take place, and the answer's note (told in the narrative) says so."""
    position = {"turn": 1, "phase": "action", "offense": "russia", "prime": 1, "next": "russia", "ship": [
        {"name": "Orel", "side": "russia", "class": "battleship", "at": [10.0, 10.0], "heading": 0},
        {"name": "Borodino", "side": "russia", "class": "battleship", "at": [10.0, 11.3], "heading": 0},
        {"name": "Mikasa", "side": "japan", "class": "battleship", "at": [14.0, 10.0], "heading": 0}]}
    match = Match(GAME, {"position": position, "continuous": True}, {})
    text = ("campaign: c\nside: Russia\nturn: 1\norder: Orel\nmove:\n  Orel: ahead\n"
            "fire:\n  Orel: at Mikasa\ncollision: allow\n")
    plans = Plans({"russia": parse_orders(text, "tsushima-1905")})
    answer = plans(match.decision, match.state)
    assert answer["ship"] == "Orel" and answer["move"] == ["A"] and answer["fire"] == "none"
    assert any("Orel does not fire: its move collides with Borodino" in note for note in answer["notes"])
    match.answer("russia", answer)
    told = [e.text for e in match.events if e.kind == "orders-note"]
    assert any("does not fire" in text for text in told)
    assert any(e.kind == "collision" for e in match.events)


def test_prime_stop_after_n_counts_the_activations_made_not_the_ships_passed_over():
    """prime: stop after 1: a ship passed over (no Bank CP to move) made no activation,
    so the Offense still takes one prime activation, and passes after it."""
    position = {"turn": 1, "phase": "action", "offense": "russia", "prime": 3, "next": "russia", "ship": [
        {"name": "Orel", "side": "russia", "class": "battleship", "at": [10.0, 10.0], "heading": 0,
         "cp": 4, "spent": 4},
        {"name": "Borodino", "side": "russia", "class": "battleship", "at": [5.0, 5.0], "heading": 0},
        {"name": "Navarin", "side": "russia", "class": "battleship", "at": [7.0, 5.0], "heading": 0},
        {"name": "Mikasa", "side": "japan", "class": "battleship", "at": [4.0, 20.0], "heading": 180}]}
    match = Match(GAME, {"position": position, "continuous": True}, {})
    assert match.state.ships["Orel"].activated          # passed over: no Bank CP
    orders = parse_orders("campaign: c\nside: Russia\nturn: 1\nprime: stop after 1\nfire:\n  all: hold fire\n",
                          "tsushima-1905")
    plans = Plans({"russia": orders})
    first = plans(match.decision, match.state)
    assert first.get("ship") == "Borodino"
    match.answer("russia", first)
    assert match.decision.side == "russia" and match.decision.options["may_pass"]
    assert plans(match.decision, match.state) == {"pass": True}
