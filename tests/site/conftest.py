"""Campaigns of every game played to any point by automatic players, for the public
archive's tests: a store, the referee's key, and answers drawn by each game's random
player (each side's first question of a turn is left open once, so that a game takes
many steps, as a campaign by email does)."""

from __future__ import annotations

import random

import pytest

from adjudicator.campaign import Campaigns
from tests.campaign.conftest import (  # noqa: F401  (the campaign tests' players, store and key)
    PLAYERS, answer_automatically, automatic_answers, confirm, referee_key, store,
)


def each_turn_held(decision, state):
    """Each side's first question of a turn is left open once."""
    return decision.side, getattr(state, "turn", None)


def random_answers(seed: int):
    """For :func:`answer_automatically`: the game's own random player (``seed``) answers,
    each side's first question of a turn waiting for an email once."""
    return lambda plugin: automatic_answers(plugin, plugin.player(random.Random(seed)), each_turn_held)


@pytest.fixture
def campaigns(store, monkeypatch):
    """The store's campaigns, every game answered by automatic players."""
    answer_automatically(monkeypatch, random_answers(7))
    return Campaigns(store)


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
