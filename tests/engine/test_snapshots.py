"""A match run from a snapshot is the match of the full replay: for random complete
games of every registered game, restarting the rules from each snapshot taken at a
resume point (the start of a phase) gives exactly the same requests, dice, answers,
events and final state as replaying the whole history from the start."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import games
from adjudicator.engine import HistoryMismatch, Source, drive
from adjudicator.engine.match import RESUME_EVENT, Match, Snapshot, can_resume


def stored(snapshot: Snapshot) -> Snapshot:
    """The snapshot as a campaign keeps it: through JSON and back."""
    return Snapshot.from_json(json.loads(json.dumps(snapshot.to_json())))


def event_json(event) -> tuple:
    return event.kind, event.text, json.dumps(event.data, sort_keys=True, default=repr), event.visible_to


def request_json(request) -> tuple:
    return type(request).__name__, repr(request)


def random_game(plugin, options, seed) -> Match:
    rng = random.Random(seed)
    match = Match(plugin.game(), {}, options, snapshots=True)
    source = Source(chance=plugin.dice(rng), answer=plugin.player(rng))
    assert drive(match, source, max_steps=100_000) == "finished"
    return match


GAME_OPTIONS = [pytest.param((name, options), id=f"{name}-{json.dumps(options, sort_keys=True)}")
                for name in games.GAMES for options in games.get(name).sample_options]


@pytest.mark.parametrize("name", list(games.GAMES))
def test_every_game_can_resume_from_a_snapshot(name):
    assert can_resume(games.get(name).game())


@pytest.mark.parametrize("chosen", GAME_OPTIONS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_resuming_from_every_snapshot_gives_the_full_replays_game(chosen, seed):
    name, options = chosen
    plugin = games.get(name)
    full = random_game(plugin, options, seed)
    history = json.loads(json.dumps(full.history_json()))
    assert full.snapshots, "a complete game passes at least one resume point"
    assert all(s.at == e.data for s in full.snapshots for e in [full.events[s.events]])
    for snapshot in full.snapshots:
        resumed = Match.from_snapshot(plugin.game(), {}, options, stored(snapshot), history)
        assert resumed.finished
        assert resumed.state.to_json() == full.state.to_json()
        assert resumed.history_json() == full.history_json()
        assert resumed.events_offset == snapshot.events and resumed.event_count == full.event_count
        assert [event_json(e) for e in resumed.events] == [event_json(e) for e in full.events[snapshot.events:]]
        assert ([request_json(r) for r in resumed.asked[snapshot.entries:]]
                == [request_json(r) for r in full.asked[snapshot.entries:]])
        assert resumed.asked[:snapshot.entries] == [None] * snapshot.entries


@pytest.mark.parametrize("chosen", GAME_OPTIONS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_a_match_resumed_mid_game_goes_on_as_the_full_replay(chosen, seed, cut):
    """Resumed at a snapshot and replayed to a point in the middle of the game, the
    match waits for the same request, in the same state, as the full replay there."""
    name, options = chosen
    plugin = games.get(name)
    full = random_game(plugin, options, seed)
    history = json.loads(json.dumps(full.history_json()))
    stop = int(cut * len(history))
    partial = Match(plugin.game(), {}, options, history[:stop], snapshots=True)
    usable = [s for s in partial.snapshots if s.entries <= stop]
    assert usable or stop == 0 or not partial.snapshots
    for snapshot in usable[-2:]:
        resumed = Match.from_snapshot(plugin.game(), {}, options, stored(snapshot), history[:stop])
        assert resumed.state.to_json() == partial.state.to_json()
        assert repr(resumed.pending) == repr(partial.pending)
        assert resumed.events_since(partial.event_count) == []
        assert [event_json(e) for e in resumed.events_since(snapshot.events)] == \
            [event_json(e) for e in partial.events[snapshot.events:]]


def test_a_snapshot_taken_at_the_start_of_a_phase_names_that_phase():
    plugin = games.get("port-arthur")
    match = random_game(plugin, {}, 7)
    for snapshot in match.snapshots:
        event = match.events[snapshot.events]
        assert event.kind == RESUME_EVENT and snapshot.state["phase"] == event.data["phase"]


def test_a_snapshot_from_another_point_is_refused():
    plugin = games.get("port-arthur")
    match = random_game(plugin, {}, 11)
    history = match.history_json()
    first, second = match.snapshots[1], match.snapshots[5]
    moved = Snapshot(first.state, first.entries, first.events, second.at)
    with pytest.raises(HistoryMismatch):
        Match.from_snapshot(plugin.game(), {}, {}, moved, history)
    with pytest.raises(HistoryMismatch):
        Match.from_snapshot(plugin.game(), {}, {}, first, history[:first.entries - 1])
    for bad in ({}, {"state": [], "entries": 1, "events": 1, "at": {}}, {"state": {}, "entries": -1, "events": 0, "at": {}}):
        with pytest.raises(HistoryMismatch):
            Snapshot.from_json(bad)


def test_a_match_takes_no_snapshot_unless_asked():
    plugin = games.get("port-arthur")
    rng = random.Random(3)
    match = Match(plugin.game(), {}, {})
    drive(match, Source(chance=plugin.dice(rng), answer=plugin.player(rng)))
    assert match.snapshots == [] and match.events_offset == 0
