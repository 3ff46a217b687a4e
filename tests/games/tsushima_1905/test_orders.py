"""The Tsushima 1905 orders language: parsing, names, canonical receipts, and the
plans that answer the rules' questions from a side's orders."""

import json
import random
from pathlib import Path

import pytest

from adjudicator.engine import Match
from adjudicator.engine.match import play_out
from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.players import random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.language import CODES, read
from adjudicator.games.tsushima_1905.plans import Plans
from adjudicator.orders.problems import ProblemLog
from adjudicator.orders.text import clean

SAMPLES = Path(__file__).resolve().parents[3] / "samples" / "tsushima-1905"
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
    assert problems[0].code == "E402" and "Admiral Ushakov" in problems[0].suggestions


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


# -- moves refused rather than rewritten; names; numbers; empty headings; concede ------


@pytest.mark.parametrize("side,entry,column,words", [
    ("Japan", "Fuji: P90, P90, P90", 14, "may turn once"),
    ("Russia", "Orel: starboard 30, port 30, ahead", 23, "may turn once"),
    ("Japan", "Iwate: ahead 5", 10, "at most 4 move elements"),
    ("Russia", "Orel: A, A, A", 15, "at most 2 move elements"),
    ("Japan", "Idzumo: S10, A, P10, S10", 24, "may turn twice"),
    ("Japan", "1st Division: S10, A, P10", 25, "Mikasa (battleship) may turn once"),
])
def test_a_move_beyond_the_class_limits_is_an_error_at_its_line_and_column_never_rewritten(
        side, entry, column, words):
    _, problems = parse(HEADER.format(side=side) + f"move:\n  {entry}\n")
    assert [(p.code, p.line, p.column) for p in problems] == [("E410", 6, column)]
    assert words in problems[0].message and "nothing is cut to fit" in problems[0].message


def test_moves_within_the_limits_are_kept_as_written():
    orders, problems = parse(HEADER.format(side="Japan") + "move:\n  Iwate: A, S45, P45, A\n  Mikasa: S30, A, A\n")
    assert problems == []
    assert orders.block("move").canonical_lines()[1:] == ["  Iwate: A, S45, P45, A", "  Mikasa: S30, A, A"]


def test_a_move_needing_more_cps_than_the_ship_has_left_is_an_error_when_read_for_the_position():
    from adjudicator.orders.problems import ProblemLog as Log
    state = GAME.new_state({}, {})
    state.ships["Orel"].bank, state.ships["Orel"].lost = 1, 7
    cleaned = clean(HEADER.format(side="Russia") + "move:\n  Orel: A, A\n")
    log = Log(list(cleaned.lines), codes=CODES)
    read(cleaned, log, state)
    assert [(p.code, p.line, p.column) for p in log.problems] == [("E410", 6, 12)]
    assert "Orel has 1 CP left" in log.problems[0].message


def test_a_misspelt_ship_gets_a_did_you_mean():
    _, problems = parse(HEADER.format(side="Japan") + "move:\n  Shikishma: ahead\nfire:\n  all: at Borodno\n")
    assert [(p.code, p.line, p.suggestions) for p in problems] == [
        ("E401", 6, ("Shikishima",)), ("E401", 8, ("Borodino",))]


@pytest.mark.parametrize("text", ["move:\n  Mikasa: ahead 1" + "9" * 5000, "move:\n  Mikasa: steer 1" + "0" * 5000,
                                  "prime: stop after 9" + "9" * 5000, "move:\n  Mikasa: ahead 1" + "1" * 5000 + ".5",
                                  "move:\n  Mikasa: station on Orel bearing 90 distance 1" + "0" * 5000])
def test_a_number_of_thousands_of_digits_is_an_error_with_its_place(text):
    _, problems = parse(HEADER.format(side="Japan") + text + "\n")
    assert problems and all(p.line in (5, 6) and p.column > 0 for p in problems)


@pytest.mark.parametrize("text, column", [
    ("move:\n  Mikasa: station on Orel bearing 90 distance 120", 47),
    ("move:\n  Mikasa: ahead if Orel within 120.5", 32),
])
def test_a_distance_beyond_the_table_is_the_same_error_in_a_station_and_a_condition(text, column):
    _, problems = parse(HEADER.format(side="Japan") + text + "\n")
    assert [(p.code, p.line, p.column, p.message) for p in problems] == [
        ("E301", 6, column, f"a distance of {text.rsplit(' ', 1)[1]} BL is beyond the table (28 BL at most)")]


