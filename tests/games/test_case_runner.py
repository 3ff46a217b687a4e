"""The generic case runner (adjudicator/engine/cases.py) supplies a case's dice,
shuffles, card draws and answers to any game; here the toy card game."""

from __future__ import annotations

from adjudicator import games
from adjudicator.engine import cases

CASE = {
    "id": "TOY-001",
    "shuffles": [["9", "8", "7", "6", "5", "4", "3", "2", "1"]],
    "cards": ["red B5"],
    "answers": [{"ask": "play", "side": "red", "card": "9"}, {"ask": "play", "side": "blue", "card": "7"}],
    "position": {"phase": "deal"},
    "expect": {"hands": {"red": ["8", "B5"], "blue": ["6"]}, "wins": {"red": 1, "blue": 0},
               "reserve": ["B1", "B9"]},
}


def run(case):
    plugin = games.get("toy-hand")
    return cases.run_case(case, plugin.game(), plugin.conformance)


def test_a_case_supplies_the_shuffle_by_card_names_the_card_drawn_and_the_answers():
    assert run(CASE) == []


def test_a_shuffle_of_other_cards_is_reported():
    problems = run({**CASE, "shuffles": [["9", "8", "7", "6", "5", "4", "3", "2", "X"]]})
    assert len(problems) == 1 and "the shuffle for the deck is of" in problems[0]


def test_a_card_not_in_the_pile_is_reported():
    problems = run({**CASE, "cards": ["red B7"]})
    assert problems == ["'red B7' is not in the pile drawn from (bonus card): B1, B5, B9"]


def test_a_card_for_the_other_side_is_reported():
    problems = run({**CASE, "cards": ["blue B5"]})
    assert "the rules draw for red" in problems[0]


def test_an_illegal_answer_is_counted_and_the_next_answer_taken():
    answers = [{"ask": "play", "side": "red", "card": "1"}, *CASE["answers"]]
    assert run({**CASE, "answers": answers, "expect": {**CASE["expect"], "rejected": 1}}) == []


def test_unused_supplies_are_reported():
    problems = run({**CASE, "cards": ["red B5", "blue B1"], "expect": {}})
    assert problems == ["1 card(s) left unused: ['blue B1']"]


def test_an_answer_to_another_question_is_reported():
    answers = [{"ask": "play", "side": "blue", "card": "7"}]
    assert run({**CASE, "answers": answers}) == ["the rules asked red for 'play', the case answers blue for 'play'"]
