"""The wing imports only what it uses: an unused import is a name a reader looks for in
vain (and a dependency between modules that is not there)."""

from __future__ import annotations

import ast
from pathlib import Path

import adjudicator.games.russo_japanese_war as wing

WING = Path(wing.__file__).parent


def unused_imports(source: str) -> list[str]:
    """The names ``source`` imports and never uses (re-exports in ``__all__`` and lines
    marked ``# noqa`` aside)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    imported: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and getattr(node, "module", None) != "__future__":
            if "# noqa" in lines[node.lineno - 1]:
                continue
            for alias in node.names:
                imported[(alias.asname or alias.name).split(".")[0]] = node.lineno
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    used |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return [f"line {line}: {name}" for name, line in imported.items() if name not in used]


def test_every_module_of_the_wing_uses_every_name_it_imports():
    found = {str(path.relative_to(WING)): unused_imports(path.read_text(encoding="utf-8"))
             for path in sorted(WING.rglob("*.py"))}
    assert {path: names for path, names in found.items() if names} == {}


def test_an_unused_import_is_found():
    assert unused_imports("from os import path, sep\nprint(sep)\n") == ["line 1: path"]
