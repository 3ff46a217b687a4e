"""The Tsushima 1905 orders language: parsing, names, canonical receipts, and the
plans that answer the rules' questions from a side's orders."""

import json
import random
from pathlib import Path

import pytest

from adjudicator.engine import Match
from adjudicator.engine.match import play_out
from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.autoplayer import random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.orders import CODES, read
from adjudicator.games.tsushima_1905.orders.plans import Plans
from adjudicator.orders.problems import ProblemLog
from adjudicator.orders.text import clean

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "tsushima-1905"
GAME = Tsushima1905()
HEADER = "campaign: c\nside: {side}\nturn: 1\npassword: x\n"


def parse(text):
    cleaned = clean(text)
    log = ProblemLog(list(cleaned.lines), codes=CODES)
    return read(cleaned, log), log.problems


def sample(side):
    orders, problems = parse((SAMPLES / f"{side}-orders.txt").read_text())
    assert problems == []
    return orders


@pytest.mark.parametrize("side", ["japan", "russia"])
def test_the_sample_orders_read_without_problems_and_their_receipt_reads_back_the_same(side):
    orders = sample(side)
    again, problems = parse(orders.canonical_text() + "password: x\n")
    assert problems == [] and again == orders


def test_moves_read_explicit_elements_relative_orders_and_else_chains():
    orders = sample("japan")
    moves = {o.who: o for o in orders.block("move").orders}
    assert moves["Mikasa"].options[0].elements == ("A", "P30", "A")
    assert moves["Idzumo"].options[0].relative.text() == "steer 135"
    assert moves["Idzumo"].options[0].elements == ("MAX",)
    tokiwa = moves["Tokiwa"].options
    assert tokiwa[0].relative.text() == "ram Kniaz Suvorov" and tokiwa[0].condition.text() == "if Kniaz Suvorov cp <= 2"
    assert tokiwa[1].relative.text() == "follow Idzumo"


def test_an_unknown_ship_is_reported_with_its_line():
    _, problems = parse(HEADER.format(side="Japan") + "move:\n  Mikasa: follow Borodinoo\n")
    assert [(p.code, p.line) for p in problems] == [("E401", 6)]


def test_admiral_alone_is_ambiguous_and_the_candidates_are_named():
    _, problems = parse(HEADER.format(side="Japan") + "fire:\n  all: at Admiral\n")
    assert problems[0].code == "E402" and "Admiral Ushakov" in problems[0].message


def test_a_side_cannot_move_the_enemy_ships():
    _, problems = parse(HEADER.format(side="Japan") + "move:\n  Borodino: ahead\n")
    assert problems[0].code == "E405"


def test_a_turn_beyond_90_degrees_is_out_of_range():
    _, problems = parse(HEADER.format(side="Russia") + "move:\n  Borodino: port 95\n")
    assert problems[0].code == "E301"


def test_a_misspelt_heading_is_an_unexpected_word():
    _, problems = parse(HEADER.format(side="Russia") + "mvoe:\n  Borodino: ahead\n")
    assert problems and problems[0].code in ("E101", "E104")


def _decision(kind, side, options):
    return Decision(side, kind, options, "", lambda raw: raw)


def test_the_armour_table_answers_by_the_number_of_attack_dice_and_keeps_a_cp():
    plans = Plans({"japan": sample("japan")})
    state = GAME.new_state({}, {})
    ask = _decision("armor", "japan", {"ship": "Mikasa", "attack_dice": 3, "max": 2})
    assert plans(ask, state) == {"ship": "Mikasa", "dice": 2}
    state.ships["Mikasa"].bank = 2
    assert plans(ask, state) == {"ship": "Mikasa", "dice": 1}
    ask = _decision("armor", "japan", {"ship": "Mikasa", "attack_dice": 1, "max": 1})
    assert plans(ask, state) == {"ship": "Mikasa", "dice": 0}


def test_the_torpedo_choice_follows_its_condition_on_the_attacks_offered():
    plans = Plans({"japan": sample("japan")})
    state = GAME.new_state({}, {})
    assert plans(_decision("torpedo", "japan", {"attacks": 2}), state) == {"use": True}
    assert plans(_decision("torpedo", "japan", {"attacks": 1}), state) == {"use": False}


def test_squadron_follow_puts_each_ship_astern_of_the_one_ahead_in_line():
    plans = Plans({"japan": sample("japan")})
    match = Match(GAME)
    chance = random_dice(random.Random(2))
    asked = []
    while len(asked) < 4 and match.pending is not None:
        if match.chance is not None:
            match.supply(chance(match.chance))
            continue
        answer = plans(match.decision, match.state)
        if match.decision.kind == "activate" and match.decision.side == "japan":
            asked.append(answer["ship"])
        match.answer(match.decision.side, answer)
    assert asked[:4] == ["Mikasa", "Shikishima", "Fuji", "Asahi"]


def test_a_whole_game_played_from_both_sides_orders_ends_and_replays_identically():
    plans = Plans({"japan": sample("japan"), "russia": sample("russia")})
    match = play_out(Match(GAME), random_dice(random.Random(5)), plans)
    assert match.finished and match.state.winner in ("japan", "russia", "draw")
    replay = Match(GAME, history=match.history_json())
    assert json.dumps(replay.state.to_json()) == json.dumps(match.state.to_json())
