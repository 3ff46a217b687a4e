"""Campaign fixtures: a store, a referee key, and automatic orders."""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace

import pytest

from adjudicator import games
from adjudicator.campaign import Campaigns, Player
from adjudicator.fairdice import generate_keypair
from adjudicator.games.port_arthur.players import RandomPlayer
from adjudicator.store import Store

PLAYERS = [Player("japan", "togo@example.org", "Togo1904"), Player("russia", "makarov@example.org", "Makarov1904")]


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "campaigns.sqlite3") as opened:
        yield opened


@pytest.fixture
def referee_key():
    return generate_keypair()[0]


@pytest.fixture
def campaigns(store):
    return Campaigns(store)


def automatic_orders(seed: int, stop_at=("sortie",)):
    """Orders support that answers every question at random, except that each
    question of a kind in ``stop_at`` is left open the first time it comes (so that
    a game takes many adjudication steps)."""
    rng = random.Random(seed)
    player = RandomPlayer(rng)
    asked: set = set()

    def answer_for(decision, state, orders):
        key = (decision.kind, decision.side, state.turn, state.phase)
        if decision.kind in stop_at and key not in asked:
            asked.add(key)
            return None
        return dict(player(decision, state))

    return SimpleNamespace(answer_for=answer_for, default_answer=lambda d, s: dict(player(d, s)),
                           why_not=lambda decision, state, orders: [])  # answers at random: nothing left undone


@pytest.fixture
def auto_orders(monkeypatch):
    """Make the campaign's orders support automatic (seed 1)."""
    support = automatic_orders(1)
    automatic = dataclasses.replace(games.get("port-arthur"), answers=support)
    real_get = games.get
    monkeypatch.setattr(games, "get", lambda name: automatic if name == "port-arthur" else real_get(name))
    return support


def play_campaign(campaigns, key, campaign="test-1", options=None, max_steps=200):
    campaigns.create(campaign, "port-arthur", PLAYERS, key, options=options or {})
    for _ in range(max_steps):
        step = campaigns.adjudicate(campaign, key)
        if step.result is not None:
            return step
    raise AssertionError("the campaign did not end")


def confirm(campaigns, key, campaign, sides=None, passwords=None):
    """Each side (default: every player) confirms the next step with a one-line
    confirmation: the header and an entropy line, no orders."""
    log, match = campaigns.match(campaign)
    state = match.state
    turn = state["turn"] if isinstance(state, dict) else state.turn
    known = passwords or {p.side: p.password for p in PLAYERS}
    for number, side in enumerate(sides or known):
        campaigns.submit(campaign, f"campaign: {campaign}\nside: {side}\nturn: {turn}\n"
                                   f"step: {log.next_batch}\npassword: {known[side]}\n"
                                   f"entropy: confirm-{side}-{log.next_batch}-{number}\n", key)
