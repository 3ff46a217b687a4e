"""A campaign's latest game snapshot (docs/snapshots.md): a command runs the game from
it instead of replaying the whole history, to the very same place; a snapshot that is
altered, made by another adjudicator, or taken in a step an undo voided is never used;
``verify`` replays from the start and never sees one."""

from __future__ import annotations

import json

import pytest

from adjudicator.campaign.log import read_log
from adjudicator.campaign.snapshots import GAME_SNAPSHOT, earliest_unreported_event, latest
from adjudicator.campaign.verify import verify_text
from adjudicator.engine import Match
from adjudicator.games.port_arthur.game import PortArthur
from tests.campaign.conftest import PLAYERS, confirm

GAME = PortArthur()


def advance(campaigns, key, name, steps):
    for _ in range(steps):
        if campaigns.adjudicate(name, key).result is not None:
            break


@pytest.fixture
def running(campaigns, referee_key, auto_orders):
    campaigns.create("s1", "port-arthur", PLAYERS, referee_key)
    advance(campaigns, referee_key, "s1", 7)
    return "s1"


def replayed_from_the_start(campaigns, name):
    log = campaigns.log(name)
    return log.replay(GAME)


def same_place(match, whole):
    """The same place, down to the order of every mapping in the state (which rules may
    go through in order)."""
    in_order = json.dumps(match.state.to_json()) == json.dumps(whole.state.to_json())
    return (in_order and match.state.to_json() == whole.state.to_json() and repr(match.pending) == repr(whole.pending)
            and match.entry_count == whole.entry_count and match.event_count == whole.event_count
            and match.history_json() == whole.history_json()
            and [(e.kind, e.text) for e in match.events] == [(e.kind, e.text) for e in whole.events[match.events_offset:]])


def stored_snapshot(campaigns, name):
    return campaigns.store.derived(name, GAME_SNAPSHOT)


def store_snapshot(campaigns, name, value):
    with campaigns.store.transaction(name) as tx:
        tx.set_secret(GAME_SNAPSHOT, value)


def test_a_command_runs_the_game_from_the_latest_snapshot_to_the_same_place(campaigns, running):
    _, match = campaigns.match(running)
    assert match.events_offset > 0, "the game was replayed from the start, not from its snapshot"
    assert same_place(match, replayed_from_the_start(campaigns, running))


def test_a_whole_campaign_adjudicated_from_snapshots_verifies_from_the_start(campaigns, referee_key, running):
    advance(campaigns, referee_key, running, 200)
    assert campaigns.match(running)[1].finished
    verdict = verify_text(campaigns.export_public(running))
    assert verdict.verified, verdict


def test_the_snapshot_is_never_exported(campaigns, running):
    exported = campaigns.export_public(running)
    snapshot = stored_snapshot(campaigns, running)
    assert snapshot is not None
    assert GAME_SNAPSHOT not in exported and snapshot["prefix"] not in exported


