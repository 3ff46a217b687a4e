"""Campaigns of every game played to any point by automatic players, for the public
archive's tests: a store, the referee's key, and answers drawn by each game's random
player (each side's first question of a turn is left open once, so that a game takes
many steps, as a campaign by email does)."""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace

import pytest

from adjudicator import games
from adjudicator.campaign import Campaigns
from tests.campaign.conftest import PLAYERS, referee_key, store  # noqa: F401  (the campaign tests' players, store and key)

def automatic_answers(plugin, seed: int):
    rng = random.Random(seed)
    player = plugin.player(rng)
    asked: set = set()

    def answer_for(decision, state, orders):
        key = (decision.side, getattr(state, "turn", None))
        if key not in asked:
            asked.add(key)
            return None
        return dict(player(decision, state))

    return SimpleNamespace(answer_for=answer_for, default_answer=lambda d, s: dict(player(d, s)),
                           why_not=plugin.answers.why_not, DEFAULT_TEXT=plugin.answers.DEFAULT_TEXT)


@pytest.fixture
def campaigns(store, monkeypatch):
    """The store's campaigns, every game answered by automatic players."""
    real_get = games.get
    patched = {}

    def get(name):
        plugin = real_get(name)
        if plugin.name not in patched:
            patched[plugin.name] = dataclasses.replace(plugin, answers=automatic_answers(plugin, 7))
        return patched[plugin.name]

    monkeypatch.setattr(games, "get", get)
    return Campaigns(store)


def confirm(campaigns, key, campaign):
    """Every side sends the step a one-line confirmation (its header and an entropy line,
    no orders), as each side does before the dice of a campaign's first step."""
    log, match = campaigns.match(campaign)
    for number, player in enumerate(PLAYERS):
        campaigns.submit(campaign, f"campaign: {campaign}\nside: {player.side}\nturn: {match.state.turn}\n"
                                   f"step: {log.next_batch}\npassword: {player.password}\n"
                                   f"entropy: confirm-{player.side}-{log.next_batch}-{number}\n", key)


def play(campaigns, key, campaign, steps=None, max_steps=400):
    """Adjudicate ``steps`` times (None: to the end of the game), every side confirming
    the first step; the results."""
    results = []
    for _ in range(max_steps if steps is None else steps):
        if campaigns.log(campaign).next_batch == 1:
            confirm(campaigns, key, campaign)
        results.append(campaigns.adjudicate(campaign, key))
        if results[-1].result is not None:
            return results
    if steps is None:
        raise AssertionError("the campaign did not end")
    return results
