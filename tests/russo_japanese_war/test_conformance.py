"""Every Russo-Japanese War conformance case is a test of its own, named by its id."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.conformance import run_case

ROOT = Path(__file__).resolve().parents[2]
SHARED_CASES = ROOT.parent / "shared" / "cases" / "russo-japanese-war"


def _cases() -> list[tuple[str, dict]]:
    found = []
    for path in sorted(SHARED_CASES.glob("*.toml")):
        with path.open("rb") as handle:
            case = tomllib.load(handle)
        found.append((case["id"], case))
    return found


CASES = _cases()
GAME = RussoJapaneseWar()


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_conformance_case(case):
    assert run_case(case, GAME) == []


@pytest.mark.skipif(not SHARED_CASES.is_dir(), reason="no shared cases folder beside the checkout")
def test_every_shared_case_is_run():
    assert len(CASES) >= 56