@pytest.mark.parametrize("heading", ["torpedo", "prime", "collision", "concede", "armour", "counter-torpedo",
                                     "repairs", "torpedo targets", "order", "move", "fire"])
def test_an_empty_heading_is_an_error_at_its_line_worded_as_in_every_game(heading):
    """The shared block loop (orders/reading.py): one wording of E103 for every game."""
    _, problems = parse(HEADER.format(side="Japan") + f"{heading}:\n")
    assert [(p.code, p.line, p.column) for p in problems] == [("E103", 5, 1)]
    assert problems[0].message == f'the "{heading}" heading has no entries'


def test_the_header_is_read_as_in_every_game():
    """The shared header reader: an unknown side and a game line for another game are
    E113 at their place, with the sides suggested; a missing line is E112."""
    _, problems = parse("campaign: c\nside: Rsusia\nturn: 1\ngame: port-arthur\nprime: all\n")
    assert [(p.code, p.line, p.column) for p in problems] == [("E113", 2, 7), ("E113", 4, 7)]
    assert problems[0].suggestions == ("russia",)
    _, problems = parse("campaign: c\nturn: 1\nprime: all\n")
    assert [p.code for p in problems] == ["E112"] and problems[0].line == 1


def test_concede_yes_is_accepted_reads_back_and_answers_every_question_with_a_concession():
    orders, problems = parse(HEADER.format(side="Russia") + "concede: yes\n")
    assert problems == [] and orders.block("concede").canonical_lines() == ["concede:", "  yes"]
    again, _ = parse(orders.canonical_text() + "password: x\n")
    assert again == orders
    match = Match(GAME)
    while match.decision is None or match.decision.side != "russia":
        if match.chance is not None:
            match.supply(random_dice(random.Random(1))(match.chance))
        else:
            match.answer(match.decision.side, Plans({})(match.decision, match.state))
    match.answer("russia", Plans({"russia": orders})(match.decision, match.state))
    assert match.finished and match.state.result["winner"] == "japan"
    assert match.state.result["victory"] == "conceded" and "Russia concedes" in match.events[-1].text


def test_armour_counter_torpedo_and_repairs_are_chosen_per_ship_squadron_or_all():
    text = (HEADER.format(side="Japan") + "armour: none\n  Mikasa: max\n  2nd Division: 1 against 3 dice\n"
            "counter-torpedo: none\n  Iwate: 2\nrepairs: all dice, flooding first\n  Fuji: 1 dice, fire first\n")
    orders, problems = parse(text)
    assert problems == []
    again, _ = parse(orders.canonical_text() + "password: x\n")
    assert again == orders
    state = GAME.new_state({}, {})
    plans = Plans({"japan": orders})

    def ask(kind, ship, **options):
        return plans.answer_for(Decision("japan", kind, {"ship": ship, **options}, "", lambda a: a), state)

    assert ask("armor", "Mikasa", max=2, attack_dice=3)["dice"] == 2          # its own line
    assert ask("armor", "Fuji", max=2, attack_dice=3)["dice"] == 0            # the general "none"
    assert ask("armor", "Iwate", max=1, attack_dice=3)["dice"] == 1           # its squadron's
    assert ask("armor", "Iwate", max=1, attack_dice=2)["dice"] == 1           # squadron's, auto beyond its table
    assert ask("counter-torpedo", "Iwate", max=3)["dice"] == 2
    assert ask("counter-torpedo", "Idzumo", max=3)["dice"] == 0
    assert ask("repair", "Fuji", max=8) == {"ship": "Fuji", "dice": 1, "first": "fire"}
    assert ask("repair", "Mikasa", max=8) == {"ship": "Mikasa", "dice": 8, "first": "flood"}


