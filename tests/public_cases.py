"""The public conformance cases, read from the project's own copy in tests/cases/<game>.

The cases are written in the design folder's ``shared/cases/<game>`` folders; the
copy here lets a clone run them with nothing beside it. When ``../shared`` does sit beside
the checkout (or where ``ADJUDICATOR_SHARED`` names), tests/test_public_cases_copy.py
checks that the copy is still identical.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OWN_CASES = ROOT / "tests" / "cases"
SHARED = Path(os.environ.get("ADJUDICATOR_SHARED") or ROOT.parent / "shared")
SHARED_CASES = SHARED / "cases"
SHARED_RULES = SHARED / "rules"
GAMES = ("port-arthur", "russo-japanese-war", "tsushima-1905")


def case_folder(game: str) -> Path:
    """The folder of the project's own copy of a game's cases."""
    return OWN_CASES / game


def load_cases(game: str) -> list[tuple[str, dict]]:
    """Every case of a game as (id, case), in file-name order."""
    found = []
    for path in sorted(case_folder(game).glob("*.toml")):
        with path.open("rb") as handle:
            case = tomllib.load(handle)
        found.append((case["id"], case))
    return found
