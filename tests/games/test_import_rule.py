"""The layout's import rule: the generic wings import no game (they reach games only
through the registry, adjudicator.games); a game imports no campaign, cli or other
game; a game's rules reach the engine's requests only through their table."""

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


# -- the rules ask, roll, shuffle and draw through their table ---------------------------

#: What rules yield to the engine only through their table (``rules/table.py``, built on
#: ``adjudicator/engine/table.py``): never made by a rule itself.
REQUESTS = frozenset({"Decision", "Roll", "Shuffle", "Draw", "Simultaneous"})


def raw_requests(source: str) -> list[str]:
    """Each place ``source`` makes an engine request itself (``Decision(...)``,
    ``requests.Roll(...)``, an alias imported from ``adjudicator.engine.requests``), as
    "line N: Name(...)"."""
    tree = ast.parse(source)
    names = set(REQUESTS)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "adjudicator.engine.requests":
            names |= {alias.asname for alias in node.names if alias.name in REQUESTS and alias.asname}
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in names:
                found.append((node.lineno, f"line {node.lineno}: {name}(...)"))
    return [text for _, text in sorted(found)]


def rules_files() -> list[Path]:
    """Every game's rules modules, but the table they play on."""
    return sorted(path for game in GAME_FOLDERS for path in (PACKAGE / "games" / game / "rules").glob("*.py")
                  if path.name != "table.py")


@pytest.mark.parametrize("path", rules_files(), ids=lambda p: str(p.relative_to(PACKAGE / "games")))
def test_rules_ask_roll_shuffle_and_draw_only_through_their_table(path):
    made = raw_requests(path.read_text(encoding="utf-8"))
    assert made == [], (f"{path.relative_to(PACKAGE)} makes {made} itself: ask with table.ask, roll with "
                        "table.roll, shuffle with table.shuffle, draw with table.draw (docs/wings.md)")


def test_a_request_made_by_a_rule_itself_is_found():
    source = (
        "from adjudicator.engine import requests\n"
        "from adjudicator.engine.requests import Roll as Dice\n"
        "def rule(t):\n"
        "    answer = yield Decision('japan', 'loss', {}, 'which?', dict)\n"
        "    (die,) = yield Dice(1, 'combat', 'japan')\n"
        "    order = yield requests.Shuffle(3, 'deck')\n"
        "    card = yield from t.draw(['a', 'b'], 1, 'card')\n"
    )
    assert raw_requests(source) == ["line 4: Decision(...)", "line 5: Dice(...)", "line 6: Shuffle(...)"]


def test_every_game_has_rules_to_check():
    games = {path.parts[-3] for path in rules_files()}
    assert games == set(GAME_FOLDERS) and len(rules_files()) > 20
