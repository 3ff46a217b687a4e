"""The ``cadence`` option (rulings §4.1): a campaign step, driven from the orders on
file, stops where the cadence says -- by default once a turn, before the turn's
activations; with ``prime`` also after the prime activations; with ``activation``
before every activation -- and orders sent after the stop carry play on."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.engine import Match, Source, drive
from adjudicator.games.tsushima_1905.answers import mark_after
from adjudicator.games.tsushima_1905.players import random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.plans import StandingAnswers
from adjudicator.orders import parse_orders

SAMPLES = Path(__file__).resolve().parents[3] / "samples" / "tsushima-1905"
GAME = Tsushima1905()


def sample_orders(turn: int) -> dict:
    """Both sides' sample orders, as sent for ``turn``."""
    orders = {}
    for side in ("japan", "russia"):
        parsed = parse_orders((SAMPLES / f"{side}-orders.txt").read_text(), "tsushima-1905")
        orders[side] = replace(parsed, header=replace(parsed.header, turn=turn))
    return orders


def step(match: Match, orders: dict) -> None:
    """One campaign step: dice, and answers from the orders on file only."""
    answers, chance = StandingAnswers(), random_dice(random.Random(5))
    drive(match, Source(chance=lambda request: chance(request),
                        answer=lambda decision, state: answers.answer_for(decision, state, orders.get(decision.side))))


def activations(match: Match) -> int:
    return sum(1 for event in match.events if event.kind == "move")


def test_by_default_a_step_plays_one_turn_and_stops_until_new_orders_come():
    match = Match(GAME)
    step(match, sample_orders(1))
    assert (match.state.turn, match.decision.kind) == (2, "orders")
    assert match.decision.side == match.state.offense and match.state.phase == "action"
    before = len(match.events)
    step(match, sample_orders(1))              # the same orders again: still stopped
    assert len(match.events) == before and match.decision.kind == "orders"
    step(match, sample_orders(2))              # orders sent for turn 2 carry play on (through a
    assert match.state.turn >= 3 and match.decision.kind == "orders"   # torpedo turn, which has no stop)
    assert match.state.phase == "action"


def test_with_cadence_prime_the_step_stops_after_the_prime_activations_for_the_defense():
    match = Match(GAME, {}, {"cadence": "prime"})
    step(match, sample_orders(1))
    defense = "russia" if match.state.offense == "japan" else "japan"
    assert (match.state.turn, match.decision.kind, match.decision.side) == (1, "orders", defense)
    assert match.decision.options["stop"] == "prime"
    assert 0 < activations(match) and match.state.prime == 0
    step(match, sample_orders(1) | {defense: parse_orders(
        (SAMPLES / f"{defense}-orders.txt").read_text().replace("turn: 3", "turn: 1\nstep: 2"), "tsushima-1905")})
    assert match.decision.side != defense or match.state.turn == 2


def test_with_cadence_activation_every_activation_waits_for_orders():
    match = Match(GAME, {}, {"cadence": "activation"})
    step(match, sample_orders(1))
    assert match.decision.kind == "orders" and activations(match) == 1
    step(match, sample_orders(1))
    assert activations(match) == 1


@pytest.mark.parametrize("cadence", ["turn", "prime", "activation"])
def test_a_silent_side_carries_on_with_the_orders_on_file_at_the_deadline(cadence):
    match = Match(GAME, {}, {"cadence": cadence})
    step(match, sample_orders(1))
    decision = match.decision
    default = StandingAnswers().default_answer(decision, match.state)
    match.answer(decision.side, default)
    assert match.decision is None or match.decision != decision


def test_the_cases_play_without_stops():
    assert Tsushima1905().new_state({"position": {"turn": 1, "phase": "action", "offense": "japan", "prime": 1,
                                                  "next": "japan", "ship": []}, "continuous": True},
                                    {}).options == {"cadence": "continuous"}


def test_at_the_turn_stop_both_sides_are_told_at_once_and_one_email_each_carries_the_turn():
    match = Match(GAME)
    step(match, sample_orders(1))
    decision = match.decision
    assert decision.kind == "orders" and "both sides' orders are due" in decision.prompt
    assert "Japan" in decision.prompt and "Russia" in decision.prompt
    turn = match.state.turn
    step(match, sample_orders(turn))           # each side's one email, both sent during the first wait
    assert match.state.turn > turn and match.decision.kind == "orders"   # (a torpedo turn has no stop)