def test_conditions_on_fires_floods_the_admirals_distance_and_the_draw_piles():
    from adjudicator.games.tsushima_1905.options import Options
    from adjudicator.games.tsushima_1905.rules.table import Table

    def holds(condition_text, **change):
        orders, problems = parse(HEADER.format(side="Japan") + f"torpedo: yes if {condition_text}\n")
        assert problems == [], problems
        state = GAME.new_state({}, {})
        for name, values in change.items():
            if name == "admiral":
                state.admiral = values
            elif name == "japan_draw":
                state.decks["japan"].draw = state.decks["japan"].draw[:values]
            else:
                for key, value in values.items():
                    setattr(state.ships[name.replace("_", " ")], key, value)
        table = Table(state, GAME.data, GAME.geo, Options(), lambda event: None)
        again, _ = parse(orders.canonical_text() + "password: x\n")
        assert again == orders
        condition = orders.block("torpedo").condition
        return Plans({}).holds(condition, table, "japan", state.ships["Mikasa"])

    assert holds("fires >= 1", Mikasa={"fires": 1}) and not holds("fires >= 1")
    assert holds("Kniaz Suvorov floods > 1", Kniaz_Suvorov={"floods": 2}) and not holds("Kniaz Suvorov floods > 1")
    assert holds("admiral", admiral={"japan": "offense"}) and not holds("admiral", admiral={"russia": "defense"})
    assert holds("enemy admiral", admiral={"russia": "defense"}) and not holds("enemy admiral")
    assert holds("Shikishima within 2") and not holds("Kniaz Suvorov within 2")
    assert holds("cards <= 3", japan_draw=3) and not holds("cards <= 3") and holds("enemy cards = 10")
    assert holds("Admiral Nakhimov cp < 3 and admiral", Admiral_Nakhimov={"bank": 2, "lost": 4},
                 admiral={"japan": "defense"})


def test_a_ship_given_two_move_entries_is_an_error():
    _, problems = parse(HEADER.format(side="Japan") + "move:\n  Mikasa: ahead\n  Mikasa: port 30\n")
    assert [(p.code, p.line, p.column) for p in problems] == [("E115", 7, 3)]


@pytest.mark.parametrize("entries", [
    lambda n: "order: " + ", ".join(["Xyzzy"] * n),
    lambda n: "fire:\n  all: at " + ", else ".join(["Qwerty"] * n),
    lambda n: "move:\n  Mikasa: ahead; " + "; ".join(["Fuji: P90, P90, P90"] * n),
    lambda n: "order: " + ", ".join(["Mikasa"] * n),
])
def test_a_long_line_of_bad_entries_costs_time_in_proportion_to_its_length(entries):
    """Past the 50 problems a report shows, a problem is only counted (E900's sum):
    neither its line is quoted again nor close names sought, so a 100 KB line of bad
    entries is read in linear time (it took quadratic time: 8,000 unknown names cost
    more than a minute)."""
    import time
    started = time.perf_counter()
    _, problems = parse(HEADER.format(side="Japan") + entries(6000) + "\n")
    elapsed = time.perf_counter() - started
    assert len(problems) >= 5000
    assert all(p.message == "(not shown)" for p in problems[60:])
    assert elapsed < 20, elapsed


def test_an_entropy_line_takes_any_text_as_the_opening_mail_says_and_reads_back():
    """The opening mail asks for "an 'entropy:' line of any text you like": a phrase of
    several words is the player's entropy, whole, and the receipt reads back the same."""
    orders, problems = parse(HEADER.format(side="russia") + "step: 1\nentropy: for the tsar  # a comment\n")
    assert problems == []
    assert orders.header.entropy == "for the tsar"
    again, problems = parse(orders.canonical_text() + "password: x\n")
    assert problems == [] and again.header.entropy == "for the tsar"


def test_a_concession_is_confirmed_by_a_note_saying_when_it_ends_the_game():
    """``concede: yes`` ends the game at the next question asked of the side: the
    receipt says so (and how to withdraw it), as it does for ``carry on: yes``."""
    cleaned = clean(HEADER.format(side="russia") + "concede: yes\n")
    log = ProblemLog(list(cleaned.lines), codes=CODES)
    orders = read(cleaned, log)
    assert log.problems == [] and orders.block("concede") is not None
    (note,) = [n for n in log.notes if "concede" in n]
    assert note.startswith("line 5:") and "the other side the winner" in note and "concede: no" in note
    cleaned = clean(HEADER.format(side="russia") + "concede: no\n")
    log = ProblemLog(list(cleaned.lines), codes=CODES)
    read(cleaned, log)
    assert not [n for n in log.notes if "concede" in n]
