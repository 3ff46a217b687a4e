"""The tournament wing is generic: it imports no game (it reaches a game's tournament
interface through the registry), and the game's interface imports no tournament code."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_import_rule import PACKAGE, game_of, imported


@pytest.mark.parametrize("path", sorted((PACKAGE / "tournament").rglob("*.py")), ids=lambda p: p.name)
def test_the_tournament_wing_imports_no_game(path: Path):
    assert not sorted(m for m in imported(path) if game_of(m))


def test_a_games_tournament_interface_imports_no_tournament_or_campaign_code():
    for path in sorted((PACKAGE / "games").rglob("tournament.py")):
        assert not [m for m in imported(path) if m.startswith(("adjudicator.tournament", "adjudicator.campaign"))]
