"""The table the Russo-Japanese War's rules play on, built on the engine's table: a
question is asked with its kind and read by the kind's reader, then the rule's check
decides; rolls and shuffles are located at the state's turn and phase (a dict's, not
attributes: the engine's own ``where`` would place them at turn 0)."""

from __future__ import annotations

import pytest

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Decision, Roll, Shuffle
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.answers import READERS, Kind
from adjudicator.games.russo_japanese_war.commander import NAVAL_KINDS
from adjudicator.games.russo_japanese_war.plans import ANSWERED_BY, DEFAULT_TEXT

GAME = RussoJapaneseWar()


def table_at(turn: int, phase: str):
    state = GAME.new_state({}, {})
    state["turn"], state["phase"] = turn, phase
    return GAME.table(state, lambda event: None)


def finish(steps, sent):
    """Send ``sent`` to the suspended ``steps``; what they return."""
    with pytest.raises(StopIteration) as stop:
        steps.send(sent)
    return stop.value.value


def test_a_roll_is_located_at_the_turn_and_phase_of_the_dict_state():
    table = table_at(4, "russia-combat")
    steps = table.roll(1, "combat at 1214", "russia")
    roll = next(steps)
    assert roll == Roll(1, "combat at 1214", "russia", 4, "russia-combat", 6, False)
    assert finish(steps, [5]) == (5,)


def test_a_random_discard_rolls_a_die_with_a_face_per_card():
    table = table_at(2, "japan-replenish")
    roll = next(table.roll(1, "random discard (hand limit, 10.4.3)", "japan", sides=4))
    assert (roll.sides, roll.turn, roll.phase) == (4, 2, "japan-replenish")


def test_a_shuffle_is_hidden_names_its_cards_and_returns_them_in_the_new_order():
    table = table_at(3, "victory-check")
    steps = table.shuffle(["#01", "#02", "#03"], "A56: the deck is empty", hidden=True)
    shuffle = next(steps)
    assert shuffle == Shuffle(3, "A56: the deck is empty", None, 3, "victory-check", True, ("#01", "#02", "#03"))
    assert finish(steps, [2, 0, 1]) == ["#03", "#01", "#02"]


def test_a_question_carries_its_kind_and_the_rules_check_decides_the_answer():
    table = table_at(1, "japan-combat")
    units = ["1", "Gds"]

    def check(answer: dict) -> dict:
        if answer.get("unit") not in units:
            raise IllegalAnswer(f"choose one of {', '.join(units)} to eliminate; got {answer.get('unit')!r}")
        return {"unit": answer["unit"]}

    steps = table.ask("japan", Kind.LOSS, {"units": units}, "which unit is eliminated?", check)
    decision = next(steps)
    assert isinstance(decision, Decision)
    assert (decision.side, decision.kind, decision.options) == ("japan", "loss", {"units": units})
    assert decision.hidden is False
    assert type(decision.kind) is str
    with pytest.raises(IllegalAnswer, match="choose one of 1, Gds to eliminate; got '2'"):
        decision.accept({"unit": "2"})
    with pytest.raises(IllegalAnswer, match="an answer to 'loss' must be a table of keys"):
        decision.parse(["Gds"])
    assert decision.accept({"unit": "Gds", "note": "kept aside"}) == {"unit": "Gds"}
    assert finish(steps, {"unit": "Gds"}) == {"unit": "Gds"}


def test_a_hidden_question_stays_hidden_and_a_forced_one_is_not_asked():
    table = table_at(0, "setup")
    decision = next(table.ask("russia", Kind.FLAGSHIP, {"ships": ["PA1"]}, "which ship?", dict, hidden=True))
    assert decision.hidden is True and decision.kind == "flagship"
    forced = table.ask("russia", Kind.FLAGSHIP, {"ships": ["PA1"]}, "which ship?", dict, forced={"ship": "PA1"})
    with pytest.raises(StopIteration) as stop:
        next(forced)
    assert stop.value.value == {"ship": "PA1"}


def test_every_kind_has_a_reader_and_is_answered_by_orders_with_a_default():
    assert set(READERS) == set(Kind)
    assert set(ANSWERED_BY) == {kind.value for kind in Kind}
    assert set(NAVAL_KINDS) <= {kind.value for kind in Kind}
    assert set(DEFAULT_TEXT) <= {kind.value for kind in Kind}