def test_verify_replays_from_the_start_and_never_from_a_snapshot(campaigns, running, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("verify ran the game from a snapshot")

    monkeypatch.setattr(Match, "from_snapshot", classmethod(refuse))
    assert verify_text(campaigns.export_public(running)).verified


def in_state(change):
    """An alteration of the snapshot's state (kept as JSON text, in the state's key order)."""
    def alter(stored):
        state = json.loads(stored["match"]["state"])
        change(state)
        stored["match"]["state"] = json.dumps(state)
    return alter


@pytest.mark.parametrize("alter", [
    pytest.param(in_state(lambda state: state.update(cp=state["cp"] + 1)), id="state"),
    pytest.param(lambda s: s["match"].update(entries=s["match"]["entries"] - 1), id="entries"),
    pytest.param(in_state(lambda state: state["ships"].pop()), id="ships"),
    pytest.param(lambda s: s["match"].update(state="{not json"), id="text"),
    pytest.param(lambda s: s.update(key="another adjudicator or other game data"), id="key"),
    pytest.param(lambda s: s.update(prefix="0" * 64), id="prefix"),
    pytest.param(lambda s: s.update(match=[]), id="garbage"),
])
def test_an_altered_or_stale_snapshot_is_ignored_and_the_game_replayed_from_the_start(
        campaigns, referee_key, running, alter):
    snapshot = stored_snapshot(campaigns, running)
    alter(snapshot)
    store_snapshot(campaigns, running, snapshot)
    _, match = campaigns.match(running)
    assert match.events_offset == 0
    assert same_place(match, replayed_from_the_start(campaigns, running))
    advance(campaigns, referee_key, running, 1)  # adjudicates from the full replay, and keeps a good snapshot
    _, match = campaigns.match(running)
    assert same_place(match, replayed_from_the_start(campaigns, running))
    assert verify_text(campaigns.export_public(running)).verified


def test_after_an_undo_the_game_stands_where_the_shorter_history_leaves_it(campaigns, referee_key, running):
    campaigns.undo(running, referee_key, "a mistake in the orders")
    log, match = campaigns.match(running)
    assert match.entry_count == len(log.history())
    assert same_place(match, replayed_from_the_start(campaigns, running))
    confirm(campaigns, referee_key, running)
    step = campaigns.adjudicate(running, referee_key, reuse_orders=True)
    assert step.batch is not None
    _, match = campaigns.match(running)
    assert same_place(match, replayed_from_the_start(campaigns, running))
    assert verify_text(campaigns.export_public(running)).verified


def test_a_snapshot_of_a_voided_step_is_not_used(campaigns, referee_key, running):
    snapshot = stored_snapshot(campaigns, running)
    log = campaigns.log(running)
    last = log.effective_batches()[-1]
    taken_in_last = snapshot["match"]["entries"] > len(log.history()) - len(last.body["entries"])
    campaigns.undo(running, referee_key, "a mistake in the orders")
    _, match = campaigns.match(running)
    if taken_in_last:
        assert match.events_offset == 0
    assert same_place(match, replayed_from_the_start(campaigns, running))


def test_a_campaign_with_hidden_information_runs_from_its_snapshot_too(campaigns, referee_key, auto_orders):
    campaigns.create("fog", "port-arthur", PLAYERS, referee_key, options={"fog_of_war": True})
    advance(campaigns, referee_key, "fog", 7)
    log = read_log("fog", campaigns.store.entries("fog"))
    assert "hidden_chain" in log.charter
    _, match = campaigns.match("fog")
    assert match.events_offset > 0
    assert same_place(match, replayed_from_the_start(campaigns, "fog"))


def test_the_snapshot_kept_is_never_past_an_event_a_per_turn_report_still_tells(campaigns, running):
    _, whole = campaigns.match(running)
    whole = Match(GAME, {}, {}, whole.history_json(), snapshots=True)
    assert len(whole.snapshots) > 2
    needed = whole.snapshots[2].events
    assert latest(whole, needed) == whole.snapshots[2]
    assert latest(whole) == whole.snapshots[-1]
    assert latest(whole, 0) in (None, whole.snapshots[0])
    meta = {"players": {"japan": {"reports": "turn"}, "russia": {}}, "digest": {"japan": {"turn": 2, "events": 40}}}
    assert earliest_unreported_event(meta) == 40
    assert earliest_unreported_event({"players": {"japan": {"reports": "turn"}, "russia": {}}}) == 0
    assert earliest_unreported_event({"players": {"japan": {}, "russia": {}}}) is None


def test_a_hidden_information_campaign_without_the_clear_state_hash_checks_the_seal(
        campaigns, referee_key, auto_orders):
    """Batches recorded before the referee kept the clear state hash: the snapshot is
    checked against the sealed one, recomputed with the hidden chain."""
    from adjudicator.campaign.snapshots import _reaches_published_state
    campaigns.create("fog", "port-arthur", PLAYERS, referee_key, options={"fog_of_war": True})
    advance(campaigns, referee_key, "fog", 5)
    log, match = campaigns.match("fog")
    assert log.clear_state_hashes
    log.clear_state_hashes.clear()
    secret = lambda name: campaigns.store.derived("fog", name)  # noqa: E731
    assert _reaches_published_state(log, match, secret)
    match.state.cp += 1
    assert not _reaches_published_state(log, match, secret)


def test_a_kept_snapshot_gives_back_the_state_in_its_own_key_order(campaigns, running):
    """The store sorts the keys of what it keeps; rules may go through a mapping in order
    (the Russo-Japanese War's units, in set-up order), so the state must come back as it was."""
    from adjudicator.campaign.snapshots import _from_stored_form, _stored_form
    from adjudicator.engine.match import Snapshot

    state = {"units": {"S3": {"at": "1208"}, "CR17": {"at": "2417"}, "Gds": {"at": "1314"}}, "turn": 2}
    store_snapshot(campaigns, running, {"match": _stored_form(Snapshot(state, 3, 4, {"turn": 2, "phase": "x"}))})

    back = _from_stored_form(stored_snapshot(campaigns, running)["match"])

    assert list(back.state["units"]) == ["S3", "CR17", "Gds"] and list(back.state) == ["units", "turn"]
