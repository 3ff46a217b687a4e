"""Russo-Japanese War 1904-1905 as a plug-in: what the adjudicator's registry loads (the
contract is documented in :mod:`adjudicator.engine.contract`)."""

from __future__ import annotations

import random
from typing import Any, Mapping

from adjudicator.engine.contract import GamePlugin
from adjudicator.games.russo_japanese_war import conformance, language, plans, report
from adjudicator.games.russo_japanese_war.commander import AutoCommander
from adjudicator.games.russo_japanese_war.game import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.players import RandomPlayer, dice_from


def has_secrets(options: Mapping[str, Any]) -> bool:
    """The hands are hidden and the deck face down: every game has secrets."""
    return True


def random_player(rng: random.Random):
    return RandomPlayer(RussoJapaneseWar(), rng=rng)


def plugin() -> GamePlugin:
    return GamePlugin(
        name=RussoJapaneseWar.name,
        title=RussoJapaneseWar.title,
        make_game=RussoJapaneseWar,
        language=language,
        answers=plans,
        report=report,
        player=random_player,
        dice=dice_from,
        conformance=conformance,
        secrets=has_secrets,
        commander=AutoCommander,
        sample_options=({}, {"naval": True}),
    )