def orders_given_at_stops(match: Match, orders: dict) -> list[tuple[int, str]]:
    """One campaign step, as :func:`step`: the (turn, side) of each stop the orders on
    file answered."""
    answers, chance, given = StandingAnswers(), random_dice(random.Random(5)), []

    def answer(decision, state):
        answered = answers.answer_for(decision, state, orders.get(decision.side))
        if decision.kind == "orders" and answered is not None:
            given.append((state.turn, decision.side))
        return answered

    drive(match, Source(chance=lambda request: chance(request), answer=answer))
    return given


def test_silence_at_a_stop_keeps_the_orders_on_file_for_that_stop_only():
    """Rules-notes R-AUTO-2a: a side silent at a stop carries on with the orders on file
    there (the default at the deadline), and those orders do not answer the next stop:
    it is asked again, however many stops in a row it is silent."""
    match = Match(GAME)
    on_file = sample_orders(1)
    assert sorted(orders_given_at_stops(match, on_file)) == [(1, "japan"), (1, "russia")]
    for silent_stop in range(2):
        turn = match.state.turn
        assert {d.side for d in match.decisions} == {"japan", "russia"} and match.decision.kind == "orders"
        for decision in list(match.decisions):     # both sides silent: the default at the deadline
            match.answer(decision.side, StandingAnswers().default_answer(decision, match.state))
        assert orders_given_at_stops(match, on_file) == []     # no stop answered by the orders on file ...
        assert match.state.turn > turn and match.decision.kind == "orders"   # ... play waits at the next one
        for decision in match.decisions:
            assert StandingAnswers().answer_for(decision, match.state, on_file[decision.side]) is None


def test_orders_on_file_do_not_answer_a_stop_reached_by_silence_in_a_record_kept_before():
    """A stop's mark that silence gave after the orders on file (as records kept before
    silence named the orders it kept) counts as those orders' own: they do not answer it."""
    match = Match(GAME)
    on_file = sample_orders(1)
    step(match, on_file)
    answers = StandingAnswers()
    for decision in list(match.decisions):
        used = decision.options["mark"]
        assert used is not None and answers.answer_for(decision, match.state, on_file[decision.side]) is None
        after_silence = replace(decision, options={**decision.options, "mark": mark_after(used)})
        assert answers.answer_for(after_silence, match.state, on_file[decision.side]) is None
        newer = sample_orders(match.state.turn)[decision.side]      # orders sent again do answer it
        assert answers.answer_for(after_silence, match.state, newer)["orders"] != mark_after(used)


def test_the_default_at_a_stop_names_the_orders_it_keeps_and_none_where_silence_brought_play_there():
    match = Match(GAME)
    step(match, sample_orders(1))
    decision = match.decision
    used = decision.options["mark"]
    assert StandingAnswers().default_answer(decision, match.state) == {"orders": mark_after(used), "kept": used}
    for mark in (None, mark_after(used)):
        unnamed = replace(decision, options={**decision.options, "mark": mark})
        assert StandingAnswers().default_answer(unnamed, match.state) == {"orders": mark_after(mark)}


def test_late_orders_for_an_earlier_turn_are_told_the_turn_and_step_to_write():
    """Orders sent for a stop that is over, written for its turn: the refusal names both
    lines to write, so that the player's next mail is not refused again for its turn."""
    from types import SimpleNamespace

    from adjudicator.campaign.errors import StepOver
    from adjudicator.campaign.running import step_of
    from adjudicator.orders import parse_orders

    late = parse_orders("campaign: c\nside: Japan\nturn: 2\nstep: 5\npassword: x\nmove:\n  Fuji: ahead\n",
                        "tsushima-1905")
    with pytest.raises(StepOver) as refused:
        step_of(late, SimpleNamespace(next_batch=6), turn=3)
    assert "step 5 is over" in str(refused.value)
    assert "'turn: 3' and 'step: 6'" in str(refused.value)
    early = parse_orders("campaign: c\nside: Japan\nturn: 4\nstep: 6\npassword: x\nmove:\n  Fuji: ahead\n",
                         "tsushima-1905")
    with pytest.raises(StepOver) as refused:
        step_of(early, SimpleNamespace(next_batch=6), turn=3)
    assert "stale" not in str(refused.value) and "turn 4 has not begun" in str(refused.value)
