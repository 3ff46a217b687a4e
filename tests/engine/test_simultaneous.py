"""A stop that asks several sides at once (:class:`Simultaneous`): each side answers on
its own, in any order; the rules go on only when every side has answered, and get all
the answers together; a history replays whatever order the answers came in."""

from __future__ import annotations

import pytest

from adjudicator.engine import Decision, Match, Simultaneous, Source, WrongRespondent, drive
from adjudicator.engine.errors import HistoryMismatch, IllegalAnswer
from adjudicator.engine.table import Table


def number(answer):
    if not isinstance(answer.get("n"), int):
        raise IllegalAnswer(f"'n' is a whole number, got {answer.get('n')!r}")
    return answer["n"]


class Bids:
    """Two sides bid at once, twice; the higher total wins."""

    name = "bids"
    sides = ("red", "blue")

    def new_state(self, setup, options):
        return {"rounds": [], "turn": 0}

    def rules(self, state, narrate):
        table = Table(state, narrate)
        for _ in range(2):
            bids = yield from table.ask_together([table.question(side, "bid", {}, f"{side}: bid", number)
                                                  for side in self.sides])
            state["rounds"].append(bids)
        table.say("end", "done")

    def view(self, state, side):
        return state


def test_the_sides_answer_in_any_order_and_the_rules_go_on_once_both_have():
    match = Match(Bids())
    assert [d.side for d in match.decisions] == ["red", "blue"]
    match.answer("blue", {"n": 3})
    assert match.state["rounds"] == [] and [d.side for d in match.decisions] == ["red"]
    assert match.decision.side == "red" and match.decision_for("blue") is None
    match.answer("red", {"n": 5})
    assert match.state["rounds"] == [{"red": 5, "blue": 3}]
    assert [d.side for d in match.decisions] == ["red", "blue"]


def test_a_side_that_has_answered_cannot_answer_again_and_an_illegal_answer_changes_nothing():
    match = Match(Bids())
    match.answer("red", {"n": 1})
    with pytest.raises(WrongRespondent, match="red has answered already"):
        match.answer("red", {"n": 2})
    with pytest.raises(IllegalAnswer):
        match.answer("blue", {"n": "many"})
    assert match.entry_count == 1 and match.answered_together == ("red",)


def test_a_history_replays_whatever_order_the_answers_came_in():
    match = Match(Bids())
    for side, n in (("blue", 1), ("red", 2), ("red", 3), ("blue", 4)):
        match.answer(side, {"n": n})
    assert match.finished
    again = Match(Bids(), history=match.history_json())
    assert again.finished and again.state == match.state == {"rounds": [{"red": 2, "blue": 1},
                                                                        {"red": 3, "blue": 4}], "turn": 0}
    with pytest.raises(HistoryMismatch):
        Match(Bids(), history=[{"side": "red", "kind": "bid", "answer": {"n": 1}}] * 2)


def test_answers_given_to_a_stop_still_open_can_be_taken_back():
    match = Match(Bids())
    match.answer("red", {"n": 7})
    assert match.withdraw_open_answers() == 1
    assert match.entry_count == 0 and [d.side for d in match.decisions] == ["red", "blue"]
    assert match.withdraw_open_answers() == 0


def test_the_driver_takes_each_side_it_has_an_answer_for_and_stops_for_the_others():
    match = Match(Bids())
    stop = drive(match, Source(chance=lambda r: None,
                               answer=lambda d, s: {"n": 4} if d.side == "blue" else None))
    assert stop == "decision" and match.answered_together == ("blue",)
    stop = drive(match, Source(chance=lambda r: None, answer=lambda d, s: {"n": 1}))
    assert stop == "finished" and match.state["rounds"] == [{"red": 1, "blue": 4}, {"red": 1, "blue": 1}]


def test_the_driver_goes_on_to_the_other_sides_after_an_illegal_answer_it_does_not_retry():
    match = Match(Bids())
    stop = drive(match, Source(chance=lambda r: None,
                               answer=lambda d, s: {"n": "x"} if d.side == "red" else {"n": 2},
                               rejected=lambda d, a, e: False))
    assert stop == "rejected" and match.answered_together == ("blue",)


def test_a_stop_asks_each_side_once():
    question = Decision("red", "bid", {}, "bid", number)
    with pytest.raises(ValueError, match="each side once"):
        Simultaneous((question, question))
