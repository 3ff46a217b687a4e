"""Narration is written only when read, in the same words, and a match keeps what each
history entry answered without the options a question offered."""

from __future__ import annotations

import copy
import gc
import pickle
import random
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine import Decision, Event, IllegalAnswer, Match, play_out
from adjudicator.games.port_arthur import PortArthur
from adjudicator.games.port_arthur.players import RandomPlayer, random_dice


class CountingValue:
    """A value that counts how often it is written into a sentence."""

    def __init__(self) -> None:
        self.written = 0

    def __format__(self, spec: str) -> str:
        self.written += 1
        return "Mikasa"


def test_an_event_told_for_later_is_written_once_when_first_read():
    value = CountingValue()
    event = Event.later("damaged", "{} is damaged ({}).", (value, "hit"), {"ship": "Mikasa"})
    assert value.written == 0
    assert event.text == "Mikasa is damaged (hit)."
    assert event.text == "Mikasa is damaged (hit)."
    assert value.written == 1


@given(st.lists(st.one_of(st.integers(), st.text()), max_size=5))
@settings(deadline=None)
def test_an_event_told_for_later_reads_as_the_same_f_string(values):
    template = " / ".join("{}" for _ in values)
    expected = " / ".join(f"{v}" for v in values)
    later = Event.later("kind", template, tuple(values), {"n": 1}, ("japan",))
    assert later.text == expected
    assert later == Event("kind", expected, {"n": 1}, ("japan",))


def test_an_event_is_frozen_and_survives_pickling_and_copying():
    event = Event.later("fire", "{} fires {} dice.", ("Japan", 3), {"dice": [1, 2, 3]})
    with pytest.raises(FrozenInstanceError):
        event.kind = "other"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        event.data = {}  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        event.text = "other"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del event.visible_to  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(event)) == event
    assert copy.deepcopy(event) == event
    assert repr(event) == ("Event(kind='fire', text='Japan fires 3 dice.', data={'dice': [1, 2, 3]}, "
                           "visible_to=None)")
    assert Event("phase", "Turn 1").data == {}


def test_an_event_is_one_object_for_the_garbage_collector():
    data = {"ship": "Mikasa"}
    for event in (Event("sunk", "Mikasa is sunk.", data), Event.later("sunk", "{} is sunk.", ("Mikasa",), data)):
        held = gc.get_referents(event)
        assert any(r is data for r in held)
        assert not any(isinstance(r, tuple) and any(x is data for x in r) for r in held)


@pytest.mark.parametrize("options", [{}, {"fog_of_war": True, "mines": True}])
def test_a_games_narration_reads_the_same_after_a_replay(options):
    game = PortArthur()
    rng = random.Random(12)
    played = play_out(Match(game, {}, options), random_dice(rng), RandomPlayer(rng))
    replayed = Match(game, {}, options, played.history_json())
    assert [(e.kind, e.text, e.data, e.visible_to) for e in replayed.events] == \
        [(e.kind, e.text, e.data, e.visible_to) for e in played.events]
    assert any(e.kind == "fire" and "against SFP" in e.text for e in played.events)


def test_a_match_keeps_answered_questions_without_their_options():
    game = PortArthur()
    rng = random.Random(3)
    match = play_out(Match(game, {}, {"fog_of_war": True}), random_dice(rng), RandomPlayer(rng))
    asked = [r for r in match.asked if isinstance(r, Decision)]
    answered = [e for e in match.history if hasattr(e, "kind")]
    assert [(d.side, d.kind) for d in asked] == [(e.side, e.kind) for e in answered]
    assert all(d.options is None and d.prompt == "" for d in asked)
    assert any(d.hidden for d in asked)
    with pytest.raises(IllegalAnswer, match="answered already"):
        asked[0].accept({"pass": True})


@given(st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=2**32))
@settings(deadline=None)
def test_simulation_dice_are_the_dice_randint_gives(sides, seed):
    from adjudicator.engine import Roll

    expected = random.Random(seed)
    dice = random_dice(random.Random(seed))
    for count in (1, 3, 6):
        assert dice(Roll(count, "test", sides=sides)) == [expected.randint(1, sides) for _ in range(count)]


def test_a_phrase_reads_as_its_english_words_and_is_written_in_a_readers_language():
    from adjudicator.engine.requests import Phrase

    catalogue = {"{} lost (4.3.1)": "{} perdu (4.3.1)", "{} Morale {} -> {} ({}).": "{} : moral {} -> {} ({}).",
                 "Russia": "Russie"}
    reason = Phrase("{} lost (4.3.1)", "Mukden")
    event = Event.later("morale", "{} Morale {} -> {} ({}).", ("Russia", 3, 2, reason))
    assert reason == "Mukden lost (4.3.1)" and f"({reason})" == "(Mukden lost (4.3.1))"
    assert event.text == "Russia Morale 3 -> 2 (Mukden lost (4.3.1))."
    assert event.in_words(lambda m: catalogue.get(m, m)) == "Russie : moral 3 -> 2 (Mukden perdu (4.3.1))."
    assert event.in_words(lambda m: m if m.startswith("{}") else catalogue.get(m, m)) == event.text
    assert Phrase("{} lost (4.3.1)", "Mukden").in_words(lambda m: m) == "Mukden lost (4.3.1)"
    kept = pickle.loads(pickle.dumps(reason))
    assert kept == reason and type(kept) is str  # kept as its English words
