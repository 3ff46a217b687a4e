"""Every Russo-Japanese War conformance case is a test of its own, named by its id."""

from __future__ import annotations

import pytest

from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.conformance import run_case
from tests.public_cases import load_cases

CASES = load_cases("russo-japanese-war")
GAME = RussoJapaneseWar()


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_conformance_case(case):
    assert run_case(case, GAME) == []


def test_every_public_case_is_run():
    assert len(CASES) >= 56
