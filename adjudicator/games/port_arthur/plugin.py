"""Port Arthur as a plug-in: what the adjudicator's registry loads (the contract is
documented in :mod:`adjudicator.engine.contract`)."""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine.contract import GamePlugin
from adjudicator.games.port_arthur import conformance, language, plans, report
from adjudicator.games.port_arthur.commander import AutoCommander
from adjudicator.games.port_arthur.game import PortArthur
from adjudicator.games.port_arthur.options import Options
from adjudicator.games.port_arthur.players import RandomPlayer, random_dice


def has_secrets(options: Mapping[str, Any]) -> bool:
    """Under the fog of war a side may not see the enemy's sorties and moves."""
    return Options.from_json(options).fog_of_war


def plugin() -> GamePlugin:
    return GamePlugin(
        name=PortArthur.name,
        title=PortArthur.title,
        make_game=PortArthur,
        language=language,
        answers=plans,
        report=report,
        player=RandomPlayer,
        dice=random_dice,
        conformance=conformance,
        secrets=has_secrets,
        commander=AutoCommander,
        sample_options=({}, {"additional_ships": True, "attack_on_port_arthur": True, "mines": True,
                             "fog_of_war": True, "partial_hits": "at-most"}),
    )
