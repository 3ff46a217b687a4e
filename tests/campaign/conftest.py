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


def automatic_answers(plugin, player, held=lambda decision, state: None):
    """Orders support for ``plugin`` in which ``player(decision, state)``, an automatic
    player, answers every question, except that a question for which ``held(decision,
    state)`` gives a key it has not given before is left open (no answer from the orders:
    the campaign waits), so that a game takes many adjudication steps, as by email.
    Answers drawn that way leave nothing undone: ``why_not`` finds nothing to say."""
    asked: set = set()

    def answer_for(decision, state, orders):
        key = held(decision, state)
        if key is not None and key not in asked:
            asked.add(key)
            return None
        return dict(player(decision, state))

    return SimpleNamespace(answer_for=answer_for, default_answer=lambda d, s: dict(player(d, s)),
                           why_not=lambda decision, state, orders: [], DEFAULT_TEXT=plugin.answers.DEFAULT_TEXT)


def answer_automatically(monkeypatch, answers, names=None) -> None:
    """Make ``games.get`` give each game named in ``names`` (None: every game) with the
    orders support ``answers(plugin)``, made once per game, while ``monkeypatch`` lasts."""
    real_get = games.get
    patched = {}

    def get(name):
        plugin = real_get(name)
        if names is not None and plugin.name not in names:
            return plugin
        if plugin.name not in patched:
            patched[plugin.name] = dataclasses.replace(plugin, answers=answers(plugin))
        return patched[plugin.name]

    monkeypatch.setattr(games, "get", get)


def first_sortie_held(decision, state):
    """Each side's sortie question of a turn's phase is left open once."""
    return (decision.side, state.turn, state.phase) if decision.kind == "sortie" else None


@pytest.fixture
def auto_orders(monkeypatch):
    """Make Port Arthur's orders support automatic: its random player (seed 1) answers,
    every sortie question waiting for an email once."""
    answer_automatically(monkeypatch, lambda plugin: automatic_answers(plugin, RandomPlayer(random.Random(1)),
                                                                       first_sortie_held), names=("port-arthur",))


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
