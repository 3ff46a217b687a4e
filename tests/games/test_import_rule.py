"""The layout's import rule: the generic wings import no game (they reach games only
through the registry, adjudicator.games); a game imports no campaign, cli or other
game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "adjudicator"
GENERIC = ("engine", "orders", "reports", "campaign", "fairdice", "store", "mail", "cli")
GAME_FOLDERS = sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").exists())


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports (``from a import b`` counts as a and a.b)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def game_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] == ["adjudicator", "games"] and len(parts) > 2 and parts[2] in GAME_FOLDERS:
        return parts[2]
    return None


def generic_files():
    for wing in GENERIC:
        yield from sorted((PACKAGE / wing).rglob("*.py"))
    yield from sorted(PACKAGE.glob("*.py"))


@pytest.mark.parametrize("path", list(generic_files()), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_generic_wings_import_no_game(path):
    games = sorted(m for m in imported(path) if game_of(m))
    assert not games, f"{path.relative_to(PACKAGE)} imports {games}: reach games through adjudicator.games"


@pytest.mark.parametrize("game", GAME_FOLDERS)
def test_a_game_imports_no_campaign_cli_or_other_game(game):
    for path in sorted((PACKAGE / "games" / game).rglob("*.py")):
        for module in imported(path):
            assert not module.startswith(("adjudicator.campaign", "adjudicator.cli")), (path, module)
            assert game_of(module) in (None, game), (path, module)


def test_there_is_a_game_and_a_generic_wing_to_check():
    assert "port_arthur" in GAME_FOLDERS and len(list(generic_files())) > 50
