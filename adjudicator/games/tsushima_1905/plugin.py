"""Tsushima 1905 as a plug-in: what the adjudicator's registry loads (the contract is
documented in :mod:`adjudicator.engine.contract`)."""

from __future__ import annotations

import random

from adjudicator.engine.contract import GamePlugin
from adjudicator.games.tsushima_1905 import conformance, language, report
from adjudicator.games.tsushima_1905.players import RandomPlayer, random_dice
from adjudicator.games.tsushima_1905.commander import Commander
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.plans import StandingAnswers


def random_player(rng: random.Random) -> RandomPlayer:
    return RandomPlayer(rng.randrange(2**32))


def plugin() -> GamePlugin:
    return GamePlugin(
        name=Tsushima1905.name,
        title=Tsushima1905.title,
        make_game=Tsushima1905,
        language=language,
        answers=StandingAnswers(),
        report=report,
        player=random_player,
        dice=random_dice,
        conformance=conformance,
        secrets=lambda options: False,   # everything is public; cards are drawn when turned
        commander=Commander,
        sample_options=({}, {"table_edge": "forbid", "admiral_on_default_dice": False, "deck_suits": "named-suit",
                             "reshuffle": "on-empty-draw", "armour_caps": "per-attack", "must_move": False,
                             "split_fire": True, "partial_ahead": True}),
    )
