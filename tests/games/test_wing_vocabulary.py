"""One vocabulary for the game wings (docs/wings.md): every game has the files every
game has, a file name means the same thing in every wing, and a module only one game
has is named here with the game."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from adjudicator.engine.table import Table as EngineTable
from adjudicator.games import GAMES

PACKAGE = Path(__file__).resolve().parents[2] / "adjudicator" / "games"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "wings.md"

#: What every game wing has (a path inside the wing).
EVERY_WING = (
    "__init__.py", "plugin.py", "game.py", "data.py", "state.py", "options.py",
    "rules/__init__.py", "rules/table.py", "language/__init__.py", "language/reader.py",
    "answers.py", "plans.py", "report.py", "players.py", "commander.py", "conformance.py", "tournament.py",
)
#: What a wing may have when it needs it; the meaning is the same in every wing.
WHERE_NEEDED = ("language/model.py", "language/world.py", "template.py", "picture.py")
#: The modules only one game has.
OWN = {
    "port_arthur": ("odds.py",),
    "russo_japanese_war": ("hexmap.py", "textmap.py", "__main__.py"),
    "tsushima_1905": ("geometry.py", "planner.py", "words.py"),
}
#: The contract's parts and the file each comes from.
CONTRACT_PARTS = {"language": "language", "report": "report", "conformance": "conformance"}


def wing_modules(folder: Path) -> set[str]:
    """Each module of a wing by its path inside the wing, the rules' own modules aside."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*.py")
            if "__pycache__" not in p.parts and not (p.parent.name == "rules" and p.name not in ("__init__.py", "table.py"))}


def wing_folders() -> list[str]:
    return sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())


def test_every_wing_folder_is_a_registered_game_and_each_game_a_folder():
    registered = sorted(module.split(".")[2] for module in GAMES.values() if module.startswith("adjudicator.games."))
    assert registered == wing_folders()


@pytest.mark.parametrize("game", wing_folders())
def test_a_wing_has_every_file_every_wing_has(game):
    missing = [name for name in EVERY_WING if not (PACKAGE / game / name).exists()]
    assert missing == [], f"{game} lacks {missing} (docs/wings.md says what each holds)"


@pytest.mark.parametrize("game", wing_folders())
def test_a_wing_has_no_file_the_vocabulary_does_not_name(game):
    known = set(EVERY_WING) | set(WHERE_NEEDED) | set(OWN.get(game, ()))
    strays = sorted(wing_modules(PACKAGE / game) - known)
    assert strays == [], (f"{game} has {strays}: use a name of docs/wings.md, or name the module "
                          "as the game's own there and in OWN")


@pytest.mark.parametrize("game", wing_folders())
def test_the_plugin_takes_each_contract_part_from_its_file(game):
    tree = ast.parse((PACKAGE / game / "plugin.py").read_text(encoding="utf-8"))
    imported: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(f"adjudicator.games.{game}"):
            for alias in node.names:
                source = node.module.removeprefix(f"adjudicator.games.{game}").lstrip(".") or alias.name
                imported[alias.asname or alias.name] = source.split(".")[0]
    keywords = {kw.arg: kw.value for node in ast.walk(tree) if isinstance(node, ast.Call)
                for kw in node.keywords if kw.arg}
    def origin(value: ast.expr) -> str | None:
        while isinstance(value, (ast.Call, ast.Attribute)):
            value = value.func if isinstance(value, ast.Call) else value.value
        return imported.get(value.id) if isinstance(value, ast.Name) else None
    assert origin(keywords["answers"]) == "plans"
    assert origin(keywords["commander"]) == "commander"
    for part, module in CONTRACT_PARTS.items():
        assert origin(keywords[part]) == module, part
    assert origin(keywords["make_game"]) == "game"


def test_the_vocabulary_is_the_one_the_docs_give():
    text = DOCS.read_text(encoding="utf-8")
    for name in (*EVERY_WING, *WHERE_NEEDED):
        if name.endswith("__init__.py") and name != "language/__init__.py":
            continue
        top = name.split("/")[0] + ("/" if "/" in name and name.startswith(("rules/", "language/")) else "")
        assert f"`{name}`" in text or f"`{top}`" in text, f"docs/wings.md does not say what {name} is"
    for own in OWN.values():
        for name in own:
            assert f"`{name}`" in text, f"docs/wings.md does not name {name}"


@pytest.mark.parametrize("game", wing_folders())
def test_each_game_has_its_tests_in_its_own_folder(game):
    folder = Path(__file__).resolve().parent / game
    assert sorted(folder.glob("test_*.py")), f"the tests of {game} belong in tests/games/{game}/"


@pytest.mark.parametrize("game", wing_folders())
def test_the_table_the_rules_play_on_is_built_on_the_engines(game):
    table = importlib.import_module(f"adjudicator.games.{game}.rules.table").Table
    assert issubclass(table, EngineTable), f"{game}'s rules/table.py Table is not built on adjudicator/engine/table.py"


@pytest.mark.parametrize("game", wing_folders())
def test_answers_name_every_kind_of_question_and_read_each(game):
    answers = importlib.import_module(f"adjudicator.games.{game}.answers")
    kinds = list(answers.Kind)
    assert kinds and all(isinstance(kind, str) and kind == kind.value for kind in kinds)
    assert set(answers.READERS) == set(kinds), f"{game}'s READERS and Kind differ"
    assert all(callable(read) for read in answers.READERS.values())
