"""The summary each step keeps for ``status`` (adjudicator/campaign/summary.py): it
gives exactly what the game run to where the campaign stands gives, at every step and
for every game; it is not used once the history has moved on (an undo, a new step),
nor when it was altered or made by another version or for other game data; orders on
file do not make it stale; and ``status`` says the same with it or without it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from types import SimpleNamespace

import pytest

from adjudicator import games
from adjudicator.campaign import Player
from adjudicator.campaign import summary as summary_module
from adjudicator.campaign.summary import STATUS_SUMMARY, kept_position, position_of
from tests.campaign.conftest import PLAYERS, confirm


def kept(campaigns, name):
    entries = campaigns.store.entries(name)
    return kept_position(entries, campaigns.log(name).charter["game"], campaigns.store.derived(name, STATUS_SUMMARY))


def replayed(campaigns, name):
    return position_of(campaigns.match(name)[1], campaigns.log(name).charter["game"])


def test_the_summary_gives_what_the_game_gives_at_every_step(campaigns, referee_key, auto_orders):
    campaigns.create("s1", "port-arthur", PLAYERS, referee_key)
    seen = set()
    for _ in range(200):
        position = kept(campaigns, "s1")
        assert position is not None and position == replayed(campaigns, "s1")
        seen.add((position["turn"], position["phase"]))
        if campaigns.adjudicate("s1", referee_key).result is not None:
            break
    assert kept(campaigns, "s1") == replayed(campaigns, "s1") and kept(campaigns, "s1")["result"]
    assert len(seen) > 3


@pytest.mark.parametrize("game", games.names())
def test_every_games_summary_survives_the_store_unchanged(campaigns, referee_key, game):
    sides = games.get(game).game().sides
    players = [Player(side, f"{side}@example.org", f"pw-{side}-1904") for side in sides]
    campaigns.create("g1", game, players, referee_key)
    assert kept(campaigns, "g1") == replayed(campaigns, "g1")
    confirm(campaigns, referee_key, "g1", passwords={p.side: p.password for p in players})
    campaigns.adjudicate("g1", referee_key)  # to the first question (every side confirmed)
    position = kept(campaigns, "g1")
    assert position is not None and position["waiting"] is not None
    assert json.dumps(position, sort_keys=True) == json.dumps(replayed(campaigns, "g1"), sort_keys=True)
    assert position == replayed(campaigns, "g1")  # the same types, as status prints them


def test_orders_on_file_keep_the_summary_and_an_undo_or_a_new_step_makes_it_stale(
        campaigns, referee_key, auto_orders, store):
    campaigns.create("s1", "port-arthur", PLAYERS, referee_key)
    campaigns.adjudicate("s1", referee_key)
    stored = store.derived("s1", STATUS_SUMMARY)
    entries = store.entries("s1")
    orders = SimpleNamespace(kind="orders", seq=len(entries), hash="1" * 64)  # orders answer the next step
    assert kept_position([*entries, orders, orders], "port-arthur", stored) == stored["position"]
    other = SimpleNamespace(kind="forfeit", seq=len(entries), hash="1" * 64)
    assert kept_position([*entries, orders, other], "port-arthur", stored) is None
    campaigns.adjudicate("s1", referee_key)
    assert kept_position(store.entries("s1"), "port-arthur", stored) is None  # a step later
    campaigns.undo("s1", referee_key, "a mistake")
    assert kept(campaigns, "s1") is None
    confirm(campaigns, referee_key, "s1")
    campaigns.adjudicate("s1", referee_key, reuse_orders=True)
    assert kept(campaigns, "s1") == replayed(campaigns, "s1")


def test_an_altered_summary_or_one_of_another_version_or_game_data_is_not_used(
        campaigns, referee_key, auto_orders, store, tmp_path, monkeypatch):
    campaigns.create("s1", "port-arthur", PLAYERS, referee_key)
    campaigns.adjudicate("s1", referee_key)
    entries = store.entries("s1")
    stored = store.derived("s1", STATUS_SUMMARY)
    assert kept_position(entries, "port-arthur", stored) is not None
    for altered in ({**stored, "version": "0.0.1"}, {**stored, "after": {**stored["after"], "hash": "0" * 64}},
                    {**stored, "after": {**stored["after"], "seq": len(entries)}}, {**stored, "after": None},
                    {**stored, "position": "turn 1"}, None, "summary"):
        assert kept_position(entries, "port-arthur", altered) is None, altered
    edited = tmp_path / "games" / "port-arthur"
    shutil.copytree(games_folder("port-arthur"), edited)
    (edited / "board.toml").write_text((edited / "board.toml").read_text() + "\n# edited\n")
    monkeypatch.setattr(summary_module, "game_data_dir", lambda game: tmp_path / "games" / game)
    summary_module.data_digest.cache_clear()
    try:
        assert kept_position(entries, "port-arthur", stored) is None
    finally:
        summary_module.data_digest.cache_clear()


def games_folder(game):
    from adjudicator.resources import game_data_dir

    return game_data_dir(game)


def status(store_path, *args):
    done = subprocess.run([sys.executable, "-m", "adjudicator", "status", *args, "--store", str(store_path)],
                          capture_output=True, text=True, env={k: v for k, v in os.environ.items()
                                                               if not k.startswith("ADJUDICATOR_")})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_status_says_the_same_from_the_summary_as_from_the_game(campaigns, referee_key, auto_orders, store,
                                                                 tmp_path):
    campaigns.create("s1", "port-arthur", PLAYERS, referee_key)
    for _ in range(5):
        campaigns.adjudicate("s1", referee_key)
    path = tmp_path / "campaigns.sqlite3"
    from_summary = status(path, "s1"), status(path, "s1", "--format", "json")
    assert "waiting for" in from_summary[0] or "ended" in from_summary[0]
    with store.transaction("s1") as tx:
        assert tx.delete_secret(STATUS_SUMMARY)
    assert (status(path, "s1"), status(path, "s1", "--format", "json")) == from_summary
