"""The engine core, on a toy card game that knows nothing of Port Arthur: rules that
ask, dice and shuffles, illegal answers, replay from history, pauses."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.campaign.protocol import BatchDice
from adjudicator.engine import (
    Decision,
    Event,
    HistoryMismatch,
    IllegalAnswer,
    Match,
    NotWaitingForAnswer,
    Roll,
    Shuffle,
    WrongRespondent,
    play_out,
)


@dataclass
class DuelState:
    deck: list[int] = field(default_factory=lambda: list(range(5)))
    bets: dict[str, int] = field(default_factory=dict)
    score: dict[str, int] = field(default_factory=lambda: {"red": 0, "blue": 0})
    result: str | None = None

    def to_json(self) -> dict:
        return {"deck": self.deck, "bets": self.bets, "score": self.score, "result": self.result}


def bet_for(side: str, limit: int):
    def parse(answer):
        bet = answer.get("bet")
        if not isinstance(bet, int) or not 1 <= bet <= limit:
            raise IllegalAnswer(f"bet 1 to {limit}, not {bet!r}")
        return bet
    return Decision(side, "bet", {"bet": list(range(1, limit + 1))}, f"{side}: bet 1-{limit}", parse)


class Duel:
    """Shuffle five cards; each side bets (blue's only choice is 1, so it is not asked),
    draws a card and rolls a die; highest card + die + bet wins."""

    name = "duel"
    sides = ("red", "blue")

    def new_state(self, setup, options):
        return DuelState()

    def rules(self, state, narrate):
        order = yield Shuffle(5, "the deck")
        state.deck = [state.deck[i] for i in order]
        narrate(Event("shuffle", f"the deck is {state.deck}"))
        yield Event("phase", "betting", {"phase": "betting"})
        for side, limit in (("red", 3), ("blue", 1)):
            state.bets[side] = 1 if limit == 1 else (yield bet_for(side, limit))
        for side in self.sides:
            (die,) = yield Roll(1, f"{side}'s die", side)
            state.score[side] = state.deck.pop() + die + state.bets[side]
            narrate(Event("score", f"{side} scores {state.score[side]}"))
        red, blue = state.score["red"], state.score["blue"]
        state.result = "red" if red > blue else "blue" if blue > red else "draw"

    def view(self, state, side):
        return state.to_json()


def play(seed: int) -> Match:
    rng = random.Random(seed)

    def dice(request):
        if isinstance(request, Shuffle):
            return rng.sample(range(request.size), request.size)
        return [rng.randint(1, 6) for _ in range(request.count)]

    return play_out(Match(Duel()), dice, lambda decision, state: {"bet": rng.choice(decision.options["bet"])})


def test_the_rules_ask_for_a_shuffle_then_a_decision_then_dice():
    match = Match(Duel())
    assert match.shuffle is not None and match.shuffle.size == 5
    match.supply_shuffle([4, 3, 2, 1, 0])
    assert match.state.deck == [4, 3, 2, 1, 0]
    assert (match.decision.side, match.decision.kind) == ("red", "bet")
    match.answer("red", {"bet": 2})
    assert match.roll is not None and match.roll.side == "red"


def test_a_question_with_one_legal_answer_is_not_asked():
    match = Match(Duel(), history=[{"shuffle": [0, 1, 2, 3, 4]}, {"answer": {"bet": 3}, "side": "red", "kind": "bet"},
                                   {"dice": [6]}])
    assert match.roll is not None and match.roll.side == "blue"  # blue's bet of 1 was forced


def test_an_illegal_answer_is_refused_with_a_reason_and_changes_nothing():
    match = Match(Duel(), history=[{"shuffle": [0, 1, 2, 3, 4]}])
    before, history = match.state.to_json(), list(match.history)
    with pytest.raises(IllegalAnswer, match="bet 1 to 3"):
        match.answer("red", {"bet": 9})
    assert match.state.to_json() == before and match.history == history and match.decision.kind == "bet"


def test_answers_from_the_wrong_side_or_at_the_wrong_time_are_refused():
    match = Match(Duel(), history=[{"shuffle": [0, 1, 2, 3, 4]}])
    with pytest.raises(WrongRespondent):
        match.answer("blue", {"bet": 1})
    finished = play(1)
    with pytest.raises(NotWaitingForAnswer):
        finished.answer("red", {"bet": 1})


def test_a_history_that_does_not_fit_the_rules_is_refused():
    with pytest.raises(HistoryMismatch):
        Match(Duel(), history=[{"shuffle": [0, 0, 1, 2, 3]}])
    with pytest.raises(HistoryMismatch):
        Match(Duel(), history=[{"dice": [3]}])


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_game_is_a_pure_function_of_its_history(seed):
    match = play(seed)
    replayed = Match(Duel(), history=match.history_json())
    assert replayed.finished and replayed.state.to_json() == match.state.to_json()
    assert [e.text for e in replayed.events] == [e.text for e in match.events]


def test_a_driver_may_pause_at_an_event_and_resume():
    match = Match(Duel(), pause_on=lambda event: event.kind == "phase")
    match.supply_shuffle([0, 1, 2, 3, 4])
    assert match.paused_at is not None and match.pending is None
    match.resume()
    assert match.decision.kind == "bet"


def test_shuffles_come_from_the_verifiable_dice_stream_and_are_reproducible():
    seed = bytes(range(32))
    first = BatchDice("duel-1", 1, seed, {"red": b"x" * 32})
    again = BatchDice("duel-1", 1, seed, {"red": b"x" * 32})
    order = first(Shuffle(16, "deck", turn=1, phase="draw"))
    assert sorted(order) == list(range(16)) and order == again(Shuffle(16, "deck", turn=1, phase="draw"))
    assert first.drawn == 15  # Fisher-Yates takes n-1 draws, then dice continue after them
    other = BatchDice("duel-1", 1, seed, {"red": b"y" * 32})
    assert other(Shuffle(16, "deck", turn=1, phase="draw")) != order


@pytest.mark.parametrize("bad", [[0], [7], [3.0], [True], ["3"], [3, 3], []])
def test_dice_that_are_not_whole_faces_of_the_die_are_refused_even_after_good_dice_equal_to_them(bad):
    """The dice are checked at every roll, whatever throws were kept before (3.0 and True
    equal 3 and 1, and hash alike, but are not dice)."""
    match = Match(Duel(), history=[{"shuffle": [0, 1, 2, 3, 4]}, {"answer": {"bet": 3}, "side": "red", "kind": "bet"}])
    match.supply_dice((3,))
    with pytest.raises(HistoryMismatch, match="takes 1 dice of 1-6"):
        match.supply_dice(bad)
    assert match.roll is not None and match.roll.side == "blue" and len(match.history) == 3
    assert match.supply_dice([1]) == (1,) and match.finished
