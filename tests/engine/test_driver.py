"""The driver holds the cycle collector off while it runs a match and leaves it as it
found it, whether the match ends, stops or fails."""

from __future__ import annotations

import gc
import random

import pytest

from adjudicator.engine import Match, play_out
from adjudicator.engine.driver import Source, drive
from adjudicator.games.port_arthur import PortArthur
from adjudicator.games.port_arthur.players import RandomPlayer, random_dice

GAME = PortArthur()


@pytest.fixture
def collector_enabled():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_off_while_a_match_is_driven_and_on_again_after(collector_enabled):
    rng = random.Random(5)
    seen = []

    def choose(decision, state, player=RandomPlayer(rng)):
        seen.append(gc.isenabled())
        return player(decision, state)

    play_out(Match(GAME), random_dice(rng), choose)
    assert seen and not any(seen)
    assert gc.isenabled()


def test_the_collector_is_on_again_when_the_source_fails(collector_enabled):
    def fail(decision, state):
        raise RuntimeError("no answer")

    with pytest.raises(RuntimeError):
        drive(Match(GAME), Source(chance=random_dice(random.Random(1)), answer=fail))
    assert gc.isenabled()
    assert drive(Match(GAME), Source(chance=random_dice(random.Random(1)), answer=lambda d, s: None)) == "decision"
    assert gc.isenabled()


def test_a_collector_already_off_stays_off(collector_enabled):
    gc.disable()
    rng = random.Random(2)
    play_out(Match(GAME), random_dice(rng), RandomPlayer(rng))
    assert not gc.isenabled()
